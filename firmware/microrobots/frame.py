"""Drawing on a frame: cells, the board, blinking marks, numbers and animations.

A frame is a ``bytearray(108)``: cell ``i`` (0..35, row-major, row 0 at the top) is
``frame[3*i:3*i+3]`` as R, G, B in design values. Every function here works in place
on a frame that the caller owns and allocates nothing, so the app can draw 50 frames
a second on a Pico without waking the garbage collector. Times are ``now`` in ms.

Numbers are never drawn as pips (the film over every cell has pips of its own): ``count``
draws a tally along a row, a label cell first, then one cell per symbol, largest first,
as Roman numerals without subtraction (gold 1, green 5, sky blue 10, magenta 50; see
palette.py): 27 is X X V I I. A number that needs more than five symbols continues on
the next row.

The loops over all 36 cells that run every frame (``board``, ``dim``) are kernels
(frame_viper.py): viper machine code on MicroPython, its plain twin elsewhere. ``Backdrop`` keeps a drawn frame for as long as what it shows does not
change, so that a screen redraws only its moving parts.

The animations built of these (the dice, a slide, a replayed route...) are in
animations.py.
"""

from . import palette as P
from .compat import NATIVE, const, ticks_diff

_CELLS = const(36)
_COUNT_MAX = const(99)  # count() shows larger numbers as 99
_BLACK = bytes(108)

# Whole-frame loops (frame_viper.py; its plain twin where there is no native emitter and
# under CPython): the same code, so every runtime draws the same values. Arithmetic as
# in put_scaled: ``value * level // 255``. _board: every cell its die colour at
# ``level`` (animations.py has the celebration's rings). Only loops that run every frame
# of some screen are kernels: native code costs heap (the wave is drawn once per layer
# into a Backdrop; a black fill is a copy).
if NATIVE:
    from .frame_viper import _board, _dim
else:
    from .frame_plain import _board, _dim


# -- cells --------------------------------------------------------------------------
def fill(frame, r, g, b, cells=_CELLS):
    """The first ``cells`` cells (every cell: the whole frame) to one colour; 0, 0, 0 on
    every cell clears the frame."""
    if r == 0 and g == 0 and b == 0 and cells == _CELLS:
        frame[:] = _BLACK  # a copy, as fast as it gets, allocating nothing
        return
    for i in range(0, 3 * cells, 3):
        frame[i] = r
        frame[i + 1] = g
        frame[i + 2] = b


def put(frame, i, r, g, b):
    """Cell ``i`` to (r, g, b)."""
    i *= 3
    frame[i] = r
    frame[i + 1] = g
    frame[i + 2] = b


def put_rgb(frame, i, rgb):
    """Cell ``i`` to an (r, g, b) tuple such as ``palette.CURSOR``."""
    i *= 3
    frame[i] = rgb[0]
    frame[i + 1] = rgb[1]
    frame[i + 2] = rgb[2]


def put_scaled(frame, i, r, g, b, level):
    """Cell ``i`` to (r, g, b) scaled by ``level`` / 255."""
    i *= 3
    frame[i] = r * level // 255
    frame[i + 1] = g * level // 255
    frame[i + 2] = b * level // 255


def put_die(frame, i, pal, colour, level=255):
    """Cell ``i`` in die colour ``colour`` of palette ``pal``, scaled by ``level``."""
    c = colour * 3
    put_scaled(frame, i, pal[c], pal[c + 1], pal[c + 2], level)


def put_entry(frame, i, table, k, level=255):
    """Cell ``i`` to entry ``k`` of a flat RGB ``bytes`` table (palette.PLAYERS, WAVE)."""
    k *= 3
    put_scaled(frame, i, table[k], table[k + 1], table[k + 2], level)


def board(frame, layout, pal, level=P.BACKGROUND):
    """Every cell in its die colour, dimmed to ``level`` so marks stand out."""
    _board(frame, layout.colours, pal, level)


# dim(frame, level): scale the whole frame by ``level`` / 255 (fade the background behind
# a text, or the picture while a mode switch runs: a kernel, since on a Pico the frames
# within a switch's import need their time for the import).
dim = _dim


class Backdrop:
    """A frame drawn once and reused while its ``key`` (any int) stays the same.

        if backdrop.key != key:
            draw(backdrop.frame)          # the parts that do not move
            backdrop.key = key
        backdrop.copy_to(frame)           # a copy, no drawing; then draw what moves

    ``copy_to`` allocates nothing (a slice assignment of equal length).
    """

    def __init__(self):
        self.frame = bytearray(108)
        self.key = -1

    def copy_to(self, frame):
        frame[:] = self.frame


