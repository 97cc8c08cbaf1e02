"""catalogue db upgrade / db current: the catalogue's schema revision, and migrating it on demand.

Every command already upgrades the schema on first use; `db upgrade` does it explicitly (e.g. before starting
several fill processes on one PostgreSQL database, or to see what changed).
"""
from __future__ import annotations

import typer

from ...config import database_url
from ..options import DbOption

db_app = typer.Typer(no_args_is_help=True, add_completion=False, rich_markup_mode=None,
                     context_settings={"help_option_names": ["--help", "-h"]},
                     help="Inspect and migrate the catalogue's schema.\n\n"
                          "Every command upgrades the schema on first use; these commands do it explicitly, or only "
                          "say which revision a catalogue is at.\n\n"
                          "\b\nExamples:\n"
                          "  catalogue db current --db demo.db\n"
                          "  catalogue db upgrade --db demo.db")


@db_app.command("upgrade")
def upgrade(db: DbOption = None) -> None:
    """Migrate the schema to the newest revision.

    Creates the schema in an empty database, so this also makes a new, empty catalogue.

    \b
    Examples:
      catalogue db upgrade --db demo.db
      catalogue db upgrade --db empty.db
    """
    from ...store import Catalogue
    from ...store.migrate import describe_revision

    with Catalogue.open(db, migrate=False) as catalogue:
        before, after = catalogue.upgrade()
    if before == after:
        typer.echo(f"{catalogue.label}: already at {describe_revision(after)}")
    else:
        typer.echo(f"{catalogue.label}: upgraded from {describe_revision(before)} to {describe_revision(after)}")


@db_app.command("current")
def current(db: DbOption = None) -> None:
    """Print the schema revision.

    Changes nothing, even when the catalogue is older or newer than this program.

    \b
    Examples:
      catalogue db current --db demo.db
    """
    from ...store import Catalogue
    from ...store.migrate import describe_foreign, describe_revision

    # not migrated and not refused when newer than this program: saying which revision it is, is the whole job
    catalogue = Catalogue(database_url(db))
    revision = catalogue.revision()
    foreign = catalogue.foreign_tables() if revision is None else []
    if foreign:  # "empty" would be wrong, and every other command refuses it
        typer.echo(f"{catalogue.label}: not a catalogue: {describe_foreign(foreign)}")
    else:
        typer.echo(f"{catalogue.label}: {describe_revision(revision)}")


def register(app: typer.Typer) -> None:
    app.add_typer(db_app, name="db")
