"""Shared test setup (the checkout, firmware/ and host_tests/ are on the path by
pyproject.toml's pythonpath)."""

import os
import sys

import pytest
from hypothesis import HealthCheck, settings

# CI has two cores and a time budget: keep property tests thorough but bounded.
settings.register_profile("default", max_examples=150, deadline=None)
settings.register_profile("ci", max_examples=100, deadline=None)
# make mutate runs the tests once per mutant: fewer examples each (tools/mutate), the
# same ones every time (derandomize), so that a verdict does not depend on the draw and an
# incremental run judges a survivor again against the same examples.
settings.register_profile("mutate", max_examples=25, deadline=None, derandomize=True,
                          suppress_health_check=list(HealthCheck))
settings.load_profile(os.environ.get("MICROROBOTS_HYPOTHESIS") or (
    "ci" if os.environ.get("CI") else "default"))


# -- the emulated board (test_rp2040.py, test_circuitpython.py, test_power_cut_rp2040.py) --
# Their sessions take minutes of emulation: board_runs.py starts them (or takes them from
# its cache) as soon as the tests are collected, and the tests that judge them run last,
# so that the emulator works beside the rest of the suite.
BOARD_TESTS = ("test_rp2040.py", "test_circuitpython.py", "test_power_cut_rp2040.py",
               "test_rp2040_taps.py")

# -- the order of the tests, and how they go to the workers (make test: --dist loadgroup) --
# A test file whose tests share a fixture of its module or of the session (a browser, a
# scratch checkout, make dist's files, an emulated-board run) goes to one worker as one
# unit; every other test is a unit of its own, so that the workers share the many small
# tests to the end and none is left alone with a long file. A long test function named in
# SLOW_S is a unit of its own even in such a file (its worker sets the fixture up again:
# a browser starts in a few seconds). The units go out longest first (SLOW_S: the slowest
# files and test functions, seconds measured on the dev machine, 2-core x86_64, issue 30;
# any other test counts as DEFAULT_S), so that the long ones start at once and the short
# ones fill in behind them; the emulated boards' tests go last.
SLOW_S = {
    "web/test_i18n_tour.py::test_the_ricochet_table_fits_every_screen_in_each_language": 90,
    "web/test_i18n_tour.py::test_the_handhelds_tour_fits_every_screen_in_each_language": 60,
    "web/test_web.py::test_a_simulated_battery_dimming_sleep_and_wake": 56,
    "web/test_web.py::test_the_help_line_guides_a_table_a_player_and_a_teacher": 55,
    "web/test_web.py": 60, "tools/test_dist.py": 70, "web/test_ricochet_page.py": 40,
    "tools/test_terminal.py::test_the_help_line_guides_a_table_a_player_and_a_teacher": 75,
    "tools/test_render.py::test_sim_headless_png_draws_the_last_frame": 45,
    "tools/test_render.py::test_cli_writes_the_frame_at_a_time": 24,
    "web/test_web_app.py": 30, "web/test_web_lesson.py": 30, "web/test_web_layout.py": 20,
    "web/test_web_storage.py": 15,
}
DEFAULT_S = 0.1
SHARED_SCOPES = ("module", "package", "session")
HERE = os.path.dirname(os.path.abspath(__file__))


def _shares_a_fixture(item):
    """Does ``item`` use a fixture of host_tests/ that lives for its module or longer?"""
    info = getattr(item, "_fixtureinfo", None)
    for defs in (info.name2fixturedefs.values() if info is not None else ()):
        for d in defs:
            path = getattr(getattr(d.func, "__code__", None), "co_filename", "")
            if d.scope in SHARED_SCOPES and path.startswith(HERE + os.sep):
                return True
    return False


def _unit(item):
    """The unit ``item`` goes to a worker in (host_tests/-relative): a function that SLOW_S
    names, or the file of a test that shares a fixture, or the test itself."""
    nodeid = item.nodeid.split("host_tests/", 1)[-1].split("@")[0]
    function = nodeid.split("[")[0]
    if function in SLOW_S:
        return function
    return nodeid.split("::")[0] if _shares_a_fixture(item) else nodeid


def _cost(unit, items):
    """The unit's seconds: SLOW_S's for it, or DEFAULT_S a test."""
    return SLOW_S.get(unit, DEFAULT_S * len(items))


class _Grouping:
    """Names each shared file's group (xdist_group), before xdist reads the marks."""

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, session, config, items):
        # (a worker's dist is "no": xdist keeps what the controller's was in loadgroup)
        if getattr(config.option, "loadgroup", False) or config.getoption(
                "dist", default=None) == "loadgroup":
            for item in items:
                unit = _unit(item)
                if unit != item.nodeid.split("host_tests/", 1)[-1]:  # more than itself
                    item.add_marker(pytest.mark.xdist_group(unit))


def pytest_configure(config):
    config.pluginmanager.register(_Grouping(), "microrobots-grouping")


@pytest.hookimpl(trylast=True)  # after -k and -m have deselected what will not run
def pytest_collection_modifyitems(session, config, items):
    units, first = {}, {}
    for k, item in enumerate(items):
        unit = _unit(item)
        units.setdefault(unit, []).append(item)
        first.setdefault(unit, k)
    cost = {unit: _cost(unit, members) for unit, members in units.items()}
    order = {id(item): k for k, item in enumerate(items)}

    def key(item):
        unit = _unit(item)
        return (item.fspath.basename in BOARD_TESTS, -cost[unit], first[unit], order[id(item)])

    items.sort(key=key)
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
