"""python -m tools.wiring: kept short; the code is tools/draw/wiring.py."""

import sys

from tools.draw.wiring import main

if __name__ == "__main__":
    sys.exit(main())
