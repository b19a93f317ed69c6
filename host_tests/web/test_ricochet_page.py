"""The Ricochet table page (tools/ricochet/web/) in a real browser, as a table meets it.

Debian's Chromium driven by Playwright (tools/sim/web/browser.py finds it); the page's
host (tools/ricochet/serve.py) runs in this process. The page runs on a manual clock
(``?clock=manual``): the sand timer and the animations move only when a test calls
``window.ricochet.advance(ms)``, so a minute of bidding takes no time. Every test fails on
a console error or an uncaught exception in the page.
"""

import threading

import pytest

from tools.ricochet import serve
from tools.sim.web import browser as web

from tools.ricochet.table import rr  # the rules module, imported in one place (table.py)


def _missing():
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is missing (run make venv)"
    if web.chromium() is None:
        return "chromium is missing (apt install chromium; make test does it as root)"
    return None


if _missing():
    pytest.skip("table page tests: " + _missing(), allow_module_level=True)

CELL_MS = 90  # table.js: a robot slides one cell in this long
PAUSE_MS = 700  # table.js: between the optimum's moves


@pytest.fixture(scope="module")
def site():
    from playwright.sync_api import sync_playwright

    httpd = serve.server()
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=web.chromium(), args=list(web.FLAGS))
        yield browser, "http://127.0.0.1:%d/" % httpd.server_port
        browser.close()
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def page(site):
    browser, url = site
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.problems = web.watch(page)
    page.url0 = url
    yield page
    context.close()
    assert page.problems == []


def open_page(page, query=""):
    page.goto(page.url0 + "?clock=manual" + query)
    page.wait_for_function("window.ricochet && window.ricochet.ready", timeout=20000)
    return page


def state(page):
    return page.evaluate("window.ricochet.state()")


def advance(page, ms):
    page.evaluate("(ms) => window.ricochet.advance(ms)", ms)


def settle(page):
    """Wait for the host's answer, then play any animation to its end."""
    page.wait_for_function("!window.ricochet.state().busy || window.ricochet.state().animating",
                           timeout=20000)
    advance(page, 20 * CELL_MS)
    page.wait_for_function("!window.ricochet.state().busy", timeout=20000)


def status(page):
    return page.text_content("#status")


def centre(page, selector):
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def drag(page, robot, cell):
    """Press on the robot in the tray, move to the cell and let go, as a hand does."""
    page.mouse.move(*centre(page, '#tray [data-robot="%s"]' % robot))
    page.mouse.down()
    page.mouse.move(*centre(page, '#board [data-cell="%d"]' % cell), steps=8)
    page.mouse.up()


def choose_faces(page, faces):
    """Tap each quarter, then its face; wait until the host has drawn the board."""
    for quadrant, face in zip(("NW", "NE", "SE", "SW"), faces.split(",")):
        page.click('[data-quadrant="%s"]' % quadrant)
        page.click('[data-face="%s"]' % face)
    page.wait_for_function("(f) => window.ricochet.state().board === f", arg=faces)


def set_up(page, game, by_drag=("red", "green", "blue", "yellow")):
    """The deal ``game`` set up by clicks: faces, robots (dragged, or tapped then placed),
    the target chip."""
    faces, robots, target = rr.decode_game(game)
    choose_faces(page, ",".join(faces))
    for who in range(rr.ROBOT_COUNT):
        if robots[who] == rr.ABSENT:
            continue
        name = rr.ROBOT_NAMES[who]
        if name in by_drag:
            drag(page, name, robots[who])
        else:
            page.click('#tray [data-robot="%s"]' % name)
            page.click('#board [data-cell="%d"]' % robots[who])
    page.click('#chips [data-target="%d"]' % target)
    return {rr.ROBOT_NAMES[w]: robots[w] for w in range(rr.ROBOT_COUNT) if robots[w] != rr.ABSENT}


def walls_drawn(faces):
    """How many wall segments the page should draw for ``faces``: each wall once."""
    board = rr.Board(faces)
    count = 0
    for c in range(rr.CELLS):
        x, y = rr.xy(c)
        for d in range(4):
            if board.walls[c] & (1 << d) and not (d == 2 and y < 15 or d == 1 and x < 15):
                count += 1
    return count


