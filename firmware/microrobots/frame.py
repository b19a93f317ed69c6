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

The loops over all 36 cells that run every frame (``board``, the celebration's rings)
are kernels: viper machine code on a Pico, the same text as plain Python elsewhere
(see ``kernels.py``). ``Backdrop`` keeps a drawn frame for as long as what it shows does not
change, so that a screen redraws only its moving parts.

Animations are small objects that own their buffers: ``start(now, ...)`` sets them
up (it may copy into preallocated storage) and ``render(now, frame)`` draws over what
is already in the frame and returns True while the animation still runs.
"""

from . import palette as P
from .compat import const, kernels, ticks_add, ticks_diff

_CELLS = const(36)
_COUNT_MAX = const(99)  # count() shows larger numbers as 99
_BLACK = bytes(108)

# Whole-frame loops, compiled by compat.kernels (viper on MicroPython, plain Python where
# there is no native emitter, and under CPython): one text, so every runtime draws the
# same values. Arithmetic as in put_scaled: ``value * level // 255``.
# _board: every cell its die colour at ``level``; _rings: the celebration's rings at step
# ``wave``. Only loops that run every frame of some screen are kernels: native code costs
# heap (the wave is drawn once per layer into a Backdrop; a black fill is a copy).
_dim, _board, _rings = kernels("FRAME", ("_dim", "_board", "_rings"))


# -- cells --------------------------------------------------------------------------
def fill(frame, r, g, b):
    """Every cell to one colour (0, 0, 0 clears the frame)."""
    if r == 0 and g == 0 and b == 0:
        frame[:] = _BLACK  # a copy, as fast as it gets, allocating nothing
        return
    for i in range(0, 108, 3):
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


# -- animations ----------------------------------------------------------------------
_TUMBLE = const(900)  # the dice tumble, slowing down
_SETTLE = const(500)  # the thrown dice, still
_SHOW = const(700)   # the board with the rolled cell flashing
_ROLL_MS = const(_TUMBLE + _SETTLE + _SHOW)
_SPEED = const(70)  # a sliding robot: ms per cell
HOP_MS = const(420)  # a replayed move: slide, then a short stop
_HOLD = const(1200)  # a replayed route, finished
_RING = const(110)  # celebration: ms per ring
_CELEBRATE = const(2600)
_FLASH = const(480)


class DiceRoll:
    """Up to three throws of the colour die and the number die, one after the other.

    Each throw: both dice tumble (the top half: the colour; row 4: the number as a
    count), settle on the roll, then the board shows where that die lies. ``start(now, layout, pal, a, b, c)``
    takes the rolled cells (1..3 of them, -1 = none: start, target, waypoint).
    """

    def __init__(self):
        self.cells = bytearray(3)
        self.count = 0
        self.t0 = 0
        self.layout = None
        self.pal = P.DIE

    def start(self, now, layout, pal, a, b=-1, c=-1):
        self.count = 0
        self._add(a)
        self._add(b)
        self._add(c)
        self.t0 = now
        self.layout = layout
        self.pal = pal

    def _add(self, cell):
        if cell >= 0:
            self.cells[self.count] = cell
            self.count += 1

    def render(self, now, frame):
        t = since(now, self.t0)
        if t < 0:
            t = 0
        k = t // _ROLL_MS
        if k >= self.count:
            return False
        t -= k * _ROLL_MS
        cell = self.cells[k]
        lay = self.layout
        if t >= _TUMBLE + _SETTLE:
            board(frame, lay, self.pal, 90)
            if blink(t, 200):
                put_die(frame, cell, self.pal, lay.colours[cell])
            else:
                put_rgb(frame, cell, P.ROBOT_WHITE)
            return True
        fill(frame, 0, 0, 0)
        if t < _TUMBLE:
            # tumbling: a new face every step, steps growing longer as the dice slow
            step = 0
            edge = 60
            while edge < t:
                step += 1
                edge += 60 + step * 12
            colour = (step * 5 + k * 3 + 1) % 6
            num = (step * 7 + k) % 6 + 1
        else:
            colour = lay.colours[cell]
            num = lay.numbers[cell]
        pal = self.pal
        for i in range(18):  # the colour die: the top half in its colour
            put_die(frame, i, pal, colour)
        # the number die as a count, its label the colour: "green, 3"
        count(frame, num, 4, P.DIM, 1)
        put_die(frame, 24, pal, colour)
        return True


def _step(a, b):
    """The cell step from ``a`` towards ``b`` on their shared row or column."""
    if a // 6 == b // 6:
        return 1 if b > a else -1
    return 6 if b > a else -6


class Slide:
    """The robot gliding from ``a`` to ``b`` along their row or column (70 ms a
    cell); draws the robot's white over the frame. Moves that are not straight jump."""

    def __init__(self):
        self.a = self.b = 0
        self.t0 = 0

    def start(self, now, a, b):
        self.a = a
        self.b = b
        self.t0 = now

    def running(self, now):
        """True while the robot glides (the app writes no file meanwhile)."""
        a = self.a
        b = self.b
        if a // 6 != b // 6 and a % 6 != b % 6:
            return False
        t = since(now, self.t0)
        return 0 <= t < (b - a) // _step(a, b) * _SPEED

    def render(self, now, frame):
        a = self.a
        b = self.b
        if a // 6 != b // 6 and a % 6 != b % 6:
            return False
        step = _step(a, b)
        n = (b - a) // step
        k = since(now, self.t0) // _SPEED
        if k < 0 or k >= n:
            return False
        put_rgb(frame, a + k * step, P.ROBOT_WHITE)
        return True


class Replay:
    """An optimal route played move by move: each move slides, the stops so far stay
    lit as a trail, then the whole route holds for a moment. ``start(now, route)``
    takes the cells, start first (copied; up to ``size`` of them). ``hop``: ms a move
    (HOP_MS; slower for a table to follow)."""

    def __init__(self, size=64):
        self.route = bytearray(size)
        self.n = 0
        self.t0 = 0
        self.hop = HOP_MS
        self.slide = Slide()

    def start(self, now, route):
        n = 0
        size = len(self.route)
        for c in route:
            if n < size:
                self.route[n] = c
                n += 1
        self.n = n
        self.t0 = now

    def running(self, now):
        """True until the route has played and held."""
        return self.n > 0 and since(now, self.t0) < (self.n - 1) * self.hop + _HOLD

    def render(self, now, frame):
        if self.n == 0:
            return False
        t = since(now, self.t0)
        if t < 0:
            t = 0
        moves = self.n - 1
        hop = self.hop
        m = t // hop
        m = min(m, moves)
        for k in range(m + 1 if m < moves else moves):
            put_rgb(frame, self.route[k], P.TRAIL)
        if m < moves:
            a = self.route[m]
            b = self.route[m + 1]
            s = self.slide
            s.a = a
            s.b = b
            s.t0 = ticks_add(self.t0, m * hop)
            if not s.render(now, frame):
                put_rgb(frame, b, P.ROBOT_WHITE)
            return True
        put_rgb(frame, self.route[moves], P.ROBOT_WHITE if blink(t, 300) else P.GOOD)
        return t < moves * hop + _HOLD


class Celebrate:
    """Rainbow rings spreading from a cell: a solved puzzle, a won game."""

    def __init__(self):
        self.cell = 0
        self.t0 = 0

    def start(self, now, cell):
        self.cell = cell
        self.t0 = now

    def running(self, now):
        return since(now, self.t0) < _CELEBRATE

    def render(self, now, frame):
        t = since(now, self.t0)
        if t >= _CELEBRATE:
            return False
        if t < 0:
            return True  # still to come
        _rings(frame, self.cell, t // _RING, P.WAVE)
        return True


class Flash:
    """A short double flash: a refused move (``cell``) or a failed claim (``cell`` -1:
    the grid's border)."""

    def __init__(self):
        self.cell = -1
        self.t0 = 0
        self.on = False
        self.rgb = P.REFUSE

    def start(self, now, cell=-1, rgb=P.REFUSE):
        self.cell = cell
        self.t0 = now
        self.on = True
        self.rgb = rgb

    def running(self, now):
        return self.on and 0 <= since(now, self.t0) < _FLASH

    def render(self, now, frame):
        if not self.on:
            return False
        t = since(now, self.t0)
        if t >= _FLASH:
            self.on = False
            return False
        if t < 0:
            return False
        if t % 240 < 140:
            if self.cell >= 0:
                put_rgb(frame, self.cell, self.rgb)
            else:
                for i in range(_CELLS):
                    r = i // 6
                    c = i % 6
                    if r == 0 or r == 5 or c == 0 or c == 5:
                        put_rgb(frame, i, self.rgb)
        return True
