"""python -m tools.sim: make play, or a headless run with --headless (see headless.py)."""

from tools import cli
from tools.sim.headless import main

cli.run(main)
