"""The web page (tools/sim/web/) in a real browser: Debian's Chromium driven by Playwright.

The firmware runs in MicroPython's WebAssembly port, the page is its board
(firmware/microrobots/device/hw/web.py). One browser serves the whole module; each test opens
its pages in a context of their own (their own storage) and fails on any console error
or uncaught exception. Without chromium, playwright or npm the module is skipped with
one line naming what is missing.
"""

import itertools
import json
import os
import tempfile

import pytest

from tools.sim import headless as sim
from tools.sim.script import Session
from tools.sim.web import browser as web

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IMAGES = os.path.join(ROOT, "docs", "images")

_why = web.missing()
if _why:
    pytest.skip("browser tests: " + _why, allow_module_level=True)


@pytest.fixture(scope="module")
def site():
    with web.session() as (browser, url):
        yield browser, url


def open_page(site, query="?fresh", viewport=(640, 900)):
    browser, url = site
    return web.open_page(browser, url, query, viewport)


def hook(page, expr):
    return page.evaluate("window.microrobots." + expr)


def wait_for(page, condition, timeout=20000):  # generous: the machine may be busy
    page.wait_for_function("() => " + condition, timeout=timeout)


# -- frames: the page replays an events file as tools.sim --headless does --------------------------

def session_events(kind):
    """Events files recorded by a scripted player (tools/sim/script.py), and the seed."""
    s = Session(seed=11)
    if kind == "solo round":
        s.tap("a")
        s.solo_round()
        s.wait(3000)
    elif kind == "referee, a wrong claim":
        s.tap("right")
        s.tap("a")
        s.settle()
        ref = s.app.current
        route = ref.game.route()
        s.claim(0, len(route), route[1:])  # one move more than shown: wrong
        s.wait(3000)
    return s.events_text(), 11, s.t + 1500


def image_events(name):
    path = os.path.join(IMAGES, name + ".events")
    with open(path) as f:
        text = f.read()
    seed, until = __import__("tools.draw.images", fromlist=["spec"]).spec(path)
    return text, seed, until


CASES = {
    "menu": lambda: ("300 right\n600 down\n900 left\n1200 up\n1500 right\n", 3, 2400),
    "solo round": lambda: session_events("solo round"),
    "referee, a wrong claim": lambda: session_events("referee, a wrong claim"),
    "classroom wave": lambda: image_events("classroom-wave"),
}


def headless_frames(text, seed, until):
    """python -m tools.sim --headless on a new device (an empty flash, as the page's)."""
    with tempfile.TemporaryDirectory() as state:
        lines = sim.run_driver(sim.mask_lines(sim.parse_events(text)), seed, until,
                               state=state)
    return [json.loads(line) for line in lines if '"pixels"' in line]


@pytest.mark.parametrize("case", list(CASES))
def test_a_replayed_events_file_gives_the_headless_frames(site, case):
    text, seed, until = CASES[case]()
    expected = headless_frames(text, seed, until)
    page, problems = open_page(site, "?clock=manual&seed=%d" % seed)
    frames = page.evaluate("([text, until]) => window.microrobots.replay(text, until)",
                           [text, until])
    assert len(frames) == len(expected) > 5
    for got, want in zip(frames, expected):
        assert got == want, "first difference at t=%d ms" % want["t"]
    if case == "referee, a wrong claim":
        assert any(f["mode"] == "referee" for f in frames)
    assert problems == []


def test_a_bad_events_file_is_one_line_from_the_page(site):
    page, problems = open_page(site, "?clock=manual&seed=1")
    with pytest.raises(Exception) as err:
        page.evaluate("window.microrobots.replay('100 jump\\n')")
    assert "events:1: unknown button 'jump'" in str(err.value)


# -- as a player meets it -------------------------------------------------------------------------

def test_the_page_loads_without_errors_and_shows_the_menu(site):
    page, problems = open_page(site)
    assert hook(page, "mode()") == "menu"
    assert any(hook(page, "pixels()"))  # the grid is lit, not blank
    assert "webassembly" in hook(page, "runtime")
    assert page.locator("#loading").is_hidden()
    assert problems == []


