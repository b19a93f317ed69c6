"""python -m tools.images: kept short; the code is tools/draw/images.py."""

import sys

from tools.draw.images import main

if __name__ == "__main__":
    sys.exit(main())
