"""Colours of the handheld, as *design* RGB (0..255, before gamma and brightness).

The display applies gamma 2.6 and the brightness setting afterwards, so a design value
of 128 lights an LED at about 17 % and 255 at 100 %. The values below were chosen for
WS2812 LEDs under a light diffusing film:

- red and pink differ in blue (pink carries a clear blue share), not only in brightness;
- the dice's white is a dimmer, warmer white than the robot's full, cold white;
- nothing but the robot's flash and the celebration reaches full 255 on all channels,
  so the grid stays comfortable to look at.

A palette is a ``bytes`` of six colours, R G B each, in the board's colour order
blue yellow green red pink white: colour ``c`` is ``pal[3*c:3*c+3]`` (index it, do not
slice it, in hot code: ``pal[3*c], pal[3*c+1], pal[3*c+2]``).

``HIGH_CONTRAST`` is the colour-blind aid: the Okabe-Ito hues (blue, yellow,
bluish green, vermilion, reddish purple, white) pushed apart in brightness as well as
hue, so that red/green and red/pink no longer depend on telling hues apart.
"""

from .compat import const

# Board colour order, as in board.COLOUR_NAMES.
BLUE = const(0)
YELLOW = const(1)
GREEN = const(2)
RED = const(3)
PINK = const(4)
WHITE = const(5)

DIE = bytes((
    20, 70, 255,    # blue
    255, 215, 0,    # yellow (less green would read as orange on WS2812)
    0, 230, 40,     # green
    255, 0, 0,      # red
    255, 80, 175,   # pink: strong blue share, so it never reads as red
    170, 165, 140,  # white: warm and dimmer than the robot's white
))

HIGH_CONTRAST = bytes((
    0, 110, 255,    # blue
    255, 235, 0,    # yellow: the brightest hue
    0, 200, 150,    # bluish green
    255, 70, 0,     # vermilion
    200, 60, 255,   # reddish purple, towards violet
    200, 200, 200,  # white
))

PALETTES = (DIE, HIGH_CONTRAST)

# Marks drawn over the board.
ROBOT_WHITE = (255, 255, 255)  # the robot's white flash; a sliding robot
CURSOR = (0, 255, 255)         # the cursor's second phase: cyan, unlike any die
HINT = (255, 255, 255)         # a legal destination when a hint is shown
TRAIL = (90, 0, 255)           # cells the robot already visited in this round
REFUSE = (255, 0, 0)           # flash of a refused move or a failed claim
GOOD = (0, 255, 60)            # a correct claim, a solved puzzle
TOKEN = (255, 170, 0)          # a victory token on the score screen (as a count's one)
DIM = (40, 40, 40)             # an empty slot (token, dice face)
NOTICE = (255, 120, 0)         # "settings were reset" notice

# Players 1..8 on score and claim screens: far apart, none white.
PLAYERS = bytes((
    255, 0, 0,
    0, 90, 255,
    0, 230, 0,
    255, 200, 0,
    200, 0, 255,
    0, 230, 230,
    255, 90, 0,
    255, 60, 150,
))
PLAYER_RGB = tuple((PLAYERS[3 * p], PLAYERS[3 * p + 1], PLAYERS[3 * p + 2]) for p in range(8))

# The robot blinks between its die's colour (at full level, the board being dimmer) and a
# flash chosen per die colour for contrast: bright white where white differs most from
# the die, dark where the die is light (a robot on a white or yellow die blinking white
# would flicker between two near-whites). One entry per die colour, R G B, like a
# palette; host_tests/test_frame.py measures each pair (CIEDE2000 after the display's
# gamma) and docs/playing.md lists the figures.
_W = (255, 255, 255)
_K = (0, 0, 0)
ROBOT_FLASH = bytes(_W + _K + _K + _W + _K + _K)  # with DIE: blue, red white; others dark
ROBOT_FLASH_HIGH_CONTRAST = bytes(_W + _K + _K + _K + _W + _K)  # blue, pink white

# Counts (a claim, an optimum, scores, a setting's value) are never drawn as pips: the
# film over every cell has pips of its own. A count is a tally along a row: the row's
# first cell is a label (whose count it is: a player's colour, OPTIMUM...), then one cell
# per symbol, largest first, as Roman numerals without subtraction: 27 is X X V I I. The
# four symbols' colours are far apart on the LEDs (host_tests/test_frame.py); 0 is one
# DIM cell.
ONE = TOKEN                    # gold: 1 (a victory token is one too)
FIVE = (0, 255, 60)            # green: 5
TEN = (60, 160, 255)           # sky blue: 10
FIFTY = (255, 0, 200)          # magenta: 50
TALLY = (FIFTY, TEN, FIVE, ONE)
TALLY_VALUES = (50, 10, 5, 1)
OPTIMUM = TRAIL                # the label of an optimum: the violet of the optimal route
POOL = (200, 200, 200)         # the label of the pool's count on the score screen
STREAK = (0, 90, 255)          # the label of a solo streak
VALUE = (0, 90, 255)           # the label of a setting's value

# How bright the board is drawn behind the marks (design scale 0..255).
BACKGROUND = const(180)
# BFS wave layers 0..7: from warm to cold, so "near" and "far" read at a glance.
WAVE = bytes((
    255, 255, 255,
    255, 60, 0,
    255, 170, 0,
    200, 255, 0,
    0, 255, 60,
    0, 220, 220,
    0, 80, 255,
    150, 0, 255,
))


def palette(high_contrast):
    """The die palette to draw with: ``HIGH_CONTRAST`` for the colour-blind aid."""
    return HIGH_CONTRAST if high_contrast else DIE


def robot_flash(pal):
    """The robot's flash colours (one per die colour) that go with palette ``pal``."""
    return ROBOT_FLASH_HIGH_CONTRAST if pal is HIGH_CONTRAST else ROBOT_FLASH