def test_keys_and_on_screen_buttons_change_the_grid(site):
    page, problems = open_page(site)
    menu = hook(page, "pixels()")
    page.keyboard.press("ArrowRight")  # the menu's choice moves to the referee
    page.keyboard.press("Enter")  # and A opens it
    wait_for(page, "window.microrobots.mode() === 'referee'")
    assert hook(page, "pixels()") != menu
    page.keyboard.down("Backspace")  # B held (a long press): back to the menu
    page.wait_for_timeout(900)
    page.keyboard.up("Backspace")
    wait_for(page, "window.microrobots.mode() === 'menu'")
    page.click("button[aria-label=down]")  # on screen: down to the classroom, A opens it
    page.click("button[aria-label=left]")
    page.click("button[aria-label=A]")
    wait_for(page, "window.microrobots.mode() === 'classroom'")
    button = page.locator("button[aria-label=B]").bounding_box()
    page.mouse.move(button["x"] + button["width"] / 2, button["y"] + button["height"] / 2)
    page.mouse.down()  # held on screen: a long press, back to the menu
    page.wait_for_timeout(900)
    assert "held" in page.get_attribute("button[aria-label=B]", "class")
    page.mouse.up()
    wait_for(page, "window.microrobots.mode() === 'menu'")
    assert problems == []


# One quick tap (down and up at once), then the frames' polls at these times after it (ms).
TAP_POLLS = """(times) => {
  const latch = window.microrobots.buttons;
  latch.press(5); latch.release(5);  // (a first press may take a while: it unlocks the sound)
  const t = latch.since[5];
  return times.map((dt) => latch.mask(t + dt, true) >> 5 & 1);
}"""


def test_a_quick_tap_is_held_for_the_firmware_to_see_and_no_longer(site):
    """A tap shorter than a frame is held until the firmware has polled it (three frames
    at 20 ms), but on a slow page (frames 200 ms apart) not across the firmware's 400 ms
    repeat delay: held for three such frames, one tap of the menu's D-pad counted twice
    (it flips the column and back). The whole sequence runs in one evaluate: no frame of
    the page's own polls in between."""
    page, problems = open_page(site)
    assert page.evaluate(TAP_POLLS, [5, 25, 45, 65, 85]) == [1, 1, 1, 0, 0]
    assert page.evaluate(TAP_POLLS, [200, 400, 600]) == [1, 0, 0]
    assert page.evaluate(TAP_POLLS, [200, 230, 400]) == [1, 1, 0]  # 30 ms apart: not yet seen
    assert problems == []


def test_a_reload_keeps_the_game(site):
    page, problems = open_page(site, "")  # the page's own device: its flash is kept
    page.keyboard.press("Enter")  # solo: a game starts and is saved
    wait_for(page, "window.microrobots.mode() === 'solo' && 'solo.json' in window.microrobots.flash()")
    game = hook(page, "flash()")["solo.json"]
    page.reload()
    assert hook(page, "ready")
    assert hook(page, "mode()") == "solo"  # resumed, not a new game
    assert hook(page, "flash()")["solo.json"] == game
    status = hook(page, "status")  # it said "Ready: the menu" over a resumed game
    assert "Resumed where it was left: the solo" in status and "menu." in status
    page.keyboard.press("ArrowRight")  # a key: the greeting goes, as a notice does
    wait_for(page, "window.microrobots.status === ''")
    assert "cannot be read" not in hook(page, "status")  # the flash reads in WebAssembly
    assert problems == []


