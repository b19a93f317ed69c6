"""python -m tools.worksheet: kept short; the code is tools/draw/worksheet.py."""

from tools import cli
from tools.draw.worksheet import main

if __name__ == "__main__":
    cli.run(main)
