"""grading: level, score, hardest technique and steps per technique for every puzzle; a run's target level

Revision ID: 0002
Revises: 0001
Create Date: 2024-06-02 00:00:00
"""
from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: Union[str, None] = "0001"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # Nullable: puzzles stored before grading existed have no grade until they are graded again.
    with op.batch_alter_table("puzzles", schema=None) as batch_op:
        batch_op.add_column(sa.Column("level", sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column("score", sa.Float(), nullable=True))
        batch_op.add_column(sa.Column("hardest", sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column("techniques", sa.Text(), nullable=True))
        batch_op.create_index(batch_op.f("ix_puzzles_level"), ["level"], unique=False)
        batch_op.create_index(batch_op.f("ix_puzzles_hardest"), ["hardest"], unique=False)
    with op.batch_alter_table("runs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("level", sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("runs", schema=None) as batch_op:
        batch_op.drop_column("level")
    with op.batch_alter_table("puzzles", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_puzzles_hardest"))
        batch_op.drop_index(batch_op.f("ix_puzzles_level"))
        batch_op.drop_column("techniques")
        batch_op.drop_column("hardest")
        batch_op.drop_column("score")
        batch_op.drop_column("level")
