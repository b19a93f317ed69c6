"""Referee: the grid runs a table game of Micro Robots for 2-8 players.

The dice roll the start (robot, blinking), the target (slow pulse) and in expert play
the waypoint (two quick beats). Everybody searches; whoever finds a route announces a
move count, and the referee enters the claim:

- A: start a claim. The score rows appear with nobody chosen (their colours pulse); the
  D-pad picks the claimant (down/right from the first, up/left from the last; their row
  blinks); A confirms. A with nobody chosen is refused: a claim is never credited to
  whoever claimed last by a hurried double press.
- Count: UP/DOWN add or take one move, RIGHT/LEFT five; shown as a count (a tally, see
  frame.count) labelled in the claimant's colour, their colour below. A confirms. A
  claim below the optimum fails at once.
- Demonstration: the claimant shows the moves; the referee follows each one with the
  D-pad cursor (along the robot's row or column) and A. Every cell may be entered, legal
  or not: the engine rules. After the claimed number of moves the verdict comes at once
  (hold A to end early); B takes the last entered move back, or returns to the count.
- Verdict: the grid flashes green = correct, the claimant takes a token; red = wrong, the
  claimant gives a token to the player with the fewest. A wrong claim is then explained
  until A (or B): the demonstration replays and stops on the first broken rule - an
  illegal move drawn in red from the robot to where it went, a missed target or waypoint
  blinking red, a wrong count as the claim (top) over the moves shown (bottom, red
  label), a claim below the optimum as the claim over the optimum (violet label). The
  console gets the verdict as a sentence (app.say). Then the scores show, the claimant's
  colour blinking green or red, and the next target is rolled (the old target is the new
  start). A or B hurries on.

On the board: B asks to undo the last decision - the scores blink between now and after
the undo; B again undoes, any other key (or 5 s) keeps it. UP shows the scores (one row
per player: their colour, then a gold cell per token; then the pool's exact count,
labelled grey; with five or more players the pool is on a second page and the pages
alternate). Hold A when nobody finds a route: an optimal route is revealed, a move
every 0.9 s, and no token moves; a D-pad key shows it again, A rolls the next target.
Five tokens win at once; otherwise, when the pool is empty, the most tokens win.
A then starts a new game, B asks to undo. Hold B: menu (game kept).

Two modules. Here the ``Mode``: it holds the game and the claim its screens share, and
takes the decisions (a claim judged, a round given up, an undo asked and made, the next
round); its console lines and the undo's preview allocate, once a decision, never a
frame. modes/referee_screens.py has the screens, in the order of a round: each draws
itself and takes its keys, calling the Mode for a decision. (One module together, they
took one frame over 10 ms to import on a Pico: modes.PARTS imports them a frame apart.)
"""

from ..keys import SOUND_BAD, SOUND_CLICK, SOUND_GOOD, SOUND_MOVE, SOUND_ROLL, SOUND_WIN
from .. import animations as anim
from .. import palette as P
from ..compat import ticks_add
from ..rules import notation
from ..rules.game import Game, GameError
from ..rules.solver import BELOW_OPTIMUM, ILLEGAL_MOVE, TARGET_MISSED, WAYPOINT_MISSED, WRONG_COUNT
from . import Rolling, ScreenMode
from .referee_screens import (
    REVEAL_HOP_MS, Board, Claim, Claimant, Demo, Over, Result, Reveal, Scores, Undo, Why,
)


