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

# -- the order of the files on the workers (make test: --dist loadfile --no-loadscope-reorder) --
# A file goes to one worker (its module's fixtures: a browser, make dist's files, a board
# run, set up once). The files go out longest first (SLOW_S: the slowest files and test
# functions, seconds measured on the dev machine, 2-core x86_64, issue 30; any other test
# counts as DEFAULT_S), so that the long ones start at once and the many short ones fill
# in behind them, and no worker is left alone with a long file at the end; the emulated
# boards' tests go last, whose runs work beside all the rest.
SLOW_S = {
    "web/test_i18n_tour.py::test_the_ricochet_table_fits_every_screen_in_each_language": 60,
    "web/test_i18n_tour.py::test_the_handhelds_tour_fits_every_screen_in_each_language": 60,
    "web/test_web.py::test_a_simulated_battery_dimming_sleep_and_wake": 56,
    "web/test_web.py::test_the_help_line_guides_a_table_a_player_and_a_teacher": 55,
    "web/test_web.py": 60, "tools/test_dist.py": 20, "web/test_ricochet_page.py": 40,
    "tools/test_terminal.py::test_the_help_line_guides_a_table_a_player_and_a_teacher": 75,
    "tools/test_render.py::test_sim_headless_png_draws_the_last_frame": 45,
    "tools/test_render.py::test_cli_writes_the_frame_at_a_time": 24,
    "web/test_web_app.py": 30, "web/test_web_lesson.py": 30, "web/test_web_layout.py": 20,
    "web/test_web_storage.py": 15,
    # (idle, 2-core x86_64: make dist 10 s with its renders and boot kept, 45 s without;
    # the docs' commands 45 s with their bench kept, 120 s without; the fuzzed boots 30 s)
    "tools/test_docs_commands.py": 45, "device/test_fuzz_files.py": 30,
}
DEFAULT_S = 0.1


def _file_costs(items):
    """Each file's seconds (host_tests/-relative path): SLOW_S's for the file, plus its
    functions' that SLOW_S names, plus DEFAULT_S for each of its other tests."""
    costs, named = {}, set()
    for item in items:
        nodeid = item.nodeid.split("host_tests/", 1)[-1]
        path, function = nodeid.split("::")[0], nodeid.split("[")[0]
        if function in SLOW_S:
            if function not in named:
                named.add(function)
                costs[path] = costs.get(path, 0) + SLOW_S[function]
        else:
            costs[path] = costs.get(path, 0) + DEFAULT_S
    for path in costs:
        costs[path] += SLOW_S.get(path, 0)
    return costs


@pytest.hookimpl(trylast=True)  # after -k and -m have deselected what will not run
def pytest_collection_modifyitems(session, config, items):
    cost = _file_costs(items)
    order = {id(item): k for k, item in enumerate(items)}

    def key(item):
        path = item.nodeid.split("host_tests/", 1)[-1].split("::")[0]
        return (item.fspath.basename in BOARD_TESTS, -cost[path], path, order[id(item)])

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
