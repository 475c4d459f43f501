"""``python -m liverpool``: the same command line as ``liverpool``."""

from liverpool.cli import main

main()
