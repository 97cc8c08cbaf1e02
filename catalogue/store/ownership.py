"""The board folder a catalogue owns: which folder it is, and claiming it before anything is written there.

A mixin of :class:`~catalogue.store.catalogue.Catalogue` (one idea of its own, kept out of the facade's file):
the folder is ``--out`` when given, else the one the catalogue recorded when it first wrote board files, else
the default beside the database; a folder holding another catalogue's marker is refused (``folder.claim``), so
no command ever writes into another catalogue's files.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from ..errors import UserError
from . import folder as folders


class BoardFolder:
    """The board-folder half of a Catalogue (it supplies ``_out``, ``database_file``, ``label``, ``id``, ``_row``,
    ``board_row``, ``_write_lock`` and ``_connect``)."""

    @property
    def recorded_folder(self) -> Optional[Path]:
        """The folder the catalogue recorded (None until board files were first written)."""
        text = self._row()["board_folder"]
        return None if text is None else folders.from_recorded(text, self.database_file)

    @property
    def folder(self) -> Path:
        """The board folder this session uses: ``out`` if given, else the recorded one, else the default."""
        if self._out is not None:
            return Path(self._out).absolute()
        return self.recorded_folder or folders.default_folder(self.database_file)

    def _folder_name(self) -> Optional[str]:
        """How messages name the folder: by its option when the user gave it, else by its path."""
        return f"--out {self._out}" if self._out is not None else None

    def claim_folder(self) -> Path:
        """Make :attr:`folder` this catalogue's before anything is written into it (``folder.claim``): one
        UserError if it belongs to another catalogue. The first folder a catalogue uses is recorded as its own."""
        from .files import expected_bytes

        def holds_our_board(number: int, content: bytes) -> bool:
            row = self.board_row(number)
            return row is not None and expected_bytes(row["board"], row["shape"]) == content

        path = folders.claim(self.folder, self.id, self.label, holds_our_board, self._folder_name())
        if self._row()["board_folder"] is None:
            self._record_folder(path)
        return path

    def check_folder_owner(self) -> Path:
        """:attr:`folder` for reading (verify without repair): refused if another catalogue's marker is there."""
        path = self.folder
        folders.check_usable(path, self._folder_name())
        owner = folders.foreign_owner(path, self.id)
        if owner is not None:
            raise UserError(f"{path} holds the board files of another catalogue ({owner}), not those of "
                            f"{self.label}")
        return path

    def _record_folder(self, path: Path) -> None:
        from sqlalchemy import update

        from .models import CatalogueInfo

        text = folders.recorded_text(path, self.database_file)
        with self._write_lock, self._connect().begin() as conn:
            conn.execute(update(CatalogueInfo).where(CatalogueInfo.id == self.id).values(board_folder=text))
        self._row()["board_folder"] = text
