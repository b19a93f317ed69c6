"""The classroom's lesson in the web page's projector view, in real Chromium: the search
stepped one cell (or one layer) at a time, breadth-first then depth-first, its counts,
frontier, queue panel and visited count checked at every step against the solver and a
naive queue and stack (test_lesson.reference); the puzzle is the worksheets' for the seed.
"""

import tempfile

import pytest

from microrobots.rules.board import Layout
from microrobots.rules.solver import UNREACHABLE, Solver
from test_lesson import reference
from tools import worksheet
from tools.sim.script import Session
from tools.sim.web import browser as web

SEED = 7
LAYOUT = Layout.named("black:ABCD0000")  # a fresh device's arrangement

_why = web.missing()
if _why:
    pytest.skip("browser tests: " + _why, allow_module_level=True)


@pytest.fixture(scope="module")
def site():
    with web.session() as (browser, url):
        yield browser, url


def classroom_events():
    """A fresh device: the menu, down to the classroom, A opens it, UP pauses it."""
    with tempfile.TemporaryDirectory() as state:
        s = Session(seed=SEED, state=state)
        s.wait(400)
        s.tap("down")
        s.tap("a")
        s.wait(300)
        s.tap("up")
        s.wait(4000)  # the dice have rolled: the wave at layer 0
        room = s.app.current
        assert s.app.mode == "classroom" and room.paused and room.wave.layer == 0
        return s.events_text(), s.t


# The colour of a cell's left ring (page.js lessonCell), below the badge and off the route.
RING_AT = """(i) => {
  const canvas = document.getElementById('grid'), size = canvas.width;
  const gap = size / 60, cell = (size - 7 * gap) / 6;
  const x = gap + (i % 6) * (cell + gap) + cell * 0.05, y = gap + Math.floor(i / 6) * (cell + gap) + cell * 0.7;
  return Array.from(canvas.getContext('2d').getImageData(Math.round(x), Math.round(y), 1, 1).data.slice(0, 3));
}"""


# The colour of a cell's top-right mark (page.js mark()), left of its letter: [r, g, b].
MARK_AT = """(i) => {
  const canvas = document.getElementById('grid'), size = canvas.width;
  const gap = size / 60, cell = (size - 7 * gap) / 6, r = cell * 0.15;
  const x = gap + (i % 6) * (cell + gap) + cell - r * 1.95, y = gap + Math.floor(i / 6) * (cell + gap) + r * 1.2;
  return Array.from(canvas.getContext('2d').getImageData(Math.round(x), Math.round(y), 1, 1).data.slice(0, 3));
}"""


def painted(page):
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def check_moment(page, kind, k, moment, solver, start):
    """The page after ``k`` cells taken equals the reference's moment ``k``."""
    cell, waiting, counts = moment
    got = page.evaluate("window.microrobots.lesson()")
    assert got["search"] == kind and got["step"] == k
    assert got["current"] == (-1 if cell is None else cell)
    assert got["waiting"] == waiting
    assert got["visited"] == k
    assert got["moves"] == [counts.get(c, -1) for c in range(36)]
    if kind == "bfs":  # breadth-first counts are the solver's distances
        dist = solver.distances(start)
        assert all(dist[c] == m for c, m in counts.items())
        assert all(m == -1 or m == dist[c] for c, m in enumerate(got["moves"]))
    queue = page.eval_on_selector_all("#lesson-queue li", "els => els.map((e) => e.textContent)")
    assert queue == ["%s (%d)" % (LAYOUT.token(c), counts[c]) for c in waiting]
    text = page.inner_text("#lesson-counts")
    assert "step %d of" % k in text and "visited %d" % k in text
    assert "seen %d" % len(counts) in text
    return got


