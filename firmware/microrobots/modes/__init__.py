"""The app's modes, one module each, and what they share.

A mode is a class ``Mode(app)`` with ``name`` and these methods, all called by app.App:
``enter(now)`` when chosen in the menu, ``key(key, now)`` for each key (keys.UP ...
keys.LONG_B), then every frame ``update(now)`` (what time changes: a state that ends,
an animation that hands over) and ``render(now, frame)`` (draws the state, changes none
of it, allocates nothing), ``leave(now)``
when B is held to go back to the menu, ``reset()`` when the layout changes, ``busy(now)``
while an animation runs (the app writes no file then), and for modes with a game in
progress (``game``, None when there is none) ``resume(saved, now)``, a generator (the app steps it a piece a frame)
that returns ``(ok, problem)``: at boot, or before ``enter`` when the mode comes back
from the menu.

A mode's module is imported when the mode is first built (``load``, in the second frame
of its first switch: app.App._switching), not at boot; it stays imported. A mode's module
may import parts of its own (``PARTS``: solo's and the referee's screens), which the
switch's first frame imports, one module a frame, as a module's classes are made at its
import (on a Pico no frame may take 10 ms: emulated RP2040, our image,
docs/performance.md). The app
keeps one mode's state at a time (a mode left is put away, its game on flash); what every
visited mode's code costs the heap is in docs/performance.md. (Imported at boot instead,
every mode's code ran the CircuitPython source install and the simulator's MicroPython
out of heap.)

What to do now, in words, is for the simulators' help line (the terminal, the web page):
the grid's picture says the same in light on the handheld, which never asks for it, so
the words live in modes/guide.py, which no firmware module imports: a simulator asks
``guide.words(mode)`` between frames (it may allocate).

**Screens.** Every mode of the menu but the menu itself (solo, the referee, the
classroom, the settings, and the self-test) is made of screens: what the grid shows at
one step, with the keys that step takes. A ``Screen`` has the hooks
``open(now)`` (run by ``change``), ``key(key, now)``, ``update(now)``, ``render(now,
frame)`` (only reads) and ``busy(now)``; its class's name names its words in
modes/guide.py (solo's ``Play``: ``solo_play(mode)``). A ``ScreenMode`` makes one
instance of each of its screens in ``__init__`` (none per frame or key), in an attribute
named as the class (``self.play = Play(self)``), passes every key and frame to the one
on show, ``screen``, and ``change(screen, now)`` shows another and runs its ``open``, as
micro-gui's ``Screen.change`` runs a screen's hooks. What a mode's screens share (the
game, the walk, the claim, the timer ``t0``) is the mode's; so are the decisions several
screens take, and what the mode does with every key (the classroom's pause, the
settings' click).

How a newcomer adds a screen to solo, in an example that runs: docs/architecture.md,
"Adding a screen to solo".
"""

import sys

from .. import frame as F
from .. import palette as P
from ..keys import A, B, LEFT, RIGHT, UP
from ..compat import const

_ANIMATIONS = const(("slide", "flash", "party", "replay"))  # frame.py objects with running(now)


# The modules a mode's module imports that boot does not (preferences.MODES' names ->
# modules of modes/), in the order to import them: each in a frame of its own at the
# mode's first switch (``load_parts``).
PARTS = {"solo": ("solo_screens",), "referee": ("referee_screens",)}


def load_parts(name):
    """Work: mode ``name``'s parts (``PARTS``) imported, one a piece (the caller's frame
    goes on after the last)."""
    for k, part in enumerate(PARTS.get(name, ())):
        if k:
            yield
        __import__(__name__ + "." + part)


def imported(name):
    """True when mode ``name``'s module is imported."""
    return __name__ + "." + name in sys.modules


def load(name):
    """The class ``Mode`` of mode ``name`` (preferences.MODES), its module imported."""
    path = __name__ + "." + name
    __import__(path)
    return sys.modules[path].Mode


