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

    from ..db import KNOWN_REVISIONS

    if revision is None:
        return "empty (no schema)"
    if revision not in KNOWN_REVISIONS:
        return f"{revision} (newer than this version of catalogue: upgrade catalogue)"
    return f"{revision} (head)" if revision == HEAD_REVISION else revision


@db_app.command("upgrade")
def upgrade(db: DbOption = None, out: OutOption = None) -> None:
    """Migrate the catalogue's schema to the newest revision (creating it in an empty database)."""
    from ..config import resolve
    from ..db import open_catalogue, upgrade as run_upgrade

    settings = resolve(db, out, workers=False)
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
    from sqlalchemy.exc import DBAPIError

    from ..config import resolve
    from ..db import current_revision, describe_error, make_engine
    from ..errors import UserError

    settings = resolve(db, out, workers=False)
    path = settings.sqlite_path
    if path is not None and not path.exists():  # looking must not create the file
        typer.echo(f"{settings.db_label}: empty (no schema)")
        return
    # make_engine, not open_catalogue: open_catalogue refuses a revision newer than this program, and saying
    # which revision that is, is this command's whole job
    engine = make_engine(settings.db_url)
    try:
        with engine.connect() as conn:
            revision = current_revision(conn)
    except DBAPIError as e:
        raise UserError(f"cannot open database {settings.db_label}: {describe_error(e)}") from None
    finally:
        engine.dispose()
    typer.echo(f"{settings.db_label}: {_describe(revision)}")


def register(app: typer.Typer) -> None:
    app.add_typer(db_app, name="db")
