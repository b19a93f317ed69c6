"""A lesson on the handheld: the teacher sets the worksheets' seed N with the buttons
(settings, item 9) and the classroom shows puzzle k of ``--seed N --puzzle k``, the
web page's ``?seed=N`` classroom puzzle k; the lesson and its puzzle survive a restart.

The handheld is the real Device and App on the simulator's fake pins (tools/sim/script.py),
driven by its buttons or booted from a settings file on its flash; the page's logic is a
fresh device booted with seed N whose first game is the classroom (what the page does
with ``?seed=N``; host_tests/web/test_web_lesson.py checks that page in Chromium); the
sheet is tools/worksheet.py. The waypoint is checked against the expert roll of the
handheld's own game seed."""

import json
import os

import pytest

from microrobots.modes import guide
from microrobots import palette as P
from microrobots.device.store import Store
from microrobots.preferences import RANGES, SETTINGS
from microrobots.rules.board import Layout
from microrobots.rules.game import Game
from microrobots.rules.solver import UNREACHABLE, Solver
import lesson_mpy
from mpy import run_file
from screens import read_count
from tools import worksheet as ws
from tools.sim.script import Session

LAYOUT = Layout.named("black:ABCD0000")
SOLVER = Solver(LAYOUT)


def open_mode(s, name):
    """From the menu (on whichever quadrant it chose), the quadrant ``name`` and A."""
    assert s.app.mode == "menu"
    q = ("solo", "referee", "classroom", "settings").index(name)
    c = s.app.current.choice
    if (q ^ c) & 1:
        s.tap("right" if q & 1 else "left")
    if (q ^ c) & 2:
        s.tap("down" if q & 2 else "up")
    assert s.app.current.choice == q
    s.tap("a")
    assert s.app.mode == name


