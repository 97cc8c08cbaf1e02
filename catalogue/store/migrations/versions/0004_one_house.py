"""one house: the board number is the primary key puzzles refer to; the catalogue's id and board folder

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22 00:00:00

``boards.id`` was a surrogate primary key equal to ``number + 1`` on a fresh catalogue, while ``puzzles`` referred
to ``boards.number``: browsers that follow a foreign key to the referenced table's primary key (datasette) opened
the wrong board. Every row is kept: on SQLite the table is rebuilt (the batch copy), on PostgreSQL the constraints
are swapped in place. ``catalogue.store.migrate`` switches SQLite's foreign-key enforcement off around the
rebuild (SQLite's documented procedure for schema changes) and checks every reference before committing.

The ``catalogue`` table gets one row with a new random id: the marker file of the board folder names it, so a
command can tell this catalogue's folder from another catalogue's.
"""
from __future__ import annotations

import datetime as dt
import uuid
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: Union[str, None] = "0003"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

_FK = "fk_puzzles_board_number_boards"


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        with op.batch_alter_table("boards", recreate="always") as batch_op:
            batch_op.drop_constraint("uq_boards_number", type_="unique")
            batch_op.drop_column("id")
            batch_op.create_primary_key("pk_boards", ["number"])
        broken = bind.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
        if broken:
            raise RuntimeError(f"migration 0004 left {len(broken)} broken references (first: {broken[0]})")
    else:
        op.drop_constraint(_FK, "puzzles", type_="foreignkey")
        op.drop_constraint("pk_boards", "boards", type_="primary")
        op.drop_constraint("uq_boards_number", "boards", type_="unique")
        op.drop_column("boards", "id")
        op.create_primary_key("pk_boards", "boards", ["number"])
        op.create_foreign_key(_FK, "puzzles", "boards", ["board_number"], ["number"])
    info = op.create_table(
        "catalogue",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("board_folder", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_catalogue")),
    )
    op.bulk_insert(info, [{"id": uuid.uuid4().hex, "board_folder": None,
                           "created_at": dt.datetime.now(dt.timezone.utc)}])


def downgrade() -> None:
    op.drop_table("catalogue")
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        with op.batch_alter_table("boards", recreate="always") as batch_op:
            batch_op.add_column(sa.Column("id", sa.Integer(), nullable=True))
        bind.exec_driver_sql("UPDATE boards SET id = number + 1")
        with op.batch_alter_table("boards", recreate="always") as batch_op:
            batch_op.drop_constraint("pk_boards", type_="primary")
            batch_op.alter_column("id", nullable=False)
            batch_op.create_primary_key("pk_boards", ["id"])
            batch_op.create_unique_constraint("uq_boards_number", ["number"])
    else:
        op.drop_constraint(_FK, "puzzles", type_="foreignkey")
        op.drop_constraint("pk_boards", "boards", type_="primary")
        op.execute("ALTER TABLE boards ADD COLUMN id SERIAL")  # a SERIAL again, as revision 0001 made it
        op.execute("UPDATE boards SET id = number + 1")
        op.execute("SELECT setval(pg_get_serial_sequence('boards', 'id'), coalesce(max(id), 0) + 1, false) "
                   "FROM boards")
        op.create_primary_key("pk_boards", "boards", ["id"])
        op.create_unique_constraint("uq_boards_number", "boards", ["number"])
        op.create_foreign_key(_FK, "puzzles", "boards", ["board_number"], ["number"])
