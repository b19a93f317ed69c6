"""python -m tools.images: kept short; the code is tools/draw/images.py."""

from tools import cli
from tools.draw.images import main

if __name__ == "__main__":
    cli.run(main)
