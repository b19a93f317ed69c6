"""palette.py and frame.py: colours that can be told apart, drawing, numbers, animations."""

import json
import os
from collections import deque

import pytest
from hypothesis import given
from hypothesis import strategies as st

from microrobots import animations as anim
from microrobots import frame as F
from microrobots import palette as P
from microrobots.rules.board import Layout
from microrobots.device.display import gamma_table
from microrobots.modes.classroom import Wave
from microrobots.modes.referee_screens import score_pages, scores
from microrobots.rules.solver import Solver

from tools.draw.colour import led_difference
from mpy import run_file
from screens import PLAYER_RGB, read_count

LAYOUT = Layout.named("black:CADB0312")
GAMMA = gamma_table()
FIFTY, TEN, FIVE, ONE = P.TALLY  # the tally symbols: 50, 10, 5, 1


def cell(frame, i):
    return tuple(frame[3 * i:3 * i + 3])


def led(rgb):
    """What an LED shows for a design colour (gamma 2.6, full brightness)."""
    return tuple(GAMMA[v] for v in rgb)


def colours(pal):
    return [tuple(pal[3 * c:3 * c + 3]) for c in range(6)]


# -- palette -------------------------------------------------------------------------
@pytest.mark.parametrize("pal", (P.palette(False), P.palette(True)), ids=("die", "high_contrast"))
def test_six_colours_far_apart_on_the_leds(pal):
    shown = [led(c) for c in colours(pal)]
    for a in range(6):
        for b in range(a + 1, 6):
            dist = sum(abs(x - y) for x, y in zip(shown[a], shown[b]))
            assert dist >= 90, (a, b, shown[a], shown[b])


def test_red_and_pink_differ_in_blue_and_white_is_not_the_robot():
    red, pink, white = (led(c) for c in colours(P.DIE)[3:6])
    assert pink[2] - red[2] >= 60  # pink carries blue, red none
    robot = led(P.ROBOT_WHITE)
    assert sum(robot) - sum(white) >= 300  # the dice's white is clearly dimmer
    assert white[2] < white[0]  # and warmer


ROBOT_BLINK_MIN = 45  # CIEDE2000 between the robot's two phases: a blink seen at a glance
ROBOT_APART_MIN = 30  # between its flash and every die colour as the board shows it
NAMES = ("blue", "yellow", "green", "red", "pink", "white")