def test_a_second_tab_that_saves_stops_the_first_from_overwriting_it(site):
    first, problems = open_page(site, "")  # the page's own device, in one browser profile
    first.keyboard.press("Enter")  # solo: a game starts and is saved
    wait_for(first, "'solo.json' in window.microrobots.flash()")
    second = first.context.new_page()  # a second tab of the same page: the same storage
    problems += web.watch(second)
    second.goto(site[1])
    assert second.evaluate("window.microrobots.ready") and hook(second, "mode()") == "solo"

    def referee(page):  # hold B: the menu; right, A: the referee starts and saves a game
        page.keyboard.down("Backspace")
        page.wait_for_timeout(900)
        page.keyboard.up("Backspace")
        wait_for(page, "window.microrobots.mode() === 'menu'")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
        wait_for(page, "'referee.json' in window.microrobots.flash()")

    referee(second)
    wait_for(first, "!window.microrobots.saving()")
    assert "another tab of this page saved its games" in hook(first, "status")
    assert hook(second, "saving()")
    newest = hook(second, "flash()")
    referee(first)  # the first tab plays on, with a game of its own...
    assert hook(first, "flash()")["referee.json"] != newest["referee.json"]
    first.wait_for_timeout(200)  # ...and leaves the second tab's games in the storage
    assert json.loads(first.evaluate("localStorage.getItem('microrobots.flash.v1')")) == newest
    first.reload()  # a reload takes over: the second tab's referee game
    assert first.evaluate("window.microrobots.ready") and hook(first, "mode()") == "referee"
    assert hook(first, "flash()") == newest and hook(first, "saving()")
    assert problems == []


@pytest.mark.parametrize("stored, notice", [
    ("{not json", "page storage: corrupt or cut short"),
    (json.dumps({"settings.json": '{"format": 1, "data": {"bri'}),
     "settings.json: corrupt or cut short (not valid JSON); using defaults"),
])
def test_a_corrupt_stored_state_shows_the_notice_and_recovers(site, stored, notice):
    browser, url = site
    context = browser.new_context()
    context.add_init_script("if (!sessionStorage.getItem('once')) { sessionStorage.setItem('once', 1);"
                            " localStorage.setItem('microrobots.flash.v1', %s); }" % json.dumps(stored))
    page = context.new_page()
    problems = web.watch(page)
    page.goto(url)
    assert page.evaluate("window.microrobots.ready")
    assert notice in hook(page, "status")
    assert hook(page, "mode()") == "menu"
    page.keyboard.press("Enter")  # and it plays on
    wait_for(page, "window.microrobots.mode() === 'solo'")
    wait_for(page, "'solo.json' in JSON.parse(localStorage.getItem('microrobots.flash.v1'))")
    page.reload()
    assert page.evaluate("window.microrobots.ready") and hook(page, "mode()") == "solo"
    assert notice not in hook(page, "status")  # repaired by the next save
    assert problems == []


def test_bad_url_parameters_give_notices_and_defaults(site):
    page, problems = open_page(site, "?seed=abc&view=huge&colour=1&game=MR1.9.x")
    status = " | ".join(hook(page, "console"))
    for words in ("URL seed=\"abc\": not a whole number", "URL view=\"huge\"",
                  "unknown parameter \"colour\"", "URL game: share string"):
        assert words in status
    assert hook(page, "mode()") == "menu"
    page.keyboard.press("Enter")
    wait_for(page, "window.microrobots.mode() === 'solo'")
    assert problems == []


def test_a_share_string_in_the_url_resumes_that_game(site):
    share = "MR1.3x.2026.black:CADB0312.b9ob3b-"
    page, problems = open_page(site, "?game=" + share)
    assert hook(page, "mode()") == "referee"
    saved = json.loads(hook(page, "flash()")["referee.json"])["data"]["game"]
    assert saved["decisions"] == "b9ob3b-" and saved["seed"] == 2026 and saved["players"] == 3
    assert problems == []


def test_the_projector_view_fills_the_viewport(site):
    page, problems = open_page(site, "?fresh&view=big", viewport=(1280, 720))
    box = page.locator("#grid").bounding_box()
    assert box["height"] >= 0.9 * 720 - 40 and box["height"] == box["width"]
    assert page.locator("#buttons").is_hidden()
    page.keyboard.press("p")  # and back
    assert page.locator("#buttons").is_visible()
    page.keyboard.press("h")  # high contrast
    assert page.get_attribute("#contrast", "aria-pressed") == "true"
    assert problems == []


def swatch_colours(page):
    return page.eval_on_selector_all(
        "#legend .swatch", "els => els.map((e) => getComputedStyle(e).backgroundColor)")


