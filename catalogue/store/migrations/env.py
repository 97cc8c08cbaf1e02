"""Alembic environment: migrates the catalogue with the same engine settings the program uses.

``catalogue.store.migrate.upgrade`` hands over a connection that already holds the write lock
(``config.attributes["connection"]``); the ``alembic`` command line (alembic.ini at the repository root) makes
its own engine from ``sqlalchemy.url`` or, when that is unset, from ``$CATALOGUE_DB`` or the default database.
SQLite cannot ALTER most things in place, so autogenerate renders batch operations for it.
"""
from __future__ import annotations

from logging.config import fileConfig

from alembic import context

import os

from catalogue.config import database_url
from catalogue.store.database import make_engine
from catalogue.store.models import Base

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata


def _url() -> str:
    return config.get_main_option("sqlalchemy.url") or database_url(os.environ.get("CATALOGUE_DB"))


def _configure(**kwargs) -> None:
    context.configure(target_metadata=target_metadata, compare_type=True, **kwargs)


def run_migrations_offline() -> None:
    url = _url()
    _configure(url=url, literal_binds=True, render_as_batch=url.startswith("sqlite"),
               dialect_opts={"paramstyle": "named"})
    with context.begin_transaction():
        context.run_migrations()


def _run(connection) -> None:
    _configure(connection=connection, render_as_batch=connection.dialect.name == "sqlite")
    # inside catalogue.store.migrate.upgrade's transaction this is a no-op, and that transaction commits
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = make_engine(_url())
    try:
        with engine.connect() as connection:
            _run(connection)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
