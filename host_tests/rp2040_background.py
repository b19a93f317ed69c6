"""The emulated-board runs of tools/rp2040/checks.py that test_rp2040.py judges, one per
part and image (the stock MicroPython image with make flash's files, the Micro Robots
image): done or taken from the cache by board_runs.py, started when the tests are
collected (conftest.py)."""

import board_runs

PARTS = board_runs.PARTS


def why(kind):
    """Why the board tests of image ``kind`` cannot run (one line), or None."""
    return board_runs.why("tour-" + kind)


def result(part, kind):
    """The results of ``part`` on image ``kind`` (a dict), waiting for them; RuntimeError
    if the run failed."""
    return board_runs.result("%s-%s" % (part, kind))
