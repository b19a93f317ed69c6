"""Settings: eleven items, each saved the moment it changes, the battery and the self-test.

UP/DOWN choose the item, LEFT/RIGHT change its value; B (or holding B) goes back. The
top row shows the item's number as a count (frame.count, white label), the second row
its value (blue label); the lower half previews it:

    1 side          1 = black, 2 = copper (the board below previews it)
    2 arrangement   1 keep, 2 shuffle, 3 match a table; A starts shuffle or match
    3 brightness    1..8
    4 players       2..8 (referee); their colours below
    5 expert        0 off, 1 on (the waypoint, solo and referee)
    6 sound         0 off, 1 on
    7 difficulty    0 (any) .. 6: fewest optimal moves of a solo target
    8 colour aid    0 off, 1 high-contrast colours, 2 cells of the robot's colour
                    blink, 3 both
    9 lesson        0 off (new puzzles), 1..99: the classroom shows lesson N's puzzles,
                    the worksheets' --seed N (from 50 on the value goes on in the third
                    row); the fifth row counts the puzzle on show (grey label);
                    A: back to the lesson's first puzzle
    10 dim after    minutes without a button before the grid dims, 0 = never (0..30)
    11 sleep after  minutes before the device sleeps, 0 = never (0..60)
    12 battery      its charge in percent (two rows), a bar below: green, red when
                    low; on USB a full blue bar and 0; no gauge: nothing (read only)
    13 self-test    A starts the builder's self-test (modes/selftest.py): every LED,
                    button, the supply, the piezo; the second row shows its four colours

Shuffle: the grid deals a new arrangement and guides you, tile by tile: the quadrant
to fill lights up, first showing the board's letter as a count of gold cells in the
quadrant (1 = A .. 4 = D), then the
tile's dice as they must lie, its printed top-left corner blinking white. RIGHT or A:
next tile, LEFT: previous; A after the fourth keeps the new arrangement, B cancels.

Match a table: for each quadrant in turn (it lights up, the others dim), UP/DOWN
choose the board (A-D) and LEFT/RIGHT turn it until the grid shows what lies on the
table; A: next quadrant. A after the fourth keeps it (each board once, else a red
flash), B: previous quadrant or cancel.

The mode's screens: ``Items`` (the items, one at a time), ``Shuffle`` and ``Match`` (an
arrangement dealt or matched, quadrant by quadrant: what they share is ``Arranging``).
The Mode holds the arrangement they share and the board's lower half, and clicks for
each key.
"""

from ..keys import A, B, DOWN, LEFT, RIGHT, SOUND_CLICK, SOUND_GOOD, SOUND_REFUSE, UP
from .. import animations as anim
from .. import frame as F
from .. import palette as P
from ..rules.board import TURNED, dice
from ..compat import const
from ..preferences import RANGES
from ..rules.rng import XorShift32
from . import Screen, ScreenMode

_ITEMS = ("side", "tiles", "brightness", "players", "expert", "sound", "difficulty", "aid",
          "lesson", "dim", "sleep", "battery", "selftest")
_CORNERS = (0, 3, 18, 21)
_LETTER_MS = const(800)
_SELF_TEST_COLOURS = const(((120, 0, 0), (0, 120, 0), (0, 0, 120), (120, 120, 120)))


def _draw_tile(frame, pal, tiles, board, turns, q, level):
    """Board ``board`` (0..3; ``tiles``: board.dice) turned ``turns`` into quadrant ``q``."""
    top = _CORNERS[q]
    for k in range(9):  # each printed die where the turns take it
        F.put_die(frame, top + TURNED[turns * 9 + k], pal, tiles[9 * board + k] >> 3, level)


