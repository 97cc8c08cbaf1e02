"""catalogue: build, check and serve a catalogue of unique Sudoku boards and the puzzles carved from them."""

# The one place the version lives (pyproject reads it): a literal, because importlib.metadata costs ~12 ms at every
# start and `catalogue query` has a 200 ms budget from the shell.
__version__ = "0.1.0"

__all__ = ["Catalogue", "__version__"]


def __getattr__(name: str):
    # `from catalogue import Catalogue` without paying for the store on every `catalogue --version`
    if name == "Catalogue":
        from .store import Catalogue

        return Catalogue
    raise AttributeError(f"module 'catalogue' has no attribute {name!r}")
