"""Every list of names the engine and the catalogue use, in one place: plain data only.

No numpy, no numba, no engine imports: the catalogue's option choices are built from this module, so ``catalogue
--help`` and ``catalogue query`` read it without loading any compiled part. Registries that hold objects
(solvers, generators, format readers) take their keys from here or check at import that they match.
Words follow the glossary in :mod:`engine.grid` (box = b, size = n = b * b).
"""
from __future__ import annotations

# --- grids -------------------------------------------------------------------------------------------------------
#: box sizes b (boxes are b x b cells)
BOX_SIZES = (2, 3, 4, 5)
#: grid sizes n = b * b (rows, columns, digits): the values of every ``--size`` option
SIZES = tuple(b * b for b in BOX_SIZES)
#: shapes (engine/shape.py): boxes of r x c cells, no regions (a Latin square), or irregular regions (jigsaw); the
#: two diagonals may be added to any of them. ``--shape RxC``, ``--shape latin``, ``--regions`` on the CLI
SHAPE_KINDS = ("boxes", "latin", "jigsaw")
#: the sides n a shape may have: boxes of r x c with r, c >= 2 and n = r * c up to 25; Latin squares from 3;
#: jigsaw from 4 (25 symbols, 1-9 then A-P, is the most the text formats spell)
MIN_SHAPE_SIZE = {"boxes": 4, "latin": 3, "jigsaw": 4}
MAX_SHAPE_SIZE = 25
#: digit -> symbol in the line and block formats: 0 is '.', 1-9, then A = 10 ... P = 25
SYMBOLS = ".123456789ABCDEFGHIJKLMNOP"

#: grid size n -> the fewest clues a puzzle with one solution can have, where it is proven: 4 for 4x4 (every
#: 4x4 grid checked), 17 for 9x9 (McGuire, Tugemann and Civario's exhaustive search, 2012); unknown above
MIN_CLUES = {4: 4, 9: 17}

# --- solvers, generators, keys, carving --------------------------------------------------------------------------
#: solver names (engine.solvers); the first is the default
SOLVERS = ("fast", "mrv", "stack", "backtrack")
#: what every solver reports (engine/solvers/base.py defines each); all whole numbers but ``seconds``. The
#: catalogue stores them as puzzle columns of the same names, with ``seconds`` as ``solve_seconds``
METRICS = ("nodes", "guesses", "backtracks", "checks", "max_depth", "seconds")
#: board generator methods (engine.generators); the first is the default
METHODS = ("wfc", "backtrack", "pattern")
#: the method the catalogue records for a board that came with an imported puzzle (catalogue import)
IMPORTED = "import"
#: every method a catalogue's board can have: a generator's, or imported
BOARD_METHODS = (*METHODS, IMPORTED)
#: when two grids count as the same (engine.keys); the first is the default
EQUIVALENCES = ("d4", "full", "none")
#: symmetries of a carved puzzle's clue pattern (engine.carve); the first is the default
SYMMETRIES = ("none", "rot180", "rot90", "mirror", "diagonal")
#: orders in which the carver tries removals (engine.carve): the default depends on the size (DEFAULT_ORDER there)
CARVE_ORDERS = ("random", "spread")

