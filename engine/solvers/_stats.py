"""The slots of the int64 ``stats`` array every search kernel fills (metric names from engine.solvers.base)."""

NODES, GUESSES, BACKTRACKS, CHECKS, MAX_DEPTH, GAVE_UP = 0, 1, 2, 3, 4, 5
NSTATS = 6
