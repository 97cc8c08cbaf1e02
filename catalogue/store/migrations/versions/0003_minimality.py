"""minimality: whether the carver proved each puzzle minimal, and how many removal tests it cut off

Revision ID: 0003
Revises: 0002
Create Date: 2024-06-03 00:00:00
"""
from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: Union[str, None] = "0002"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # Nullable, and no default: a puzzle stored before this revision was never told whether its carving was
    # proven minimal (25x25 carvings usually were not), so NULL says "unknown" rather than guessing either way.
    with op.batch_alter_table("puzzles", schema=None) as batch_op:
        batch_op.add_column(sa.Column("minimal", sa.Boolean(), nullable=True))
        batch_op.add_column(sa.Column("undecided", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("puzzles", schema=None) as batch_op:
        batch_op.drop_column("undecided")
        batch_op.drop_column("minimal")
