"""``python -m quietedit`` runs the command line."""

from quietedit.cli import main

main()