class Base:
    """Defaults for the optional methods."""

    name = "?"
    game = None  # a game mode's game in progress (None: none, or not a game mode)
    playing_alone = False  # True while the mode plays by itself: the device stays awake
    screen = None  # a mode made of screens (ScreenMode): the one on show

    def __init__(self, app):
        self.app = app

    def update(self, now):
        """Once a frame, before ``render``: what time changes."""

    def prepare(self):
        """Make ready what ``enter`` needs that takes time (a game mode: a new game),
        in the frame before it."""

    def enter(self, now):
        pass

    def leave(self, now):
        pass

    def reset(self):
        pass

    def resume(self, saved, now):
        return False, None
        yield  # (a generator, as the game modes' resume)

    def busy(self, now):
        """True while an animation runs: the app writes no file then (saving.py).
        Any mode: its screen says so (the dice rolling), or one of its frame.py
        animations runs (``_ANIMATIONS``). A mode with more may say so itself."""
        screen = self.screen
        if screen is not None and screen.busy(now):
            return True
        for name in _ANIMATIONS:
            animation = getattr(self, name, None)
            if animation is not None and animation.running(now):
                return True
        return False


class Screen:
    """One step of a game mode's round: what the grid shows and the keys it takes (see
    the module's docstring). Every hook does nothing until a screen says otherwise."""

    placed = True  # the round's pieces are on the grid (modes/pieces.py names them)

    def __init__(self, mode):
        self.mode = mode

    def open(self, now):
        """Run by ``mode.change`` when the screen comes on show."""

    def key(self, key, now):
        pass

    def update(self, now):
        """Once a frame, before ``render``: what time changes."""

    def render(self, now, frame):
        pass

    def busy(self, now):
        """True while the app should write no file (an animation this screen runs)."""
        return False


class Rolling(Screen):
    """The dice roll the round's pieces (``mode.dice``, started before the change); A or B
    skips them. When they end, or are skipped, ``mode.rolled(now, skipped)`` says what
    comes next."""

    placed = False  # (the dice are placing them)

    def key(self, key, now):
        if key == A or key == B:
            self.mode.rolled(now, True)

    def update(self, now):
        if not self.mode.dice.running(now):
            self.mode.rolled(now, False)

    def render(self, now, frame):
        self.mode.dice.render(now, frame)

    def busy(self, now):
        return True


class ScreenMode(Base):
    """A mode made of screens: it shows ``screen`` and passes it the keys and frames."""

    def change(self, screen, now):
        """Show ``screen``, running its ``open``."""
        self.screen = screen
        screen.open(now)

    def key(self, key, now):
        self.screen.key(key, now)

    def update(self, now):
        self.screen.update(now)

    def render(self, now, frame):
        self.screen.render(now, frame)


def step_cursor(robot, cursor, key):
    """Move the cursor one cell with a D-pad key, keeping it on the robot's row or column.

    LEFT/RIGHT move along the robot's row (snapping back to it from the column), UP/DOWN
    along its column; the cursor stops at the grid's edge.
    """
    r = cursor // 6  # not divmod: its tuples would allocate at every press
    c = cursor % 6
    rr = robot // 6
    rc = robot % 6
    if key == LEFT or key == RIGHT:
        if r != rr:
            r, c = rr, rc
        c += -1 if key == LEFT else 1
    else:  # UP, DOWN
        if c != rc:
            r, c = rr, rc
        r += -1 if key == UP else 1
    if 0 <= r < 6 and 0 <= c < 6:
        return r * 6 + c
    return cursor


def draw_round(frame, app, robot, target, waypoint, now, level=P.BACKGROUND):
    """The board with the robot, the target and (if >= 0) the waypoint.

    With the colour-blind aid's blinking on, every cell of the robot's colour blinks.
    """
    pal = app.pal
    colours = app.layout.colours
    F.board(frame, app.layout, pal, level)
    if app.settings["aid"] & 2 and not F.blink(now, 900):
        rc = colours[robot]
        for i in range(36):
            if colours[i] == rc:
                F.put(frame, i, 0, 0, 0)
    if waypoint >= 0:
        F.waypoint(frame, waypoint, pal, colours[waypoint], now)
    F.target(frame, target, pal, colours[target], now)
    F.robot(frame, robot, pal, colours[robot], now)

