"""catalogue: build, check and serve a catalogue of unique Sudoku boards and the puzzles carved from them."""

# The one place the version lives (pyproject reads it): a literal, because importlib.metadata costs ~12 ms at every
# start and `catalogue query` has a 200 ms budget from the shell.
__version__ = "0.1.0"
