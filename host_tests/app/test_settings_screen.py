"""The settings and the menu as a player reads them on the grid (issue 37): the item's
number counted in the top row, its value in the second, the preview below it, each
value's limits, the list going round, and the quadrant of the menu that glows.

Read from the frame the app drew (screens.read_count), not from the modes' attributes,
so that these hold however the modes are built.
"""

import pytest

from microrobots import palette as P
from microrobots.preferences import SETTINGS
from screens import DARK, PLAYER_RGB, cell, read_count
from tools.sim.script import Session

ITEMS = ("side", "tiles", "brightness", "players", "expert", "sound", "difficulty", "aid",
         "lesson", "dim", "sleep", "battery", "selftest")
WHITE = tuple(P.ROBOT_WHITE)
VALUE = tuple(P.VALUE)


@pytest.fixture
def s(tmp_path):
    s = Session(seed=5, state=str(tmp_path))
    s.wait(100)
    s.tap("down")  # the menu's bottom-right quadrant: the settings
    s.tap("right")
    s.tap("a")
    assert s.app.mode == "settings"
    s.wait(200)
    return s


def frame(s):
    return s.driver.device.frame


def shown(s):
    """``(item number, value)`` as the top rows count them, their labels checked."""
    s.wait(40)
    label, item = read_count(frame(s), 0)
    assert label == WHITE
    label, value = read_count(frame(s), 1)
    assert label == VALUE
    return item, value


def to_item(s, name):
    """From the first item down to ``name``."""
    s.tap("down", ITEMS.index(name))
    assert shown(s)[0] == ITEMS.index(name) + 1


def test_every_item_shows_its_number_and_value_and_the_list_goes_round(s):
    want = {"side": 1, "tiles": 1, "brightness": SETTINGS["brightness"],
            "players": SETTINGS["players"], "expert": 0, "sound": 1,
            "difficulty": SETTINGS["difficulty"], "aid": SETTINGS["aid"],
            "lesson": SETTINGS["lesson"], "dim": SETTINGS["dim"], "sleep": SETTINGS["sleep"]}
    for k, name in enumerate(ITEMS[:-2]):
        assert shown(s) == (k + 1, want[name]), name
        s.tap("down")
    assert shown(s)[0] == 12  # the battery
    s.tap("down")
    assert read_count(frame(s), 0) == (WHITE, 13)  # the self-test (A starts it)
    s.tap("down")
    assert shown(s)[0] == 1  # round to the first
    s.tap("up")
    s.wait(40)
    assert read_count(frame(s), 0) == (WHITE, 13)  # and back up to the last


def test_values_stop_at_their_limits_and_the_toggles_toggle(s):
    to_item(s, "brightness")
    s.tap("right", 9)
    assert shown(s) == (3, 8) and s.app.settings["brightness"] == 8
    s.tap("left", 9)
    assert shown(s) == (3, 1) and s.app.settings["brightness"] == 1
    s.tap("down", 3)  # players, expert, sound
    s.tap("left")
    assert shown(s) == (6, 0) and s.app.settings["sound"] is False
    s.tap("left")
    assert shown(s) == (6, 1) and s.app.settings["sound"] is True
    s.tap("up")  # expert
    s.tap("right")
    assert shown(s) == (5, 1) and s.app.settings["expert"] is True
    s.tap("up", 3)  # the arrangement: keep, shuffle, match, keep; left: the other way
    values = []
    for key in ("right", "right", "right", "left"):
        s.tap(key)
        values.append(shown(s)[1])
    assert values == [2, 3, 1, 3]
    s.tap("up")  # the side: black (1) and copper (2)
    s.tap("left")
    assert shown(s) == (1, 2) and s.app.settings["side"] == "copper"
    s.tap("right")
    assert shown(s) == (1, 1) and s.app.settings["side"] == "black"


def test_the_previews_below_show_the_players_the_brightness_and_the_waypoint(s):
    to_item(s, "brightness")
    for level in range(1, 9):
        s.app.change("brightness", level)
        s.wait(40)
        lit = (level * 6 + 7) // 8
        assert [cell(frame(s), 24 + c) for c in range(6)] == \
            [WHITE] * lit + [tuple(P.DIM)] * (6 - lit), level
    s.tap("down")  # players: their colours in row 4
    for players in (2, 5, 8):
        s.app.change("players", players)
        s.wait(40)
        assert shown(s) == (4, players)
        row = [cell(frame(s), 24 + c) for c in range(6)]
        assert row[:min(players, 6)] == PLAYER_RGB[:min(players, 6)], players
        assert row[players:] == [DARK] * (6 - min(players, 6))
        if players > 6:
            assert [cell(frame(s), 30 + c) for c in range(players - 6)] == PLAYER_RGB[6:players]
    s.tap("down")  # expert: off, the board's lower half; on, the waypoint alone
    board = [cell(frame(s), i) for i in range(18, 36)]
    assert sum(c != DARK for c in board) >= 17
    s.tap("right")
    s.wait(40)
    lower = [cell(frame(s), i) for i in range(18, 36)]
    assert lower[27 - 18] != DARK and all(c == DARK for i, c in enumerate(lower) if i != 9)


