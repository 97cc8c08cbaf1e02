"""catalogue solve (being written)."""


def register(app):
    pass
