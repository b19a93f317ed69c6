"""python -m tools.ricochet: see cli.py."""

from tools import cli
from tools.ricochet.cli import main

cli.run(main)
