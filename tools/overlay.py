"""python -m tools.overlay: kept short; the code is tools/draw/overlay.py."""

from tools import cli
from tools.draw.overlay import main

if __name__ == "__main__":
    cli.run(main)