def test_a_new_lesson_starts_at_its_first_puzzle_and_a_starts_it_again(s):
    to_item(s, "lesson")
    s.tap("left")  # already 0: no other lesson
    assert shown(s) == (9, 0) and s.app.settings["lesson"] == 0
    assert all(cell(frame(s), i) == DARK for i in range(24, 36))  # no puzzle counted
    s.app.change("puzzle", 4)
    s.tap("left")  # still lesson 0: the puzzle stays
    assert s.app.settings["puzzle"] == 4
    s.tap("right")  # lesson 1, from its first puzzle
    assert shown(s) == (9, 1) and s.app.settings["puzzle"] == 1
    label, puzzle = read_count(frame(s), 4)
    assert (label, puzzle) == (tuple(P.POOL), 1)
    for puzzle in (7, 49):  # 49: nine symbols, going on in the last row
        s.app.change("puzzle", puzzle)
        s.wait(40)
        assert read_count(frame(s), 4) == (tuple(P.POOL), puzzle)
    s.tap("a")  # the lesson again from its first puzzle
    s.wait(40)
    assert s.app.settings["puzzle"] == 1 and read_count(frame(s), 4)[1] == 1
    s.tap("right", 48)  # more than five symbols: the value goes on in the third row
    assert shown(s) == (9, 49)
    assert cell(frame(s), 12) == DARK and cell(frame(s), 13) != DARK


def test_the_menu_glows_the_chosen_quadrant_and_dims_the_others(tmp_path):
    s = Session(seed=5, state=str(tmp_path))
    s.wait(100)
    corners = (0, 3, 18, 21)
    colours = ((255, 215, 0), (20, 70, 255), (0, 230, 40), (200, 200, 190))
    ring = 495  # the settings' icon: every cell but the centre
    for choice, keys in ((0, ()), (1, ("right",)), (3, ("down",)), (2, ("left",)),
                         (0, ("up",))):
        for key in keys:
            s.tap(key)
        s.wait(30)
        assert s.app.current.choice == choice
        for q in range(4):
            cells = [corners[q] + (k // 3) * 6 + k % 3 for k in range(9)]
            rgb = colours[q]
            bits = (16, 68, 0, ring)[q]
            if q == choice and q != 2:  # its icon glowing (150..255), lit behind (40)
                for k in range(9):
                    got = cell(frame(s), cells[k])
                    if bits >> k & 1:
                        assert sum(got) >= sum(v * 150 // 255 for v in rgb), (choice, k)
                    else:
                        assert got == tuple(v * 40 // 255 for v in rgb), (choice, k)
            elif q == choice:  # the wave, glowing
                assert all(sum(cell(frame(s), i)) > 0 for i in cells)
            elif q == 2:  # the wave, dim: fading from the corner
                levels = [70 * (5 - (k // 3 + k % 3)) // 5 for k in range(9)]
                assert [cell(frame(s), i) for i in cells] == \
                    [tuple(v * lv // 255 for v in rgb) for lv in levels], (choice, q)
            else:
                assert [cell(frame(s), i) for i in cells] == [
                    tuple(v * 70 // 255 for v in rgb) if bits >> k & 1 else DARK
                    for k in range(9)], (choice, q)


def test_the_battery_item_counts_its_charge_and_bars_it_green_or_red_when_low(s):
    """Each charge read from a cell plugged in afresh (so the gauge starts from it):
    75 % rounds to five cells of six, 89 % takes two rows of symbols, 12 % is low."""
    s.tap("up", 2)  # round to the last items: the self-test, then the battery
    for mv, percent, low, lit in ((3950, 75, False, 5), (4052, 89, False, 5),
                                  (3692, 12, True, 1)):
        s.driver.feed("battery usb")
        s.wait(100)
        f = frame(s)
        assert read_count(f, 0) == (WHITE, 12) and read_count(f, 1) == (VALUE, 0)
        bar = [cell(f, 24 + c) for c in range(6)]  # (this gauge reads nothing on USB)
        assert bar == ([VALUE] * 6 if s.app.power.mv >= 0 else [DARK] * 6)
        s.driver.feed("battery %d" % mv)
        s.wait(3200 if low else 100)  # (a low battery is announced for 3 s first)
        assert s.app.power.percent == percent and s.app.power.low == low
        f = frame(s)
        assert read_count(f, 0) == (WHITE, 12) and read_count(f, 1) == (VALUE, percent)
        colour = tuple(P.REFUSE if low else P.GOOD)
        assert [cell(f, 24 + c) for c in range(6)] == [colour] * lit + [tuple(P.DIM)] * (6 - lit)


def test_on_usb_a_gauge_that_reads_shows_charging_as_a_full_blue_bar(s):
    s.tap("up", 2)  # the battery
    hw = s.driver.device.hw
    hw.vsys, hw.usb = 4100, 1  # on USB, the cell's voltage still read: charging
    s.app.power.read(s.driver.device.now)
    s.wait(100)
    assert s.app.power.on_usb and s.app.power.mv >= 0
    f = frame(s)
    assert read_count(f, 1) == (VALUE, 0)
    assert [cell(f, 24 + c) for c in range(6)] == [VALUE] * 6
