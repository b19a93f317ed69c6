"""Classroom demo: how a computer finds the shortest route (breadth-first search).

The dice roll a robot and a target. Then the search spreads from the robot in waves:
layer 1 lights every cell one move away, layer 2 every cell two moves away, and so on,
each layer in its own colour (warm = near, cold = far). When a wave reaches the target
the answer is known: the optimal route is replayed move by move. Then the target
becomes the robot and the next target is rolled.

- A: the next step (next layer, the route, the next puzzle).
- B: one layer back.
- UP: pause / resume the automatic steps (one every 1.5 s without a key).
- Hold B: back to the menu.

A lesson (the setting ``lesson``, 1..99, chosen in the settings) makes the puzzles the
class has on paper: puzzle k of lesson N is the worksheets' ``--seed N --puzzle k``
and the web page's ``?seed=N`` classroom puzzle k, all three rolled by ``lesson_game``
(its seed from rules/rng.game_seed, as a fresh device's first game). The puzzle on show
is the setting ``puzzle`` (1..99), saved as each new one starts: the classroom comes
back to it after a restart or a visit to the menu, giving up the puzzles before it a
few a frame (``behind``: about 1 ms each on the emulated Pico, the dimmed board on
show); after puzzle 99 the lesson starts again. Without a lesson, each puzzle is new.

The board under the wave changes only when a layer is added or taken back (or the colour
aid blinks): it is kept in a ``Backdrop``, and a frame copies it and draws the robot and
the target over it.

The mode's screens, in the order of a puzzle: ``CatchUp`` (coming back to a lesson's
puzzle), ``Rolling`` (modes/__init__.py, the dice), ``Layers`` (the search's layers, one
by one), ``Route`` (the shortest route). The Mode holds the puzzle and the wave they
share, and what every screen does with UP (the pause) and a click.
"""

from ..keys import A, B, SOUND_CLICK, UP
from .. import animations as anim
from .. import frame as F
from .. import palette as P
from ..compat import const
from ..rules.game import Game
from ..rules.rng import game_seed
from ..preferences import RANGES
from . import Rolling, Screen, ScreenMode, draw_round

_AUTO_MS = const(1500)
_CATCH_UP = const(4)  # a lesson's puzzles given up a frame when coming back to one


class Wave:
    """Breadth-first search made visible: layer 0 is the robot, layer k the cells k
    moves away, each layer in its own colour (warm = near, cold = far).

    ``start(now, dist, step_ms)`` copies a 36-byte distance table (255 = unreachable).
    With ``step_ms`` > 0 the wave spreads by itself; else ``layer`` is set by the caller
    (classroom mode steps it with A). Unreached cells keep the frame's content. (Here,
    not in frame.py: only the classroom draws it, and a mode's code loads with the mode.)
    """

    def __init__(self):
        self.dist = bytearray(36)
        self.step_ms = 0
        self.t0 = 0
        self.layer = 0
        self.deepest = 0

    def start(self, now, dist, step_ms=900):
        deepest = 0
        for i in range(36):
            d = dist[i]
            self.dist[i] = d
            if d != 255 and d > deepest:
                deepest = d
        self.deepest = deepest
        self.step_ms = step_ms
        self.t0 = now
        self.layer = 0

    def render(self, now, frame):
        layer = self.layer
        for i in range(36):
            d = self.dist[i]
            if d <= layer:
                k = d if d < 8 else 7
                F.put_entry(frame, i, P.WAVE, k, 255 if d == layer else 110)
        return layer <= self.deepest + 1


def lesson_game(layout, solver, lesson, puzzle=1, expert=False):
    """The classroom's game of lesson ``lesson`` (a seed) at its ``puzzle``-th puzzle
    (1-based): the first new game of a device booted with seed ``lesson``, each puzzle
    given up as the classroom does (the route replayed: the target becomes the start).
    ``expert``: the same dice, and the waypoint's (the worksheets' challenge)."""
    game = Game(layout, 1, expert, game_seed(lesson, 1), 0, solver)
    for _ in range(puzzle - 1):
        game.give_up()
    return game


class CatchUp(Screen):
    """Coming back to a lesson's puzzle: the puzzles before it given up, a few a frame
    (``mode.behind``: about 1 ms each on the emulated Pico), the board dimmed; keys are
    ignored meanwhile. Then the dice."""

    placed = False

    def update(self, now):
        m = self.mode
        g = m.game
        for _ in range(min(m.behind, _CATCH_UP)):
            g.give_up()
        m.behind -= min(m.behind, _CATCH_UP)
        if not m.behind:
            m.roll(now, True)

    def render(self, now, frame):
        app = self.mode.app
        F.board(frame, app.layout, app.pal, 40)

    def busy(self, now):
        return True


