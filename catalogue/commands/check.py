"""catalogue check (being written)."""


def register(app):
    pass
