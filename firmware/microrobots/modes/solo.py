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
``Score`` (moves over the optimum), ``Review`` (an optimal route, then A), in
modes/solo_screens.py (imported a frame before this module: modes.PARTS). Each draws
itself and takes its keys; the Mode, here, holds the game, the walk and the round's
result they share, and the steps several screens take (a round begun, solved, given up).
"""

from ..keys import SOUND_GOOD, SOUND_MOVE, SOUND_ROLL
from .. import animations as anim
from ..compat import ticks_add
from ..rules import notation
from ..rules.game import Game, GameError
from ..rules.walk import Walk
from . import Rolling, ScreenMode
from .solo_screens import Play, Review, Score, Solved, Stats


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