# --- formats -----------------------------------------------------------------------------------------------------
# Two kinds of output, each one list: grid formats (a grid as text: engine.formats reads and writes them) and record
# formats (a row of named fields per item: catalogue.output writes them). Every command's ``--format`` offers whole
# lists of these (catalogue.cli.options.format_option), so a name added to a list is a choice, and in the help, of
# every command that prints that kind, with no other edit. The names below are those the code treats apart.
#: one grid per line (n*n symbols): the default of the commands that print grids
LINE = "line"
#: the box-drawing picture
PRETTY = "pretty"
#: the catalogue's board files (N.txt)
TXT = "txt"
#: JSON: a grid format (one grid an object) and a record format (one array of objects)
JSON = "json"
#: a printable page (written only)
SVG = "svg"
#: records as a table for people: the default of the commands that print records
TABLE = "table"
#: records as JSON, one object per line
NDJSON = "ndjson"
#: how a grid format writes a digit above 9: as a symbol (A = 10 ... P = 25) or as a number (10 ... 25)
SYMBOL, NUMBER = "symbol", "number"
#: the grid formats that can be read and written (engine.formats), each with how it writes a digit above 9. A new
#: format is a row here, its reader and writer in engine/formats/ and their entries in engine/formats/registry.py
FORMAT_TABLE = ((LINE, SYMBOL), ("block", SYMBOL), ("rcv", NUMBER), (PRETTY, SYMBOL), (JSON, NUMBER), (TXT, NUMBER))
#: formats that can be read (and written) (engine.formats): the ``--input-format`` choices
FORMATS = tuple(name for name, _ in FORMAT_TABLE)
#: the formats whose digits are symbols (catalogue check shows a digit as the input wrote it)
SYMBOL_FORMATS = tuple(name for name, digits in FORMAT_TABLE if digits == SYMBOL)
#: formats that are written only: a picture
PAGE_FORMATS = (SVG,)
#: formats that can be written: every readable one, and a picture
WRITE_FORMATS = FORMATS + PAGE_FORMATS
#: record formats written as JSON, whose fields may hold lists and objects
JSON_FORMATS = (JSON, NDJSON)
#: how commands print records (rows of named fields), as opposed to grids: ``--format`` of query, grade, solve, ...
#: A new record format is a name here and its writer in catalogue/output.py
RECORD_FORMATS = (TABLE, "csv", "tsv", *JSON_FORMATS)
#: the grid formats a stream of grids is printed in (query, daily, solve, carve, generate): every readable one but
#: those whose name is a record format's too (json: a command that prints records means them by it)
GRID_FORMATS = tuple(name for name in FORMATS if name not in RECORD_FORMATS)
#: how commands print a summary (import, regrade, stats): a table for people, or one JSON object
SUMMARY_FORMATS = (TABLE, JSON)