def shown(s):
    """The classroom's puzzle on the handheld once its dice roll: (start, target). Coming
    back to a lesson's puzzle k gives up the k - 1 before it, four a frame."""
    assert s.app.mode == "classroom" and not s.app.switching
    room = s.app.current
    for _ in range(RANGES["puzzle"][1] // 4 + 1):
        if not room.behind:
            break
        assert room.screen is room.catchup and s.app.current.busy(s.t)
        s.wait(20)
    assert room.behind == 0
    g = room.game
    return g.start, g.target


def next_puzzle(s):
    """A through the wave and the route to the classroom's next puzzle."""
    room = s.app.current
    was = s.app.settings["puzzle"]
    for _ in range(40):
        s.tap("a")
        if s.app.settings["puzzle"] != was and room.screen is room.rolling:
            return
    raise AssertionError("no next puzzle after 40 presses of A")


def expected_waypoint(seed, puzzle, start, target):
    """The challenge's waypoint, worked out afresh: the expert roll of the same game seed
    after the same rounds, or (when that roll differs) the farthest cell, lowest first."""
    expert = Game(LAYOUT, 1, True, seed, 0, SOLVER)
    for _ in range(puzzle - 1):
        expert.give_up()
    if (expert.start, expert.target) == (start, target) and expert.waypoint is not None:
        return expert.waypoint
    dist = SOLVER.distances(start)
    reach = [c for c in range(36) if c not in (start, target) and dist[c] != UNREACHABLE]
    return max(reach, key=lambda c: (dist[c], -c))


def boot_with_lesson(tmp_path, lesson, puzzle, boot_seed):
    """A handheld whose flash holds the settings lesson ``lesson`` at ``puzzle``, left in
    the classroom: it boots into it."""
    state = tmp_path / ("lesson%d-%d" % (lesson, puzzle))
    state.mkdir()
    settings = dict(SETTINGS, lesson=lesson, puzzle=puzzle, mode="classroom")
    (state / "settings.json").write_text(Store.encode(settings))
    s = Session(seed=boot_seed, state=str(state))
    s.wait(100)
    return s


def test_the_buttons_set_a_lesson_and_the_classroom_shows_the_sheets_puzzles(tmp_path):
    state = str(tmp_path)
    s = Session(seed=4321, state=state)
    s.tap("a")  # some solo first: the lesson's puzzles do not depend on what was played
    s.hold("b")
    open_mode(s, "settings")
    s.tap("up", 5)  # from item 1 up: 13 (the self-test), 12 (the battery), 11, 10, item 9
    frame = s.driver.device.frame
    assert read_count(frame, 0) == (P.ROBOT_WHITE, 9)
    assert read_count(frame, 1) == (P.VALUE, 0)
    s.tap("right", 7)
    frame = s.driver.device.frame
    assert s.app.settings["lesson"] == 7
    assert read_count(frame, 1) == (P.VALUE, 7) and read_count(frame, 4) == (P.POOL, 1)
    assert guide.words(s.app.current).startswith(
        "9 of 13, lesson 7 (the worksheets' --seed 7, the page's ?seed=7), the classroom at "
        "puzzle 1")
    s.hold("b")
    open_mode(s, "classroom")
    s.tap("up")  # pause the automatic steps
    for k in range(1, 5):
        start, target, waypoint = ws.classroom_puzzle(LAYOUT, 7, k, SOLVER)
        assert shown(s) == (start, target), "puzzle %d" % k
        assert s.app.settings["puzzle"] == k
        assert guide.words(s.app.current).startswith("lesson 7, puzzle %d: " % k)
        assert waypoint == expected_waypoint(s.app.current.game.seed, k, start, target)
        if k < 4:
            next_puzzle(s)
    s.until_saved()
    assert json.loads((tmp_path / "settings.json").read_text())["data"]["puzzle"] == 4
    again = Session(seed=99, state=state)  # a restart (another boot seed)
    again.wait(100)
    assert again.app.mode == "classroom" and shown(again) == ws.classroom_puzzle(
        LAYOUT, 7, 4, SOLVER)[:2]
    again.hold("b")  # the menu and back: the same puzzle
    open_mode(again, "classroom")
    assert shown(again) == ws.classroom_puzzle(LAYOUT, 7, 4, SOLVER)[:2]
    again.hold("b")
    open_mode(again, "settings")  # A on the lesson goes back to its first puzzle
    again.tap("up", 5)  # item 9, past the self-test, the battery, the sleep and dim delays
    again.tap("a")
    assert again.app.settings["puzzle"] == 1 and again.app.settings["lesson"] == 7
    again.tap("right")  # another lesson starts at its first puzzle too
    assert again.app.settings["lesson"] == 8 and again.app.settings["puzzle"] == 1
    again.hold("b")
    open_mode(again, "classroom")
    assert shown(again) == ws.classroom_puzzle(LAYOUT, 8, 1, SOLVER)[:2]


def test_held_right_reaches_lesson_99_and_no_further(tmp_path):
    s = Session(seed=5, state=str(tmp_path))
    open_mode(s, "settings")
    s.tap("up", 5)  # item 9, the lesson
    s.hold("right", 15000)  # the D-pad repeats while held
    assert s.app.settings["lesson"] == RANGES["lesson"][1] == 99
    assert read_count(s.driver.device.frame, 1) == (P.VALUE, 99)
    s.tap("left", 99)
    assert s.app.settings["lesson"] == 0
    assert "lesson: off" in guide.words(s.app.current)


@pytest.mark.parametrize("lesson", range(1, 100))
def test_every_lesson_is_the_sheet_and_the_page(tmp_path, lesson):
    """Lessons 1..99, puzzle 1 to 3: the handheld booted with the lesson on its flash
    (and an unrelated boot seed), the sheet, and a fresh device booted with seed N whose
    first game is the classroom, as the page's ?seed=N."""
    puzzle = 1 + lesson % 3
    sheet = ws.classroom_puzzle(LAYOUT, lesson, puzzle, SOLVER)
    handheld = boot_with_lesson(tmp_path, lesson, puzzle, boot_seed=1000 + lesson)
    assert shown(handheld) == sheet[:2]
    assert sheet[2] == expected_waypoint(handheld.app.current.game.seed, puzzle, *sheet[:2])
    page = Session(seed=lesson)  # no flash: a fresh device
    open_mode(page, "classroom")
    page.tap("up")
    for _ in range(puzzle - 1):
        next_puzzle_without_lesson(page)
    assert shown(page) == sheet[:2]


def next_puzzle_without_lesson(s):
    """The classroom's next puzzle on a device without a lesson: its target is the start."""
    room = s.app.current
    target = room.game.target
    for _ in range(40):
        s.tap("a")
        if room.screen is room.rolling and room.game.start == target:
            return
    raise AssertionError("no next puzzle after 40 presses of A")


def test_a_bad_lesson_on_the_flash_is_named_and_reset(tmp_path):
    settings = dict(SETTINGS, lesson=150, mode="classroom")
    (tmp_path / "settings.json").write_text(Store.encode(settings))
    s = Session(seed=3, state=str(tmp_path))
    s.wait(100)
    assert s.app.notice.startswith("settings: bad lesson 150, using 0")
    assert s.app.settings["lesson"] == 0 and s.app.mode == "classroom"


def test_micropython_rolls_the_same_lessons():
    """The handheld runs MicroPython: its lesson_game (a Pico-sized heap) rolls the
    sheet's puzzles, lessons 1..99 at puzzles 1 and 3."""
    out = run_file(os.path.join(os.path.dirname(os.path.abspath(__file__)), "lesson_mpy.py"),
                   heap="190k")
    got = [tuple(int(x) for x in line.split()) for line in out.split("\n") if line.strip()]
    assert got == [(lesson, puzzle) + ws.classroom_puzzle(LAYOUT, lesson, puzzle, SOLVER)[:2]
                   for lesson in range(1, 100) for puzzle in lesson_mpy.PUZZLES]


def test_after_the_last_puzzle_the_lesson_starts_again(tmp_path):
    """Puzzle 99 is the last the setting counts (a count shows up to 99): the next is the
    lesson's first, so the puzzle on show is always the one the setting names."""
    last = RANGES["puzzle"][1]
    s = boot_with_lesson(tmp_path, 5, last, boot_seed=77)
    room = s.app.current
    behind = room.behind  # four puzzles a frame: no long frame, keys wait
    assert 0 < behind < last - 1 and behind % 4 == (last - 1) % 4
    s.tap("a")
    assert room.behind == behind - 4 * 7 and room.screen is room.catchup  # a tap: seven frames
    assert shown(s) == ws.classroom_puzzle(LAYOUT, 5, last, SOLVER)[:2]
    s.tap("up")
    next_puzzle(s)
    assert s.app.settings["puzzle"] == 1
    assert shown(s) == ws.classroom_puzzle(LAYOUT, 5, 1, SOLVER)[:2]