def demo_move(page, robot, screen, passes=0):
    """Tap a robot, then an arrow (0 up, 1 right, 2 down, 3 left on the screen)."""
    page.click('#robots [data-robot="%s"]' % robot)
    if passes:
        page.fill("#passes", str(passes))
    page.click('#pad [data-screen="%d"]' % screen)
    settle(page)


def bid(page, player, moves):
    row = page.locator("#players tr", has=page.locator("th", has_text=player))
    row.locator("input").fill(str(moves))
    row.locator("button.bid").click()


# seed 1137: the vortex in 4 moves, clear N, clear W+1 (through the wall west of (8,5)), clear E
GAME = "1DX0JCNHVN6XY7"
# seed 25: clear W would end on the red hexagon, which the transparent robot may not
LANDING_GAME = "0B7P6ZBDXVGFEG"


def test_a_whole_round_set_up_by_clicks_and_refereed(page):
    open_page(page)
    robots = set_up(page, GAME, by_drag=("red", "green", "blue", "yellow"))
    s = state(page)
    assert s["faces"] == "4A,2B,3B,1A" and s["robots"] == robots and s["target"] == rr.VORTEX
    assert page.locator("#board [data-wall]").count() == walls_drawn("4A,2B,3B,1A")
    assert page.locator("#centre-chip").count() == 1  # the chip on the centre piece

    page.click("#start")
    for name in ("Ann", "Bob", "Cy"):
        page.fill("#player-name", name)
        page.click("#add-player button")
    advance(page, 120_000)  # no bid yet: the sand timer has not been turned
    assert state(page)["phase"] == "thinking" and page.text_content("#timer") == "1:00"

    bid(page, "Bob", 5)  # the first bid turns the timer
    assert state(page)["phase"] == "bidding"
    advance(page, 30_000)
    assert page.text_content("#timer") == "0:30"
    ann = page.locator("#players tr", has=page.locator("th", has_text="Ann")).locator("input")
    ann.fill("4")
    ann.press("Enter")  # Enter bids too
    bid(page, "Bob", 6)  # a bid may only go down
    assert "Bob has bid 5 already: a new bid must be lower" in status(page)
    advance(page, 20_000)
    bid(page, "Cy", 4)  # the same number as Ann, later: after her; and the last to bid
    s = state(page)  # everyone has bid: the round goes on at once, 10 s before the sand ends
    assert s["phase"] == "demonstrating" and s["order"] == [["Ann", 4], ["Cy", 4], ["Bob", 5]]
    assert page.locator("#players button.bid").first.is_disabled()  # bids are closed
    assert "Ann shows 4 moves" in status(page)

    # Ann: clear N, clear W (not through the wall), then clear W again: it cannot move
    demo_move(page, "clear", 0)
    demo_move(page, "clear", 3)
    assert state(page)["robots"]["clear"] == rr.cell(8, 5)
    assert "2 moves of 4" in status(page)
    demo_move(page, "clear", 3)
    assert page.text_content("#verdict") == (
        "Ann fails: move 3 is not legal: clear W: the robot does not move.")
    assert page.is_visible("#next-bidder")
    assert state(page)["robots"] == robots  # the robots go back at once, as the page says
    assert state(page)["drawn"]["clear"] == robots["clear"]

    # Cy: clear N, W through the wall, E onto the vortex
    page.click("#next-bidder")
    assert state(page)["robots"] == robots
    demo_move(page, "clear", 0)
    demo_move(page, "clear", 3, passes=1)
    demo_move(page, "clear", 1)
    assert page.text_content("#verdict") == (
        "Cy wins the vortex chip: correct: clear reaches the vortex in 4 moves.")
    s = state(page)
    assert s["phase"] == "over" and s["players"] == [["Ann", 0], ["Bob", 0], ["Cy", 1]]
    assert s["robots"]["clear"] == rr.cell(7, 5)
    assert page.locator("#board [data-pass]").count() == 1  # the wall it passed

    # the optimum of the round just played starts where the round started
    page.click("#round-optimum")
    page.wait_for_function("window.ricochet.state().animating", timeout=20000)
    assert state(page)["drawn"]["clear"] == robots["clear"]
    advance(page, 10_000)
    assert state(page)["drawn"]["clear"] == rr.cell(7, 5) and not state(page)["animating"]

    # the next chip: the robots stay where the demonstration left them
    page.click("#next-round")
    assert state(page)["robots"]["clear"] == rr.cell(7, 5)
    assert "played" in page.get_attribute('#chips [data-target="16"]', "class")


