"""palette.py and frame.py: colours that can be told apart, drawing, numbers, animations."""

import json
from collections import deque

import pytest
from hypothesis import given
from hypothesis import strategies as st

from microrobots import frame as F
from microrobots import palette as P
from microrobots.board import Layout
from microrobots.display import gamma_table
from microrobots.solver import Solver

from mpy import run

LAYOUT = Layout.named("black:CADB0312")
GAMMA = gamma_table()


def cell(frame, i):
    return tuple(frame[3 * i:3 * i + 3])


def led(rgb):
    """What an LED shows for a design colour (gamma 2.6, full brightness)."""
    return tuple(GAMMA[v] for v in rgb)


def colours(pal):
    return [tuple(pal[3 * c:3 * c + 3]) for c in range(6)]


# -- palette -------------------------------------------------------------------------
@pytest.mark.parametrize("pal", P.PALETTES, ids=("die", "high_contrast"))
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


@pytest.mark.parametrize("n", range(10))
def test_digit_shows_n_pips(n):
    frame = bytearray(108)
    F.digit(frame, 2, 3, n, (9, 9, 9), (1, 1, 1))
    lit = [i for i in range(36) if cell(frame, i) == (9, 9, 9)]
    face = [i for i in range(36) if cell(frame, i) == (1, 1, 1)]
    assert len(lit) == n
    assert len(lit) + len(face) == 9
    assert all(2 <= i // 6 <= 4 and 3 <= i % 6 <= 5 for i in lit + face)
    rot = sorted((4 - i // 6 + 2) * 6 + (8 - i % 6) for i in lit)
    assert rot == lit  # a die face looks the same turned half round


@given(st.integers(0, 99))
def test_number_is_tens_and_units(n):
    frame = bytearray(108)
    F.number(frame, n, (7, 7, 7), 3)
    tens = sum(1 for i in range(36) if cell(frame, i) == (7, 7, 7) and i % 6 < 3)
    units = sum(1 for i in range(36) if cell(frame, i) == (7, 7, 7) and i % 6 >= 3)
    assert (tens, units) == (n // 10, n % 10)
    assert all(cell(frame, i) == (0, 0, 0) for i in range(18))


def test_scores_rows_show_tokens_and_pool():
    frame = bytearray(108)
    F.scores(frame, [0, 3, 5], 3, 0, 12)
    for p, t in enumerate([0, 3, 5]):
        assert cell(frame, 6 * p) == tuple(P.PLAYERS[3 * p:3 * p + 3])
        assert [cell(frame, 6 * p + c) == P.TOKEN for c in range(1, 6)] == [c <= t for c in range(1, 6)]
    pool = [cell(frame, 18 + c) == P.ROBOT_WHITE for c in range(5)]
    assert pool == [True, True, True, False, False]  # 12 tokens: three groups of five begun


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
    roll = F.DiceRoll()
    a, b = 7, 30
    roll.start(1000, LAYOUT, P.DIE, a, b)
    frame = bytearray(108)
    for k, c in enumerate((a, b)):
        t = 1000 + k * F.ROLL_MS + 1000  # settled
        assert roll.render(t, frame)
        colour = LAYOUT.colours[c]
        assert cell(frame, 6) == tuple(P.DIE[3 * colour:3 * colour + 3])
        pips = sum(1 for i in range(36) if i % 6 >= 3 and cell(frame, i) == (255, 255, 255))
        assert pips == LAYOUT.numbers[c]
    assert not roll.render(1000 + 2 * F.ROLL_MS, frame)


def test_slide_passes_each_cell_between():
    s = F.Slide()
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
    r = F.Replay()
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
    w = F.Wave()
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
    fl = F.Flash()
    fl.start(100, 14)
    frame = bytearray(108)
    assert fl.render(120, frame) and cell(frame, 14) == P.REFUSE
    assert not fl.render(100 + 480, frame)
    party = F.Celebrate()
    party.start(0, 20)
    frame = bytearray(108)
    assert party.render(0, frame) and cell(frame, 20) != (0, 0, 0)
    assert not party.render(2600, frame)


# -- allocation-free inside MicroPython -------------------------------------------------
def test_drawing_allocates_nothing_in_micropython():
    out = run("""
import gc, json
from microrobots import frame as F, palette as P
from microrobots.board import Layout
from microrobots.solver import Solver
lay = Layout.named('black:CADB0312')
route = Solver(lay).path(0, 35)
fr = bytearray(108)
anims = (F.DiceRoll(), F.Slide(), F.Wave(), F.Celebrate(), F.Flash(), F.Replay())
anims[0].start(0, lay, P.DIE, 3, 4, 5)
anims[1].start(0, 0, 5)
anims[2].start(0, Solver(lay).distances(3), 300)
anims[3].start(0, 7)
anims[4].start(0)
anims[5].start(0, route)
toks = [1, 2, 3]
def frames():
    for t in range(0, 6000, 20):
        F.board(fr, lay, P.DIE)
        F.robot(fr, 3, P.DIE, 2, t)
        F.target(fr, 4, P.DIE, 1, t)
        F.waypoint(fr, 5, P.DIE, 1, t)
        F.cursor(fr, 6, P.DIE, 1, t)
        for a in anims:
            a.render(t, fr)
        F.number(fr, t % 100, P.TOKEN)
        F.scores(fr, toks, 3, 0, 20)
frames()
gc.collect(); gc.disable()
before = gc.mem_alloc()
frames()
print(json.dumps(gc.mem_alloc() - before))
""")
    assert json.loads(out) == 0


def test_dimmed_board_colours_stay_apart_on_the_leds_at_default_brightness():
    """The board behind the marks, as written to the LEDs (display.py's gamma and default
    brightness): every two colours differ clearly in some channel, and the robot's white
    outshines the dice's white."""
    from microrobots.config import defaults
    from microrobots.display import DEFAULT_BRIGHTNESS, Display

    for pal in P.PALETTES:
        frame = bytearray(108)
        for c in range(6):
            F.put_die(frame, c, pal, c, P.BACKGROUND)
        F.put_rgb(frame, 6, P.ROBOT_WHITE)
        d = Display(defaults(), brightness=DEFAULT_BRIGHTNESS)
        d.show(frame)
        shown = [tuple(d.written[3 * i:3 * i + 3]) for i in range(7)]
        for a in range(6):
            for b in range(a + 1, 6):
                assert max(abs(x - y) for x, y in zip(shown[a], shown[b])) >= 5, (a, b, shown)
        assert sum(shown[6]) >= 4 * sum(shown[5])
