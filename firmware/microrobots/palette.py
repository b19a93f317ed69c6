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

The high-contrast palette (``palette(True)``) is the colour-blind aid: the Okabe-Ito hues (blue, yellow,
bluish green, vermilion, reddish purple, white) pushed apart in brightness as well as
hue, so that red/green and red/pink no longer depend on telling hues apart.
"""

from .compat import const

# Colours in the board's order, as in board.COLOUR_NAMES: blue yellow green red pink white.
# (A name ``_X = const(...)`` costs a Pico no interned name and no global: the compiler
# puts the value where it is used. The public names are those other modules read.)
DIE = (
    b"\x14\x46\xff"  # 20, 70, 255: blue
    b"\xff\xd7\x00"  # 255, 215, 0: yellow (less green would read as orange on WS2812)
    b"\x00\xe6\x28"  # 0, 230, 40: green
    b"\xff\x00\x00"  # 255, 0, 0: red
    b"\xff\x50\xaf"  # 255, 80, 175: pink: strong blue share, so it never reads as red
    b"\xaa\xa5\x8c"  # 170, 165, 140: white: warm and dimmer than the robot's white
)

_HIGH_CONTRAST = const(
    b"\x00\x6e\xff"  # 0, 110, 255: blue
    b"\xff\xeb\x00"  # 255, 235, 0: yellow: the brightest hue
    b"\x00\xc8\x96"  # 0, 200, 150: bluish green
    b"\xff\x46\x00"  # 255, 70, 0: vermilion
    b"\xc8\x3c\xff"  # 200, 60, 255: reddish purple, towards violet
    b"\xc8\xc8\xc8"  # 200, 200, 200: white
)

# Marks drawn over the board.
ROBOT_WHITE = (255, 255, 255)  # the robot's white flash; a sliding robot
CURSOR = (0, 255, 255)         # the cursor's second phase: cyan, unlike any die
TRAIL = (90, 0, 255)           # cells the robot already visited in this round
REFUSE = (255, 0, 0)           # flash of a refused move or a failed claim
GOOD = (0, 255, 60)            # a correct claim, a solved puzzle
TOKEN = (255, 170, 0)          # a victory token on the score screen (as a count's one)
DIM = (40, 40, 40)             # an empty slot (token, dice face)
NOTICE = (255, 120, 0)         # "settings were reset" notice

# Players 1..8 on score and claim screens: far apart, none white, none the gold of a
# token; apart on every screen also while they pulse (host_tests/test_colours.py): after
# the LEDs' gamma an orange needs a good share of green not to read as red.
PLAYERS = (
    b"\xff\x00\x00"  # 255, 0, 0
    b"\x00\x5a\xff"  # 0, 90, 255
    b"\x00\xe6\x00"  # 0, 230, 0
    b"\xff\xff\x00"  # 255, 255, 0
    b"\xc8\x00\xff"  # 200, 0, 255
    b"\x00\xe6\xe6"  # 0, 230, 230
    b"\xff\x7d\x00"  # 255, 125, 0
    b"\xff\x3c\x96"  # 255, 60, 150
)

# The robot blinks between its die's colour (at full level, the board being dimmer) and a
# flash chosen per die colour for contrast: bright white where white differs most from
# the die, dark where the die is light (a robot on a white or yellow die blinking white
# would flicker between two near-whites). One entry per die colour, R G B, like a
# palette; host_tests/app/test_frame.py measures each pair (CIEDE2000 after the display's
# gamma) and docs/playing.md lists the figures.
_ROBOT_FLASH = const(  # with DIE: blue, red white; others dark
    b"\xff\xff\xff" b"\0\0\0" b"\0\0\0" b"\xff\xff\xff" b"\0\0\0" b"\0\0\0")
_ROBOT_FLASH_HIGH_CONTRAST = const(  # blue, pink white
    b"\xff\xff\xff" b"\0\0\0" b"\0\0\0" b"\0\0\0" b"\xff\xff\xff" b"\0\0\0")

# Counts (a claim, an optimum, scores, a setting's value) are never drawn as pips: the
# film over every cell has pips of its own. A count is a tally along a row: the row's
# first cell is a label (whose count it is: a player's colour, OPTIMUM...), then one cell
# per symbol, largest first, as Roman numerals without subtraction: 27 is X X V I I. The
# four symbols' colours are far apart on the LEDs (host_tests/app/test_frame.py); 0 is one
# DIM cell.
ONE = TOKEN                    # gold: 1 (a victory token is one too)
_FIVE = const((0, 255, 60))    # green: 5
_TEN = const((60, 160, 255))   # sky blue: 10
_FIFTY = const((255, 0, 200))  # magenta: 50
TALLY = (_FIFTY, _TEN, _FIVE, ONE)
TALLY_VALUES = (50, 10, 5, 1)
OPTIMUM = TRAIL                # the label of an optimum: the violet of the optimal route
POOL = (200, 200, 200)         # the label of the pool's count on the score screen
STREAK = (0, 90, 255)          # the label of a solo streak
VALUE = (0, 90, 255)           # the label of a setting's value

# How bright the board is drawn behind the marks (design scale 0..255).
BACKGROUND = const(180)
# BFS wave layers 0..7: from warm to cold, so "near" and "far" read at a glance.
WAVE = (
    b"\xff\xff\xff"  # 255, 255, 255
    b"\xff\x3c\x00"  # 255, 60, 0
    b"\xff\xaa\x00"  # 255, 170, 0
    b"\xc8\xff\x00"  # 200, 255, 0
    b"\x00\xff\x3c"  # 0, 255, 60
    b"\x00\xdc\xdc"  # 0, 220, 220
    b"\x00\x50\xff"  # 0, 80, 255
    b"\x96\x00\xff"  # 150, 0, 255
)


def palette(aid):
    """The die palette to draw with: ``DIE``, or the high-contrast one when ``aid`` (the
    colour-blind aid's first option) is on."""
    return _HIGH_CONTRAST if aid else DIE


def robot_flash(pal):
    """The robot's flash colours (one per die colour) that go with palette ``pal``."""
    return _ROBOT_FLASH_HIGH_CONTRAST if pal is _HIGH_CONTRAST else _ROBOT_FLASH
