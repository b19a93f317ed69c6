"""python -m tools.wiring: kept short; the code is tools/draw/wiring.py."""

from tools import cli
from tools.draw.wiring import main

if __name__ == "__main__":
    cli.run(main)
