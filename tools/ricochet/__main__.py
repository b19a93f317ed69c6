"""python -m tools.ricochet: see cli.py."""

import sys

from tools.ricochet.cli import main

sys.exit(main())