def robot_figures(pal):
    """{die colour: (blink, apart)}: how the robot on a die of that colour shows."""
    figures = {}
    for c in range(6):
        frame = bytearray(108)
        F.robot(frame, 0, pal, c, 0)  # the flash
        F.robot(frame, 1, pal, c, 300)  # the die's colour
        flash, die = cell(frame, 0), cell(frame, 1)
        assert die == tuple(pal[3 * c:3 * c + 3]) and flash != die
        board = [tuple(v * P.BACKGROUND // 255 for v in pal[3 * d:3 * d + 3]) for d in range(6)]
        figures[NAMES[c]] = (led_difference(flash, die),
                             min(led_difference(flash, b) for b in board))
    return figures


@pytest.mark.parametrize("pal", (P.palette(False), P.palette(True)), ids=("die", "high_contrast"))
def test_the_robot_stands_out_on_every_die_colour(pal):
    """The robot blinks between its die's colour and a flash chosen per colour: the two
    phases differ clearly (a white robot on a white die no longer flickers between two
    near-whites), and the flash looks like no die on the board. Figures: CIEDE2000 of the
    LEDs' light after the display's gamma (host_tests/contrast.py); docs/playing.md."""
    figures = robot_figures(pal)
    print(" ".join("%s %.0f/%.0f" % (k, a, b) for k, (a, b) in figures.items()))
    for name, (blink, apart) in figures.items():
        assert blink >= ROBOT_BLINK_MIN, (name, blink)
        assert apart >= ROBOT_APART_MIN, (name, apart)


def test_dice_colours_are_not_glaring():
    for c in colours(P.DIE):
        assert sum(led(c)) < 3 * 255  # nothing but the robot is full white


# -- cells and numbers -----------------------------------------------------------------
def test_board_draws_every_die_colour_dimmed():
    frame = bytearray(108)
    F.board(frame, LAYOUT, P.DIE, 128)
    for i in range(36):
        c = LAYOUT.colours[i]
        assert cell(frame, i) == tuple(v * 128 // 255 for v in P.DIE[3 * c:3 * c + 3])


def tally(n):
    """Roman numerals without subtraction, as symbol indices into palette.TALLY."""
    out = []
    for k, v in enumerate(P.TALLY_VALUES):
        out += [k] * (n // v)
        n %= v
    return out


@given(st.integers(0, 99), st.integers(0, 4), st.sampled_from(PLAYER_RGB))
def test_count_is_a_tally_read_back_exactly(n, row, label):
    frame = bytearray([7] * 108)  # whatever was there
    F.count(frame, n, row, label)
    assert read_count(frame, row) == (label, n)
    symbols = tally(n)
    rows = 1 if len(symbols) <= 5 else 2
    assert len(symbols) <= 10
    for k, sym in enumerate(symbols):  # left to right, largest first, five to a row
        assert cell(frame, (row + k // 5) * 6 + 1 + k % 5) == P.TALLY[sym]
    for r in range(6):  # only the rows it uses are drawn
        drawn = [cell(frame, r * 6 + c) != (7, 7, 7) for c in range(6)]
        assert all(drawn) if row <= r < row + rows else not any(drawn)


def test_count_examples_and_limits():
    frame = bytearray(108)
    F.count(frame, 27, 0, P.GOOD)
    assert [cell(frame, c) for c in range(6)] == [P.GOOD, TEN, TEN, FIVE, P.ONE, P.ONE]
    F.count(frame, 0, 2, P.GOOD)
    assert [cell(frame, 12 + c) for c in range(3)] == [P.GOOD, P.DIM, (0, 0, 0)]
    F.count(frame, 250, 3, P.GOOD)  # more than fits: 99
    assert read_count(frame, 3) == (P.GOOD, 99)
    frame = bytearray(108)
    F.count(frame, 19, 0, P.GOOD, rows=1)  # a caller with one row: never the next one
    assert all(cell(frame, 6 + c) == (0, 0, 0) for c in range(6))


def test_count_symbols_and_labels_look_different_on_the_leds():
    """Every two tally symbols differ at a glance (CIEDE2000 >= 40 after gamma), and none
    looks like a dimmed die on the board: a count never reads as dice."""
    for a in range(4):
        for b in range(a + 1, 4):
            assert led_difference(P.TALLY[a], P.TALLY[b]) >= 40, (a, b)
    for sym in P.TALLY:
        for pal in (P.palette(False), P.palette(True)):
            for c in range(6):
                dimmed = tuple(v * P.BACKGROUND // 255 for v in pal[3 * c:3 * c + 3])
                assert led_difference(sym, dimmed) >= 10, (sym, c)


def test_scores_rows_show_tokens_and_the_pools_exact_count():
    frame = bytearray(108)
    scores(frame, [0, 3, 5], 3, 0, 21)
    for p, t in enumerate([0, 3, 5]):
        assert cell(frame, 6 * p) == tuple(P.PLAYERS[3 * p:3 * p + 3])
        assert [cell(frame, 6 * p + c) == P.TOKEN for c in range(1, 6)] == [c <= t for c in range(1, 6)]
    assert all(cell(frame, 18 + c) == (0, 0, 0) for c in range(6))  # a row apart
    assert read_count(frame, 4) == (P.POOL, 21)
    scores(frame, [0, 3, 5], 3, 0, 25)
    assert read_count(frame, 4) == (P.POOL, 25)  # 21 and 25 look different


@pytest.mark.parametrize("players", range(2, 9))
def test_the_pool_is_on_the_last_page_whatever_the_table(players):
    pages = score_pages(players)
    for pool in (0, 19, 24, 25):  # 19 and 24 need six symbols: two rows
        seen = []
        for page in range(pages):
            frame = bytearray(108)
            scores(frame, [1] * players, players, page, pool)
            rows = [r for r in range(6) if cell(frame, 6 * r) == P.POOL]
            seen += [read_count(frame, r)[1] for r in rows]
            shown = sum(1 for r in range(6) if cell(frame, 6 * r) in PLAYER_RGB)
            assert shown == min(6, players - 6 * page) if page * 6 < players else shown == 0
        assert seen == [pool]


def test_blink_pulse_heartbeat_shapes():
    assert F.blink(0, 500) and not F.blink(250, 500) and F.blink(500, 500)
    levels = [F.pulse(t, 1600, 30, 255) for t in range(0, 1600, 100)]
    assert min(levels) == 30 and max(levels) == 255
    assert levels.index(255) == 8
    beats = [F.heartbeat(t) for t in range(0, 1200, 60)]
    assert sum(1 for a, b in zip(beats, beats[1:]) if b and not a) == 1  # two beats: 0 and 240
    assert beats[0] and beats[4] and not beats[10]


# -- animations ------------------------------------------------------------------------
def test_dice_roll_settles_on_the_rolled_faces_then_ends():
    roll = anim.DiceRoll()
    a, b = 7, 30
    roll.start(1000, LAYOUT, P.DIE, a, b)
    frame = bytearray(108)
    for k, c in enumerate((a, b)):
        t = 1000 + k * anim._ROLL_MS + 1000  # settled
        assert roll.render(t, frame)
        colour = LAYOUT.colours[c]
        rgb = tuple(P.DIE[3 * colour:3 * colour + 3])
        assert all(cell(frame, i) == rgb for i in range(18))  # the colour die
        assert read_count(frame, 4) == (rgb, LAYOUT.numbers[c])  # the number die, counted
    assert not roll.render(1000 + 2 * anim._ROLL_MS, frame)


def test_slide_passes_each_cell_between():
    s = anim.Slide()
    s.start(0, 30, 0)  # up the first column
    seen = []
    t = 0
    frame = bytearray(108)
    while True:
        frame[:] = bytes(108)
        if not s.render(t, frame):
            break
        white = [i for i in range(36) if cell(frame, i) == P.ROBOT_WHITE]
        assert len(white) == 1
        if not seen or seen[-1] != white[0]:
            seen.append(white[0])
        t += 10
    assert seen == [30, 24, 18, 12, 6]


def test_replay_leaves_a_trail_and_ends_on_the_target():
    solver = Solver(LAYOUT)
    route = solver.path(0, 35)
    r = anim.Replay()
    r.start(0, route)
    frame = bytearray(108)
    t = 0
    while r.running(t):
        t += 20
    r.render(t - 20, frame)
    for c in route[:-1]:
        assert cell(frame, c) == P.TRAIL
    assert cell(frame, route[-1]) in (P.ROBOT_WHITE, P.GOOD)


def bfs(layout, start):
    dist = {start: 0}
    q = deque([start])
    while q:
        a = q.popleft()
        for b in range(36):
            same_line = a // 6 == b // 6 or a % 6 == b % 6
            same_die = layout.colours[a] == layout.colours[b] or layout.numbers[a] == layout.numbers[b]
            if b != a and same_line and same_die and b not in dist:
                dist[b] = dist[a] + 1
                q.append(b)
    return dist


@given(st.integers(0, 35), st.integers(0, 8))
def test_wave_lights_exactly_the_layers_reached(start, layer):
    dist = bfs(LAYOUT, start)
    w = Wave()
    w.start(0, Solver(LAYOUT).distances(start), 0)
    w.layer = layer
    frame = bytearray(108)
    w.render(0, frame)
    for i in range(36):
        lit = cell(frame, i) != (0, 0, 0)
        assert lit == (i in dist and dist[i] <= layer), i
        if i in dist and dist[i] == layer:
            k = min(layer, 7)
            assert cell(frame, i) == tuple(P.WAVE[3 * k:3 * k + 3])


def test_flash_and_celebration_end():
    fl = anim.Flash()
    fl.start(100, 14)
    frame = bytearray(108)
    assert fl.render(120, frame) and cell(frame, 14) == P.REFUSE
    assert not fl.render(100 + 480, frame)
    party = anim.Celebrate()
    party.start(0, 20)
    frame = bytearray(108)
    assert party.render(0, frame) and cell(frame, 20) != (0, 0, 0)
    assert not party.render(2600, frame)


# -- allocation-free inside MicroPython -------------------------------------------------
def test_drawing_allocates_nothing_in_micropython():
    out = run_file(os.path.join(os.path.dirname(os.path.abspath(__file__)), "frame_mpy.py"))
    assert json.loads(out) == 0


def test_dimmed_board_colours_stay_apart_on_the_leds_at_default_brightness():
    """The board behind the marks, as written to the LEDs (display.py's gamma and default
    brightness): every two colours differ clearly in some channel, and the robot's white
    outshines the dice's white."""
    from microrobots.device.config import defaults
    from microrobots.device.display import Display

    for pal in (P.palette(False), P.palette(True)):
        frame = bytearray(108)
        for c in range(6):
            F.put_die(frame, c, pal, c, P.BACKGROUND)
        F.put_rgb(frame, 6, P.ROBOT_WHITE)
        d = Display(defaults(), brightness=5)  # the default
        d.show(frame)
        shown = [tuple(d.written[3 * i:3 * i + 3]) for i in range(7)]
        for a in range(6):
            for b in range(a + 1, 6):
                assert max(abs(x - y) for x, y in zip(shown[a], shown[b])) >= 5, (a, b, shown)
        assert sum(shown[6]) >= 4 * sum(shown[5])
