"""Animations: the dice rolled, a robot sliding, a route replayed, a celebration, a flash.

Each is a small object that owns its buffers: ``start(now, ...)`` sets it up (it may
copy into preallocated storage), ``running(now)`` says whether it still runs and
``render(now, frame)`` draws over what is already in the frame (frame.py's cells and
marks; reads its state only, allocates nothing). A mode keeps its animations in attributes that
modes.Base.busy knows by name.
"""

from . import palette as P
from .compat import NATIVE, const, ticks_add
from .frame import blink, board, count, fill, put_die, put_rgb, since

# _rings: the celebration's rings at step ``wave`` (a kernel: see frame.py)
if NATIVE:
    from .frame_viper import _rings
else:
    from .frame_plain import _rings

_CELLS = const(36)

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

    def running(self, now):
        """True until the last throw has been shown."""
        t = since(now, self.t0)
        return (t if t > 0 else 0) // _ROLL_MS < self.count

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
        c = colour * 3  # the colour die: the top half in its colour (at full level: as is)
        fill(frame, pal[c], pal[c + 1], pal[c + 2], 18)
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
        return _glide(frame, self.a, self.b, since(now, self.t0))


def _glide(frame, a, b, t):
    """The robot's white ``t`` ms into its glide from ``a`` to ``b``; False when it
    does not glide then (done, not begun, or not a straight move)."""
    if a // 6 != b // 6 and a % 6 != b % 6:
        return False
    step = _step(a, b)
    k = t // _SPEED
    if k < 0 or k >= (b - a) // step:
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
            b = self.route[m + 1]
            if not _glide(frame, self.route[m], b, since(now, ticks_add(self.t0, m * hop))):
                put_rgb(frame, b, P.ROBOT_WHITE)
            return True
        put_rgb(frame, self.route[moves], P.ROBOT_WHITE if blink(t, 300) else P.GOOD)
        return t < moves * hop + _HOLD


class Celebrate:
    """Rainbow rings spreading from a cell: a solved puzzle, a won game."""

    def __init__(self):
        self.cell = 0
        self.t0 = 0
        self.on = False  # never started: not running (a clock near t0 0 is no celebration)

    def start(self, now, cell):
        self.cell = cell
        self.t0 = now
        self.on = True

    def running(self, now):
        return self.on and since(now, self.t0) < _CELEBRATE

    def render(self, now, frame):
        t = since(now, self.t0)
        if not self.on or t >= _CELEBRATE:
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
        if t < 0 or t >= _FLASH:
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
