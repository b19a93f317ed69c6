"""The CircuitPython board runs of tools/rp2040/circuitpython_checks.py that
test_circuitpython.py judges, one per part: done or taken from the cache by board_runs.py,
started when the tests are collected (conftest.py)."""

import board_runs

PARTS = board_runs.CIRCUITPYTHON_PARTS


def result(part):
    """The results of ``part`` (a dict), waiting for them; RuntimeError if the run failed."""
    return board_runs.result("circuitpython-" + part)
