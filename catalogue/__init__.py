"""catalogue: build, check and serve a catalogue of unique Sudoku boards and the puzzles carved from them."""

# The one place the version lives (pyproject reads it): a literal, because importlib.metadata would cost time at
# every start and `catalogue query` has a 200 ms budget from the shell (docs/benchmarks.md, Reading).
__version__ = "0.2.0"

__all__ = ["Catalogue", "PuzzleQuery", "PuzzleFilter", "PuzzleRecord", "BoardRecord", "BoardPuzzle", "__version__"]

#: name -> the store module that defines it
_LAZY = {"Catalogue": "catalogue", "PuzzleQuery": "selection", "PuzzleFilter": "selection",
         "PuzzleRecord": "records", "BoardRecord": "records", "BoardPuzzle": "records"}


def __getattr__(name: str):
    # `from catalogue import Catalogue` without paying for the store on every `catalogue --version`
    if name in _LAZY:
        from importlib import import_module

        return getattr(import_module(f".store.{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'catalogue' has no attribute {name!r}")
