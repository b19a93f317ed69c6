"""Solo puzzle: bring the robot to the target in as few moves as you can.

The dice roll a start (the robot: blinking white) and a target (slow pulse). In expert
play a waypoint (two quick beats) must be visited first (reach the target before it
and the waypoint flashes white).

- D-pad: move the cursor (blinking cyan) along the robot's row or column.
- A: move the robot to the cursor. A move must land on a cell of the same colour or the
  same number as the robot's cell; anything else flashes red and the robot stays.
- B: take the last move back (up to 100 of them). With no move to take back: the score for a moment, three
  counts (frame.count): puzzles solved (green label), the current streak of puzzles
  solved in a row (blue label), the moves needed beyond the optimum in all of them
  (red label; 0 means every puzzle was solved perfectly).
- Hold A: hint, the legal destinations light up until the next key. Hold A again while
  they are lit: give up - an optimal route replays, the streak starts again from 0, and
  A rolls the next target.
- Hold B: back to the menu (the puzzle is kept, even through a power cut).

On the target: a celebration, then your move count (top; its label green when optimal,
red when longer) over the optimum (bottom, violet label); an optimal route replays; A
rolls the next target (the old target is the new start).

The mode's screens, in the order of a round: ``Rolling`` (modes/__init__.py, the dice),
``Play`` (and ``Stats``, the score for a moment over it), ``Solved`` (the celebration),
``Score`` (moves over the optimum), ``Review`` (an optimal route, then A). Each draws
itself and takes its keys; the Mode holds the game, the walk and the round's result they
share, and the steps several screens take (a round begun, solved, given up).
"""

from ..keys import (
    A, B, LONG_A, RIGHT, SOUND_CLICK, SOUND_GOOD, SOUND_MOVE, SOUND_REFUSE, SOUND_ROLL,
)
from .. import animations as anim
from .. import frame as F
from .. import palette as P
from ..compat import const, ticks_add
from ..rules import notation
from ..rules.game import Game, GameError
from ..rules.walk import Walk
from . import Rolling, Screen, ScreenMode, draw_round, step_cursor

_SCORE_MS = const(3000)
_STATS_MS = const(2500)


def _draw_hint(frame, app, robot, now):
    """Light the legal destinations of the robot (a hint)."""
    solver = app.solver
    level = F.pulse(now, 800, 120, 255)
    for k in range(solver.degree(robot)):
        F.put_scaled(frame, solver.neighbour(robot, k), 255, 255, 255, level)


class Play(Screen):
    """The round: the D-pad moves the cursor, A the robot, B takes a move back (none to
    take back: the score, ``Stats``), hold A: a hint, held again: give up."""

    def key(self, key, now):
        m = self.mode
        app = m.app
        hint = m.hint
        m.hint = False
        m.refused = -1
        if key <= RIGHT:
            m.cursor = step_cursor(m.robot, m.cursor, key)
            app.beep(SOUND_CLICK)
        elif key == A:
            a = m.robot
            b = m.cursor
            if a == b:
                return
            if not app.solver.is_move(a, b) or not m.walk.step(b):
                m.refused = b
                m.flash.start(now, b)
                app.beep(SOUND_REFUSE)
                return
            m.slide.start(now, a, b)
            app.beep(SOUND_MOVE)
            g = m.game
            if b == g.target and m.walk.seen:
                m.solve(now)
                return
            if b == g.target:  # on the target too early: point at the waypoint
                m.flash.start(ticks_add(now, 300), g.waypoint, P.ROBOT_WHITE)
            m.save()
        elif key == B:
            if m.walk.undo():
                m.cursor = m.robot
                app.beep(SOUND_CLICK)
                m.save()
            else:  # nothing to take back: the score for a moment
                m.change(m.stats, now)
        elif key == LONG_A:
            if hint:  # held again while the hint shows: give up
                m.give_up(now)
            else:
                m.hint = True

    def render(self, now, frame):
        m = self.mode
        app = m.app
        g = m.game
        way = g.waypoint
        robot = m.robot
        draw_round(frame, app, robot, g.target, -1 if way is None or m.walk.seen else way,
                   now)
        if m.hint:
            _draw_hint(frame, app, robot, now)
        if m.cursor != robot:
            F.cursor(frame, m.cursor, app.pal, app.layout.colours[m.cursor], now)
        if m.slide.render(now, frame):  # hide the robot at its goal meanwhile
            F.put_die(frame, robot, app.pal, app.layout.colours[robot], P.BACKGROUND)
        m.flash.render(now, frame)


