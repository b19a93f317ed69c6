"""Colours apart on every screen: the dice, and the players while they pulse.

A cell is drawn from what the firmware writes to its LED (after gamma and brightness,
display.py) in three ways: true colour (make play with COLORTERM=truecolor, and the web
page: tools.draw.colour.lit_film, its tables.js the same), the xterm 256-colour palette
(make play in tmux: rgb_to_256 of that), and the web page's high-contrast view
(screen_rgb at HIGH_CONTRAST_EXPOSURE). Any two die colours, and any two players'
colours, must stay apart by a CIEDE2000 margin in each (the robot's own figures are in
test_frame.py). At brightness 1 and 2 the LEDs have a few steps per channel only, and the
eight players' colours cannot all stay apart while dimmed: their pulse is measured from
brightness 3 up, and at full level on every brightness.
"""

import itertools

import pytest

from microrobots.device import config
from microrobots import frame as F
from microrobots import palette as P
from microrobots.device.display import Display
from tools.draw.colour import (
    HIGH_CONTRAST_EXPOSURE, XTERM_256, delta_e00, lit_film, rgb_to_256, screen_lab, screen_rgb,
)
from tools.sim.script import Session

DICE_APART = 8  # any brightness, any screen
DICE_APART_DEFAULT = 14  # at the default brightness
PLAYERS_APART = 8  # while they pulse, brightness 3..8; and at full level on any brightness
NAMES = ("blue", "yellow", "green", "red", "pink", "white")
VIEWS = {
    "true colour": lit_film,
    "256 colours": lambda px: XTERM_256[rgb_to_256(lit_film(px))],
    "web high contrast": lambda px: screen_rgb(px, HIGH_CONTRAST_EXPOSURE),
}


def luts():
    """Brightness -> the display's table from a design value to what its LED is sent."""
    display = Display(config.defaults())
    out = {}
    for b in range(1, 9):
        display.set_brightness(b)
        out[b] = bytes(display._lut)
    return out


LUTS = luts()


def closest(colours, view):
    """(CIEDE2000, i, j) of the closest two of ``colours`` (LED values) in ``view``."""
    labs = [screen_lab(VIEWS[view](px)) for px in colours]
    return min((delta_e00(labs[i], labs[j]), i, j)
               for i, j in itertools.combinations(range(len(labs)), 2))


def written(design, brightness):
    lut = LUTS[brightness]
    return tuple(lut[v] for v in design)


@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("aid", [False, True], ids=["dice", "high_contrast_dice"])
def test_any_two_die_colours_stay_apart_on_every_screen(view, aid):
    pal = P.palette(aid)
    for brightness in range(1, 9):
        for level in (P.BACKGROUND, 255):  # the board behind the marks; a die at full
            dice = [written(tuple(v * level // 255 for v in pal[3 * c:3 * c + 3]), brightness)
                    for c in range(6)]
            d, i, j = closest(dice, view)
            want = DICE_APART_DEFAULT if brightness == 5 else DICE_APART
            assert d >= want, "%s and %s: %.1f at brightness %d, level %d" % (
                NAMES[i], NAMES[j], d, brightness, level)


def test_red_and_pink_are_apart_in_256_colours_as_in_true_colour():
    """The case that was reported: tmux's 256 colours made red dice look pink."""
    dice = [written(tuple(v * P.BACKGROUND // 255 for v in P.DIE[3 * c:3 * c + 3]), 5)
            for c in (3, 4)]
    true = closest(dice, "true colour")[0]
    assert rgb_to_256(lit_film(dice[0])) != rgb_to_256(lit_film(dice[1]))
    assert closest(dice, "256 colours")[0] >= 0.8 * true


def pulse_levels():
    """The levels the referee's player colours take while it asks who claims, from its
    frames over a period (player 1's red label: 255 scaled to the level)."""
    s = Session(seed=3)
    s.tap("right")
    s.tap("a")
    s.settle()
    s.tap("a")  # who claims? nobody chosen yet: the colours pulse
    assert s.app.current.player == -1
    levels = set()
    for _ in range(60):  # 1.2 s: more than a period
        s.wait(20)
        levels.add(s.driver.device.frame[0])
    return sorted(levels)


@pytest.mark.parametrize("view", list(VIEWS))
def test_the_players_colours_stay_apart_in_every_phase_of_their_pulse(view):
    levels = pulse_levels()
    assert len(levels) > 10 and levels[-1] >= 250  # a pulse, up to full
    worst = (999,)
    for brightness in range(1, 9):
        for level in levels if brightness >= 3 else levels[-1:]:
            frame = bytearray(108)
            for p in range(8):
                F.put_entry(frame, p, P.PLAYERS, p, level)
            players = [written(frame[3 * p:3 * p + 3], brightness) for p in range(8)]
            worst = min(worst, closest(players, view) + (brightness, level))
    d, i, j, brightness, level = worst
    assert d >= PLAYERS_APART, "players %d and %d: %.1f at brightness %d, level %d" % (
        i + 1, j + 1, d, brightness, level)


@pytest.mark.parametrize("view", list(VIEWS))
def test_no_players_colour_looks_like_a_token(view):
    """The score screen: a player's colour, then their tokens in gold."""
    for brightness in range(3, 9):
        cells = [written(P.PLAYERS[3 * p:3 * p + 3], brightness) for p in range(8)]
        token = screen_lab(VIEWS[view](written(P.TOKEN, brightness)))
        for p, px in enumerate(cells):
            d = delta_e00(screen_lab(VIEWS[view](px)), token)
            assert d >= PLAYERS_APART, "player %d: %.1f at brightness %d" % (p + 1, d, brightness)
