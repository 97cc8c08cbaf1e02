"""shapes: every board and run names its shape; a board is unique within its shape

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27 00:00:00

A catalogue may now hold grids of several shapes (engine.shape: boxes of r x c, Latin squares, jigsaw regions,
with or without the diagonals). ``boards.shape`` and ``runs.shape`` hold the shape's spec (``3x3``, ``2x3``,
``latin5``, ``3x3+x``, ``jigsaw9:LAYOUT``), and the UNIQUE constraint that keeps boards unique moves from (size,
equivalence, key) to (shape, equivalence, key): two shapes of one size (2x3 and 3x2; 9x9 with and without its
diagonals) may share a key, and are not the same board.

Rows stored before all have square boxes, so their shape follows from their size (4 -> 2x2, 9 -> 3x3, 16 -> 4x4,
25 -> 5x5); a row of any other size (only a damaged row has one) gets an empty shape, which ``catalogue verify``
reports. SQLite rebuilds both tables (its batch copy), keeping every row; PostgreSQL changes them in place.
"""
from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: Union[str, None] = "0008"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

#: the shape of a row stored before this revision, from its size (written out: a migration means the same thing
#: whatever engine.shape becomes later)
_FROM_SIZE = "CASE size WHEN 4 THEN '2x2' WHEN 9 THEN '3x3' WHEN 16 THEN '4x4' WHEN 25 THEN '5x5' ELSE '' END"


def upgrade() -> None:
    bind = op.get_bind()
    for table in ("runs", "boards"):
        op.add_column(table, sa.Column("shape", sa.Text(), nullable=True))
        op.execute(f"UPDATE {table} SET shape = {_FROM_SIZE}")
    if bind.dialect.name == "sqlite":
        with op.batch_alter_table("runs", recreate="always") as batch_op:
            batch_op.alter_column("shape", existing_type=sa.Text(), nullable=False)
        with op.batch_alter_table("boards", recreate="always") as batch_op:
            batch_op.alter_column("shape", existing_type=sa.Text(), nullable=False)
            batch_op.drop_constraint("uq_boards_size_equivalence_key", type_="unique")
            batch_op.create_unique_constraint("uq_boards_shape_equivalence_key", ["shape", "equivalence", "key"])
        broken = bind.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
        if broken:
            raise RuntimeError(f"migration 0009 left {len(broken)} broken references (first: {broken[0]})")
    else:
        op.alter_column("runs", "shape", existing_type=sa.Text(), nullable=False)
        op.alter_column("boards", "shape", existing_type=sa.Text(), nullable=False)
        op.drop_constraint("uq_boards_size_equivalence_key", "boards", type_="unique")
        op.create_unique_constraint("uq_boards_shape_equivalence_key", "boards", ["shape", "equivalence", "key"])


def downgrade() -> None:
    """Back to square boxes only: refused while the catalogue holds boards of another shape (their keys could
    collide under the old constraint, and the old program could not read them)."""
    bind = op.get_bind()
    others = bind.exec_driver_sql("SELECT count(*) FROM boards WHERE shape NOT IN ('2x2', '3x3', '4x4', '5x5')"
                                  ).scalar()
    if others:
        raise RuntimeError(f"{others} boards are not square boxes: revision 0008 cannot hold them")
    if bind.dialect.name == "sqlite":
        with op.batch_alter_table("boards", recreate="always") as batch_op:
            batch_op.drop_constraint("uq_boards_shape_equivalence_key", type_="unique")
            batch_op.create_unique_constraint("uq_boards_size_equivalence_key", ["size", "equivalence", "key"])
            batch_op.drop_column("shape")
        with op.batch_alter_table("runs", recreate="always") as batch_op:
            batch_op.drop_column("shape")
    else:
        op.drop_constraint("uq_boards_shape_equivalence_key", "boards", type_="unique")
        op.create_unique_constraint("uq_boards_size_equivalence_key", "boards", ["size", "equivalence", "key"])
        op.drop_column("boards", "shape")
        op.drop_column("runs", "shape")