# --- grading -----------------------------------------------------------------------------------------------------
#: The grader's technique table, one row per technique: (name, rating of one step). The order of the rows is the
#: rating order, easiest first, and is the order both grading paths try the techniques in; a technique's kernel
#: id and counter are its row index (engine.grade.techniques). This is the only place the order and the ratings
#: are written: adding a technique is a row here, its step finder and its kernel.
#: Ratings are Sudoku Explainer's where it has the technique; the chains sit where it puts its cycles and chains.
TECHNIQUE_TABLE = (
    ("hidden-single", 1.5),  # in a row or column; in a box see HIDDEN_SINGLE_IN_BOX_RATING
    ("direct-pointing", 1.7),  # a pointing that leaves a hidden single, placed in the same step
    ("direct-claiming", 1.9),  # a claiming that leaves a hidden single
    ("direct-hidden-pair", 2.0),  # a hidden pair that leaves a hidden single in its house
    ("naked-single", 2.3),
    ("direct-hidden-triple", 2.5),  # a hidden triple that leaves a hidden single in its house
    ("pointing", 2.6),  # locked candidates in a box, along a line
    ("claiming", 2.8),  # locked candidates in a line, inside a box
    ("naked-pair", 3.0),
    ("x-wing", 3.2),
    ("hidden-pair", 3.4),
    ("naked-triple", 3.6),
    ("swordfish", 3.8),
    ("hidden-triple", 4.0),
    ("xy-wing", 4.2),
    ("xyz-wing", 4.4),
    ("unique-loop", 4.5),  # unique rectangles and loops, types 1-4: 4.5 to 5.3 by loop length and type
    ("naked-quad", 5.0),
    ("jellyfish", 5.2),
    ("hidden-quad", 5.4),
    ("bug", 5.6),  # bivalue universal grave: 5.6 (BUG+1), 5.7 (types 2 and 4), 5.8 up (type 3)
    # Sudoku Explainer's chains: each step adds 0.1 per step of its length scale to the row's base rating
    ("aligned-pair-exclusion", 6.2),
    ("chains-and-cycles", 6.5),  # bidirectional X-, Y- and XY-cycles 6.5/7.0, forcing X-chains 6.6, chains 7.0
    ("aligned-triple-exclusion", 7.5),
    ("nishio", 7.5),  # a candidate whose X-links alone lead to a contradiction
    ("multiple-forcing-chains", 8.0),  # cell and region forcing chains
    ("dynamic-forcing-chains", 8.5),  # chains that see the candidates the chain itself has removed
    ("dynamic-forcing-chains-plus", 9.0),  # dynamic chains that also use locked candidates, pairs, X-Wings
    # dynamic chains that use whole forcing chains inside: 9.5 (plain ones), 10.0 (multiple), 10.5 (dynamic)
    ("nested-forcing-chains", 9.5),
)
#: the techniques that assume the puzzle has exactly one solution (left out by ``--no-uniqueness``)
UNIQUENESS_TECHNIQUES: tuple[str, ...] = ("unique-loop", "bug")
#: the rows left out on 16x16 and 25x25: there a dynamic forcing chain step runs a chain from each of thousands of
#: candidates on a grid that changes as it goes (a minimal 16x16 puzzle takes many times longer with them than with
#: Nishio and multiple forcing chains, which stay: docs/benchmarks.md, "Cost against size"), too slow for a fill; a
#: puzzle that needs them is graded as needing guessing, unless the full scale is asked for
BIG_GRID_SKIPS: tuple[str, ...] = ("dynamic-forcing-chains", "dynamic-forcing-chains-plus", "nested-forcing-chains")
#: the rows still left out on 16x16 and 25x25 at the full scale (``full_scale=True``, ``--full-scale``), which
#: asks for the dynamic chains there at their cost (docs/benchmarks.md, "Cost against size"): the nested forcing
#: chains run their outer search in Python, and none of 30 minimal 16x16 puzzles needed them once the dynamic+
#: chains were tried (docs/grading.md, "Other sizes")
FULL_SCALE_BIG_GRID_SKIPS: tuple[str, ...] = ("nested-forcing-chains",)
#: the rows the full scale adds on 16x16 and 25x25
FULL_SCALE_ROWS: tuple[str, ...] = tuple(r for r in BIG_GRID_SKIPS if r not in FULL_SCALE_BIG_GRID_SKIPS)
#: the rows the compiled grader never tries: it stops before them, and grade_many hands a puzzle stuck there (with
#: one solution) to the step path. The nested forcing chains run their outer search in Python, seconds to minutes
#: a step (engine.grade.finders.chains.nested)
STEP_PATH_ONLY: tuple[str, ...] = ("nested-forcing-chains",)
#: a hidden single in a box is easier to spot than one in a row or column, so it rates lower (and counts apart)
HIDDEN_SINGLE_IN_BOX_RATING = 1.2
#: a house's last blank cell (a "full house"), looked for before every other hidden single, rates lower still
FULL_HOUSE_RATING = 1.0
#: grading techniques, easiest first (the names of TECHNIQUE_TABLE: the choices of ``--technique``)
TECHNIQUES = tuple(name for name, _ in TECHNIQUE_TABLE)
#: technique name -> rating of one step
RATINGS = dict(TECHNIQUE_TABLE)
# the kinds of conclusion a forcing chain row reaches (engine.grade.kernels.chains.forcing: CONTRADICTION, DOUBLE,
# REGION, CELL), as Sudoku Explainer names its hints
_FORCING_KINDS = ("contradiction forcing chains", "double forcing chains", "region forcing chains",
                  "cell forcing chains")