def test_a_failed_demonstration_over_the_bid_passes_to_the_next_bidder_and_nobody_wins(page):
    open_page(page)
    robots = set_up(page, GAME, by_drag=())
    page.click("#start")  # no players added: two are made up
    bid(page, "Player 1", 3)
    bid(page, "Player 2", 9)  # both have bid: no waiting for the sand
    assert state(page)["phase"] == "demonstrating"
    demo_move(page, "clear", 0)
    demo_move(page, "clear", 3, passes=1)  # on the way, but three moves made: the bid
    assert page.text_content("#verdict").startswith("Player 1 fails: 3 moves made, the bid was 3")
    assert state(page)["robots"] == robots  # back at once, before the next one is chosen
    page.click("#next-bidder")
    assert state(page)["robots"] == robots
    demo_move(page, "red", 0)  # red N: a legal move that leads nowhere
    for _ in range(8):
        demo_move(page, "red", 2)
        demo_move(page, "red", 0)
        if state(page)["phase"] == "over":
            break
    assert state(page)["phase"] == "over"
    assert page.text_content("#verdict").startswith("Player 2 fails: 9 moves made, the bid was 9")
    assert "nobody wins this chip" in status(page)
    assert state(page)["players"] == [["Player 1", 0], ["Player 2", 0]]
    assert state(page)["robots"] == robots


def test_the_optimum_is_animated_at_a_followable_pace_with_the_wall_pass_marked(page):
    open_page(page)
    robots = set_up(page, GAME, by_drag=("red",))
    page.click("#solve")
    page.wait_for_function("window.ricochet.state().animating", timeout=20000)
    assert status(page).startswith("Optimum: 4 moves, ricochet rule")
    assert [li.strip() for li in page.locator("#moves li").all_text_contents()] == [
        "clear N", "clear W+1 (through a wall)", "clear E"]

    def clear_at():
        return page.get_attribute('#robots [data-robot="clear"]', "transform")

    start = rr.xy(robots["clear"])
    assert clear_at() == "translate(%d %d)" % start
    advance(page, 3 * CELL_MS)  # three cells north, not there yet: the slide is shown
    assert clear_at() == "translate(%d %d)" % (start[0], start[1] - 3)
    advance(page, 2 * CELL_MS + PAUSE_MS)  # (10,10) to (10,5): 5 cells, then a pause
    assert clear_at() == "translate(10 5)"
    assert page.locator("#board [data-pass]").count() == 0
    advance(page, 3 * CELL_MS)  # west to (8,5), then through its west wall
    assert page.locator("#board [data-pass]").count() == 1
    assert page.get_attribute("#board [data-pass]", "data-pass") == "%dW" % rr.cell(8, 5)
    advance(page, 4 * CELL_MS + PAUSE_MS + 4 * CELL_MS)  # on to (3,5); then east to (7,5)
    assert clear_at() == "translate(7 5)"
    advance(page, PAUSE_MS)
    assert not state(page)["animating"] and status(page).endswith("Shown.")
    assert state(page)["robots"] == robots  # only drawn: the robots on the table did not move


def test_the_optimum_with_and_without_the_ricochet_rule(page):
    open_page(page)
    set_up(page, "0C10PKY6VHH0HD")  # yellow reaches its hexagon in one slide east
    page.click("#solve")
    page.wait_for_function("window.ricochet.state().animating", timeout=20000)
    assert status(page).startswith("Optimum: 3 moves, ricochet rule")
    page.uncheck("#rule")
    page.click("#solve")
    page.wait_for_function("document.querySelectorAll('#moves li').length === 1", timeout=20000)
    assert status(page).startswith("Optimum: 1 moves, no ricochet rule")


