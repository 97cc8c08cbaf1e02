"""catalogue db upgrade / db current: the catalogue's schema revision, and migrating it on demand.

Every command already upgrades the schema on first use; `db upgrade` does it explicitly (e.g. before starting
several fill processes on one PostgreSQL database, or to see what changed).
"""
from __future__ import annotations

import typer

from ..config import DbOption, OutOption

db_app = typer.Typer(no_args_is_help=True, add_completion=False, rich_markup_mode=None,
                     help="Inspect and migrate the catalogue's schema.")


def _describe(revision: str | None) -> str:
    from ..db import HEAD_REVISION

    if revision is None:
        return "empty (no schema)"
    return f"{revision} (head)" if revision == HEAD_REVISION else revision


@db_app.command("upgrade")
def upgrade(db: DbOption = None, out: OutOption = None) -> None:
    """Migrate the catalogue's schema to the newest revision (creating it in an empty database)."""
    from ..config import resolve
    from ..db import open_catalogue, upgrade as run_upgrade

    settings = resolve(db, out)
    engine = open_catalogue(settings, migrate=False)
    try:
        before, after = run_upgrade(engine, settings.db_url)
    finally:
        engine.dispose()
    if before == after:
        typer.echo(f"{settings.db_label}: already at {_describe(after)}")
    else:
        typer.echo(f"{settings.db_label}: upgraded from {_describe(before)} to {_describe(after)}")


@db_app.command("current")
def current(db: DbOption = None, out: OutOption = None) -> None:
    """Print the catalogue's schema revision without changing anything."""
    from ..config import resolve
    from ..db import current_revision, open_catalogue

    settings = resolve(db, out)
    engine = open_catalogue(settings, migrate=False)
    try:
        with engine.connect() as conn:
            revision = current_revision(conn)
    finally:
        engine.dispose()
    typer.echo(f"{settings.db_label}: {_describe(revision)}")


def register(app: typer.Typer) -> None:
    app.add_typer(db_app, name="db")
