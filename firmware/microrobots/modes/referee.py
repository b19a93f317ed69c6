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

One module, in two parts. The ``Mode`` holds the game and the claim its screens share,
and takes the decisions (a claim judged, a round given up, an undo asked and made, the
next round); its console lines and the undo's preview allocate, once a decision, never a
frame. Then the screens, in the order of a round (``Rolling`` is modes/__init__.py's):
each draws itself and takes its keys, calling the Mode for a decision. They stay in the
mode's module, not one of their own: a screen is a step of the Mode's round and reads
the Mode's state, so the two are read (and changed) together.
"""

from ..keys import (
    A, B, DOWN, LEFT, LONG_A, RIGHT, SOUND_BAD, SOUND_CLICK, SOUND_GOOD, SOUND_MOVE,
    SOUND_REFUSE, SOUND_ROLL, SOUND_WIN, UP,
)
from .. import animations as anim
from .. import frame as F
from .. import palette as P
from ..compat import const, ticks_add
from ..rules import notation
from ..rules.game import Game, GameError
from ..rules.solver import BELOW_OPTIMUM, ILLEGAL_MOVE, TARGET_MISSED, WAYPOINT_MISSED, WRONG_COUNT
from . import Rolling, Screen, ScreenMode, draw_round, step_cursor

_REVEAL_HOP_MS = const(900)  # nobody found a route: a move a table can follow
_VERDICT_MS = const(800)
_RESULT_MS = const(2600)
_PAGE_MS = const(1500)
_UNDO_MS = const(5000)  # an unanswered undo question is dropped
_WHY_HOLD_MS = const(3000)  # the broken rule shown, before the replay starts again
_END_MS = const(800)  # a wrong count: the end of the replay, before the counts


def score_pages(players):
    """How many pages ``scores`` needs to show every player and the pool: one up to four
    players, else two (the pool's count needs two rows after the players)."""
    return 1 if players <= 4 else 2


def scores(frame, tokens, players, page=0, pool=-1):
    """The score screen: one row per player (six per page), the player's colour, then their
    tokens (only the referee shows scores).

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
        self.replay.hop = _REVEAL_HOP_MS
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


# -- the screens, in the order of a round -----------------------------------------------
class Board(Screen):
    """The round on the board: A starts a claim, hold A: nobody found a route, B asks to
    undo the last decision, UP shows the scores."""

    def key(self, key, now):
        m = self.mode
        if key == A:
            m.player = -1
            m.change(m.claimant, now)
        elif key == LONG_A:
            m.give_up(now)
            return
        elif key == B:
            m.ask_undo(now)
            return
        elif key == UP:
            m.t0 = now
            m.change(m.scores, now)
        m.app.beep(SOUND_CLICK)

    def render(self, now, frame):
        m = self.mode
        g = m.game
        w = g.waypoint
        draw_round(frame, m.app, g.start, g.target, -1 if w is None else w, now)
        m.flash.render(now, frame)


class Claimant(Screen):
    """Who claims: the D-pad picks the player (their row blinks), A confirms, B: back."""

    def key(self, key, now):
        m = self.mode
        n = m.game.players
        p = m.player
        if key == DOWN or key == RIGHT:
            m.player = 0 if p < 0 else (p + 1) % n
        elif key == UP or key == LEFT:
            m.player = n - 1 if p < 0 else (p - 1) % n
        elif key == A:
            if p < 0:  # nobody chosen: a claim needs a deliberate choice
                m.app.beep(SOUND_REFUSE)
                return
            m.count = 1
            m.change(m.claim, now)
        elif key == B:
            m.change(m.board, now)
        m.app.beep(SOUND_CLICK)

    def render(self, now, frame):
        g = self.mode.game
        p = self.mode.player
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


class Claim(Screen):
    """The claimed count: UP/DOWN one move, RIGHT/LEFT five; A: the demonstration (or the
    verdict, below the optimum), B: back to the claimant."""

    def key(self, key, now):
        m = self.mode
        if key <= RIGHT:
            c = m.count + (1, -1, -5, 5)[key]  # up, down, left, right
            m.count = min(max(c, 0), 99)
            m.app.beep(SOUND_CLICK)
        elif key == A:
            if m.count < m.game.optimum():  # fails at once, no demonstration
                m.judge(now, [])
            else:
                m.change(m.demo, now)
                m.app.beep(SOUND_CLICK)
        elif key == B:
            m.change(m.claimant, now)
            m.app.beep(SOUND_CLICK)

    def render(self, now, frame):
        m = self.mode
        F.fill(frame, 0, 0, 0)
        claim_count(frame, m)
        for i in range(24, 36):
            F.put_entry(frame, i, P.PLAYERS, m.player, 120)


class Demo(Screen):
    """The claimant's moves, followed with the cursor and A; the verdict after the claimed
    number (hold A: now); B takes the last move back, or returns to the count."""

    def open(self, now):
        m = self.mode
        m.moves = []
        m.robot = m.cursor = m.game.start

    def key(self, key, now):
        m = self.mode
        if key <= RIGHT:
            m.cursor = step_cursor(m.robot, m.cursor, key)
            m.app.beep(SOUND_CLICK)
        elif key == A:
            if m.cursor != m.robot:
                m.moves.append(m.cursor)
                m.robot = m.cursor
                m.app.beep(SOUND_MOVE)
                if len(m.moves) >= m.count:
                    m.judge(now, m.moves)
        elif key == LONG_A:
            m.judge(now, m.moves)
        elif key == B:
            if m.moves:
                m.moves.pop()
                m.robot = m.cursor = m.moves[-1] if m.moves else m.game.start
            else:
                m.change(m.claim, now)
            m.app.beep(SOUND_CLICK)

    def render(self, now, frame):
        m = self.mode
        app = m.app
        g = m.game
        w = g.waypoint
        draw_round(frame, app, m.robot, g.target, -1 if w is None else w, now)
        for i in range(len(m.moves) - 1):
            F.put_rgb(frame, m.moves[i], P.TRAIL)
        if m.moves:
            F.put_die(frame, g.start, app.pal, app.layout.colours[g.start], 255)
        if m.cursor != m.robot:
            F.cursor(frame, m.cursor, app.pal, app.layout.colours[m.cursor], now)


class Result(Screen):
    """The verdict: the grid flashes it, then the scores with the claimant's colour
    blinking it; a wrong claim is explained first (Why). A: on, B asks to undo."""

    def key(self, key, now):
        if key == B:  # the verdict: take it back?
            self.mode.ask_undo(now)
        elif key == A:  # hurry on
            self.mode.next_round(now)

    def update(self, now):
        m = self.mode
        t = F.since(now, m.t0)
        if t >= _VERDICT_MS and not m.ok and not m.explained:
            m.explained = True
            m.t0 = now
            m.change(m.why, now)  # a wrong claim: why, until A
        elif t >= _RESULT_MS:
            m.next_round(now)

    def render(self, now, frame):
        m = self.mode
        g = m.game
        rgb = P.GOOD if m.ok else P.REFUSE
        t = F.since(now, m.t0)
        if t < _VERDICT_MS:  # the whole grid flashes the verdict twice
            F.fill(frame, 0, 0, 0)
            if t % 400 < 250:
                for i in range(36):
                    F.put_scaled(frame, i, rgb[0], rgb[1], rgb[2], 110)
            return
        # then the scores, the claimant's colour blinking the verdict
        page = m.player // 6
        scores(frame, g.tokens, g.players, page,
               g.pool if page + 1 == score_pages(g.players) else -1)
        if F.blink(now, 400):
            F.put_rgb(frame, (m.player % 6) * 6, rgb)


class Why(Screen):
    """A wrong claim explained until A: the demonstration replayed up to the first broken
    rule, held, and again; a count that does not fit as the claim over what it is
    compared to. B asks to undo."""

    def open(self, now):
        self.update(now)  # (the replay's place, in the frame it comes on show)

    def key(self, key, now):
        m = self.mode
        if key == B:
            m.ask_undo(now)
        elif key == A:  # understood: the scores, then the next round
            m.t0 = ticks_add(now, -_VERDICT_MS)
            m.change(m.result, now)

    def update(self, now):
        """Where the explanation is (``why_t`` into ``why_legal`` moves); the replay
        sliding the legal moves runs from the period's start."""
        m = self.mode
        code = m.code
        if code == BELOW_OPTIMUM:
            return
        replay = m.replay
        legal = m.bad - 1 if code == ILLEGAL_MOVE else replay.n - 1
        hops = legal * anim.HOP_MS
        period = hops + (_END_MS + _WHY_HOLD_MS if code == WRONG_COUNT else _WHY_HOLD_MS)
        t = F.since(now, m.t0) % period
        m.why_legal = legal
        m.why_t = t
        if t < hops:  # the legal moves slide, leaving their trail
            replay.t0 = ticks_add(now, -t)

    def render(self, now, frame):
        m = self.mode
        app = m.app
        pal = app.pal
        colours = app.layout.colours
        code = m.code
        if code == BELOW_OPTIMUM:
            counts(frame, m, m.why_optimum, P.OPTIMUM)
            return
        replay = m.replay
        legal = m.why_legal
        hops = legal * anim.HOP_MS
        t = m.why_t
        if code == WRONG_COUNT and t >= hops + _END_MS:
            counts(frame, m, m.shown, P.REFUSE)
            return
        F.board(frame, app.layout, pal, 70)
        route = replay.route
        if t < hops:  # the legal moves slide, leaving their trail (from update's t0)
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
            mark = m.why_target
        elif code == WAYPOINT_MISSED:
            mark = m.why_via
        if mark >= 0:
            if F.blink(now, 500):
                F.put_rgb(frame, mark, P.REFUSE)
            else:
                F.put_die(frame, mark, pal, colours[mark])
        F.robot(frame, robot, pal, colours[robot], now)


class Reveal(Screen):
    """Nobody found a route: an optimal one, a move every 0.9 s, then held. The D-pad
    shows it again, A the whole of it at once, then A or B: the next roll."""

    def key(self, key, now):
        m = self.mode
        replay = m.replay
        if key <= RIGHT:  # again, from the start
            replay.t0 = now
        elif key == A and replay.running(now):  # the whole route at once
            replay.t0 = ticks_add(now, -(replay.n + 2) * _REVEAL_HOP_MS)
        elif key == A or key == B:  # seen: the next roll
            m.next_round(now)

    def render(self, now, frame):
        app = self.mode.app
        F.board(frame, app.layout, app.pal, 70)
        self.mode.replay.render(now, frame)  # played, it stays until A


class Scores(Screen):
    """The scores (UP on the board), two pages alternating with five players or more; any
    key: back to the board."""

    def key(self, key, now):
        self.mode.change(self.mode.board, now)

    def render(self, now, frame):
        m = self.mode
        g = m.game
        page = 0
        if score_pages(g.players) > 1:
            page = F.since(now, m.t0) // _PAGE_MS % 2
        scores(frame, g.tokens, g.players, page, g.pool)


class Undo(Screen):
    """Undo the last decision? The scores blink between now and after it; B undoes, any
    other key (or a while) keeps it, back to the screen asked from."""

    def key(self, key, now):
        m = self.mode
        if key == B:
            m.take_back(now)
        else:
            m.change(m.back, now)
            m.app.beep(SOUND_CLICK)

    def update(self, now):
        m = self.mode
        if F.since(now, m.t0) >= _UNDO_MS:
            m.change(m.back, now)

    def render(self, now, frame):
        m = self.mode
        g = m.game
        now_shown = F.blink(now, 800)
        tokens = g.tokens if now_shown else m.undo_tokens
        page = 0
        if score_pages(g.players) > 1:
            page = F.since(now, m.t0) // (2 * _PAGE_MS) % 2
        scores(frame, tokens, g.players, page, g.pool if now_shown else m.undo_pool)
        if not now_shown:  # after the undo, dim: a question, also when no token moves
            F.dim(frame, 80)


class Over(Screen):
    """The winners: the celebration, then the scores, the winners' colours blinking. A: a
    new game, B asks to undo."""

    def key(self, key, now):
        if key == A:
            self.mode.new_game(now)
        elif key == B:
            self.mode.ask_undo(now)

    def render(self, now, frame):
        m = self.mode
        app = m.app
        g = m.game
        F.board(frame, app.layout, app.pal, 50)
        if m.party.render(now, frame):
            return
        page = F.since(now, m.t0) // _PAGE_MS % 2 if g.players > 6 else 0
        scores(frame, g.tokens, g.players, page, -1)
        if F.blink(now, 500):
            for p in g.winners:
                if p // 6 == page:
                    F.put_rgb(frame, (p % 6) * 6, P.ROBOT_WHITE)


def counts(frame, m, other, label):
    """The claim (top, the claimant's colour) over ``other`` (labelled ``label``)."""
    F.fill(frame, 0, 0, 0)
    claim_count(frame, m)
    F.count(frame, other, 3, label)


def claim_count(frame, m):
    """The claim as a count in the top row, labelled in the claimant's colour."""
    F.count(frame, m.count, 0, P.DIM)
    F.put_entry(frame, 0, P.PLAYERS, m.player)
