"""python -m tools.overlay: kept short; the code is tools/draw/overlay.py."""

import sys

from tools.draw.overlay import main

if __name__ == "__main__":
    sys.exit(main())
