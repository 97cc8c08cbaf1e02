"""Chain conclusions as steps a person can follow: the words, the links, and what each link rests on.

The chain rows (:mod:`engine.grade.finders.chains.cycles`, :mod:`engine.grade.finders.chains.forcing`) and the
nested ones (:mod:`engine.grade.finders.chains.nested`) find a conclusion with compiled searches that write each
chain as states (``-1`` between chains, ``-2 - parent`` after a state for each of its other parents:
:func:`engine.grade.kernels.chains.slots._full_path`). This module reads that into ``Step.links`` (states ``(cell,
digit, on)``) and ``Step.reasons`` (beside each link what else it rests on), names the pattern of a "+" rule's
removal, and writes the sentence.
"""
from __future__ import annotations

from ...kernels.families import DYNAMIC, DYNAMIC_PLUS, MULTIPLE, NISHIO
from ...state import Link, Reason, Step, Tables, describe_eliminations

FORCING_KIND = ("contradiction", "double forcing chains", "region forcing chains", "cell forcing chains")
#: producer (the forcing rows' argument, engine.grade.kernels.families) -> the word its explanations start with
LABEL = {NISHIO: "Nishio", MULTIPLE: "multiple", DYNAMIC: "dynamic", DYNAMIC_PLUS: "dynamic (+)"}
#: (kernel family, argument) -> the name of the table's row whose kernel that is: the nested forcing chains name the
#: chains they find inside by it. Filled by engine.grade.techniques when it builds the table (the table imports the
#: finders, so a finder cannot import it), here rather than in engine.grade.finders.chains.nested so that the
#: nested search and the chain kernels it loads still load only when first asked
ROW_OF_KERNEL: dict = {}


def chain_kind(cycle: bool, pas: int) -> int:
    """The kind of a chains-and-cycles step (engine.vocabulary.STEP_NAMES): a cycle's pass (X, Y, XY: 0, 1, 2), or
    a forcing chain of the X pass (3) or of another (4). The compiled grader reckons it the same way
    (engine.grade.kernels.driver, the chains row)."""
    return pas if cycle else (3 if pas == 0 else 4)


def _state(t: int, n: int) -> Link:
    p = t >> 1
    return p // n, p % n + 1, bool(t & 1)


def _word(t: Tables, link: Link) -> str:
    cell, digit, on = link
    return f"{t.cell_name(cell)}{'=' if on else '≠'}{t.symbol(digit)}"


def raw_size(ncells: int, n: int) -> int:
    """Entries enough for the chains of any conclusion on a grid of ``ncells`` cells (see :func:`chains`): up to
    ``n`` chains, each at most every state of a run once and every parent its workspace can hold."""
    nstates = 2 * ncells * n
    return n * (nstates + nstates * 4 + 66) + 64


def chains(raw, size: int, n: int) -> tuple[tuple[tuple[Link, ...], ...], tuple[tuple[Reason | None, ...], ...]]:
    """The chains ``raw[:size]`` holds (states, -1 after each chain, ``-2 - parent`` after a state for each of its
    other parents) as links, and beside each link its :class:`Reason` (the other parents), None where the link
    before it is the whole reason; the reasons are () when no link has one."""
    links: list = []
    reasons: list = []
    chain: list = []
    why: list = []
    for t in raw[:size].tolist():
        if t == -1:
            links.append(tuple(chain))
            reasons.append(tuple(why))
            chain, why = [], []
        elif t <= -2:  # (a parent may be recorded twice, and the first is the link before)
            also = why[-1].also if why[-1] else ()
            parent = _state(-2 - t, n)
            if parent not in also and (len(chain) < 2 or parent != chain[-2]):
                why[-1] = Reason(also=also + (parent,))
        else:
            chain.append(_state(t, n))
            why.append(None)
    if chain:
        links.append(tuple(chain))
        reasons.append(tuple(why))
    if not any(r for why in reasons for r in why):
        return tuple(links), ()
    return tuple(links), tuple(reasons)


def with_rules(t: Tables, cands, links) -> tuple:
    """``links`` (chains and reasons, as :func:`chains` gives them) with the pattern named beside every off state
    that follows from off states alone: a state a dynamic chain (+) removed by a rule, on the grid ``cands`` the
    chain started from (:func:`engine.grade.finders.chains.plus.plus_rule`)."""
    from .plus import plus_rule

    chain_links, reasons = links
    out = []
    for chain, why in zip(chain_links, reasons or [(None,) * len(c) for c in chain_links]):
        why = list(why)
        for i in range(1, len(chain)):
            reason = why[i] or Reason()
            parents = (chain[i - 1],) + reason.also
            if chain[i][2] or reason.inner is not None or any(on for _, _, on in parents):
                continue
            rule = plus_rule(t, cands, chain[i], parents)
            if rule:
                why[i] = Reason(also=reason.also, rule=rule)
        out.append(tuple(why))
    if not any(r for why in out for r in why):
        return chain_links, ()
    return chain_links, tuple(out)


def forcing_words(label: str, hint, t: Tables) -> str:
    """What a forcing-chain conclusion is: the row's label, its kind, and the cell or the digit and house."""
    from ...kernels.chains import forcing as fo

    kind = int(hint[fo.H_KIND])
    words = f"{label}, {FORCING_KIND[kind]}"
    where = int(hint[fo.H_WHERE])
    if kind == fo.REGION:
        words += f" on {t.symbol(int(hint[fo.H_SOURCE]))} in {t.house_name(where)}"
    elif kind == fo.CELL:
        words += f" on {t.cell_name(where)}"
    return words


def conclusion(target: int, n: int):
    cell, digit, on = _state(target, n)
    return (((cell, digit),), ()) if on else ((), ((cell, digit),))


def step(name: str, t: Tables, tenths: int, words: str, placements, eliminations, links, kind: int = 0) -> Step:
    """The step of a chain conclusion: ``links`` is (its chains, the reasons beside their links); ``kind`` which of
    the row's steps it is (engine.vocabulary.STEP_NAMES)."""
    chain_links, reasons = links
    rating = tenths / 10
    what = (f"{t.cell_name(placements[0][0])} is {t.symbol(placements[0][1])}" if placements
            else f"removes {describe_eliminations(t, eliminations)}")
    written = "; ".join(chain_words(t, chain, why) for chain, why in
                        zip(chain_links, reasons or [(None,) * len(c) for c in chain_links]))
    cells = tuple(sorted({c for c, _ in placements} | {c for c, _ in eliminations}))
    return Step(name, rating, f"{words} (rated {rating:.1f}): {written}: {what}", placements=placements,
                eliminations=eliminations, cells=cells, links=chain_links, reasons=reasons, kind=kind)


def chain_words(t: Tables, chain, why) -> str:
    """One chain as a person reads it: ``r1c2=5 -> r1c4≠5 -> ...``; a state that needs more than the one before it
    says what else (``r6c8=5 (and r6c2≠5)``), and one a chain found inside the run concluded says that chain in
    brackets."""
    parts = []
    for link, reason in zip(chain, why):
        word = _word(t, link)
        if reason is not None and reason.also:
            word += f" (and {', '.join(_word(t, other) for other in reason.also)})"
        if reason is not None and reason.rule:
            word += f" [{reason.rule}]"
        if reason is not None and reason.inner is not None:
            word += f" [{reason.inner.explanation}]"
        parts.append(word)
    return " -> ".join(parts)
