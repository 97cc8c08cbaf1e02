"""Alembic migrations of the catalogue schema (``catalogue/models.py``); run by ``catalogue.db.open_catalogue``."""