class Stats(Screen):
    """The score for a moment over the round (B with no move to take back): three counts,
    puzzles solved, the streak, the moves beyond the optimum. Any key plays on."""

    def open(self, now):
        self.mode.stats_at = now

    def key(self, key, now):
        m = self.mode
        m.change(m.play, now)
        m.play.key(key, now)

    def update(self, now):
        if F.since(now, self.mode.stats_at) >= _STATS_MS:
            self.mode.change(self.mode.play, now)

    def render(self, now, frame):
        g = self.mode.game
        F.fill(frame, 0, 0, 0)
        F.count(frame, g.score, 0, P.GOOD)
        F.count(frame, g.streak, 2, P.STREAK)
        F.count(frame, g.extra, 4, P.REFUSE)


class Solved(Screen):
    """On the target: the last move slides, then the celebration; A or B hurries on."""

    def key(self, key, now):
        if key == A or key == B:
            self.mode.change(self.mode.score, now)

    def update(self, now):
        if not self.mode.party.running(now):
            self.mode.change(self.mode.score, now)

    def render(self, now, frame):
        m = self.mode
        app = m.app
        at = m.solved_at
        draw_round(frame, app, at, at, -1, now)
        if F.since(now, m.party.t0) < 0:
            if m.slide.render(now, frame):
                F.put_die(frame, at, app.pal, app.layout.colours[at], P.BACKGROUND)
        else:
            m.party.render(now, frame)


class Score(Screen):
    """The moves (top; green when optimal, else red) over the optimum (violet label), for
    a while or until A or B."""

    def open(self, now):
        self.mode.t0 = now

    def key(self, key, now):
        if key == A or key == B:
            self.mode.change(self.mode.review, now)

    def update(self, now):
        if F.since(now, self.mode.t0) >= _SCORE_MS:
            self.mode.change(self.mode.review, now)

    def render(self, now, frame):
        m = self.mode
        F.fill(frame, 0, 0, 0)
        F.count(frame, m.count, 0, P.GOOD if m.count == m.optimum else P.REFUSE)
        F.count(frame, m.optimum, 3, P.OPTIMUM)


class Review(Screen):
    """An optimal route replays (solved, or given up); A or B hurries it, then A rolls the
    next target."""

    def open(self, now):
        self.mode.replay.start(now, self.mode.route)

    def key(self, key, now):
        m = self.mode
        if not m.replay.running(now):
            if key == A:
                m.begin_round(now, False)
        elif key == A or key == B:
            m.begin_round(now, False)

    def render(self, now, frame):
        m = self.mode
        app = m.app
        at = m.solved_at
        F.board(frame, app.layout, app.pal, 70)
        F.target(frame, at, app.pal, app.layout.colours[at], now)
        if not m.replay.render(now, frame):
            done = P.TRAIL if m.gave_up else P.GOOD
            F.put_rgb(frame, at, done if F.blink(now, 1000) else P.ROBOT_WHITE)
            F.put_rgb(frame, m.route[0], P.TRAIL)