def test_a_demonstration_follows_the_rulebook_the_clear_robot_lands_on_no_coloured_target(page):
    open_page(page)
    robots = set_up(page, LANDING_GAME, by_drag=())
    page.click("#start")
    bid(page, "Player 1", 4)
    bid(page, "Player 2", 5)
    demo_move(page, "clear", 0)
    demo_move(page, "clear", 3)  # it would end on the red hexagon
    assert page.text_content("#verdict") == ("Player 1 fails: move 2 is not legal: clear W:"
                                             " the clear robot may land on no target but the vortex.")
    assert state(page)["robots"] == robots


def test_the_view_turns_and_the_arrows_turn_with_it(page):
    open_page(page)
    robots = set_up(page, "0B7P6ZBDXVGFEG")
    page.click("#turn-view")  # a quarter turn clockwise: the board's west is now up
    assert "rotate(90 8 8)" in page.get_attribute("#view", "transform")
    page.click("#start")
    bid(page, "Player 1", 5)
    advance(page, 60_000)
    demo_move(page, "clear", 1)  # right on the screen: north on the board
    assert state(page)["robots"]["clear"] == rr.cell(12, 2)
    assert robots["clear"] == rr.cell(12, 15)


@pytest.mark.parametrize("query, message", [
    ("?colour=red", "URL: unknown parameter colour (known: clock, faces); ignored"),
    ("?clock=fast", "URL clock=fast: only clock=manual (for tests); the real clock instead"),
])
def test_a_bad_url_is_told_in_one_line(page, query, message):
    page.goto(page.url0 + query)
    page.wait_for_function("window.ricochet && window.ricochet.ready", timeout=20000)
    assert status(page) == message


def test_setup_mistakes_are_told_in_one_line(page):
    open_page(page, "&faces=1A,1B,3A,4A")
    assert status(page).startswith("URL faces=1A,1B,3A,4A: four faces like 1A,4A,3B,2B")
    assert state(page)["faces"] == "1A,2A,3A,4A"
    assert page.is_disabled("#start")  # no robots, no chip yet
    page.click('#tray [data-robot="red"]')
    page.click('#board [data-cell="%d"]' % 0x77)
    assert status(page) == "No robot may stand in the centre."
    page.click('#board [data-cell="0"]')
    page.click('#tray [data-robot="blue"]')
    page.click('#board [data-cell="0"]', force=True)
    assert status(page) == "The red robot stands there."


def test_robots_move_by_drag_and_the_optional_ones_leave_the_board(page):
    open_page(page)
    page.wait_for_function("window.ricochet.state().board")
    drag(page, "clear", rr.cell(3, 3))
    drag(page, "red", rr.cell(5, 5))
    assert state(page)["robots"] == {"clear": rr.cell(3, 3), "red": rr.cell(5, 5)}

    def drag_from_board(robot, to_selector):
        page.mouse.move(*centre(page, '#robots [data-robot="%s"]' % robot))
        page.mouse.down()
        page.mouse.move(*centre(page, to_selector), steps=8)
        page.mouse.up()

    drag_from_board("red", '#board [data-cell="%d"]' % rr.cell(6, 1))  # moved on the board
    assert state(page)["robots"]["red"] == rr.cell(6, 1)
    drag_from_board("clear", "#chips")  # off the board: the transparent robot is taken away
    assert "clear" not in state(page)["robots"] and "clear robot taken off" in status(page)
    drag_from_board("red", "#chips")  # a coloured robot always plays
    assert state(page)["robots"]["red"] == rr.cell(6, 1)
    assert status(page) == "The red robot always plays: drop it on a cell."


def test_leaving_a_round_mid_move_leaves_nothing_stuck(page):
    open_page(page)
    robots = set_up(page, "0B7P6ZBDXVGFEG", by_drag=())
    page.click("#start")
    bid(page, "Player 1", 4)
    advance(page, 60_000)
    page.click('#robots [data-robot="clear"]')
    page.click('#pad [data-screen="0"]')
    page.wait_for_function("window.ricochet.state().animating", timeout=20000)
    page.click("#back")  # in the middle of the slide
    s = state(page)
    assert s["phase"] == "setup" and not s["busy"] and s["robots"] == robots
    page.click('#chips [data-target="16"]')
    page.click("#start")
    bid(page, "Player 1", 4)
    advance(page, 60_000)
    demo_move(page, "clear", 0)
    assert state(page)["robots"]["clear"] == rr.cell(12, 2)
