"""stats indexes: one index per summarised metric, and on puzzles.minimal

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23 00:00:00

``catalogue stats`` gives min / median / max of eleven metrics and counts puzzles by minimality. Without an index
each of those reads every row of a wide table, and sorts it per metric (``percentile_disc`` on PostgreSQL,
``ORDER BY ... OFFSET`` on SQLite). With a B-tree per column, min and max are one descent and the median is a walk
over half of one narrow index (bench/bench_stats.py; docs/benchmarks.md, "Stats on 500,000 boards"). The cost: a
larger SQLite file, a few seconds to build them on upgrade, and one more B-tree insert per index
and row when storing boards. Indexes only: no row changes, nothing to convert back on downgrade.
"""
from __future__ import annotations

from typing import Sequence, Union

from alembic import op

revision: str = "0006"
down_revision: Union[str, None] = "0005"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

#: table -> the columns that get an index (named by the metadata's convention: ix_<table>_<column>)
INDEXED = {
    "puzzles": ("nodes", "guesses", "backtracks", "checks", "max_depth", "solve_seconds", "carve_checks",
                "carve_seconds", "score", "minimal"),
    "boards": ("restarts", "generate_seconds"),
}


def upgrade() -> None:
    for table, columns in INDEXED.items():
        for column in columns:
            op.create_index(op.f(f"ix_{table}_{column}"), table, [column], unique=False)


def downgrade() -> None:
    for table, columns in INDEXED.items():
        for column in columns:
            op.drop_index(op.f(f"ix_{table}_{column}"), table_name=table)
