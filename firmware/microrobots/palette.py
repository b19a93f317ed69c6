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
ROBOT_WHITE = (255, 255, 255)  # the robot blinks between its die colour and this
CURSOR = (0, 255, 255)         # the cursor's second phase: cyan, unlike any die
HINT = (255, 255, 255)         # a legal destination when a hint is shown
TRAIL = (90, 0, 255)           # cells the robot already visited in this round
REFUSE = (255, 0, 0)           # flash of a refused move or a failed claim
GOOD = (0, 255, 60)            # a correct claim, a solved puzzle
TOKEN = (255, 170, 0)          # a victory token on the score screen
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