def test_the_projector_steps_both_searches_cell_by_cell(site):
    events, until = classroom_events()
    browser, url = site
    page, problems = web.open_page(browser, url, "?clock=manual&view=big&seed=%d" % SEED,
                                   (1280, 720))
    page.evaluate("([text, until]) => { window.microrobots.replay(text, until); }",
                  [events, until])
    solver = Solver(LAYOUT)
    got = page.evaluate("window.microrobots.lesson()")
    start, target = got["start"], got["target"]
    # the same seed, the same puzzle: the worksheet's first
    assert (start, target) == worksheet.classroom_puzzle(LAYOUT, SEED)[:2]
    assert got["following"] and got["step"] == 0 and got["waiting"] == [start]
    assert page.locator("#lesson").is_visible()
    grid, panel = page.locator("#grid").bounding_box(), page.locator("#lesson").bounding_box()
    assert grid["x"] + grid["width"] <= panel["x"]  # beside the grid, not over it

    assert page.inner_text("#now") == page.evaluate("window.microrobots.guide")  # the device's
    painted(page)  # R on the robot (black), T on the target (red), as on the worksheets
    robot, goal = page.evaluate(MARK_AT, start), page.evaluate(MARK_AT, target)
    assert max(robot) < 60, robot
    assert goal[0] > 150 and goal[1] < 80 and goal[2] < 80, goal
    page.keyboard.press("l")  # one cell at a time
    assert page.evaluate("window.microrobots.lesson().unit") == "cell"
    optimum = solver.distances(start)[target]
    for kind in ("bfs", "dfs"):
        moments = reference(LAYOUT, start, kind)
        check_moment(page, kind, 0, moments[0], solver, start)
        found = None
        for k in range(1, len(moments)):
            page.keyboard.press(".")
            got = check_moment(page, kind, k, moments[k], solver, start)
            assert not got["following"]
            assert page.inner_text("#now").startswith("By hand: PageDown")
            if found is None and got["found"]:
                found = k
                assert target in moments[k][2] and target not in moments[k - 1][2]
                length = moments[k][2][target]
                assert "found after visiting %d cells: a route of %d moves" % (k, length) \
                    in page.inner_text("#lesson-found")
                painted(page)  # the cell just taken in its ring, a waiting one in another
                cyan = page.evaluate(RING_AT, got["current"])
                assert cyan[2] > 200 and cyan[0] < 120, cyan
                if got["waiting"]:
                    yellow = page.evaluate(RING_AT, got["waiting"][0])
                    assert yellow[0] > 200 and yellow[1] > 180 and yellow[2] < 140, yellow
        page.keyboard.press(".")  # at the end a step stays there
        assert page.evaluate("window.microrobots.lesson().step") == len(moments) - 1
        row = page.eval_on_selector_all("#compare-%s td" % kind, "els => els.map((e) => e.textContent)")
        assert row == ["%d moves" % moments[-1][2][target], str(found)]
        if kind == "bfs":
            assert moments[-1][2][target] == optimum
            page.keyboard.press("d")  # now depth-first, from its start
            assert page.eval_on_selector_all("#compare-dfs td", "els => els.map((e) => e.textContent)") == ["?", "?"]
    # both rows side by side: depth-first's route is never shorter
    dfs_row = page.eval_on_selector_all("#compare-dfs td", "els => els.map((e) => e.textContent)")
    assert int(dfs_row[0].split()[0]) >= optimum

    # back to breadth-first, a layer at a time: each step ends a layer
    page.keyboard.press("d")
    page.keyboard.press("l")
    dist = [d for d in solver.distances(start)]
    for layer in range(1, optimum + 1):
        page.keyboard.press("PageDown")
        got = page.evaluate("window.microrobots.lesson()")
        assert got["unit"] == "layer"
        assert got["step"] == sum(1 for d in dist if d != UNREACHABLE and d < layer)
        assert sorted(c for c, m in enumerate(got["moves"]) if m >= 0) == \
            sorted(c for c, d in enumerate(dist) if d != UNREACHABLE and d <= layer)
    page.keyboard.press("PageUp")
    assert page.evaluate("window.microrobots.lesson().step") == \
        sum(1 for d in dist if d != UNREACHABLE and d < optimum - 1)

    # the device's own A (Enter) takes the view back to the device's wave, a layer on
    assert page.evaluate("window.microrobots.lesson().following") is False
    page.evaluate("([text, until]) => { window.microrobots.replay(text, until); }",
                  [events + "%d a\n" % (until + 100), until + 600])
    got = page.evaluate("window.microrobots.lesson()")
    assert got["following"] and got["search"] == "bfs"
    assert page.inner_text("#now") == page.evaluate("window.microrobots.guide")
    assert sorted(c for c, m in enumerate(got["moves"]) if m >= 0) == \
        sorted(c for c, d in enumerate(dist) if d != UNREACHABLE and d <= 1)
    assert page.evaluate("window.microrobots.reached()") == [d if d <= 1 else -1 for d in dist]

    # the whole graph: every move drawn over the board
    before = page.evaluate("document.getElementById('grid').toDataURL()")
    page.keyboard.press("g")
    painted(page)
    assert page.evaluate("window.microrobots.lesson().graph")
    assert page.evaluate("document.getElementById('grid').toDataURL()") != before
    page.keyboard.press("p")  # the normal view: no lesson panel
    assert page.evaluate("window.microrobots.lesson()") is None
    assert not page.locator("#lesson").is_visible()
    assert problems == []