def test_the_page_says_what_the_buttons_do_and_how_counts_read(site):
    """The same help as make play's (tools/sim/help.py) for the mode shown, and the
    legend of the counts with its four colours."""
    from microrobots import palette
    from tools.sim import help as onscreen

    page, problems = open_page(site)
    legend = page.inner_text("#legend")
    assert "counts: label (whose), then" in legend and "50" in legend and "10" in legend
    assert swatch_colours(page) == ["rgb(%d, %d, %d)" % c for c in palette.TALLY]

    def help_text():  # one span per item: shown " · "-separated, or a line each
        return page.eval_on_selector_all("#help span", "els => els.map((e) => e.textContent)"
                                         ".join(' · ')")

    assert help_text() == onscreen.mode_help("menu")
    page.keyboard.press("Enter")
    wait_for(page, "window.microrobots.mode() === 'solo'")
    wait_for(page, "document.getElementById('help').innerText.includes('give up')")
    assert help_text() == onscreen.mode_help("solo")
    assert "hold A again: give up" in help_text()
    page.keyboard.down("Backspace")
    page.wait_for_timeout(900)
    page.keyboard.up("Backspace")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    wait_for(page, "window.microrobots.mode() === 'referee'")
    wait_for(page, "document.getElementById('help').innerText.includes('undoes')")
    assert "B again undoes it" in help_text()
    assert problems == []


@pytest.mark.parametrize("viewport", [(1920, 1080), (1280, 720)])
def test_the_projector_view_explains_the_keys_beside_the_grid(site, viewport):
    page, problems = open_page(site, "?fresh&view=big", viewport=viewport)
    grid = page.locator("#grid").bounding_box()
    for part in ("#help", "#legend"):
        box = page.locator(part).bounding_box()
        assert page.locator(part).is_visible()
        assert box["x"] + box["width"] <= grid["x"]  # in the margin, left of the grid
        assert box["y"] >= 0 and box["y"] + box["height"] <= viewport[1]
    font = page.eval_on_selector("#help", "e => parseFloat(getComputedStyle(e).fontSize)")
    assert font >= 14  # readable from a few rows back
    assert "A: open it" in page.inner_text("#help")
    assert problems == []


# -- the help line: a guide at every step -----------------------------------------------------

# Where a cell's distance badge is drawn on the canvas (page.js distance()), and how dark
# its ring is: the lightest of a few points around the number.
RING = """(i) => {
  const canvas = document.getElementById('grid'), size = canvas.width;
  const gap = size / 60, cell = (size - 7 * gap) / 6, r = cell * 0.17;
  const x = gap + (i % 6) * (cell + gap) + r * 1.15, y = gap + Math.floor(i / 6) * (cell + gap) + r * 1.15;
  const ctx = canvas.getContext('2d');
  let light = 0;
  for (const [dx, dy] of [[-0.8, 0], [0.8, 0], [0, -0.8], [0, 0.85]]) {
    const p = ctx.getImageData(Math.round(x + dx * r), Math.round(y + dy * r), 1, 1).data;
    light = Math.max(light, p[0] + p[1] + p[2]);
  }
  return light;
}"""


def test_the_help_line_guides_a_table_a_player_and_a_teacher(site, tmp_path):
    """A three-player referee game to its winner, a solo round and the classroom
    (host_tests/tour.py), replayed step by step: after each, the page's help line says
    what the firmware's modes say (the same as make play's), word for word; in the
    projector view the classroom's reached cells carry their distance."""
    import tour

    steps = tour.tour(str(tmp_path))
    page, problems = open_page(site, "?clock=manual&view=big&seed=%d" % tour.SEED,
                               viewport=(1280, 720))
    seen = []
    for step in steps:
        page.evaluate("([text, until]) => { window.microrobots.replay(text, until); }",
                      ["\n".join(step.events) + "\n", step.t])
        assert hook(page, "guide") == step.guide, "after %s" % step
        assert page.inner_text("#now") == step.guide
        seen.append(step.guide)
        if step.reached is not None and max(step.reached) > 0:
            assert hook(page, "reached()") == step.reached
            page.evaluate("() => new Promise((r) => requestAnimationFrame(() => "
                          "requestAnimationFrame(r)))")  # painted
            for i, d in enumerate(step.reached):
                if d > 0:  # a dark badge with the number over the lit cell
                    assert page.evaluate(RING, i) < 150, "cell %d, distance %d" % (i, d)
    for words in ("welcome", "4 of 13, players: 3", "who claims?", "player 3 claims 3 moves?",
                  "move 2 of 3", "wrong: the claim is below the optimum", "player 1 wins",
                  "you 8, optimum 6", "layer 2: every cell 2 moves away"):
        assert any(words in line for line in seen), words
    assert problems == []


