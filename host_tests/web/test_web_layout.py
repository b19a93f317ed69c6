"""Guidance always in sight: at a phone's, a laptop's and a projector's sizes, in every
mode, the grid, the guide line (what to do now) and the controls fit the window without
scrolling, and no two of the page's boxes overlap; no text box is cut off.

Measured from the page's layout in Chromium (bounding boxes, scroll sizes), each size a
test; each test walks the modes as a player does (the menu, solo, the referee, the
classroom, the settings) and measures in each, in the page's normal view and, at a
projector's sizes, in the projector view too.
"""

import pytest

from tools.sim.web import browser as web

_why = web.missing()
if _why:
    pytest.skip("browser tests: " + _why, allow_module_level=True)

PHONE = [(390, 844)]
LAPTOP = [(1280, 800), (1366, 768)]
PROJECTOR = [(1920, 1080), (1280, 720)]
# menu quadrant -> the keys that open it from the menu's first quadrant
MODES = {"solo": [], "referee": ["ArrowRight"], "classroom": ["ArrowDown"],
         "settings": ["ArrowDown", "ArrowRight"]}

# The page's layout, measured in the page: every box that shows, whether it is inside the
# window, which pairs overlap, which text is cut off.
MEASURE = """(must) => {
  const W = innerWidth, H = innerHeight;
  const shown = (el) => el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const box = (el) => { const r = el.getBoundingClientRect(); return {x: r.left, y: r.top, r: r.right, b: r.bottom}; };
  const ids = ["title", "options", "screen", "buttons", "power", "now", "status", "guide", "keys", "lesson"];
  const boxes = {};
  for (const id of ids) { const el = document.getElementById(id); if (shown(el)) boxes[id] = box(el); }
  const outside = must.filter((id) => { const b = boxes[id];
    return !b || b.x < -0.5 || b.y < -0.5 || b.r > W + 0.5 || b.b > H + 0.5; });
  const names = Object.keys(boxes);
  const overlaps = [];
  for (let i = 0; i < names.length; i++) for (let j = i + 1; j < names.length; j++) {
    const a = boxes[names[i]], b = boxes[names[j]];
    const w = Math.min(a.r, b.r) - Math.max(a.x, b.x), h = Math.min(a.b, b.b) - Math.max(a.y, b.y);
    if (w > 0.5 && h > 0.5) overlaps.push(names[i] + "/" + names[j]);
  }
  const clipped = [];
  for (const el of document.querySelectorAll("#now, #status, #help, #legend, #keys, header button, header a, #lesson p")) {
    if (!shown(el) || !el.textContent.trim()) continue;
    if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) clipped.push(el.id || el.textContent.slice(0, 20));
  }
  const doc = document.documentElement;
  return {outside, overlaps, clipped, wide: doc.scrollWidth > doc.clientWidth,
          tall: doc.scrollHeight > doc.clientHeight, boxes,
          now: document.getElementById("now").textContent};
}"""


def measure(page, must):
    return page.evaluate(MEASURE, must)


def check(page, where, big):
    must = ["screen", "now", "status"] if big else ["screen", "now", "buttons"]
    m = measure(page, must)
    problems = []
    if m["outside"]:
        problems.append("outside the window: %s" % m["outside"])
    if m["overlaps"]:
        problems.append("overlapping: %s" % m["overlaps"])
    if m["clipped"]:
        problems.append("text cut off: %s" % m["clipped"])
    if m["wide"]:
        problems.append("scrolls sideways")
    if big and m["tall"]:
        problems.append("the projector view scrolls")
    return ["%s: %s (guide %r)" % (where, p, m["now"]) for p in problems]


@pytest.fixture(scope="module")
def site():
    with web.session() as (browser, url):
        yield browser, url


