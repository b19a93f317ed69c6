"""The page in a real browser, for the tests, the screenshots and the benches.

Debian's Chromium (``/usr/bin/chromium``, installed by ``make test``'s system-deps where
apt works), driven by Playwright from PyPI, which cannot download a browser of its own
here. The site is built into a folder and served on 127.0.0.1 by build.py's server::

    reason = missing()                      # None, or one line naming what is missing
    with session() as (browser, url):       # url: http://127.0.0.1:PORT/
        page = browser.new_page()
        page.goto(url + "?fresh")
"""

import contextlib
import os
import shutil
import tempfile
import threading

from tools.sim.web import build

CHROMIUM = "/usr/bin/chromium"
# Without the background-networking flags Chromium keeps trying to reach the network.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")


def chromium():
    if os.path.exists(CHROMIUM):
        return CHROMIUM
    return shutil.which("chromium")


def missing():
    """Why the page cannot be run in a browser here (one line), or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is missing (run make venv)"
    if chromium() is None:
        return "chromium is missing (apt install chromium; make test does it as root)"
    if shutil.which("npm") is None and not os.path.exists(
            os.path.join(build.HERE, "node_modules")):
        return "npm is missing (the page's MicroPython port comes from npm)"
    return None


@contextlib.contextmanager
def session(out=None):
    """Build the site (into ``out``, default a temporary folder), serve it and launch
    Chromium; yields ``(browser, url)``. Everything is stopped on exit."""
    from playwright.sync_api import sync_playwright

    with contextlib.ExitStack() as stack:
        if out is None:
            out = os.path.join(stack.enter_context(tempfile.TemporaryDirectory()), "web")
        site = build.build(out)
        httpd = build.server(site)
        thread = threading.Thread(target=httpd.serve_forever, daemon=True)
        thread.start()
        stack.callback(httpd.server_close)
        stack.callback(httpd.shutdown)
        pw = stack.enter_context(sync_playwright())
        browser = pw.chromium.launch(executable_path=chromium(), args=list(FLAGS))
        stack.callback(browser.close)
        BROWSERS.append(browser)
        stack.callback(BROWSERS.remove, browser)
        yield browser, "http://127.0.0.1:%d/" % httpd.server_port


# The browsers session() has running, so that a test's pages can be closed after it.
BROWSERS = []


def contexts():
    """Every browser context open now, in every running session."""
    return [c for b in BROWSERS for c in b.contexts]


def close_contexts_but(kept):
    """Close every context not in ``kept``: each open page runs the firmware's frame loop
    (a renderer process busy 60 times a second), so pages left open after their test
    pile up (49 renderers, 1.7 cores of a 2-core machine, by the end of test_web.py) and
    starve the timed tests running beside them."""
    for context in contexts():
        if context not in kept:
            context.close()


def watch(page):
    """Collect the page's console errors and uncaught exceptions into a list."""
    problems = []
    page.on("console", lambda m: problems.append("console %s: %s" % (m.type, m.text))
            if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append("page error: %s" % e))
    return problems


def open_page(browser, url, query="?fresh", viewport=(640, 900)):
    """A new page (its own storage) at ``url + query``, started; ``(page, problems)``."""
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    page = context.new_page()
    problems = watch(page)
    page.goto(url + query)
    if not page.evaluate("window.microrobots.ready"):
        raise RuntimeError("the page did not start: %s" % page.evaluate("window.microrobots.status"))
    return page, problems
