"""python -m tools.sim: make play, or a headless run with --headless (see headless.py)."""

import sys

from tools.sim.headless import main

sys.exit(main())
