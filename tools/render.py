"""python -m tools.render: kept short; the code is tools/draw/render.py."""

import sys

from tools.draw.render import main

if __name__ == "__main__":
    sys.exit(main())