def gap(a, b):
    """The distance between two boxes (0 when they touch or overlap)."""
    dx = max(0, max(a["x"], b["x"]) - min(a["x"] + a["width"], b["x"] + b["width"]))
    dy = max(0, max(a["y"], b["y"]) - min(a["y"] + a["height"], b["y"] + b["height"]))
    return (dx * dx + dy * dy) ** 0.5


@pytest.mark.parametrize("viewport", [(360, 740), (390, 844)])
def test_on_a_phone_every_button_keeps_its_distance(site, viewport):
    """A thumb on a phone: every button and link of the page at least 8 px from every
    other, all of them on the screen's width."""
    page, problems = open_page(site, viewport=viewport)
    names = page.eval_on_selector_all(
        "button, nav a", "els => els.map((e) => e.getAttribute('aria-label') || e.id)")
    boxes = [page.locator("button, nav a").nth(k).bounding_box() for k in range(len(names))]
    assert len(boxes) == 12 and all(boxes)
    canvas = page.evaluate("[document.getElementById('grid').width, "
                           "document.getElementById('grid').height]")
    assert canvas[0] == canvas[1] > 0  # the whole grid drawn (a 300 px canvas was cut to 150)
    for box, name in zip(boxes, names):
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport[0], name
    for (a, na), (b, nb) in itertools.combinations(zip(boxes, names), 2):
        assert gap(a, b) >= 8, "%s and %s: %.1f px apart" % (na, nb, gap(a, b))
    assert problems == []


def test_a_simulated_battery_dimming_sleep_and_wake(site):
    """The power panel: the slider runs the device on a simulated cell (the gauge reads
    the same charge), the grid dims after a minute without a button, goes dark and sleeps
    after five, and a button wakes it without being taken as a move."""
    from tools.sim import terminal

    page, problems = open_page(site, "?fresh&clock=manual&seed=5")
    assert page.evaluate("[...Array(101).keys()].map((p) => window.microrobots.cellMillivolts(p))") \
        == [terminal.millivolts(p) for p in range(101)]
    assert hook(page, "power()")["usb"] is True
    page.locator("#battery").fill("12")  # the slider: USB unplugged, a cell at 12 %
    assert page.inner_text("#battery-value") == "12 %" and not page.is_checked("#usb")

    def replay(text, until):
        page.evaluate("([text, until]) => { window.microrobots.replay(text, until); }", [text, until])

    replay("", 2000)
    power = hook(page, "power()")
    assert power == {"state": "awake", "percent": 12, "low": True, "critical": False, "usb": False}
    assert "battery 12 % — low" in page.inner_text("#power-state")
    bright = sum(hook(page, "pixels()"))
    replay("", 62000)
    assert hook(page, "power()")["state"] == "dimmed"
    assert "dimmed" in page.inner_text("#power-state")
    assert 0 < sum(hook(page, "pixels()")) < bright
    replay("", 301000)
    assert hook(page, "power()")["state"] == "asleep"
    assert sum(hook(page, "pixels()")) == 0  # dark
    assert page.evaluate("[microrobotsBoard.supply, microrobotsBoard.sleeps > 0]") == [False, True]
    assert "asleep: any button wakes it" in page.inner_text("#power-state")
    mode = hook(page, "mode()")
    replay("301500 right\n", 302500)  # wakes it: the menu's quadrant stays where it was
    assert hook(page, "power()")["state"] == "awake" and hook(page, "mode()") == mode
    assert page.evaluate("microrobotsBoard.supply") is True
    assert sum(hook(page, "pixels()")) > 0
    page.check("#usb")
    replay("", 304000)
    assert hook(page, "power()")["usb"] is True and page.inner_text("#battery-value") == "USB"
    assert problems == []
