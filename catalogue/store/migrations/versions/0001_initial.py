"""initial catalogue: runs, boards, puzzles

Revision ID: 0001
Revises:
Create Date: 2024-06-01 00:00:00
"""
from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: Union[str, None] = None
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "runs",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("program_version", sa.String(length=32), nullable=False),
        sa.Column("command", sa.Text(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("method", sa.String(length=32), nullable=False),
        sa.Column("equivalence", sa.String(length=16), nullable=False),
        sa.Column("symmetry", sa.String(length=16), nullable=False),
        sa.Column("target_clues", sa.Integer(), nullable=True),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("generators", sa.Integer(), nullable=False),
        sa.Column("checkers", sa.Integer(), nullable=False),
        sa.Column("queue_size", sa.Integer(), nullable=False),
        sa.Column("parameters", sa.Text(), nullable=False),
        sa.Column("generated", sa.Integer(), nullable=False),
        sa.Column("accepted", sa.Integer(), nullable=False),
        sa.Column("duplicates", sa.Integer(), nullable=False),
        sa.Column("contradictions", sa.Integer(), nullable=False),
        sa.Column("elapsed_seconds", sa.Float(), nullable=False),
        sa.Column("stage_stats", sa.Text(), nullable=False),
        sa.Column("files_through", sa.Integer(), nullable=True),
        sa.CheckConstraint("status IN ('running', 'completed', 'interrupted', 'failed', 'exhausted')",
                           name=op.f("ck_runs_status")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_runs")),
    )
    op.create_table(
        "boards",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("equivalence", sa.String(length=16), nullable=False),
        sa.Column("key", sa.Text(), nullable=False),
        sa.Column("board", sa.Text(), nullable=False),
        sa.Column("method", sa.String(length=32), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("restarts", sa.Integer(), nullable=False),
        sa.Column("generate_seconds", sa.Float(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], name=op.f("fk_boards_run_id_runs")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_boards")),
        sa.UniqueConstraint("number", name=op.f("uq_boards_number")),
        sa.UniqueConstraint("size", "equivalence", "key", name=op.f("uq_boards_size_equivalence_key")),
    )
    op.create_table(
        "puzzles",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("board_number", sa.Integer(), nullable=False),
        sa.Column("puzzle", sa.Text(), nullable=False),
        sa.Column("clues", sa.Integer(), nullable=False),
        sa.Column("symmetry", sa.String(length=16), nullable=False),
        sa.Column("target_clues", sa.Integer(), nullable=True),
        sa.Column("carve_seed", sa.BigInteger(), nullable=False),
        sa.Column("carve_checks", sa.Integer(), nullable=False),
        sa.Column("carve_seconds", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("nodes", sa.Integer(), nullable=False),
        sa.Column("guesses", sa.Integer(), nullable=False),
        sa.Column("backtracks", sa.Integer(), nullable=False),
        sa.Column("checks", sa.Integer(), nullable=False),
        sa.Column("max_depth", sa.Integer(), nullable=False),
        sa.Column("solve_seconds", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["board_number"], ["boards.number"],
                                name=op.f("fk_puzzles_board_number_boards")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_puzzles")),
    )
    op.create_index(op.f("ix_puzzles_board_number"), "puzzles", ["board_number"], unique=False)
    op.create_index(op.f("ix_puzzles_clues"), "puzzles", ["clues"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_puzzles_clues"), table_name="puzzles")
    op.drop_index(op.f("ix_puzzles_board_number"), table_name="puzzles")
    op.drop_table("puzzles")
    op.drop_table("boards")
    op.drop_table("runs")