@pytest.mark.parametrize("viewport", [(1024, 768), (1920, 1080)])
def test_the_panel_sits_beside_the_grid_on_a_4_3_and_a_16_9_projector(site, viewport):
    events, until = classroom_events()
    browser, url = site
    page, problems = web.open_page(browser, url, "?clock=manual&view=big&seed=%d" % SEED,
                                   viewport)
    page.evaluate("([text, until]) => { window.microrobots.replay(text, until); }",
                  [events, until])
    page.keyboard.press(".")
    grid, panel = page.locator("#grid").bounding_box(), page.locator("#lesson").bounding_box()
    assert grid["x"] + grid["width"] <= panel["x"] <= viewport[0] - 200
    assert grid["width"] >= 0.55 * viewport[0] or grid["height"] >= 0.85 * viewport[1]
    for part in ("#lesson-queue", "#lesson-counts", "#compare-dfs"):
        box = page.locator(part).bounding_box()
        assert box["y"] + box["height"] <= viewport[1], part  # no scrolling in class
    font = page.eval_on_selector("#lesson-counts", "e => parseFloat(getComputedStyle(e).fontSize)")
    assert font >= 16  # from the back of the room
    assert problems == []


def lesson_events(boot_seed, lesson):
    """A fresh device booted with ``boot_seed``: the settings, up to item 9 (the lesson),
    right to ``lesson``, the menu, the classroom (paused, its dice rolled); then A through
    the first puzzle's wave and route to the second."""
    with tempfile.TemporaryDirectory() as state:
        s = Session(seed=boot_seed, state=state)
        s.wait(400)
        s.tap("right")
        s.tap("down")
        s.tap("a")
        s.tap("up", 5)  # from item 1 up: 13 (the self-test), 12 (the battery), 11, 10, item 9
        s.tap("right", lesson)
        s.hold("b")
        s.tap("left")
        s.tap("a")
        s.wait(300)
        s.tap("up")
        s.wait(4000)
        room = s.app.current
        assert s.app.mode == "classroom" and room.paused and s.app.settings["lesson"] == lesson
        first = s.events_text(), s.t
        while s.app.settings["puzzle"] == 1:
            s.tap("a")
        s.wait(4000)
        return first, (s.events_text(), s.t)


def test_a_lesson_set_with_the_buttons_shows_the_sheets_puzzles(site):
    """The page runs the handheld's firmware: its settings' lesson 12 (on a device booted
    with another seed) gives the worksheets' --seed 12 puzzles 1 and 2, the help line
    naming the lesson and the puzzle."""
    browser, url = site
    for puzzle, (events, until) in enumerate(lesson_events(SEED, 12), 1):
        page, problems = web.open_page(browser, url, "?clock=manual&view=big&seed=%d" % SEED,
                                       (1280, 720))
        page.evaluate("([text, until]) => { window.microrobots.replay(text, until); }",
                      [events, until])
        got = page.evaluate("window.microrobots.lesson()")
        assert (got["start"], got["target"]) == worksheet.classroom_puzzle(
            LAYOUT, 12, puzzle)[:2] != worksheet.classroom_puzzle(LAYOUT, SEED, puzzle)[:2]
        assert page.inner_text("#now").startswith("lesson 12, puzzle %d: " % puzzle)
        assert problems == []
        page.close()
