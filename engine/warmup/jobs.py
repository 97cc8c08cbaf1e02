"""The warm-up jobs: each calls one part of the engine on a tiny input, so that numba compiles (or loads from the
kernel cache) every kernel that part calls, with the argument types the real calls use.

A job is named ``part`` or ``part:option`` and runs for one box size: ``grade``, ``carve``, ``keys:d4``,
``generate:wfc``... :func:`job_names` lists them; :func:`run_job` runs one. What a command needs is a list of jobs
(the catalogue says which, per command); :mod:`engine.warmup.parallel` compiles a list on every core, and
:mod:`engine.warmup.plan` knows, from a recording, which kernels each job compiles.

Why tiny inputs: numba compiles a kernel per argument *types*, never per value, so two boards are as good as two
thousand (the boards are written by a formula, so that a job compiles its own part's kernels and no generator's);
and why per box size: the 9x9 solver, carver and generator have kernels of their own, while 4x4, 16x16
and 25x25 share the general ones (the grader and the keys are the same kernels for every size).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..vocabulary import BOX_SIZES, EQUIVALENCES, METHODS


def _boards(box: int) -> np.ndarray:
    """Two complete boards written by a formula (each row the one above shifted, as a Latin square with boxes), so
    that a job compiles only the kernels of its own part, not a generator's too."""
    n = box * box
    board = np.array([((r % box) * box + r // box + c) % n + 1 for r in range(n) for c in range(n)], dtype=np.int8)
    return np.stack([board, board[::-1].copy()])


def _puzzles(box: int) -> tuple[np.ndarray, np.ndarray]:
    """Puzzles with one solution each (a few cells of the boards blanked: each is the only digit its row lacks)
    and those boards."""
    boards = _boards(box)
    puzzles = boards.copy()
    puzzles[:, ::box * box + 1] = 0  # the diagonal: one blank a row and a column
    return puzzles, boards


def _carvings(box: int):
    from ..carve import carve_many

    boards = _boards(box)
    seeds = np.arange(len(boards), dtype=np.int64)
    return boards, seeds, carve_many(boards, box, seeds)


def _generate(method: str) -> Callable[[int], None]:
    def job(box: int) -> None:
        from ..generators import get_generator

        get_generator(method).generate_array(box, 2, 1)
    return job


def _keys(equivalence: str) -> Callable[[int], None]:
    def job(box: int) -> None:
        from ..keys import key_texts

        puzzles, boards = _puzzles(box)
        key_texts(np.concatenate([boards, puzzles]), box, equivalence)  # partial grids too: import keys puzzles
    return job


def _carve(box: int) -> None:
    """carve_many as fill and the carve command call it (the carver's metrics solve included), with and without a
    clue pattern's symmetry and a target."""
    from ..carve import carve_many

    boards, seeds, _ = _carvings(box)
    carve_many(boards, box, seeds, symmetry="rot180", target_clues=boards.shape[1] // 2, attempts=2)


def _solve(box: int) -> None:
    """The fast solver, one grid and a batch: solve, count, metrics, trace (solve, check, explore, import)."""
    from ..solvers import fast

    puzzles, _ = _puzzles(box)
    fast.solve_many(puzzles, box, 2)
    fast.count_many(puzzles, box, limit=2)
    fast.metrics_many(puzzles, box, limit=1)
    fast.solve(puzzles[0], box, limit=2)
    fast.trace(puzzles[0], box, 1)
    fast.exists_without(puzzles[0], box, int(np.flatnonzero(puzzles[0] == 0)[0]), 1)


def _grade(box: int) -> None:
    """grade_many: the compiled grader, which also makes the guided step path's steps (the web page's hints)."""
    from ..grade import grade_many

    grade_many(_puzzles(box)[0], box)


def _relax(box: int) -> None:
    """relax_many: puzzles put back toward a level (fill --level)."""
    from ..carve import relax_many
    from ..vocabulary import LEVELS

    boards, seeds, carvings = _carvings(box)
    relax_many(carvings, boards, box, LEVELS[0], seeds)


def _minimal(box: int) -> None:
    """minimal_many: is each clue needed (import, verify)."""
    from ..carve import minimal_many

    puzzles, boards = _puzzles(box)
    minimal_many(puzzles, boards, box)


def _shapes(box: int) -> None:
    """Every part on the shapes that are not square boxes (engine.shape): their kernels (the units solver, the
    units carver, WFC with propagation, the listed-group, rectangle and main-class keys, the grader on a shape's
    tables) take the shape's tables or sizes as arguments, so one compile serves every shape. ``box`` is not used:
    the job is run as ``shapes@3`` (:data:`SHAPES_JOB`)."""
    from ..carve import carve_many, minimal_many
    from ..generators.wfc import generate_array
    from ..grade import grade_many
    from ..keys import key_texts
    from ..regions import random_layout
    from ..shape import Shape
    from ..solvers import fast

    for shape in (Shape.boxes(2, 3), random_layout(6, 1), Shape.latin(4), Shape.boxes(2, 2, True)):
        boards = generate_array(shape, 2, 1)[0]
        for equivalence in EQUIVALENCES:
            key_texts(boards, shape, equivalence)
        seeds = np.arange(len(boards), dtype=np.int64)
        puzzles = np.stack([r.puzzle for r in carve_many(boards, shape, seeds, symmetry="rot180")])
        fast.solve_results(puzzles, shape, 2)
        fast.metrics_many(puzzles, shape, 1)
        minimal_many(puzzles, boards, shape)
        if shape.kind != "latin" and not shape.diagonals:
            grade_many(puzzles, shape)


#: two positions of "Cheese" (bench/hardest-sample.tsv), one candidate apart, as each cell's candidate mask in three
#: hex digits (000: a cell that holds its digit): the first is a step of Sudoku Explainer's nested row 9.5 (plain
#: chains inside the runs), the second of row 10.0 (multiple forcing chains inside, after the plain ones find
#: nothing), the quickest of each row on the sample's step paths (0.09 and 0.19 s)
NESTED_POSITIONS = (
    "12500012518800012800018c1890000541540000c014208619600000007117114a06800000b11a10b0000711711500490000281680"
    "001250000e51440001410001e01c01140d41d400004c15808a0001ca0350b50000cc0000790ad0ec0c90250000a50ce0ed06b0af0ee"
    "0000000b50000960a50330000a6083",
    "12500012518800012800008c1890000541540000c014208619600000007117114a06800000b11a10b0000711711500490000281680"
    "001250000e51440001410001e01c01140d41d400004c15808a0001ca0350b50000cc0000790ad0ec0c90250000a50ce0ed06b0af0ee"
    "0000000b50000960a50330000a6083",
)


def _nested(box: int) -> None:
    """The nested forcing chains (engine.grade.finders.chains.nested), which the grader reaches only on the hardest
    puzzles: a step of each of the two positions above, with the chains that explain it, made as grade_many makes
    it (engine.grade.stuck.take). The searches inside with multiple forcing chains call the same kernels as the
    dynamic ones (the search is an argument), so these two compile every kernel of the four rows. ``box`` is not
    used: the kernels serve every size, and the job is run as ``nested@3`` (:data:`NESTED_JOB`)."""
    from ..geometry import geometry
    from ..grade.finders.chains import nested
    from ..grade.kernels.chains import forcing as fo
    from ..grade.kernels.chains.nested import _narrow
    from ..grade.kernels.driver import NRATINGS
    from ..grade.stuck import take
    from ..grade.techniques import NCOUNTERS

    for text in NESTED_POSITIONS:
        cands = np.array([int(text[i:i + 3], 16) for i in range(0, len(text), 3)], np.int64)
        _, hint, _ = nested.search(cands, 3)
        take(hint, np.stack([np.zeros_like(cands), cands]), geometry(3).peers, 9, np.zeros(NCOUNTERS, np.int64),
             np.zeros(NRATINGS))
    # what those steps never reach: a dynamic search inside, which takes runs from the step's grid (reuse.py), here
    # on the grid less one candidate, the narrowing of a search inside an earlier step made, and a run of row 10.5
    # (rows 9.5 and 10.0 follow theirs in nested_runs._run_plain, from which Python's calls of _run_on do not load it):
    # without this, a run's first hardest puzzle loaded their kernels in the middle of its step
    work = cands.copy()
    c = int(np.flatnonzero([int(m).bit_count() > 2 for m in cands])[0])
    work[c] &= work[c] - 1
    row = nested._Search(2, cands, 3)
    got = row.inside(fo.DYNAMIC, work)
    _narrow(got.rows, got.states, got.state_ends, got.parents, got.parent_ends, work, 9)
    row.on_run(c * 9 + (int(cands[c]) & -int(cands[c])).bit_length() - 1)


#: the one job of every shape but square boxes (see :func:`_shapes`)
SHAPES_JOB = "shapes@3"
#: the one job of the nested forcing chains (see :func:`_nested`)
NESTED_JOB = "nested@3"

#: job name -> what it runs for a box size; the order is the order a full compile goes in
JOBS: dict[str, Callable[[int], None]] = {
    **{f"generate:{method}": _generate(method) for method in METHODS},
    **{f"keys:{equivalence}": _keys(equivalence) for equivalence in EQUIVALENCES},
    "carve": _carve,
    "solve": _solve,
    "grade": _grade,
    "relax": _relax,
    "minimal": _minimal,
    "shapes": _shapes,
    "nested": _nested,
}


def job_names() -> tuple[str, ...]:
    return tuple(JOBS)


def all_job_ids() -> list[str]:
    """Every job a compile of everything runs: each job for each box size, but the shapes' and the nested chains'
    one job once."""
    return [job_id(n, b) for b in BOX_SIZES for n in JOBS if n not in ("shapes", "nested")] + [SHAPES_JOB, NESTED_JOB]


def job_id(name: str, box: int) -> str:
    """``grade@3``: a job for one box size, as the plan and the cache's markers name it."""
    return f"{name}@{box}"


def parse_job_id(text: str) -> tuple[str, int]:
    name, _, box = text.rpartition("@")
    if name not in JOBS or not box.isdigit() or int(box) not in BOX_SIZES:
        raise ValueError(f"not a warm-up job: {text!r} (a job is NAME@BOX, NAME one of {', '.join(JOBS)})")
    return name, int(box)


def run_job(job: str) -> None:
    """Run one job (``NAME@BOX``) in this process: its kernels compile here, or load from the cache."""
    name, box = parse_job_id(job)
    JOBS[name](box)
