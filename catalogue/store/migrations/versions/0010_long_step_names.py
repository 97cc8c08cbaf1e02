"""long step names: ``hardest`` holds up to 64 characters

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27 16:00:00

``hardest`` was 32 characters, and five step names are longer (``dynamic contradiction forcing chains (+)`` is
40): SQLite ignores a column's length, but PostgreSQL refused to store a puzzle whose hardest step was one of them,
and the fill or import batch holding it failed. The column now takes 64. SQLite copies the table (its batch
change of a column's type), keeping every row; PostgreSQL changes it in place.
"""
from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: Union[str, None] = "0009"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("puzzles", schema=None) as batch_op:
        batch_op.alter_column("hardest", existing_type=sa.String(length=32), type_=sa.String(length=64),
                              existing_nullable=True)


def downgrade() -> None:
    # a name longer than 32 characters is cut, as the column was
    op.execute("UPDATE puzzles SET hardest = substr(hardest, 1, 32) WHERE length(hardest) > 32")
    with op.batch_alter_table("puzzles", schema=None) as batch_op:
        batch_op.alter_column("hardest", existing_type=sa.String(length=64), type_=sa.String(length=32),
                              existing_nullable=True)
