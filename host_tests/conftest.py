"""Shared test setup (the checkout, firmware/ and host_tests/ are on the path by
pyproject.toml's pythonpath)."""

import os
import sys

import pytest
from hypothesis import settings

# CI has two cores and a time budget: keep property tests thorough but bounded.
settings.register_profile("default", max_examples=150, deadline=None)
settings.register_profile("ci", max_examples=100, deadline=None)
# make mutate runs the tests once per mutant: fewer examples each (tools/mutate).
settings.register_profile("mutate", max_examples=25, deadline=None)
settings.load_profile(os.environ.get("MICROROBOTS_HYPOTHESIS") or (
    "ci" if os.environ.get("CI") else "default"))


# -- the emulated board (test_rp2040.py, test_circuitpython.py, test_power_cut_rp2040.py) --
# Their sessions take minutes of emulation: board_runs.py starts them (or takes them from
# its cache) as soon as the tests are collected, and the tests that judge them run last,
# so that the emulator works beside the rest of the suite.
BOARD_TESTS = ("test_rp2040.py", "test_circuitpython.py", "test_power_cut_rp2040.py")


@pytest.hookimpl(trylast=True)  # after -k and -m have deselected what will not run
def pytest_collection_modifyitems(session, config, items):
    items[:] = ([item for item in items if item.fspath.basename not in BOARD_TESTS]
                + [item for item in items if item.fspath.basename in BOARD_TESTS])
    if not hasattr(config, "workerinput") and not config.option.collectonly:
        _start_board_runs(item.fspath.basename for item in items)  # (no xdist: from here)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids):
    """The xdist controller, as each worker reports what it collected (before any test
    runs): it starts the runs, once; the workers wait for them (board_runs.result)."""
    _start_board_runs(os.path.basename(i.split("::")[0]) for i in ids)


def _start_board_runs(files):
    import board_runs

    board_runs.start(board_runs.names_for(set(files)))


def pytest_unconfigure(config):
    board_runs = sys.modules.get("board_runs")
    if board_runs is not None and not hasattr(config, "workerinput"):
        board_runs.stop()
