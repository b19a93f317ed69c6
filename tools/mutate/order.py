"""A pytest plugin for mutation runs (``-p tools.mutate.order``): the tests run in the order
of the scope's list of files (MUTATE_TEST_ORDER, comma-separated), the fast targeted
ones first, so that a mutant they catch is judged in seconds (the run stops at the
first failure, -x). mutmut hands pytest the tests that reach a mutant in no set order."""

import os


def pytest_collection_modifyitems(session, config, items):
    order = [p for p in os.environ.get("MUTATE_TEST_ORDER", "").split(",") if p]
    if not order:
        return

    def rank(item):
        path = item.nodeid.split("::")[0]
        for k, p in enumerate(order):
            if path.endswith(p):
                return k
        return len(order)

    items.sort(key=rank)  # stable: within a file, the file's own order
