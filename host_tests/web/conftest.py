"""The browser tests' shared rule: a test's pages close when it ends."""

import pytest

from tools.sim.web import browser


@pytest.fixture(autouse=True)
def close_the_tests_pages():
    """Close the browser contexts a test opened (its pages), whether it passed or not;
    those of module fixtures, open before it started, are theirs to close."""
    kept = browser.contexts()
    yield
    browser.close_contexts_but(kept)
