"""``python -m catalogue.cli`` runs the command line, like ``python -m catalogue`` and the ``catalogue`` script."""
from . import main

main()