class Layers(Screen):
    """The search's layers, one by one: A the next (after the target's: the route), B one
    back; the next by itself every 1.5 s, unless paused."""

    def open(self, now):
        self.draw(now)  # (in the frame it comes on show)

    def key(self, key, now):
        m = self.mode
        if key == A:
            self.forward(now)
        elif key == B and m.wave.layer > 0:
            m.wave.layer -= 1
            m.t0 = now

    def forward(self, now):
        """The next layer; after the target's, the route."""
        m = self.mode
        m.t0 = now
        if m.wave.layer < m.reach:
            m.wave.layer += 1
        else:
            m.change(m.route, now)

    def update(self, now):
        m = self.mode
        if not m.paused and F.since(now, m.t0) >= _AUTO_MS:
            self.forward(now)
        if m.screen is self:
            self.draw(now)

    def draw(self, now):
        """The backdrop: as draw_round(frame, app, g.start, g.target, -1, now, 40) with
        the wave over it, drawn once per layer (and colour aid blink); the robot and the
        target are drawn over it each frame."""
        m = self.mode
        app = m.app
        g = m.game
        hidden = app.settings["aid"] & 2 and not F.blink(now, 900)
        key = m.wave.layer * 2 + (1 if hidden else 0)
        backdrop = m.backdrop
        if backdrop.key != key:
            draw_round(backdrop.frame, app, g.start, g.target, -1, now, 40)
            m.wave.render(now, backdrop.frame)
            backdrop.key = key

    def render(self, now, frame):
        m = self.mode
        app = m.app
        g = m.game
        m.backdrop.copy_to(frame)
        F.target(frame, g.target, app.pal, app.layout.colours[g.target], now)
        F.robot(frame, g.start, app.pal, app.layout.colours[g.start], now)


class Route(Screen):
    """The shortest route replays (the puzzle given up: its target is the next start);
    A, or by itself 1.5 s after the replay unless paused: the next puzzle."""

    def open(self, now):
        self.mode.replay.start(now, self.mode.game.give_up())

    def key(self, key, now):
        if key == A:
            self.mode.next_puzzle(now)

    def update(self, now):
        m = self.mode
        if not m.paused and not m.replay.running(now) and F.since(now, m.t0) >= _AUTO_MS:
            m.next_puzzle(now)

    def render(self, now, frame):
        app = self.mode.app
        F.board(frame, app.layout, app.pal, 60)
        self.mode.replay.render(now, frame)


class Mode(ScreenMode):
    name = "classroom"

    def __init__(self, app):
        super().__init__(app)
        self.game = None
        self.fresh = False  # a puzzle rolled by prepare, its dice not started (enter)
        self.dice = anim.DiceRoll()
        self.wave = Wave()
        self.replay = anim.Replay()
        self.t0 = 0  # when the last step was taken
        self.paused = False
        self.reach = 0  # the target's layer
        self.backdrop = F.Backdrop()  # the board and the wave up to the current layer
        self.behind = 0  # a lesson's puzzles still to give up before the one on show
        self.catchup = CatchUp(self)  # the screens, made once
        self.rolling = Rolling(self)
        self.layers = Layers(self)
        self.route = Route(self)
        self.screen = self.rolling

    def reset(self):
        self.game = None
        self.fresh = False
        self.behind = 0

    def prepare(self):
        """A new puzzle, rolled here; enter starts its dice. A lesson's: its first puzzle
        (``CatchUp`` catches up with the one on show, ``behind``)."""
        if self.game is None:
            app = self.app
            lesson = app.settings["lesson"]
            if lesson:
                self.game = lesson_game(app.layout, app.solver, lesson)
                self.behind = app.settings["puzzle"] - 1
            else:
                self.game = Game(app.layout, 1, False, app.new_seed(), 0, app.solver)
            self.fresh = True

    @property
    def playing_alone(self):
        """The demo steps by itself: the device neither dims nor sleeps meanwhile."""
        return not self.paused

    def enter(self, now):
        self.prepare()
        if self.behind:  # the puzzles before given up, then the dice
            self.change(self.catchup, now)
        else:
            self.roll(now, self.fresh)  # a puzzle kept: the dice roll the next target only
        self.fresh = False

    def key(self, key, now):
        """UP pauses or resumes the automatic steps on every screen; the other keys are
        the screen's; each clicks (none while catching up)."""
        if self.behind:
            return
        if key == UP:
            self.paused = not self.paused
            self.t0 = now
        else:
            self.screen.key(key, now)
        self.app.beep(SOUND_CLICK)

    # -- the steps of a puzzle, taken from several screens ----------------------------
    def roll(self, now, with_start):
        g = self.game
        self.dice.start(now, self.app.layout, self.app.pal, g.start if with_start else -1,
                        g.target, -1)
        self.t0 = now
        self.change(self.rolling, now)

    def rolled(self, now, skipped):
        """The dice ended or were skipped (A or B): the search from the robot."""
        g = self.game
        self.t0 = now
        self.wave.start(now, self.app.solver.distances(g.start), 0)
        self.backdrop.key = -1
        self.reach = g.optimum()
        self.change(self.layers, now)

    def next_puzzle(self, now):
        """After the route: the next puzzle (a lesson's next, after its last the first
        again), its dice rolling the target (the route's end is its start)."""
        self.t0 = now
        g = self.game
        if g.over:  # cannot happen with one player; start afresh to be safe
            self.game = None
            self.enter(now)
            return
        s = self.app.settings
        if s["lesson"]:  # the class moves on; after the last, the lesson again
            k = s["puzzle"] % RANGES["puzzle"][1] + 1
            self.app.change("puzzle", k)
            if k == 1:
                self.game = None
                self.enter(now)
                return
        self.roll(now, False)
