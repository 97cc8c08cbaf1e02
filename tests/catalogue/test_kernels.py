"""catalogue.kernels: the kernels a command, and a puzzle left for later, make ready before they are needed.

The test runs in a process of its own, as a command does, so that nothing else loaded the kernels first.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

#: as ``catalogue grade`` goes: the grader's job, then ``grade_many(later=True)`` on two of bench/hardest-sample.tsv's
#: puzzles (the 8th: plain searches inside with cycles, searches remembered from an earlier step; the 10th: the
#: dynamic row too, its searches inside taking runs from the step's grid), then for each Later the kernels
#: catalogue.kernels.ready_for_later makes ready, then the call; printed: every engine kernel that gained an
#: overload inside grade_many or a call
_AS_CATALOGUE_GRADE_GOES = """
import sys
import numpy as np
from numba.core.dispatcher import Dispatcher
from catalogue.kernels import ready_for_later
from engine.formats import from_line
from engine.grade import Later, grade_many
from engine.warmup import prepare

prepare(["grade@3"])
added, watching = [], [True]
compile = Dispatcher.compile

def compiling(self, sig):
    if watching[0] and tuple(sig) not in self.overloads:
        added.append(self.py_func.__module__ + "." + self.py_func.__name__)
    return compile(self, sig)

Dispatcher.compile = compiling
lines = [line.split("\t")[0] for line in open(sys.argv[1]) if line.strip() and not line.startswith(("#", "puzzle"))]
for i in (7, 9):
    later = grade_many(np.stack([from_line(lines[i], 3)]), 3, later=True)[0]
    assert isinstance(later, Later)
    watching[0] = False
    ready_for_later(later=later)
    watching[0] = True
    later()
print(" ".join(added))
"""


@pytest.mark.slow
def test_a_hardest_puzzle_compiles_or_loads_no_kernel_in_its_grading():
    """What the grader's job, or the solver's and nested chains' jobs that catalogue.kernels.ready_for_later makes
    ready, leave out, the first hardest puzzle compiles inside a grading thread, the bar standing still (reuse.py's
    kernels were so until 2e4bbc9, and the solver's that count a stuck puzzle's solutions). In a process of its own,
    so that nothing else loaded them first."""
    sample = Path(__file__).resolve().parents[2] / "bench" / "hardest-sample.tsv"
    out = subprocess.run([sys.executable, "-c", _AS_CATALOGUE_GRADE_GOES, str(sample)], capture_output=True,
                         text=True, check=True, timeout=900)
    assert out.stdout.strip() == ""