class Mode(ScreenMode):
    name = "solo"

    def __init__(self, app):
        super().__init__(app)
        self.game = None
        self.fresh = False  # a game rolled by prepare, not begun yet (enter begins it)
        self.dice = anim.DiceRoll()
        self.slide = anim.Slide()
        self.flash = anim.Flash()
        self.party = anim.Celebrate()
        self.replay = anim.Replay()
        self.walk = Walk()  # the robot's moves this round
        self.cursor = 0
        self.hint = False
        self.refused = -1  # the cell of a move just refused (the guide says why), else -1
        self.count = 0  # the last solved round: moves, optimum, target
        self.optimum = 0
        self.solved_at = 0
        self.route = None  # the optimal route Review replays
        self.gave_up = False  # the route replaying was asked for by giving up
        self.t0 = 0  # when the score came on show
        self.stats_at = 0  # when the score for a moment (Stats) did
        self.rolling = Rolling(self)  # the screens, made once
        self.play = Play(self)
        self.stats = Stats(self)
        self.solved = Solved(self)
        self.score = Score(self)
        self.review = Review(self)
        self.screen = self.play

    @property
    def robot(self):
        return self.walk.robot

    @property
    def moves(self):
        """The moves B can take back, as the cells they went to."""
        return self.walk.moves()

    def _new_walk(self):
        g = self.game
        self.walk.start(g.start, -1 if g.waypoint is None else g.waypoint)

    # -- life cycle -----------------------------------------------------------
    def reset(self):
        self.game = None
        self.fresh = False

    def prepare(self):
        g = self.game
        s = self.app.settings
        # none kept, none resumed (the app tried), or the difficulty or expert play left
        # changed in the settings (a value only browsed and set back keeps the game)
        if g is None or g.difficulty != s["difficulty"] or g.expert != s["expert"]:
            self.game = self._rolled_game()
            self.fresh = True  # rolled, not begun: enter begins it

    def enter(self, now):
        self.prepare()
        if self.fresh:
            self.fresh = False
            self.begin_round(now, True)

    def new_game(self, now):
        self.game = self._rolled_game()
        self.begin_round(now, True)

    def _rolled_game(self):
        app = self.app
        s = app.settings
        return Game(app.layout, 1, s["expert"], app.new_seed(), s["difficulty"], app.solver)

    def save(self):
        saved = self.walk.to_saved()
        saved["mode"] = "solo"
        saved["game"] = self.game.to_dict()
        self.app.saver.save_game(saved)

    def resume(self, saved, now):
        try:
            game = yield from notation.loading(saved.get("game"), self.app.solver)
        except GameError as e:
            return False, str(e)
        if game.layout != self.app.layout or game.players != 1:
            return False, "saved game: not a solo game on this layout"
        self.game = game
        self.hint = False
        whole = self.walk.restore(saved, game.start,
                                  -1 if game.waypoint is None else game.waypoint,
                                  self.app.solver.is_move)
        self.cursor = self.robot
        self.change(self.play, now)
        return True, None if whole else "solo: saved moves damaged; some were dropped"

    # -- the steps of a round, taken from several screens ------------------------
    def begin_round(self, now, with_start):
        """The dice roll the round's start (``with_start``; else the old target is it)
        and target."""
        g = self.game
        self._new_walk()
        self.cursor = g.start
        self.hint = False
        w = g.waypoint
        self.dice.start(now, self.app.layout, self.app.pal, g.start if with_start else -1,
                        g.target, -1 if w is None else w)
        self.change(self.rolling, now)
        self.app.beep(SOUND_ROLL)
        self.save()

    def rolled(self, now, skipped):
        self.change(self.play, now)

    def solve(self, now):
        g = self.game
        self.count = self.walk.count
        self.optimum = g.optimum()
        self.solved_at = g.target
        self.route = g.route()
        self.gave_up = False
        g.solved(self.count)  # the walk was checked move by move, and may be long
        self._new_walk()
        self.save()
        self.party.start(ticks_add(now, 500), self.solved_at)
        self.change(self.solved, now)
        self.app.beep(SOUND_GOOD if self.count == self.optimum else SOUND_MOVE)

    def give_up(self, now):
        """Nobody's perfect: an optimal route replays; the streak starts again."""
        g = self.game
        self.solved_at = g.target
        self.route = g.give_up()  # the next round is rolled; the streak is 0
        self._new_walk()
        self.save()
        self.gave_up = True
        self.change(self.review, now)
        self.app.beep(SOUND_MOVE)