#: technique -> the names of the steps it makes, as the literature writes them (Sudoku Explainer's hints): a
#: step's ``kind`` indexes its technique's names (a technique with one name makes one kind of step; None holds the
#: place of a kind the row never makes). A grade's ``hardest`` is its hardest step's name; its ``technique`` the row
#: of TECHNIQUE_TABLE that made it.
STEP_NAMES: dict[str, tuple[str | None, ...]] = {
    "hidden-single": ("hidden single", "full house"),
    "direct-pointing": ("direct pointing",),
    "direct-claiming": ("direct claiming",),
    "direct-hidden-pair": ("direct hidden pair",),
    "naked-single": ("naked single",),
    "direct-hidden-triple": ("direct hidden triple",),
    "pointing": ("pointing",),
    "claiming": ("claiming",),
    "naked-pair": ("naked pair",),
    "x-wing": ("X-Wing",),
    "hidden-pair": ("hidden pair",),
    "naked-triple": ("naked triple",),
    "swordfish": ("Swordfish",),
    "hidden-triple": ("hidden triple",),
    "xy-wing": ("XY-Wing",),
    "xyz-wing": ("XYZ-Wing",),
    # kind: type - 1, plus 4 for a loop of more than four cells
    "unique-loop": tuple(f"unique {shape} type {k}" for shape in ("rectangle", "loop") for k in range(1, 5)),
    "naked-quad": ("naked quad",),
    "jellyfish": ("Jellyfish",),
    "hidden-quad": ("hidden quad",),
    "bug": ("BUG+1", "BUG type 1", "BUG type 2", "BUG type 3", "BUG type 4"),
    "aligned-pair-exclusion": ("aligned pair exclusion",),
    # kind: a cycle's pass (X, Y, XY), then the forcing chains of the X pass and of the others
    "chains-and-cycles": ("bidirectional X-cycle", "bidirectional Y-cycle", "bidirectional cycle", "forcing X-chain",
                          "forcing chain"),
    "aligned-triple-exclusion": ("aligned triple exclusion",),
    "nishio": ("Nishio forcing chains",),
    "multiple-forcing-chains": (None, None, *_FORCING_KINDS[2:]),  # static chains: no contradiction, no double
    "dynamic-forcing-chains": tuple(f"dynamic {k}" for k in _FORCING_KINDS),
    "dynamic-forcing-chains-plus": tuple(f"dynamic {k} (+)" for k in _FORCING_KINDS),
    "nested-forcing-chains": tuple(f"nested {k}" for k in _FORCING_KINDS),
}


def step_name(technique: str, kind: int = 0) -> str:
    """The name of a step of ``technique`` of the given kind (:data:`STEP_NAMES`); a technique with one name
    names every kind so."""
    names = STEP_NAMES[technique]
    name = names[0] if len(names) == 1 else names[kind]
    assert name is not None, f"{technique} makes no step of kind {kind}"
    return name


#: every step name, in the order a sort by ``hardest`` uses: by technique (TECHNIQUE_TABLE's order), then by kind
STEPS: tuple[str, ...] = tuple(dict.fromkeys(name for t in TECHNIQUES for name in STEP_NAMES[t] if name))
#: step name -> the technique that makes it
TECHNIQUE_OF: dict[str, str] = {name: t for t in TECHNIQUES for name in STEP_NAMES[t] if name}
#: what a grade's ``hardest`` says when no technique makes progress, and its score: beyond every technique
GUESSING = "guessing"
GUESSING_RATING = 20.0  # serate's "beyond solver": above every chain, whatever its length
#: the highest score of each grading level but the last: singles and the direct techniques up to direct hidden
#: pairs; locked candidates and naked pairs; up to XYZ-Wing (X-Wing, hidden pairs, triples, Swordfish, wings);
#: up to 7.5: unique loops, quads, Jellyfish, BUG, aligned exclusion, cycles and the shorter forcing chains. The
#: last level, extreme, is Nishio, multiple and dynamic forcing chains, the longest chains, and guessing.
LEVEL_LIMITS = (("easy", 2.3), ("medium", 3.0), ("hard", 4.4), ("expert", 7.5))
#: grading levels, easiest first (engine.grade)
LEVELS = tuple(level for level, _ in LEVEL_LIMITS) + ("extreme",)
