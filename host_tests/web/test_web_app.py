"""The page as a player gets it from a release: make dist's .zip unpacked into an empty
folder and served by a plain static server (Python's http.server, nothing of ours), in
Chromium: it boots and plays; after one visit it boots and plays with the network cut
(the service worker); Chromium finds it installable (its manifest and icons); the
device's flash goes out as one file (Export) and comes back in (Import), a bad file
refused in one line with nothing changed.
"""

import functools
import http.server
import os
import threading
import zipfile

import pytest

from tools import dist
from tools.sim.web import browser as web

_why = web.missing()
if _why:
    pytest.skip("browser tests: " + _why, allow_module_level=True)


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The release's .zip unpacked into an empty folder, served by http.server."""
    made = tmp_path_factory.mktemp("made")
    archive = dist.web(str(made))
    empty = tmp_path_factory.mktemp("unpacked")
    assert not os.listdir(empty)
    with zipfile.ZipFile(archive) as z:
        z.extractall(empty)
    root = os.path.join(empty, dist.WEB)
    handler = functools.partial(Quiet, directory=root)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=web.chromium(), args=list(web.FLAGS))
        try:
            yield chromium, "http://127.0.0.1:%d/" % httpd.server_port
        finally:
            chromium.close()
            httpd.shutdown()
            httpd.server_close()


def new_page(served, query="", context=None):
    chromium, url = served
    context = context or chromium.new_context(viewport={"width": 640, "height": 900},
                                              accept_downloads=True)
    page = context.new_page()
    problems = web.watch(page)
    page.goto(url + query)
    assert page.evaluate("window.microrobots.ready"), page.evaluate("window.microrobots.status")
    return page, problems


def hook(page, expr):
    return page.evaluate("window.microrobots." + expr)


def plays(page):
    """The menu, then A opens the solo game: the device runs."""
    page.wait_for_function("() => window.microrobots.mode() === 'menu'", timeout=60000)
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.microrobots.mode() === 'solo'", timeout=60000)
    return True


def test_the_unpacked_zip_boots_and_plays_from_a_plain_static_server(served):
    page, problems = new_page(served)
    assert plays(page)
    assert problems == []
    page.context.close()


def test_after_one_visit_the_page_boots_and_plays_offline(served):
    page, problems = new_page(served)
    assert page.evaluate("window.microrobots.offline") is True
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60000)
    page.context.set_offline(True)
    with pytest.raises(Exception, match="Failed to fetch"):  # the network is really cut
        page.evaluate("fetch('/no-such-file-%d').then(r => r.status)" % os.getpid())
    page.wait_for_timeout(200)
    problems.clear()  # (the failed fetch's own console line)
    page.reload()
    assert page.evaluate("window.microrobots.ready"), hook(page, "status")
    assert plays(page)
    again = page.context.new_page()  # a new tab, offline, with a URL parameter
    again.goto(served[1] + "?seed=7")
    assert again.evaluate("window.microrobots.ready")
    assert again.evaluate("window.microrobots.seed") == 7
    assert problems == []
    page.context.close()


def test_chromium_finds_the_page_installable(served):
    page, _ = new_page(served)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60000)
    cdp = page.context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # (a test browser's every context is incognito-like: that one says nothing of the page)
    errors = [e for e in errors if e["errorId"] != "in-incognito"]
    assert errors == [], errors
    manifest = cdp.send("Page.getAppManifest")
    assert not manifest.get("errors"), manifest["errors"]
    page.context.close()


# -- export and import ---------------------------------------------------------------------

def played(page):
    """A solo game begun and saved on the page's flash; the flash then."""
    plays(page)
    page.keyboard.press("Enter")  # skip the dice
    page.wait_for_timeout(300)
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(200)
    page.keyboard.press("Enter")
    page.wait_for_function("() => 'solo.json' in window.microrobots.flash()", timeout=60000)
    return hook(page, "flash()")


def export(page, tmp_path):
    with page.expect_download() as info:
        page.click("#export")
    path = tmp_path / info.value.suggested_filename
    info.value.save_as(path)
    return path


def test_export_then_import_in_another_browser_brings_the_game_along(served, tmp_path):
    page, problems = new_page(served)
    flash = played(page)
    path = export(page, tmp_path)
    assert path.name.startswith("micro-robots-flash-") and path.suffix == ".txt"
    assert path.read_bytes().startswith(b"Micro Robots flash 1\n")
    other, more = new_page(served)  # another browser: its own storage, a fresh device
    assert "solo.json" not in hook(other, "flash()")
    with other.expect_navigation():
        other.set_input_files("#import-file", str(path))
    assert other.evaluate("window.microrobots.ready")
    assert hook(other, "flash()") == {k: v for k, v in flash.items() if k.endswith(".json")}
    other.wait_for_function("() => window.microrobots.mode() === 'solo'", timeout=60000)
    assert problems == [] and more == []
    page.context.close()
    other.context.close()


def entry(name, data):
    return b"%s %d\n%s\n" % (name.encode(), len(data), data)


@pytest.mark.parametrize("content, words", [
    (b"", "not a Micro Robots flash file"),
    (b"Micro Robots flash 1\nsettings.json 5\n{\"a\":\nend\n", "settings.json"),
    (b"Micro Robots flash 1\nsettings.json 30\n{\"format\": 1, \"data\": {}}", "cut short"),
    (b"Micro Robots flash 1\nevil.json 2\n{}\nend\n", "not a file of the device"),
    (b"Micro Robots flash 1\n" + entry("settings.json", b'{"format": 1, "data": {"brightness": 99}}')
     + b"end\n", "brightness"),
    (b"x" * 40000, "over"),
])
def test_a_bad_file_is_refused_in_one_line_and_nothing_is_replaced(served, tmp_path, content,
                                                                      words):
    page, problems = new_page(served)
    flash = played(page)
    path = tmp_path / "bad.txt"
    path.write_bytes(content)
    page.set_input_files("#import-file", str(path))
    page.wait_for_function("() => window.microrobots.status.startsWith('import:')", timeout=60000)
    status = hook(page, "status")
    assert status.startswith('import: "bad.txt": ') and status.endswith("nothing was changed")
    assert words in status and "\n" not in status
    page.wait_for_timeout(300)
    assert hook(page, "flash()") == flash and hook(page, "mode()") == "solo"
    stored = page.evaluate("JSON.parse(localStorage.getItem('microrobots.flash.v1'))")
    assert stored == flash
    assert problems == []
    page.context.close()