class Items(Screen):
    """The items, one at a time: UP/DOWN choose, LEFT/RIGHT change, A acts (an
    arrangement's shuffle or match, the self-test, a lesson from its first puzzle), B:
    the menu."""

    def key(self, key, now):
        m = self.mode
        app = m.app
        name = _ITEMS[m.item]
        s = app.settings
        if key == UP or key == DOWN:
            m.item = (m.item + (1 if key == DOWN else -1)) % len(_ITEMS)
            return
        if key == B:
            app.go("menu", now)
            return
        if key == A and name == "tiles" and m.arrange > 1:
            m.change(m.shuffle if m.arrange == 2 else m.match, now)
            return
        if key == A and name == "selftest":
            app.go("selftest", now)
            return
        if key == A and name == "lesson" and s["lesson"]:
            app.change("puzzle", 1)  # the lesson again, from its first puzzle
            app.beep(SOUND_GOOD)
            return
        if key != LEFT and key != RIGHT:
            return
        d = 1 if key == RIGHT else -1
        if name == "side":
            app.change("side", "copper" if s["side"] == "black" else "black")
        elif name == "tiles":
            m.arrange = (m.arrange - 1 + d) % 3 + 1
        elif name in ("expert", "sound"):
            app.change(name, not s[name])
        elif name != "battery" and name != "selftest":  # (read only; A only)
            lo, hi = RANGES[name]
            was = s[name]
            app.change(name, min(max(was + d, lo), hi))
            if name == "lesson" and s[name] != was:  # another lesson: from its first puzzle
                app.change("puzzle", 1)

    def render(self, now, frame):
        m = self.mode
        app = m.app
        s = app.settings
        name = _ITEMS[m.item]
        if name == "battery":  # (read only) its charge, a bar below
            F.fill(frame, 0, 0, 0)
            F.count(frame, m.item + 1, 0, P.ROBOT_WHITE, 1)
            self._render_battery(frame)
            return
        if name == "selftest":  # its colours
            F.fill(frame, 0, 0, 0)
            F.count(frame, m.item + 1, 0, P.ROBOT_WHITE, 1)
            for k in range(4):
                F.put_rgb(frame, 7 + k, _SELF_TEST_COLOURS[k])
            return
        if name == "side":
            value = 1 if s["side"] == "black" else 2
        elif name == "tiles":
            value = m.arrange
        elif name == "expert" or name == "sound":
            value = 1 if s[name] else 0
        else:
            value = s[name]
        if name == "players" or name == "brightness" or name == "lesson" or (
                name == "expert" and value):
            F.fill(frame, 0, 0, 0)
        else:  # the board's lower half: side, arrangement, colours as they look now
            frame[:] = m.lower
        F.count(frame, m.item + 1, 0, P.ROBOT_WHITE, 1)
        F.count(frame, value, 1, P.VALUE, 2 if name == "lesson" else 1)
        if name == "lesson":
            if value:  # the puzzle on show (its label grey as the pool's)
                F.count(frame, s["puzzle"], 4, P.POOL, 2)
        elif name == "players":
            for p in range(value):
                F.put_entry(frame, 24 + p, P.PLAYERS, p)
        elif name == "brightness":
            F.bar(frame, (value * 6 + 7) // 8, P.ROBOT_WHITE, 4)
        elif name == "expert" and value:
            F.waypoint(frame, 27, app.pal, 4, now)
        elif name == "aid" and value & 2 and F.blink(now, 900):
            colours = app.layout.colours
            for i in range(18, 36):
                if colours[i] == 3:
                    F.put(frame, i, 0, 0, 0)

    def _render_battery(self, frame):
        power = self.mode.app.power
        if power is None or power.on_usb:
            F.count(frame, 0, 1, P.VALUE, 1)
            if power is not None and power.mv >= 0:  # a gauge, on USB: charging
                F.bar(frame, 6, P.VALUE, 4)
        elif power.percent >= 0:
            F.count(frame, power.percent, 1, P.VALUE, 2)
            F.bar(frame, (power.percent * 6 + 50) // 100, P.REFUSE if power.low else P.GOOD, 4)


class Arranging(Screen):
    """What shuffling and matching share: the quadrant ``mode.quadrant`` (0..3) lit, the
    arrangement ``mode.code`` ("ABCD0000": the boards, then their turns); A after the
    fourth keeps it (each board once, else a red flash)."""

    every_quadrant = False  # the other quadrants shown dimmed (matching), else dark

    def open(self, now):
        m = self.mode
        m.tiles = dice(m.app.settings["side"])
        m.quadrant = 0
        m.t0 = now

    def forward(self, key, now):
        """RIGHT or A: the next quadrant; A after the fourth keeps the arrangement. False
        when it is refused."""
        m = self.mode
        if m.quadrant < 3:
            m.quadrant += 1
        elif key == A:
            code = m.code
            if sorted(code[:4]) != [65, 66, 67, 68]:
                m.flash.start(now, -1)
                m.app.beep(SOUND_REFUSE)
                return False
            m.app.change("tiles", code.decode())
            m.arrange = 1
            m.change(m.items, now)
            m.app.beep(SOUND_GOOD)
        return True

    def render(self, now, frame):
        m = self.mode
        app = m.app
        code = m.code
        q = m.quadrant
        F.fill(frame, 0, 0, 0)
        for k in range(4):
            if k == q or self.every_quadrant:
                _draw_tile(frame, app.pal, m.tiles, code[k] - 65, code[4 + k] - 48, k,
                           255 if k == q else 40)
        if not self.letter(now, frame):
            if F.blink(now, 500):
                corner = TURNED[(code[4 + q] - 48) * 9]  # where the printed top-left went
                F.put_rgb(frame, _CORNERS[q] + corner, P.ROBOT_WHITE)
        m.flash.render(now, frame)

    def letter(self, now, frame):
        """Draw what shows before the tile's dice, if anything; True when drawn."""
        return False


class Shuffle(Arranging):
    """A new arrangement dealt; the grid guides the player tile by tile: RIGHT or A the
    next, LEFT the previous, B cancels."""

    def open(self, now):
        Arranging.open(self, now)
        m = self.mode
        rng = XorShift32(m.app.new_seed())
        letters = bytearray(b"ABCD")
        for i in range(3, 0, -1):  # Fisher-Yates
            j = rng.below(i + 1)
            letters[i], letters[j] = letters[j], letters[i]
        for q in range(4):
            m.code[q] = letters[q]
            m.code[4 + q] = 48 + rng.below(4)

    def key(self, key, now):
        m = self.mode
        if key == LEFT:
            m.quadrant = max(m.quadrant - 1, 0)
        elif key == B:
            m.change(m.items, now)
        elif key == RIGHT or key == A:
            if not self.forward(key, now):
                return
        m.t0 = now

    def letter(self, now, frame):
        """For a moment, the board's letter: 1..4 gold cells in the quadrant, A..D."""
        if F.since(now, self.mode.t0) >= _LETTER_MS:
            return False
        m = self.mode
        top = _CORNERS[m.quadrant]
        n = m.code[m.quadrant] - 64
        for k in range(9):
            F.put_rgb(frame, top + (k // 3) * 6 + k % 3, P.ONE if k < n else P.DIM)
        return True


class Match(Arranging):
    """The table's arrangement matched: UP/DOWN choose the quadrant's board, LEFT/RIGHT
    turn it, A the next quadrant; B the previous, or cancels from the first."""

    every_quadrant = True

    def open(self, now):
        Arranging.open(self, now)
        m = self.mode
        m.code[:] = m.app.settings["tiles"].encode()

    def key(self, key, now):
        m = self.mode
        q = m.quadrant
        code = m.code
        if key <= DOWN:
            code[q] = 65 + (code[q] - 65 + (1 if key == DOWN else -1)) % 4
            return
        if key <= RIGHT:
            code[4 + q] = 48 + (code[4 + q] - 48 + (1 if key == RIGHT else -1)) % 4
            return
        if key == B:
            if q > 0:
                m.quadrant = q - 1
            else:
                m.change(m.items, now)
        elif key == A:
            if not self.forward(key, now):
                return
        m.t0 = now


class Mode(ScreenMode):
    name = "settings"

    def __init__(self, app):
        super().__init__(app)
        self.item = 0
        self.code = bytearray(b"ABCD0000")  # an arrangement being shuffled or matched
        self.quadrant = 0
        self.t0 = 0
        self.flash = anim.Flash()
        self.arrange = 1  # 1 keep, 2 shuffle, 3 match
        self.tiles = None  # the printed boards' colours while arranging
        # The board's lower half as the settings make it, drawn when the layout or the
        # palette changes and copied every frame: 18 dice drawn a frame took 3 ms of a
        # Pico's frame (emulated RP2040).
        self.lower = bytearray(108)
        self.lower_of = None  # the (layout, palette) drawn there
        self.items = Items(self)  # the screens, made once
        self.shuffle = Shuffle(self)
        self.match = Match(self)
        self.screen = self.items

    def enter(self, now):
        self.change(self.items, now)

    def key(self, key, now):
        self.app.beep(SOUND_CLICK)
        self.screen.key(key, now)

    def update(self, now):
        app = self.app
        lower = self.lower
        drawn = self.lower_of
        if drawn is None or drawn[0] is not app.layout or drawn[1] is not app.pal:
            F.board(lower, app.layout, app.pal, P.BACKGROUND)
            for i in range(54):  # the upper half dark
                lower[i] = 0
            self.lower_of = (app.layout, app.pal)
        self.screen.update(now)
