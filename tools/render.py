"""python -m tools.render: kept short; the code is tools/draw/render.py."""

from tools import cli
from tools.draw.render import main

if __name__ == "__main__":
    cli.run(main)