# -- time patterns -------------------------------------------------------------------
_AHEAD_MS = const(60000)  # animations start at most this far in the future
_LONG_AGO = const(0x10000000)


def since(now, t0):
    """ms from tick ``t0`` to tick ``now`` (negative while ``t0`` is still to come).

    Times are ticks that wrap (compat.ticks_diff); a ``t0`` so old (6.2 days) that it
    seems more than a minute ahead reads as long ago, so an animation left unfinished
    while its mode was away never comes back to life.
    """
    t = ticks_diff(now, t0)
    return t if t > -_AHEAD_MS else _LONG_AGO


def blink(now, period=500):
    """True for the first half of every ``period`` ms."""
    return now % period < period // 2


def pulse(now, period=1600, low=60, high=255):
    """A triangle wave between ``low`` and ``high`` (a level for put_scaled)."""
    half = period // 2
    x = now % period
    if x >= half:
        x = period - x
    return low + (high - low) * x // half


def heartbeat(now, period=1200):
    """Two short beats per period: the waypoint's pattern, unlike blink and pulse."""
    x = now % period
    return x < 120 or 240 <= x < 360


# -- marks ---------------------------------------------------------------------------
def robot(frame, i, pal, colour, now):
    """The robot: blinks between its die colour and the flash that contrasts with that
    colour most (palette.robot_flash: white, or dark on light dice)."""
    if blink(now, 600):
        put_entry(frame, i, P.robot_flash(pal), colour)
    else:
        put_die(frame, i, pal, colour)


def target(frame, i, pal, colour, now):
    """The target: a slow pulse of its die colour."""
    put_die(frame, i, pal, colour, pulse(now, 1600, 30, 255))


def waypoint(frame, i, pal, colour, now):
    """The waypoint: a heartbeat (two quick beats) in its die colour."""
    put_die(frame, i, pal, colour, 255 if heartbeat(now) else 40)


def cursor(frame, i, pal, colour, now):
    """The cursor: a fast blink between the cell's colour and cyan."""
    if blink(now, 300):
        put_rgb(frame, i, P.CURSOR)
    else:
        put_die(frame, i, pal, colour)


# -- numbers -------------------------------------------------------------------------
def count(frame, n, row, label, rows=2):
    """``n`` (0..99; more shows 99) as a tally in row ``row``: column 0 is ``label`` (an
    RGB tuple: whose count it is), columns 1..5 the symbols, largest first (palette.TALLY:
    50, 10, 5, 1). A number of more than five symbols goes on in columns 1..5 of the next
    row (column 0 there stays dark), if ``rows`` allows (at most ten symbols: 0..99 fit).
    0 is one DIM cell. Draws only the rows it uses."""
    n = min(max(n, 0), _COUNT_MAX)
    base = row * 6
    put_rgb(frame, base, label)
    for c in range(1, 6):
        put(frame, base + c, 0, 0, 0)
    if n == 0:
        put_rgb(frame, base + 1, P.DIM)
        return
    k = 0
    limit = 5 * rows
    for s in range(4):
        value = P.TALLY_VALUES[s]
        while n >= value and k < limit:
            if k == 5:
                base += 6
                for c in range(6):
                    put(frame, base + c, 0, 0, 0)
            put_rgb(frame, base + 1 + k % 5, P.TALLY[s])
            n -= value
            k += 1


def bar(frame, n, rgb, row=5, empty=P.DIM):
    """``n`` of the six cells of ``row`` lit, left to right (a level: 0..6)."""
    for c in range(6):
        put_rgb(frame, row * 6 + c, rgb if c < n else empty)


# -- the device's own pictures (handheld.py) ------------------------------------------
# The low-battery picture: a battery lying on its side, its one charged cell red.
_BATTERY_OUTLINE = const(b"\x06\x07\x08\x09\x0a\x0c\x10\x11\x12\x16\x17\x18\x19\x1a\x1b\x1c")
_BATTERY_CELLS = const(b"\x0d\x13")


def cross(frame, rgb):
    """A cross over the whole grid in ``rgb`` on black (the device's red or orange X)."""
    fill(frame, 0, 0, 0)
    for k in range(6):
        put_rgb(frame, 7 * k, rgb)  # the two diagonals
        put_rgb(frame, 5 * k + 5, rgb)


def battery(frame, now, critical):
    """The low-battery picture over the whole grid: a white battery, its one cell blinking
    red (all red when critical)."""
    fill(frame, 0, 0, 0)
    level = 255 if critical else 120
    for cell in _BATTERY_OUTLINE:
        if critical:
            put(frame, cell, level, 0, 0)
        else:
            put(frame, cell, level, level, level)
    if not (now // 500) & 1:  # blinking, half a second on, half off
        for cell in _BATTERY_CELLS:
            frame[3 * cell] = 255
