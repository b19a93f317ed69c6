"""Shared test setup: the firmware package and the tools are importable under CPython."""

import os
import sys

from hypothesis import settings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for path in (ROOT, os.path.join(ROOT, "firmware")):
    if path not in sys.path:
        sys.path.insert(0, path)

# CI has two cores and a time budget: keep property tests thorough but bounded.
settings.register_profile("default", max_examples=150, deadline=None)
settings.register_profile("ci", max_examples=100, deadline=None)
# make mutate runs the tests once per mutant: fewer examples each (tools/mutate).
settings.register_profile("mutate", max_examples=25, deadline=None)
settings.load_profile(os.environ.get("MICROROBOTS_HYPOTHESIS") or (
    "ci" if os.environ.get("CI") else "default"))


# -- the emulated board (test_rp2040.py) ----------------------------------------------------
# Its sessions take minutes of emulation, so they start in a background process as soon as
# the tests are collected (tools/rp2040/checks.py) and test_rp2040.py runs last, judging
# what that process wrote: the emulator works beside the rest of the suite.
def pytest_collection_modifyitems(session, config, items):
    _circuitpython_last(items)
    board = [item for item in items if item.fspath.basename == "test_rp2040.py"]
    if not board:
        return
    items[:] = [item for item in items if item.fspath.basename != "test_rp2040.py"] + board
    import rp2040_background

    rp2040_background.start()


def _circuitpython_last(items):
    """test_circuitpython.py likewise: its board runs start now, its tests run last."""
    board = [item for item in items if item.fspath.basename == "test_circuitpython.py"]
    if not board:
        return
    items[:] = [item for item in items if item.fspath.basename != "test_circuitpython.py"] + board
    import circuitpython_background

    circuitpython_background.start()


def pytest_unconfigure(config):
    import sys

    for name in ("rp2040_background", "circuitpython_background"):
        background = sys.modules.get(name)
        if background is not None:
            background.stop()