def walk(site, viewport, big):
    """Every mode, measured; the problems found (a list of lines)."""
    browser, url = site
    page, errors = web.open_page(browser, url, "?fresh&seed=3" + ("&view=big" if big else ""),
                                 viewport)
    found = []
    page.wait_for_function("() => window.microrobots.mode() === 'menu'", timeout=60000)
    page.wait_for_timeout(300)
    found += check(page, "menu", big)
    for mode, keys in MODES.items():
        for key in keys:
            page.keyboard.press(key)
            page.wait_for_timeout(150)
        # the quadrant chosen (a busy machine may take a while to show it), then A
        page.wait_for_function("(m) => window.microrobots.guide.includes(m + ': A opens it')", arg=mode,
                               timeout=60000)
        page.keyboard.press("Enter")
        page.wait_for_function("(m) => window.microrobots.mode() === m && window.microrobots.guide",
                               arg=mode, timeout=60000)
        page.wait_for_timeout(400)
        found += check(page, mode, big)
        if mode in ("solo", "referee", "classroom"):  # past the dice: the game's own guide
            page.keyboard.press("Enter")
            page.wait_for_timeout(600)
            found += check(page, mode + " after A", big)
        page.keyboard.down("Backspace")  # held: back to the menu
        page.wait_for_timeout(900)
        page.keyboard.up("Backspace")
        page.wait_for_function("() => window.microrobots.mode() === 'menu'", timeout=60000)
        # the menu's own guide first: keys pressed while the switch back is still under
        # way (a busy machine's page may take seconds) are not the menu's to take
        page.wait_for_function("() => window.microrobots.guide.includes(': A opens it')",
                               timeout=60000)
        for key in keys:  # the menu comes back on the quadrant left: to the first again
            page.keyboard.press({"ArrowRight": "ArrowLeft", "ArrowDown": "ArrowUp"}[key])
            page.wait_for_timeout(150)
        try:
            page.wait_for_function("() => window.microrobots.guide.includes('solo: A opens it')",
                                   timeout=60000)
        except Exception:  # say where it stood: a lost key and a slow page differ
            raise AssertionError("back from %s, the menu shows %r (mode %r) after 60 s" % (
                mode, page.evaluate("window.microrobots.guide"),
                page.evaluate("window.microrobots.mode()"))) from None
    assert errors == []
    page.context.close()
    return found


@pytest.mark.parametrize("viewport", PHONE + LAPTOP + PROJECTOR,
                         ids=lambda v: "%dx%d" % v)
def test_the_grid_the_guide_and_the_controls_fit_in_every_mode(site, viewport):
    problems = walk(site, viewport, big=False)
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("viewport", PROJECTOR, ids=lambda v: "%dx%d" % v)
def test_the_projector_view_fits_in_every_mode(site, viewport):
    problems = walk(site, viewport, big=True)
    assert problems == [], "\n".join(problems)


# The brightest pixel in the canvas's outer margin (the strip outside the cells, as wide as
# the gap between them): only the board's background is drawn there.
MARGIN_LIGHT = """() => {
  const canvas = document.getElementById('grid'), size = canvas.width;
  const gap = Math.floor(size / 60) - 1, ctx = canvas.getContext('2d');
  let light = 0;
  for (const [x, y, w, h] of [[0, 0, gap, size], [size - gap, 0, gap, size], [0, 0, size, gap], [0, size - gap, size, gap]]) {
    const d = ctx.getImageData(x, y, w, h).data;
    for (let k = 0; k < d.length; k += 4) light = Math.max(light, d[k] + d[k + 1] + d[k + 2]);
  }
  return light;
}"""


@pytest.mark.parametrize("viewport", PROJECTOR, ids=lambda v: "%dx%d" % v)
def test_the_whole_graph_stays_on_the_board(site, viewport):
    """The classroom's "whole graph" (G in the projector view): every move a bow between
    two cells; a move along the edge row or column bends inwards, never past the board."""
    browser, url = site
    page, errors = web.open_page(browser, url, "?fresh&seed=3&view=big", viewport)
    page.wait_for_function("() => window.microrobots.mode() === 'menu'", timeout=60000)
    background = page.evaluate(MARGIN_LIGHT)
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.microrobots.mode() === 'classroom'", timeout=60000)
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.microrobots.lesson() !== null", timeout=60000)
    page.keyboard.press("g")
    page.wait_for_function("() => window.microrobots.lesson().graph", timeout=60000)
    page.wait_for_timeout(300)
    assert page.evaluate(MARGIN_LIGHT) <= background + 6
    assert errors == []
    page.context.close()
