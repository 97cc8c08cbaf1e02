"""import: where an imported puzzle came from (the file and the line)

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23 00:00:00

``catalogue import`` stores puzzles read from files beside the carved ones. Each keeps its source (the name given
with ``--source``, by default the file's name, ``<stdin>`` for standard input) and the 1-based line its grid
starts on. Carved puzzles have neither: both columns are nullable, and NULL for every row stored before.
"""
from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: Union[str, None] = "0004"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # Nullable, no default: a carved puzzle has no source file, and NULL says so (SQLite adds the columns in
    # place; no table rebuild, so upgrading a large catalogue is instant on both databases).
    with op.batch_alter_table("puzzles", schema=None) as batch_op:
        batch_op.add_column(sa.Column("source", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("source_line", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("puzzles", schema=None) as batch_op:
        batch_op.drop_column("source_line")
        batch_op.drop_column("source")
