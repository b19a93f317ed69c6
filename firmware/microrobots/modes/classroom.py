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
"""

from ..keys import A, B, SOUND_CLICK, UP
from .. import animations as anim
from .. import frame as F
from .. import palette as P
from ..compat import const
from ..rules.game import Game
from ..rules.rng import game_seed
from ..preferences import RANGES
from . import Base, draw_round

# The classroom's steps (public: modes/guide.py and the page read them by these names).
ROLL = const(0)  # the dice roll the robot and the target
WAVE = const(1)  # the search's layers, one by one
ROUTE = const(2)  # the shortest route shown
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

    def update(self, now):
        """A wave that spreads by itself (``step_ms`` > 0): the layer it has reached."""
        if self.step_ms > 0:
            self.layer = F.since(now, self.t0) // self.step_ms

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


class Mode(Base):
    name = "classroom"

    def __init__(self, app):
        super().__init__(app)
        self.game = None
        self.fresh = False  # a puzzle rolled by prepare, its dice not started (enter)
        self.dice = anim.DiceRoll()
        self.wave = Wave()
        self.replay = anim.Replay()
        self.state = ROLL
        self.t0 = 0  # when the last step was taken
        self.paused = False
        self.reach = 0  # the target's layer
        self.backdrop = F.Backdrop()  # the board and the wave up to the current layer
        self.behind = 0  # a lesson's puzzles still to give up before the one on show

    def reset(self):
        self.game = None
        self.fresh = False
        self.behind = 0

    def prepare(self):
        """A new puzzle, rolled here; enter starts its dice. A lesson's: its first puzzle
        (update catches up with the one on show, ``behind``)."""
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
        if self.behind:  # update gives up the puzzles before, then rolls the dice
            self.state = ROLL
        else:
            self._roll(now, self.fresh)  # a puzzle kept: the dice roll the next target only
        self.fresh = False

    def _roll(self, now, with_start):
        g = self.game
        self.dice.start(now, self.app.layout, self.app.pal, g.start if with_start else -1,
                        g.target, -1)
        self.state = ROLL
        self.t0 = now

    def _begin_wave(self, now):
        g = self.game
        self.wave.start(now, self.app.solver.distances(g.start), 0)
        self.backdrop.key = -1
        self.reach = g.optimum()
        self.state = WAVE
        self.t0 = now

    def _next(self, now):
        """One step forward; allocation-free except when a new puzzle starts."""
        st = self.state
        self.t0 = now
        if st == ROLL:
            self._begin_wave(now)
        elif st == WAVE:
            if self.wave.layer < self.reach:
                self.wave.layer += 1
            else:
                self.state = ROUTE
                self.replay.start(now, self.game.give_up())
        else:
            g = self.game
            if g.over:  # cannot happen with one player; start afresh to be safe
                self.game = None
                self.enter(now)
            else:
                s = self.app.settings
                if s["lesson"]:  # the class moves on; after the last, the lesson again
                    k = s["puzzle"] % RANGES["puzzle"][1] + 1
                    self.app.change("puzzle", k)
                    if k == 1:
                        self.game = None
                        self.enter(now)
                        return
                self._roll(now, False)

    def key(self, key, now):
        if self.behind:
            return  # (not yet at the lesson's puzzle: a few frames)
        if key == A or (key == B and self.state == ROLL):
            self._next(now)
        elif key == B:
            if self.state == WAVE and self.wave.layer > 0:
                self.wave.layer -= 1
                self.t0 = now
        elif key == UP:
            self.paused = not self.paused
            self.t0 = now
        self.app.beep(SOUND_CLICK)

    def update(self, now):
        g = self.game
        app = self.app
        if self.behind:  # a few puzzles a frame (each about 1 ms on the emulated Pico)
            for _ in range(min(self.behind, _CATCH_UP)):
                g.give_up()
            self.behind -= min(self.behind, _CATCH_UP)
            if not self.behind:
                self._roll(now, True)
            return
        st = self.state
        if st == ROLL and not self.dice.running(now):
            self._begin_wave(now)
        elif st == ROUTE and not self.paused and not self.replay.running(now) and F.since(
                now, self.t0) >= _AUTO_MS:
            self._next(now)
        elif st == WAVE and not self.paused and F.since(now, self.t0) >= _AUTO_MS:
            self._next(now)
        g = self.game
        if self.state == WAVE:
            # As draw_round(frame, app, g.start, g.target, -1, now, 40) with the wave over
            # it, drawn once per layer; the robot and the target are drawn last anyway.
            hidden = app.settings["aid"] & 2 and not F.blink(now, 900)
            key = self.wave.layer * 2 + (1 if hidden else 0)
            backdrop = self.backdrop
            if backdrop.key != key:
                draw_round(backdrop.frame, app, g.start, g.target, -1, now, 40)
                self.wave.render(now, backdrop.frame)
                backdrop.key = key

    def render(self, now, frame):
        g = self.game
        app = self.app
        if self.behind:
            F.board(frame, app.layout, app.pal, 40)
        elif self.state == ROLL:
            self.dice.render(now, frame)
        elif self.state == WAVE:
            self.backdrop.copy_to(frame)
            F.target(frame, g.target, app.pal, app.layout.colours[g.target], now)
            F.robot(frame, g.start, app.pal, app.layout.colours[g.start], now)
        else:
            F.board(frame, app.layout, app.pal, 60)
            self.replay.render(now, frame)
