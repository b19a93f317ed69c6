"""A pytest plugin for mutation runs (``-p tools.mutate.order``): the tests that reach a
mutant run fastest first, by the durations mutmut measured when it traced the clean run,
so that a mutant a quick test catches is judged in milliseconds (the run stops at the
first failure, -x). A test mutmut has no duration for keeps the order of the scope's
list of files (MUTATE_TEST_ORDER, comma-separated), after the timed ones."""

import os


def _durations():
    try:
        from mutmut.state import state
    except ImportError:  # pytest run by hand with -p tools.mutate.order
        return {}
    return state().duration_by_test


def pytest_collection_modifyitems(session, config, items):
    order = [p for p in os.environ.get("MUTATE_TEST_ORDER", "").split(",") if p]
    durations = _durations()

    def rank(item):
        path = item.nodeid.split("::")[0]
        for k, p in enumerate(order):
            if path.endswith(p):
                return k
        return len(order)

    def key(item):
        seconds = durations.get(item.nodeid)
        if seconds is None:
            return (1, rank(item), 0.0)
        return (0, 0, seconds)

    items.sort(key=key)  # stable: within a file, the file's own order
