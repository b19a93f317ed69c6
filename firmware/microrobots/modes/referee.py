"""Referee: the grid runs a table game of Micro Robots for 2-8 players.

How it plays: the comment below (a comment, not this docstring: MicroPython compiles
a docstring in one piece of heap, which a Pico-sized heap may not have free).
"""

# The dice roll the start (robot, blinking), the target (slow pulse) and in expert play
# the waypoint (two quick beats). Everybody searches; whoever finds a route announces a
# move count, and the referee enters the claim:
#
# - A: start a claim. The score rows appear with nobody chosen (their colours pulse); the
#   D-pad picks the claimant (down/right from the first, up/left from the last; their row
#   blinks); A confirms. A with nobody chosen is refused: a claim is never credited to
#   whoever claimed last by a hurried double press.
# - Count: UP/DOWN add or take one move, RIGHT/LEFT five; shown as a count (a tally, see
#   frame.count) labelled in the claimant's colour, their colour below. A confirms. A
#   claim below the optimum fails at once.
# - Demonstration: the claimant shows the moves; the referee follows each one with the
#   D-pad cursor (along the robot's row or column) and A. Every cell may be entered, legal
#   or not: the engine rules. After the claimed number of moves the verdict comes at once
#   (hold A to end early); B takes the last entered move back, or returns to the count.
# - Verdict: the grid flashes green = correct, the claimant takes a token; red = wrong, the
#   claimant gives a token to the player with the fewest. A wrong claim is then explained
#   until A (or B): the demonstration replays and stops on the first broken rule - an
#   illegal move drawn in red from the robot to where it went, a missed target or waypoint
#   blinking red, a wrong count as the claim (top) over the moves shown (bottom, red
#   label), a claim below the optimum as the claim over the optimum (violet label). The
#   console gets the verdict as a sentence (app.say). Then the scores show, the claimant's
#   colour blinking green or red, and the next target is rolled (the old target is the new
#   start). A or B hurries on.
#
# On the board: B asks to undo the last decision - the scores blink between now and after
# the undo; B again undoes, any other key (or 5 s) keeps it. UP shows the scores (one row
# per player: their colour, then a gold cell per token; then the pool's exact count,
# labelled grey; with five or more players the pool is on a second page and the pages
# alternate). Hold A when nobody finds a route: an optimal route is revealed, a move
# every 0.9 s, and no token moves; a D-pad key shows it again, A rolls the next target. Five tokens win at once; otherwise, when the pool is empty, the most tokens win.
# A then starts a new game, B asks to undo. Hold B: menu (game kept).


from ..app import (
    A, B, DOWN, LEFT, LONG_A, RIGHT, SOUND_BAD, SOUND_CLICK, SOUND_GOOD, SOUND_MOVE,
    SOUND_REFUSE, SOUND_ROLL, SOUND_WIN, UP,
)
from .. import frame as F
from .. import palette as P
from ..compat import const, ticks_add
from ..game import Game, GameError
from ..solver import BELOW_OPTIMUM, ILLEGAL_MOVE, TARGET_MISSED, WAYPOINT_MISSED, WRONG_COUNT
from . import Base, draw_round, step_cursor

_ROLL = const(0)
_BOARD = const(1)
_PLAYER = const(2)
_COUNT = const(3)
_DEMO = const(4)
_RESULT = const(5)
_REVEAL = const(6)
_SCORES = const(7)
_OVER = const(8)
_UNDO = const(9)  # asking before an undo
_WHY = const(10)  # a wrong claim explained
_VERDICT_MS = const(800)
_RESULT_MS = const(2600)
_PAGE_MS = const(1500)
_UNDO_MS = const(5000)  # an unanswered undo question is dropped
_WHY_HOLD_MS = const(3000)  # the broken rule shown, before the replay starts again
_END_MS = const(800)  # a wrong count: the end of the replay, before the counts
_REVEAL_HOP_MS = const(900)  # nobody found a route: a move a table can follow


def score_pages(players):
    """How many pages ``scores`` needs to show every player and the pool: one up to four
    players, else two (the pool's count needs two rows after the players)."""
    return 1 if players <= 4 else 2


