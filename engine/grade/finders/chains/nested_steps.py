"""What a nested forcing chain's step says: its chains, and for each state a chain inside the run concluded, that
chain as a step of its own (:mod:`engine.grade.finders.chains.nested` finds them; this explains the one it kept).
"""
from __future__ import annotations

import bisect

import numpy as np

from ....vocabulary import step_name
from ...kernels.chains import forcing as fo
from ...kernels.chains.forcing import CONTRADICTION, H_KIND, H_SOURCE, H_TARGET, H_TENTHS, H_WHERE, REGION
from ...kernels.chains.plain import _plain_path, _walk_space
from ...kernels.chains.slots import _full_path
from ...kernels.families import CYCLES, FORCING
from ...state import Reason, Step, tables
from .steps import LABEL, ROW_OF_KERNEL, chain_kind, chains, conclusion, forcing_words, raw_size, step, with_rules


class Explained:
    """The explanation of an outer nested search's conclusion, for the search class that mixes it in
    (:class:`engine.grade.finders.chains.nested._Search`): it reads the search's workspace ``ws``, its runs
    (``on_run``, ``off_run``), ``places``, the grid (``cands``, ``box``, ``n``, ``houses``,
    ``cell_houses``), and ``blocks``, what each search inside whose chains a run took concluded; ``LAST_NEST`` is
    the id the nested chains past the table's room share."""

    def links(self, hint):
        """The chains of the kept conclusion, each from its assumption to the conclusion, and beside each state
        its reason (:func:`engine.grade.finders.chains.steps.chains`), with the chain found inside the run for each
        state one concluded."""
        n, kind, target, source, where = self.n, int(hint[H_KIND]), int(hint[H_TARGET]), int(hint[H_SOURCE]), \
            int(hint[H_WHERE])
        ends: list[tuple[int, int]] = []  # (slot, state)
        if kind in (CONTRADICTION, fo.DOUBLE):
            for seed in ((source,) if kind == CONTRADICTION else (source, source ^ 1)):
                w, on, off = (self.on_run if seed & 1 else self.off_run)(seed >> 1)
                ends += [(w, e) for e in ((on, off) if kind == CONTRADICTION else (target,))]
        else:
            seeds = (self.places(where, source) if kind == REGION
                     else [where] * int(self.cands[where]).bit_count())
            digits = ([source] * len(seeds) if kind == REGION
                      else [d for d in range(1, n + 1) if self.cands[where] >> (d - 1) & 1])
            ends = [(self.on_run(c * n + d - 1)[0], target) for c, d in zip(seeds, digits)]
        out = np.empty(raw_size(self.cands.size, n), np.int32)
        links, reasons = [], []
        for w, e in ends:
            size = _full_path(self.ws, w, e, out, 0)
            states = [int(t) for t in out[:size] if t >= 0]
            chain, why = chains(out, size, n)
            links.append(chain[0])
            why = list(why[0]) if why else [None] * len(states)
            for i, t in enumerate(states):
                inner = self.inner_step(int(self.ws[15][w, t]))
                if inner is not None:
                    why[i] = Reason(also=why[i].also if why[i] else (), inner=inner)
            reasons.append(tuple(why))
        return with_rules(tables(self.box), self.cands, (tuple(links), tuple(reasons)))

    def inner_step(self, nest: int) -> Step | None:
        """The step of nested chain ``nest`` (1..; 0 for none) on the grid the run had left when it was found."""
        if not nest or nest >= self.LAST_NEST:  # none, or one of those sharing the last id
            return None
        first, producer, inside, work = self.blocks[bisect.bisect_right(self.blocks, nest, key=lambda b: b[0]) - 1]
        row, states, _ = inside[nest - first]
        n, t = self.n, tables(self.box)
        kind, source, where, tenths = int(row[H_KIND]), int(row[H_SOURCE]), int(row[H_WHERE]), int(row[H_TENTHS])
        placements, eliminations = conclusion(int(row[H_TARGET]), n)
        if producer == fo.STATIC:  # a plain chain or cycle: walk its one path again
            walk = _walk_space(work.size, n)
            node, last = _plain_path(kind, source, where, work, self.houses, self.cell_houses, n, walk)
            path = []
            while node >= 0:
                path.append(int(walk[0][node]))
                node = int(walk[1][node])
            path.reverse()
            if kind == fo.CYCLE:  # back to its start; it removes every candidate the cycle sees
                path += [int(last), source]
                placements, eliminations = (), tuple(((e >> 1) // n, (e >> 1) % n + 1) for e in states.tolist())
            raw = np.array(path + [-1], np.int32)
            step_kind = chain_kind(kind == fo.CYCLE, where % 3)
            name = ROW_OF_KERNEL[CYCLES, None]  # the chains-and-cycles row's
            return step(name, t, tenths, step_name(name, step_kind), placements,
                        eliminations, chains(raw, raw.size, n), step_kind)
        raw = np.zeros(raw_size(work.size, n), np.int32)
        size = fo._forcing_links(producer, work, self.houses, self.cell_houses, n, row, raw)
        words = forcing_words(f"{LABEL[producer]} forcing chains", row, t)
        return step(ROW_OF_KERNEL[FORCING, producer], t, tenths, words, placements, eliminations,
                    with_rules(t, work, chains(raw, size, n)), kind)
