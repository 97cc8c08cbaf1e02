"""catalogue generate (being written)."""


def register(app):
    pass