class Mode(ScreenMode):
    name = "referee"

    def __init__(self, app):
        super().__init__(app)
        self.game = None
        self.fresh = False  # a game rolled by prepare, not begun yet (enter begins it)
        self.dice = anim.DiceRoll()
        self.flash = anim.Flash()
        self.party = anim.Celebrate()
        self.replay = anim.Replay(101)  # a revealed route, or a demonstration (<= 99 moves)
        self.t0 = 0  # when the screen on show began (its pages, its time out)
        self.player = -1  # the claimant; -1: nobody chosen yet
        self.count = 1
        self.moves = []
        self.robot = 0
        self.cursor = 0
        self.ok = False  # the last verdict
        self.verdict = ""  # its reason
        self.code = 0  # its code (solver.CORRECT...) and, for an illegal move, which (1-based)
        self.bad = 0
        self.receiver = -1  # who a wrong claim's token went to (-1: none moved)
        self.shown = 0  # the moves demonstrated
        self.explained = False  # a wrong verdict's why was shown
        self.why_target = 0  # the round judged: target, waypoint (-1: none), optimum
        self.why_via = -1
        self.why_optimum = 0
        self.why_legal = 0  # the explanation's place in its period (Why.update)
        self.why_t = 0
        self.at = 0  # where the revealed route ends
        self.undo_tokens = None  # the tokens and pool after the undo asked about
        self.undo_pool = 0
        self.rolling = Rolling(self)  # the screens, made once
        self.board = Board(self)
        self.claimant = Claimant(self)
        self.claim = Claim(self)
        self.demo = Demo(self)
        self.result = Result(self)
        self.why = Why(self)
        self.reveal = Reveal(self)
        self.scores = Scores(self)
        self.undo = Undo(self)
        self.over = Over(self)
        self.screen = self.board
        self.back = self.board  # the screen an unanswered undo question returns to

    # -- life cycle -----------------------------------------------------------
    def reset(self):
        self.game = None
        self.fresh = False

    def prepare(self):
        g = self.game
        s = self.app.settings
        # None kept, none resumed (the app tried), or the table has set up the game it is
        # about to play: a new one, rolled here and begun by enter
        if g is None or g.players != s["players"] or g.expert != s["expert"]:
            self.game = self._rolled_game()
            self.fresh = True

    def enter(self, now):
        self.prepare()
        if self.fresh:
            self.fresh = False
            self._begin(now)
        else:
            self.change(self.over if self.game.over else self.board, now)

    def new_game(self, now):
        self.game = self._rolled_game()
        self._begin(now)

    def _rolled_game(self):
        app = self.app
        s = app.settings
        return Game(app.layout, s["players"], s["expert"], app.new_seed(), 0, app.solver)

    def _begin(self, now):
        self.player = -1
        self.roll(now, True)
        self.save()

    def roll(self, now, with_start):
        g = self.game
        w = g.waypoint
        self.dice.start(now, self.app.layout, self.app.pal, g.start if with_start else -1,
                        g.target, -1 if w is None else w)
        self.change(self.rolling, now)
        self.app.beep(SOUND_ROLL)

    def save(self):
        self.app.saver.save_game({"mode": "referee", "game": self.game.to_dict()})

    def resume(self, saved, now):
        try:
            game = yield from notation.loading(saved.get("game"), self.app.solver)
        except GameError as e:
            return False, str(e)
        if game.layout != self.app.layout or game.players < 2:
            return False, "saved game: not a refereed game on this layout"
        self.game = game
        self.change(self.over if game.over else self.board, now)
        self.t0 = ticks_add(now, -10000)
        return True, None

    def rolled(self, now, skipped):
        if skipped:
            self.next_round(now)
        else:
            self.change(self.board, now)

    # -- decisions (they allocate: one per round, never per frame) ----------------
    def judge(self, now, moves):
        """The claim of ``count`` moves by ``player``, demonstrated by ``moves``."""
        g = self.game
        lay = self.app.layout
        start = g.start
        before = list(g.tokens)
        rnd = g.round
        self.why_target = g.target
        self.why_via = -1 if g.waypoint is None else g.waypoint
        self.why_optimum = g.optimum()
        verdict = g.claim(self.player, self.count, moves)
        self.ok = verdict.ok
        self.verdict = verdict.reason
        self.code = verdict.code
        self.bad = verdict.move
        self.shown = len(moves)
        self.explained = False
        self.replay.hop = anim.HOP_MS  # (Why times the replay by it)
        self.replay.start(now, [start] + list(moves))
        self.at = start
        self.save()
        self.t0 = now
        self.change(self.result, now)
        self.app.beep(SOUND_GOOD if self.ok else SOUND_BAD)
        # the console: the verdict and why, as a sentence
        who = "player %d" % (self.player + 1)
        if self.ok:
            why = "correct; %s takes a token" % who
        else:
            why = "wrong: " + verdict.reason
            if self.code == ILLEGAL_MOVE:
                k = self.bad
                a = start if k == 1 else moves[k - 2]
                why += " (%s to %s)" % (lay.token(a), lay.token(moves[k - 1]))
            elif self.code == WRONG_COUNT:
                why = "wrong: %d move%s shown for a claim of %d" % (
                    self.shown, "" if self.shown == 1 else "s", self.count)
            elif self.code == BELOW_OPTIMUM:
                why += " (%d)" % self.why_optimum
            elif self.code == TARGET_MISSED:
                why += " (%s, not %s)" % (lay.token(moves[-1] if moves else start),
                                          lay.token(self.why_target))
            elif self.code == WAYPOINT_MISSED:
                why += " (%s)" % lay.token(self.why_via)
            self.receiver = -1
            for p in range(g.players):
                if g.tokens[p] > before[p]:
                    why += "; %s gives a token to player %d" % (who, p + 1)
                    self.receiver = p
        self.app.say("round %d: %s claims %d: %s; tokens %s, pool %d" % (
            rnd, who, self.count, why, " ".join(str(t) for t in g.tokens), g.pool))

    def give_up(self, now):
        """Nobody found a route: an optimal one is revealed."""
        g = self.game
        rnd = g.round
        route = g.give_up()
        self.replay.hop = REVEAL_HOP_MS
        self.replay.start(now, route)
        self.at = route[-1]
        self.save()
        self.t0 = now
        self.change(self.reveal, now)
        self.app.beep(SOUND_MOVE)
        lay = self.app.layout
        n = len(route) - 1
        self.app.say("round %d: given up; a route of %d move%s: %s" % (
            rnd, n, "" if n == 1 else "s", " ".join(lay.token(c) for c in route)))

    def ask_undo(self, now):
        """B: show what an undo would change and wait for B again."""
        g = self.game
        if g.round == 1 and not g.over:
            return  # nothing decided yet
        before = Game(g.layout, g.players, g.expert, g.seed, g.difficulty, g.solver)
        notation.apply(before, g.decision_text())
        before.undo()
        self.undo_tokens = before.tokens
        self.undo_pool = before.pool
        self.back = self.screen
        self.t0 = now
        self.change(self.undo, now)
        self.app.beep(SOUND_CLICK)

    def take_back(self, now):
        """The last decision undone (the undo asked about, answered with B)."""
        if self.game.undo():
            self.save()
            self.change(self.board, now)
            self.flash.start(now, -1, P.TRAIL)
            self.app.beep(SOUND_CLICK)
            self.app.say("round %d: the last decision undone; tokens %s, pool %d" % (
                self.game.round, " ".join(str(t) for t in self.game.tokens), self.game.pool))
        self.undo_tokens = None

    def next_round(self, now):
        """After a verdict, a reveal or the dice: the end, the board, or the next roll."""
        g = self.game
        if g.over:
            self.party.start(now, g.target)
            self.t0 = now
            self.change(self.over, now)
            self.app.beep(SOUND_WIN)
        elif self.screen is self.rolling:
            self.change(self.board, now)
        else:
            self.roll(now, False)
