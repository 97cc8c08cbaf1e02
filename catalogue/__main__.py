"""``python -m catalogue`` runs the command line, like the ``catalogue`` script."""
from .entry import main

main()
