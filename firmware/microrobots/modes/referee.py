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
"""

from ..keys import (
    A, B, DOWN, LEFT, LONG_A, RIGHT, SOUND_BAD, SOUND_CLICK, SOUND_GOOD, SOUND_MOVE,
    SOUND_REFUSE, SOUND_ROLL, SOUND_WIN, UP,
)
from .. import animations as anim
from .. import palette as P
from ..compat import const, ticks_add
from ..rules import notation
from ..rules.game import Game, GameError
from ..rules.solver import BELOW_OPTIMUM, ILLEGAL_MOVE, TARGET_MISSED, WAYPOINT_MISSED, WRONG_COUNT
from . import Base, step_cursor
from .referee_screens import (
    BOARD, COUNT, DEMO, OVER, PLAYER, RESULT, REVEAL, ROLL, SCORES, UNDO, VERDICT_MS, WHY, Screens,
)

_REVEAL_HOP_MS = const(900)  # nobody found a route: a move a table can follow


class Mode(Screens, Base):
    name = "referee"

    def __init__(self, app):
        super().__init__(app)
        self.game = None
        self.fresh = False  # a game rolled by prepare, not begun yet (enter begins it)
        self.dice = anim.DiceRoll()
        self.flash = anim.Flash()
        self.party = anim.Celebrate()
        self.replay = anim.Replay(101)  # a revealed route, or a demonstration (<= 99 moves)
        self.state = BOARD
        self.t0 = 0
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
        self.why_legal = 0  # the explanation's place in its period (Screens._time_why)
        self.why_t = 0
        self.at = 0  # where the revealed route ends
        self.back = BOARD  # the screen an unanswered undo question returns to
        self.undo_tokens = None  # the tokens and pool after the undo asked about
        self.undo_pool = 0

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
            self.state = OVER if self.game.over else BOARD

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
        self.state = ROLL
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
        self.state = OVER if game.over else BOARD
        self.t0 = ticks_add(now, -10000)
        return True, None

    # -- keys -----------------------------------------------------------------
    def key(self, key, now):
        st = self.state
        g = self.game
        app = self.app
        if st == REVEAL:
            if key <= RIGHT:  # again, from the start
                self.replay.t0 = now
            elif key == A and self.replay.running(now):  # the whole route at once
                self.replay.t0 = ticks_add(now, -(self.replay.n + 2) * _REVEAL_HOP_MS)
            elif key == A or key == B:  # seen: the next roll
                self._next_round(now)
            return
        if (st == RESULT or st == WHY) and key == B:  # the verdict: take it back?
            self._ask_undo(now)
            return
        if st == ROLL or st == RESULT:
            if key == A or key == B:  # hurry on
                self._next_round(now)
            return
        if st == WHY:
            if key == A:  # understood: the scores, then the next round
                self.state = RESULT
                self.t0 = ticks_add(now, -VERDICT_MS)
            return
        if st == UNDO:
            if key == B:
                self._undo(now)
            else:
                self.state = self.back
                app.beep(SOUND_CLICK)
            return
        if st == SCORES:
            self.state = BOARD
            return
        if st == OVER:
            if key == A:
                self.new_game(now)
            elif key == B:
                self._ask_undo(now)
            return
        if st == BOARD:
            if key == A:
                self.player = -1
                self.state = PLAYER
            elif key == LONG_A:
                self._give_up(now)
                return
            elif key == B:
                self._ask_undo(now)
                return
            elif key == UP:
                self.state = SCORES
                self.t0 = now
            app.beep(SOUND_CLICK)
            return
        if st == PLAYER:
            n = g.players
            p = self.player
            if key == DOWN or key == RIGHT:
                self.player = 0 if p < 0 else (p + 1) % n
            elif key == UP or key == LEFT:
                self.player = n - 1 if p < 0 else (p - 1) % n
            elif key == A:
                if p < 0:  # nobody chosen: a claim needs a deliberate choice
                    app.beep(SOUND_REFUSE)
                    return
                self.count = 1
                self.state = COUNT
            elif key == B:
                self.state = BOARD
            app.beep(SOUND_CLICK)
            return
        if st == COUNT:
            c = self.count
            if key <= RIGHT:
                c += (1, -1, -5, 5)[key]  # up, down, left, right
                self.count = min(max(c, 0), 99)
                app.beep(SOUND_CLICK)
            elif key == A:
                if self.count < g.optimum():  # fails at once, no demonstration
                    self._judge(now, [])
                else:
                    self.moves = []
                    self.robot = self.cursor = g.start
                    self.state = DEMO
                    app.beep(SOUND_CLICK)
            elif key == B:
                self.state = PLAYER
                app.beep(SOUND_CLICK)
            return
        # DEMO
        if key <= RIGHT:
            self.cursor = step_cursor(self.robot, self.cursor, key)
            app.beep(SOUND_CLICK)
        elif key == A:
            if self.cursor != self.robot:
                self.moves.append(self.cursor)
                self.robot = self.cursor
                app.beep(SOUND_MOVE)
                if len(self.moves) >= self.count:
                    self._judge(now, self.moves)
        elif key == LONG_A:
            self._judge(now, self.moves)
        elif key == B:
            if self.moves:
                self.moves.pop()
                self.robot = self.cursor = self.moves[-1] if self.moves else g.start
            else:
                self.state = COUNT
            app.beep(SOUND_CLICK)

    # -- decisions (they allocate: one per round, never per frame) ----------------
    def _judge(self, now, moves):
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
        self.replay.hop = anim.HOP_MS  # (_render_why times the replay by it)
        self.replay.start(now, [start] + list(moves))
        self.at = start
        self.save()
        self.state = RESULT
        self.t0 = now
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

    def _give_up(self, now):
        g = self.game
        rnd = g.round
        route = g.give_up()
        self.replay.hop = _REVEAL_HOP_MS
        self.replay.start(now, route)
        self.at = route[-1]
        self.save()
        self.state = REVEAL
        self.t0 = now
        self.app.beep(SOUND_MOVE)
        lay = self.app.layout
        n = len(route) - 1
        self.app.say("round %d: given up; a route of %d move%s: %s" % (
            rnd, n, "" if n == 1 else "s", " ".join(lay.token(c) for c in route)))

    def _ask_undo(self, now):
        """B: show what an undo would change and wait for B again."""
        g = self.game
        if g.round == 1 and not g.over:
            return  # nothing decided yet
        before = Game(g.layout, g.players, g.expert, g.seed, g.difficulty, g.solver)
        notation.apply(before, g.decision_text())
        before.undo()
        self.undo_tokens = before.tokens
        self.undo_pool = before.pool
        self.back = self.state
        self.state = UNDO
        self.t0 = now
        self.app.beep(SOUND_CLICK)

    def _undo(self, now):
        if self.game.undo():
            self.save()
            self.state = BOARD
            self.flash.start(now, -1, P.TRAIL)
            self.app.beep(SOUND_CLICK)
            self.app.say("round %d: the last decision undone; tokens %s, pool %d" % (
                self.game.round, " ".join(str(t) for t in self.game.tokens), self.game.pool))
        self.undo_tokens = None

    def _next_round(self, now):
        g = self.game
        if g.over:
            self.state = OVER
            self.party.start(now, g.target)
            self.t0 = now
            self.app.beep(SOUND_WIN)
        elif self.state == ROLL:
            self.state = BOARD
        else:
            self.roll(now, False)
