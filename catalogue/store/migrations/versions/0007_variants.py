"""variants: each puzzle of a board has its own number on that board (1, 2, ...)

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26 00:00:00

A board carries one puzzle when the fill carves it; ``catalogue import`` may add more (a puzzle of a newspaper
whose solution is a board already stored). Until now they shared the board's number, so ``export 0`` and
``/api/puzzles/0`` reached only the first. ``variant`` numbers the puzzles of each board in the order they were
stored (1 for the first), and a puzzle is named ``N`` (variant 1) or ``N.K``: stable, since a puzzle is never
renumbered and a new one takes the next variant of its board. Rows stored before are numbered by their id (the
order they were stored in): every board with one puzzle keeps ``N``. A unique index holds one variant per board.
Adding a column with a default and an index: no table rebuild on either database.
"""
from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: Union[str, None] = "0006"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("puzzles", schema=None) as batch_op:
        batch_op.add_column(sa.Column("variant", sa.Integer(), nullable=False, server_default="1"))
    # only boards that carry several puzzles need counting (the same SQL on SQLite and PostgreSQL)
    op.execute("UPDATE puzzles SET variant = (SELECT count(*) FROM puzzles AS earlier "
               "WHERE earlier.board_number = puzzles.board_number AND earlier.id <= puzzles.id) "
               "WHERE board_number IN (SELECT board_number FROM puzzles GROUP BY board_number HAVING count(*) > 1)")
    op.create_index(op.f("ix_puzzles_board_number_variant"), "puzzles", ["board_number", "variant"], unique=True)


def downgrade() -> None:
    op.drop_index(op.f("ix_puzzles_board_number_variant"), table_name="puzzles")
    with op.batch_alter_table("puzzles", schema=None) as batch_op:
        batch_op.drop_column("variant")
