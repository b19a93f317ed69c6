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
from . import Base, draw_round, step_cursor

_ROLL = const(0)
_PLAY = const(1)
_SOLVED = const(2)
_SCORE = const(3)
_REPLAY = const(4)
_SCORE_MS = const(3000)
_STATS_MS = const(2500)


def _draw_hint(frame, app, robot, now):
    """Light the legal destinations of the robot (a hint)."""
    solver = app.solver
    level = F.pulse(now, 800, 120, 255)
    for k in range(solver.degree(robot)):
        F.put_scaled(frame, solver.neighbour(robot, k), 255, 255, 255, level)


class Mode(Base):
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
        self.state = _PLAY
        self.t0 = 0
        self.walk = Walk()  # the robot's moves this round
        self.cursor = 0
        self.hint = False
        self.refused = -1  # the cell of a move just refused (the guide says why), else -1
        self.count = 0  # the last solved round: moves, optimum, target
        self.optimum = 0
        self.solved_at = 0
        self.stats = False  # B with no move to take back shows the score for a moment
        self.stats_at = 0  # from then
        self.gave_up = False  # the route replaying was asked for by giving up

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

    def begin_round(self, now, with_start):
        g = self.game
        self._new_walk()
        self.cursor = g.start
        self.hint = False
        w = g.waypoint
        self.dice.start(now, self.app.layout, self.app.pal, g.start if with_start else -1,
                        g.target, -1 if w is None else w)
        self.state = _ROLL
        self.app.beep(SOUND_ROLL)
        self.save()

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
        self.state = _PLAY
        return True, None if whole else "solo: saved moves damaged; some were dropped"

    # -- keys -----------------------------------------------------------------

    def key(self, key, now):
        st = self.state
        if st == _ROLL:
            if key == A or key == B:
                self.state = _PLAY  # skip the dice
            return
        if st != _PLAY:
            self._after_round(key, now)
            return
        app = self.app
        hint = self.hint
        self.hint = False
        self.stats = False
        self.refused = -1
        if key <= RIGHT:
            self.cursor = step_cursor(self.robot, self.cursor, key)
            app.beep(SOUND_CLICK)
        elif key == A:
            a = self.robot
            b = self.cursor
            if a == b:
                return
            if not app.solver.is_move(a, b) or not self.walk.step(b):
                self.refused = b
                self.flash.start(now, b)
                app.beep(SOUND_REFUSE)
                return
            self.slide.start(now, a, b)
            app.beep(SOUND_MOVE)
            g = self.game
            if b == g.target and self.walk.seen:
                self._solved(now)
                return
            if b == g.target:  # on the target too early: point at the waypoint
                self.flash.start(ticks_add(now, 300), g.waypoint, P.ROBOT_WHITE)
            self.save()
        elif key == B:
            if self.walk.undo():
                self.cursor = self.robot
                app.beep(SOUND_CLICK)
                self.save()
            else:  # nothing to take back: the score for a moment
                self.stats = True
                self.stats_at = now
        elif key == LONG_A:
            if hint:  # held again while the hint shows: give up
                self._give_up(now)
            else:
                self.hint = True

    def _solved(self, now):
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
        self.t0 = now
        self.state = _SOLVED
        self.app.beep(SOUND_GOOD if self.count == self.optimum else SOUND_MOVE)

    def _give_up(self, now):
        """Nobody's perfect: an optimal route replays; the streak starts again."""
        g = self.game
        self.solved_at = g.target
        self.route = g.give_up()  # the next round is rolled; the streak is 0
        self._new_walk()
        self.save()
        self.gave_up = True
        self.replay.start(now, self.route)
        self.t0 = now
        self.state = _REPLAY
        self.app.beep(SOUND_MOVE)

    def _after_round(self, key, now):
        """Any key hurries the celebration on; A after the replay rolls the next target."""
        if self.state == _REPLAY and not self.replay.running(now):
            if key == A:
                self.begin_round(now, False)
            return
        if key == A or key == B:
            self._advance(now)

    def _advance(self, now):
        st = self.state
        self.t0 = now
        if st == _SOLVED:
            self.state = _SCORE
        elif st == _SCORE:
            self.state = _REPLAY
            self.replay.start(now, self.route)
        elif st == _REPLAY:
            self.begin_round(now, False)

    # -- frames ---------------------------------------------------------------
    def update(self, now):
        st = self.state
        if st == _ROLL and not self.dice.running(now):
            self.state = _PLAY
        elif st == _SOLVED and not self.party.running(now):
            self.state = _SCORE
            self.t0 = now
        elif st == _SCORE and F.since(now, self.t0) >= _SCORE_MS:
            self.state = _REPLAY
            self.t0 = now
            self.replay.start(now, self.route)
        if self.stats and F.since(now, self.stats_at) >= _STATS_MS:
            self.stats = False

    def render(self, now, frame):
        st = self.state
        g = self.game
        app = self.app
        if st == _ROLL:
            self.dice.render(now, frame)
        elif st == _PLAY and self.stats:
            F.fill(frame, 0, 0, 0)
            F.count(frame, g.score, 0, P.GOOD)
            F.count(frame, g.streak, 2, P.STREAK)
            F.count(frame, g.extra, 4, P.REFUSE)
        elif st == _PLAY:
            way = g.waypoint
            draw_round(frame, app, self.robot, g.target,
                       -1 if way is None or self.walk.seen else way, now)
            if self.hint:
                _draw_hint(frame, app, self.robot, now)
            if self.cursor != self.robot:
                F.cursor(frame, self.cursor, app.pal, app.layout.colours[self.cursor], now)
            if self.slide.render(now, frame):  # hide the robot at its goal meanwhile
                F.put_die(frame, self.robot, app.pal, app.layout.colours[self.robot],
                          P.BACKGROUND)
            self.flash.render(now, frame)
        elif st == _SOLVED:
            at = self.solved_at
            draw_round(frame, app, at, at, -1, now)
            if F.since(now, self.party.t0) < 0:
                if self.slide.render(now, frame):
                    F.put_die(frame, at, app.pal, app.layout.colours[at], P.BACKGROUND)
            else:
                self.party.render(now, frame)
        elif st == _SCORE:
            F.fill(frame, 0, 0, 0)
            F.count(frame, self.count, 0, P.GOOD if self.count == self.optimum else P.REFUSE)
            F.count(frame, self.optimum, 3, P.OPTIMUM)
        else:  # _REPLAY, then waiting for A
            first = self.route[0]
            F.board(frame, app.layout, app.pal, 70)
            F.target(frame, self.solved_at, app.pal, app.layout.colours[self.solved_at], now)
            if not self.replay.render(now, frame):
                done = P.TRAIL if self.gave_up else P.GOOD
                F.put_rgb(frame, self.solved_at, done if F.blink(now, 1000) else P.ROBOT_WHITE)
                F.put_rgb(frame, first, P.TRAIL)
