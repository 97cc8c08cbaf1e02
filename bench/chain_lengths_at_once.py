"""Would one walk of every source at once find the XY forcing chains sooner than a walk from each source?

    python bench/chain_lengths_at_once.py [--count 300] [--seed 7] [--runs 3]

The static chain search (engine.grade.kernels.chains.cycles) walks from each candidate on and off, halfway, to find the
shortest forcing chain from that state to its opposite. The other way: every source's walk at once, one layer at
a time, the sources a state has been reached from kept as a bitset per state (a layer ORs each state's new
sources into the states it forces). Each source's shortest chain is the first layer at which its opposite state
holds its bit. On the grids the grader tries the static chains on (expert and extreme puzzles among ``--count``
random minimal ones, as bench_tries.py collects them), with the XY pass's links, this times:

- the walk of every source at once, to the first layer where any source closes a chain (all it takes to know the
  shortest chain and, among those as short, the first source), and to the end;
- halfway walks (engine.grade.kernels.chains.walk._meet_walk) from every source, unbounded, without the search's
  marks of states that have no chain (which only skip walks);

and checks that both find the same length for every source whose chain the one-walk found. CPU us a grid, medians
of ``--runs``. A developer's tool (the benchmarks diary in git: `git show eb9b7e6:docs/benchmarks.md`, "A
perfect bound"); it prints no target.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

import _common  # noqa: F401  (first: it enables the kernel cache before kernels load)
from bench_grade import make_puzzles
from bench_tries import collect
from engine._jit import wide_kernel
from engine.bits import popcount
from engine.geometry import geometry
from engine.grade import grade_many
from engine.grade.kernels.chains.walk import _meet_walk, links
from engine.grade.kernels.state import grader_units

NO_CHAIN = -1
LAYERS = 40  # deeper than any chain of these grids


@wide_kernel
def _sources(cands, n):
    """The states of the candidates of cells with two or more: on, then off, candidate by candidate."""
    out = np.empty(2 * cands.size * n, np.int64)
    k = 0
    for c in range(cands.size):
        if popcount(cands[c]) < 2:
            continue
        for d in range(n):
            if cands[c] >> d & 1:
                out[k] = 2 * (c * n + d) + 1
                out[k + 1] = 2 * (c * n + d)
                k += 2
    return out[:k]


@wide_kernel
def lengths_at_once(cands, n, start, weak, strong, out, first_only):
    """``out[s]``: the links of the shortest chain from source state ``s`` to its opposite (NO_CHAIN: none).
    With ``first_only``, stop at the first layer where a source closes one. Returns the layers walked."""
    srcs = _sources(cands, n)
    ns = srcs.size
    nstates = 2 * cands.size * n
    words = (ns + 63) >> 6
    reached = np.zeros((nstates, words), np.uint64)  # the sources that reach each state so far
    fresh = np.zeros((nstates, words), np.uint64)  # those that reached it at the last layer
    nxt = np.zeros((nstates, words), np.uint64)
    for i in range(ns):
        bit = np.uint64(1) << np.uint64(i & 63)
        reached[srcs[i], i >> 6] |= bit
        fresh[srcs[i], i >> 6] |= bit
        out[srcs[i]] = NO_CHAIN
    left = ns
    layer = 0
    for layer in range(1, LAYERS + 1):
        for s in range(nstates):
            live = False
            for w in range(words):
                if fresh[s, w]:
                    live = True
                    break
            if not live:
                continue
            p = s >> 1
            if s & 1:  # on -> off: every weak link (the XY pass: the cell's other digits, then the houses)
                for e in range(start[p], start[p + 1]):
                    t = weak[e]
                    for w in range(words):
                        nxt[t, w] |= fresh[s, w]
            else:  # off -> on: the strong links
                for j in range(strong.shape[1]):
                    t = strong[p, j]
                    if t >= 0:
                        for w in range(words):
                            nxt[t, w] |= fresh[s, w]
        moved = False
        for s in range(nstates):
            for w in range(words):
                x = nxt[s, w] & ~reached[s, w]
                fresh[s, w] = x
                nxt[s, w] = 0
                if x:
                    reached[s, w] |= x
                    moved = True
        for i in range(ns):
            s = srcs[i]
            if out[s] == NO_CHAIN and reached[s ^ 1, i >> 6] >> np.uint64(i & 63) & np.uint64(1):
                out[s] = layer
                left -= 1
        if not moved or left == 0 or (first_only and left < ns):
            break
    return layer


@wide_kernel
def lengths_by_walks(cands, n, table, out, nodes, in_on, in_off, depth):
    """``out[s]`` for every source, by a halfway walk from each (as the static search makes them, unbounded)."""
    srcs = _sources(cands, n)
    in_on[:] = 0
    in_off[:] = 0
    for i in range(srcs.size):  # each walk its own stamp, as in the search
        out[srcs[i]] = _meet_walk(srcs[i], table, True, True, nodes, in_on, in_off, depth, i + 1, LAYERS + 2)[0]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--count", type=int, default=300, help="random minimal puzzles (default 300)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--runs", type=int, default=3)
    args = p.parse_args()
    g = geometry(3)
    n = g.size
    ch = grader_units(g)
    puzzles = make_puzzles(3, args.count, args.seed)
    puzzles = np.array([pz for pz, gr in zip(puzzles, grade_many(puzzles, 3)) if gr.level in ("expert", "extreme")])
    grids = [cands for _, cands in collect("chains-and-cycles", puzzles)]
    nstates = 2 * 81 * n
    nodes = np.empty(nstates * 12 + 256, np.int32)
    in_on, in_off = np.zeros(81 * n, np.int32), np.zeros(81 * n, np.int32)
    depth = np.empty(nstates, np.int32)
    times = {"first": [], "all": [], "walks": []}
    agree = layers = sources = 0
    print(f"load average {os.getloadavg()[0]:.2f}; {len(puzzles)} expert and extreme puzzles, {len(grids)} grids")
    for cands in grids:
        table = links(cands, g.houses, ch, n)
        start, weak, strong = table[0], table[2], table[3]
        first, full, walked = (np.full(nstates, -2, np.int64) for _ in range(3))
        for name, run in (("first", lambda: lengths_at_once(cands, n, start, weak, strong, first, True)),
                          ("all", lambda: lengths_at_once(cands, n, start, weak, strong, full, False)),
                          ("walks", lambda: lengths_by_walks(cands, n, table, walked, nodes, in_on, in_off, depth))):
            run()  # compiles on the first grid
            spent = []
            for _ in range(args.runs):
                began = time.process_time()
                got = run()
                spent.append(time.process_time() - began)
            times[name].append(statistics.median(spent))
            if name == "first":
                layers += got
        found = full >= 0
        agree += bool((full[found] == walked[found]).all() and ((walked >= 0) == found).all())
        sources += int((full != -2).sum())
    us = {name: sum(t) / len(grids) * 1e6 for name, t in times.items()}
    print(f"{sources / len(grids):.0f} sources a grid; the first chain at layer {layers / len(grids):.1f} on average")
    print(f"every source at once, to the first chain: {us['first']:.1f} us a grid; to the end: {us['all']:.1f}")
    print(f"a halfway walk from every source (no bound, no marks): {us['walks']:.1f} us a grid")
    print(f"the same length for every source on {agree} of {len(grids)} grids")


if __name__ == "__main__":
    main()
