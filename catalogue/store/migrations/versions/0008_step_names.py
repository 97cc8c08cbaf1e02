"""step names: ``hardest`` names the hardest step as the literature does, ``technique`` keeps its row

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26 12:00:00

Until now ``hardest`` held the row of the grader's technique table that made the hardest step
(``chains-and-cycles`` for a third of all puzzles); a person takes a forcing X-chain, a bidirectional cycle, a
BUG+1. From now on ``hardest`` is the step's own name (engine.vocabulary.STEP_NAMES) and the new ``technique``
column, indexed, the row (what ``--technique`` filters on).

Rows stored before: ``technique`` takes the old value. ``hardest`` is renamed where the row makes one kind of step
(``x-wing`` becomes ``X-Wing``), and for hidden singles by the score (1.0 is a full house); where a row makes
several kinds (unique loops, BUG, the chains) only grading again can tell which, so the row's name stays until
``catalogue regrade`` (which rewrites every grade that changed). The names below are the vocabulary of this
revision, written out: a migration must mean the same thing whatever the vocabulary becomes later.
"""
from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: Union[str, None] = "0007"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

#: the rows that make one kind of step, and its name
_ONE_NAME = {
    "direct-pointing": "direct pointing", "direct-claiming": "direct claiming",
    "direct-hidden-pair": "direct hidden pair", "naked-single": "naked single",
    "direct-hidden-triple": "direct hidden triple", "pointing": "pointing", "claiming": "claiming",
    "naked-pair": "naked pair", "x-wing": "X-Wing", "hidden-pair": "hidden pair", "naked-triple": "naked triple",
    "swordfish": "Swordfish", "hidden-triple": "hidden triple", "xy-wing": "XY-Wing", "xyz-wing": "XYZ-Wing",
    "naked-quad": "naked quad", "jellyfish": "Jellyfish", "hidden-quad": "hidden quad",
    "aligned-pair-exclusion": "aligned pair exclusion", "aligned-triple-exclusion": "aligned triple exclusion",
    "nishio": "Nishio forcing chains",
}


def upgrade() -> None:
    with op.batch_alter_table("puzzles", schema=None) as batch_op:
        batch_op.add_column(sa.Column("technique", sa.String(length=32), nullable=True))
    op.execute("UPDATE puzzles SET technique = hardest")
    puzzles = sa.table("puzzles", sa.column("hardest", sa.String), sa.column("score", sa.Float))
    for row, name in _ONE_NAME.items():
        op.execute(puzzles.update().where(puzzles.c.hardest == row).values(hardest=name))
    op.execute(puzzles.update().where(puzzles.c.hardest == "hidden-single")
               .values(hardest=sa.case((puzzles.c.score <= 1.0, "full house"), else_="hidden single")))
    op.create_index(op.f("ix_puzzles_technique"), "puzzles", ["technique"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_puzzles_technique"), table_name="puzzles")
    op.execute("UPDATE puzzles SET hardest = technique")
    with op.batch_alter_table("puzzles", schema=None) as batch_op:
        batch_op.drop_column("technique")
