"""catalogue: build, check and serve a catalogue of unique Sudoku boards and the puzzles carved from them."""
from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("catalogue")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0.1.0"
