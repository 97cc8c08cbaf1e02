"""``python -m catalogue`` runs the command line, like the ``catalogue`` script."""
from .cli import main

main()