def scores(frame, tokens, players, page=0, pool=-1):
    """The score screen: one row per player (six per page), the player's colour, then their
    tokens. (Here, not in frame.py: only the referee shows scores, and a Pico keeps only
    the code of the mode that runs.)

    Column 0 is the player's colour, columns 1..5 one victory token each (gold, as a
    count's ones; 5 wins). ``page`` 1 shows players 7 and 8. With ``pool`` >= 0 the
    pool's exact count (label palette.POOL) follows the players on the page, after an
    empty row when there is room, if two rows are left for it (see score_pages).
    """
    F.fill(frame, 0, 0, 0)
    first = page * 6
    row = 0
    p = first
    while p < players and row < 6:
        F.put_entry(frame, row * 6, P.PLAYERS, p)
        t = tokens[p]
        for c in range(1, 6):
            F.put_rgb(frame, row * 6 + c, P.TOKEN if c <= t else P.DIM)
        row += 1
        p += 1
    if pool >= 0 and row <= 4:
        F.count(frame, pool, row + 1 if row <= 3 else row, P.POOL)


class Mode(Base):
    name = "referee"

    def __init__(self, app):
        super().__init__(app)
        self.game = None
        self.dice = F.DiceRoll()
        self.flash = F.Flash()
        self.party = F.Celebrate()
        self.replay = F.Replay(101)  # a revealed route, or a demonstration (<= 99 moves)
        self.state = _BOARD
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
        self.at = 0  # where the revealed route ends
        self.back = _BOARD  # the screen an unanswered undo question returns to
        self.undo_tokens = None  # the tokens and pool after the undo asked about
        self.undo_pool = 0

    # -- life cycle -----------------------------------------------------------
    def reset(self):
        self.game = None

    def enter(self, now):
        if self.game is None:
            ok, problem = self.app.resume(self.name, now)
            if problem:
                self.app.show_notice(problem, now)
            if not ok:
                self.new_game(now)
                return
        else:
            self.state = _OVER if self.game.over else _BOARD
        g = self.game
        s = self.app.settings
        if g.players != s["players"] or g.expert != s["expert"]:
            self.new_game(now)  # the table has set up the game it is about to play

    def new_game(self, now):
        app = self.app
        s = app.settings
        self.game = Game(app.layout, s["players"], s["expert"], app.new_seed(), 0, app.solver)
        self.player = -1
        self.roll(now, True)
        self.save()

    def roll(self, now, with_start):
        g = self.game
        w = g.waypoint
        self.dice.start(now, self.app.layout, self.app.pal, g.start if with_start else -1,
                        g.target, -1 if w is None else w)
        self.state = _ROLL
        self.app.beep(SOUND_ROLL)

    def save(self):
        self.app.save_game({"mode": "referee", "game": self.game.to_dict()})

    def resume(self, saved, now):
        try:
            game = Game.from_dict(saved.get("game"), self.app.solver, self.app.pause)
        except GameError as e:
            return False, str(e)
        if game.layout != self.app.layout or game.players < 2:
            return False, "saved game: not a refereed game on this layout"
        self.game = game
        self.state = _OVER if game.over else _BOARD
        self.t0 = ticks_add(now, -10000)
        return True, None

    # -- keys -----------------------------------------------------------------
    def key(self, key, now):
        st = self.state
        g = self.game
        app = self.app
        if st == _REVEAL:
            if key <= RIGHT:  # again, from the start
                self.replay.t0 = now
            elif key == A and self.replay.running(now):  # the whole route at once
                self.replay.t0 = ticks_add(now, -(self.replay.n + 2) * _REVEAL_HOP_MS)
            elif key == A or key == B:  # seen: the next roll
                self._next_round(now)
            return
        if st == _ROLL or st == _RESULT:
            if key == A or key == B:  # hurry on
                self._next_round(now)
            return
        if st == _WHY:
            if key == A or key == B:  # understood: the scores, then the next round
                self.state = _RESULT
                self.t0 = ticks_add(now, -_VERDICT_MS)
            return
        if st == _UNDO:
            if key == B:
                self._undo(now)
            else:
                self.state = self.back
                app.beep(SOUND_CLICK)
            return
        if st == _SCORES:
            self.state = _BOARD
            return
        if st == _OVER:
            if key == A:
                self.new_game(now)
            elif key == B:
                self._ask_undo(now)
            return
        if st == _BOARD:
            if key == A:
                self.player = -1
                self.state = _PLAYER
            elif key == LONG_A:
                self._give_up(now)
                return
            elif key == B:
                self._ask_undo(now)
                return
            elif key == UP:
                self.state = _SCORES
                self.t0 = now
            app.beep(SOUND_CLICK)
            return
        if st == _PLAYER:
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
                self.state = _COUNT
            elif key == B:
                self.state = _BOARD
            app.beep(SOUND_CLICK)
            return
        if st == _COUNT:
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
                    self.state = _DEMO
                    app.beep(SOUND_CLICK)
            elif key == B:
                self.state = _PLAYER
                app.beep(SOUND_CLICK)
            return
        # _DEMO
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
                self.state = _COUNT
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
        self.replay.hop = F.HOP_MS  # (_render_why times the replay by it)
        self.replay.start(now, [start] + list(moves))
        self.at = start
        self.save()
        self.state = _RESULT
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
        self.state = _REVEAL
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
        before.apply(g.decision_text())
        before.undo()
        self.undo_tokens = before.tokens
        self.undo_pool = before.pool
        self.back = self.state
        self.state = _UNDO
        self.t0 = now
        self.app.beep(SOUND_CLICK)

    def _undo(self, now):
        if self.game.undo():
            self.save()
            self.state = _BOARD
            self.flash.start(now, -1, P.TRAIL)
            self.app.beep(SOUND_CLICK)
            self.app.say("round %d: the last decision undone; tokens %s, pool %d" % (
                self.game.round, " ".join(str(t) for t in self.game.tokens), self.game.pool))
        self.undo_tokens = None

    def _next_round(self, now):
        g = self.game
        if g.over:
            self.state = _OVER
            self.party.start(now, g.target)
            self.t0 = now
            self.app.beep(SOUND_WIN)
        elif self.state == _ROLL:
            self.state = _BOARD
        else:
            self.roll(now, False)

    # -- frames ---------------------------------------------------------------
    def render(self, now, frame):
        st = self.state
        g = self.game
        app = self.app
        if st == _ROLL:
            if self.dice.render(now, frame):
                return
            self.state = st = _BOARD
        if st == _BOARD:
            w = g.waypoint
            draw_round(frame, app, g.start, g.target, -1 if w is None else w, now)
            self.flash.render(now, frame)
        elif st == _PLAYER:
            p = self.player
            scores(frame, g.tokens, g.players, p // 6 if p >= 0 else 0, -1)
            if p < 0:  # nobody chosen yet: the colours pulse, asking for a choice (not
                level = F.pulse(now, 900, 150, 255)  # below 150: they would run together)
                for row in range(min(g.players, 6)):
                    F.put_entry(frame, row * 6, P.PLAYERS, row, level)
            elif F.blink(now, 400):
                row = p % 6
                for c in range(1, 6):
                    F.put(frame, row * 6 + c, 0, 0, 0)
                F.put_rgb(frame, row * 6, P.ROBOT_WHITE)
        elif st == _SCORES:
            page = 0
            if score_pages(g.players) > 1:
                page = F.since(now, self.t0) // _PAGE_MS % 2
            scores(frame, g.tokens, g.players, page, g.pool)
        elif st == _UNDO:
            if F.since(now, self.t0) >= _UNDO_MS:
                self.state = self.back
            now_shown = F.blink(now, 800)
            tokens = g.tokens if now_shown else self.undo_tokens
            page = 0
            if score_pages(g.players) > 1:
                page = F.since(now, self.t0) // (2 * _PAGE_MS) % 2
            scores(frame, tokens, g.players, page, g.pool if now_shown else self.undo_pool)
            if not now_shown:  # after the undo, dim: a question, also when no token moves
                F.dim(frame, 80)
        elif st == _COUNT:
            F.fill(frame, 0, 0, 0)
            self._claim_count(frame)
            for i in range(24, 36):
                F.put_entry(frame, i, P.PLAYERS, self.player, 120)
        elif st == _DEMO:
            w = g.waypoint
            draw_round(frame, app, self.robot, g.target, -1 if w is None else w, now)
            for i in range(len(self.moves) - 1):
                F.put_rgb(frame, self.moves[i], P.TRAIL)
            if self.moves:
                F.put_die(frame, g.start, app.pal, app.layout.colours[g.start], 255)
            if self.cursor != self.robot:
                F.cursor(frame, self.cursor, app.pal, app.layout.colours[self.cursor], now)
        elif st == _RESULT:
            rgb = P.GOOD if self.ok else P.REFUSE
            t = F.since(now, self.t0)
            if t < _VERDICT_MS:  # the whole grid flashes the verdict twice
                F.fill(frame, 0, 0, 0)
                if t % 400 < 250:
                    for i in range(36):
                        F.put_scaled(frame, i, rgb[0], rgb[1], rgb[2], 110)
                return
            if not self.ok and not self.explained:
                self.explained = True
                self.state = _WHY  # a wrong claim: why, until A
                self.t0 = now
                self._render_why(now, frame)
                return
            # then the scores, the claimant's colour blinking the verdict
            page = self.player // 6
            scores(frame, g.tokens, g.players, page,
                     g.pool if page + 1 == score_pages(g.players) else -1)
            if F.blink(now, 400):
                F.put_rgb(frame, (self.player % 6) * 6, rgb)
            if t >= _RESULT_MS:
                self._next_round(now)
        elif st == _WHY:
            self._render_why(now, frame)
        elif st == _REVEAL:
            F.board(frame, app.layout, app.pal, 70)
            self.replay.render(now, frame)  # played, it stays until A
        else:  # _OVER
            F.board(frame, app.layout, app.pal, 50)
            if self.party.render(now, frame):
                return
            page = F.since(now, self.t0) // _PAGE_MS % 2 if g.players > 6 else 0
            scores(frame, g.tokens, g.players, page, -1)
            if F.blink(now, 500):
                for p in g.winners:
                    if p // 6 == page:
                        F.put_rgb(frame, (p % 6) * 6, P.ROBOT_WHITE)

    def _render_why(self, now, frame):
        """A wrong claim: the demonstration replayed up to the first broken rule, held,
        and again; a count that does not fit as the claim over what it is compared to."""
        app = self.app
        pal = app.pal
        colours = app.layout.colours
        code = self.code
        if code == BELOW_OPTIMUM:
            self._counts(frame, self.why_optimum, P.OPTIMUM)
            return
        replay = self.replay
        legal = self.bad - 1 if code == ILLEGAL_MOVE else replay.n - 1
        hops = legal * F.HOP_MS
        period = hops + (_END_MS + _WHY_HOLD_MS if code == WRONG_COUNT else _WHY_HOLD_MS)
        t = F.since(now, self.t0) % period
        if code == WRONG_COUNT and t >= hops + _END_MS:
            self._counts(frame, self.shown, P.REFUSE)
            return
        F.board(frame, app.layout, pal, 70)
        route = replay.route
        if t < hops:  # the legal moves slide, leaving their trail
            replay.t0 = ticks_add(now, -t)
            replay.render(now, frame)
            return
        for k in range(legal):
            F.put_rgb(frame, route[k], P.TRAIL)
        robot = route[legal]
        mark = -1
        if code == ILLEGAL_MOVE:  # from the robot to where it went, in red
            mark = route[legal + 1]
            if robot // 6 == mark // 6 or robot % 6 == mark % 6:
                step = 1 if robot // 6 == mark // 6 else 6
                if mark < robot:
                    step = -step
                i = robot + step
                while i != mark:  # (a range with a variable step allocates)
                    F.put_scaled(frame, i, 255, 0, 0, 210)
                    i += step
        elif code == TARGET_MISSED:
            mark = self.why_target
        elif code == WAYPOINT_MISSED:
            mark = self.why_via
        if mark >= 0:
            if F.blink(now, 500):
                F.put_rgb(frame, mark, P.REFUSE)
            else:
                F.put_die(frame, mark, pal, colours[mark])
        F.robot(frame, robot, pal, colours[robot], now)

    def _counts(self, frame, other, label):
        """The claim (top, the claimant's colour) over ``other`` (labelled ``label``)."""
        F.fill(frame, 0, 0, 0)
        self._claim_count(frame)
        F.count(frame, other, 3, label)

    def _claim_count(self, frame):
        """The claim as a count in the top row, labelled in the claimant's colour."""
        F.count(frame, self.count, 0, P.DIM)
        F.put_entry(frame, 0, P.PLAYERS, self.player)
