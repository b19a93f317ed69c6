"""python -m tools.ricochet: see cli.py (quick.py answers ``solve --game ID --json``)."""

import sys

from tools.ricochet import quick

status = quick.run()
if status is not None:
    sys.exit(status)

from tools import cli  # noqa: E402 - only when the quick path did not answer
from tools.ricochet.cli import main  # noqa: E402

cli.run(main)
