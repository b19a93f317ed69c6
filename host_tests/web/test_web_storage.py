"""The web page against damaged storage (issue 34): whatever its localStorage holds, the
page comes back. Debian's Chromium driven by Playwright, as test_web.py.

A stored flash the page cannot use is set aside (kept under ``microrobots.flash.v1.bad``,
one line), the page starts; a stored name ``.`` or ``..`` (which FS.writeFile refused,
stopping every boot) is one such; a bad config.json can be removed from the page; what
was set aside can be cleared; no file over 64 KB holds the site's quota.
"""

import json

import pytest

from tools.sim.web import browser as web

_why = web.missing()
if _why:
    pytest.skip("browser tests: " + _why, allow_module_level=True)

KEY = "microrobots.flash.v1"
ASIDE = KEY + ".bad"
SETTINGS = json.dumps({"format": 1, "data": {"brightness": 2}})


@pytest.fixture(scope="module")
def site():
    with web.session() as (browser, url):
        yield browser, url


def open_with(site, stored):
    """A page whose storage held ``stored`` (text) when it was first opened."""
    browser, url = site
    context = browser.new_context()
    context.add_init_script("if (!sessionStorage.getItem('once')) { sessionStorage.setItem('once', 1);"
                            " localStorage.setItem(%s, %s); }" % (json.dumps(KEY), json.dumps(stored)))
    page = context.new_page()
    problems = web.watch(page)
    page.goto(url)
    assert page.evaluate("window.microrobots.ready"), "the page did not start"
    return page, problems


def hook(page, expr):
    return page.evaluate("window.microrobots." + expr)


def console(page):
    """The firmware's console lines so far, as one text."""
    return " | ".join(page.evaluate("window.microrobots.console || []"))


def stored(page, key=KEY):
    return page.evaluate("localStorage.getItem(%s)" % json.dumps(key))


def wait_for(page, condition, timeout=20000):
    page.wait_for_function("() => " + condition, timeout=timeout)


def test_stored_names_that_are_no_files_are_set_aside_and_the_page_boots(site):
    names = [".", "..", "a/b", "x" * 100, ""]  # "..": FS.writeFile threw, on every boot
    text = json.dumps(dict({name: "{}" for name in names}, **{"settings.json": SETTINGS}))
    page, problems = open_with(site, text)
    status = console(page)
    assert 'page storage: 5 entries the page cannot keep (".")' in status
    assert "kept aside as %s; the rest restored" % ASIDE in status
    assert stored(page, ASIDE) == text and hook(page, "mode()") == "menu"
    assert "settings.json" in hook(page, "flash()")  # the good file restored
    wait_for(page, "localStorage.getItem('%s') !== null" % KEY)  # saved again, without it
    assert sorted(json.loads(stored(page))) == ["settings.json"]
    page.reload()
    assert page.evaluate("window.microrobots.ready")
    assert "page storage" not in console(page)  # clean from then on
    page.click("#clear-aside")
    assert stored(page, ASIDE) is None and page.is_hidden("#clear-aside")
    assert problems == []


def test_a_corrupt_stored_flash_is_kept_aside(site):
    page, problems = open_with(site, "{not json")
    assert "page storage: corrupt or cut short" in hook(page, "status")
    assert stored(page, ASIDE) == "{not json" and hook(page, "mode()") == "menu"
    assert problems == []


def test_a_bad_config_json_can_be_removed_from_the_page(site):
    text = json.dumps({"config.json": '{"led_pin": "nowhere"}', "settings.json": SETTINGS})
    page, problems = open_with(site, text)
    assert "config.json" in console(page)
    assert page.is_visible("#remove-config")
    with page.expect_navigation():
        page.click("#remove-config")  # removed, and the page starts again
    assert page.evaluate("window.microrobots.ready")
    assert "config.json" not in hook(page, "flash()") and "config.json" not in json.loads(stored(page))
    assert "config.json" not in console(page)
    assert page.is_hidden("#remove-config")
    page.keyboard.press("Enter")  # and it plays
    wait_for(page, "window.microrobots.mode() === 'solo'")
    assert problems == []


def test_a_huge_stored_file_holds_no_quota(site):
    huge = "x" * (3 << 20)  # a 3 MB damaged settings file, set aside by the device
    page, problems = open_with(site, json.dumps({"settings.bad.json": huge,
                                                 "settings.json": SETTINGS}))
    status = console(page)
    assert '"settings.bad.json": 3072 KB' in status and "dropped (too big to keep)" in status
    wait_for(page, "localStorage.getItem('%s') !== null" % KEY)
    assert len(stored(page)) < 64 * 1024 and stored(page, ASIDE) is None
    assert "settings.bad.json" not in hook(page, "flash()")
    assert problems == []


def test_what_the_device_set_aside_can_be_cleared(site):
    text = json.dumps({"settings.json": SETTINGS, "solo.bad.json": '{"format": 9}'})
    page, problems = open_with(site, text)
    assert page.is_visible("#clear-aside")
    page.click("#clear-aside")
    assert "solo.bad.json" not in hook(page, "flash()")
    wait_for(page, "!('solo.bad.json' in JSON.parse(localStorage.getItem('%s')))" % KEY)
    assert "set-aside files are cleared" in hook(page, "status")
    assert problems == []
