"""The datasette metadata of a catalogue: ``datasette data/catalogue.db -m catalogue/datasette/metadata.json``
(titles, column descriptions, saved queries; docs/commands/serve.md shows it)."""
from pathlib import Path

#: the metadata file (package data: installed with the package)
METADATA = Path(__file__).with_name("metadata.json")
