"""catalogue explore (being written)."""


def register(app):
    pass
