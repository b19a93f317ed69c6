"""The referee's screens: what the grid shows in each state of a refereed game
(modes/referee.py holds the states, the keys and the decisions).

``Screens`` is the half of the referee's Mode that draws; the states and their times are
here, where both halves read them.
"""

from .. import animations as anim
from .. import frame as F
from .. import palette as P
from ..compat import const, ticks_add
from ..rules.solver import BELOW_OPTIMUM, ILLEGAL_MOVE, TARGET_MISSED, WAYPOINT_MISSED, WRONG_COUNT
from . import draw_round

ROLL = const(0)
BOARD = const(1)
PLAYER = const(2)
COUNT = const(3)
DEMO = const(4)
RESULT = const(5)
REVEAL = const(6)
SCORES = const(7)
OVER = const(8)
UNDO = const(9)  # asking before an undo
WHY = const(10)  # a wrong claim explained
VERDICT_MS = const(800)
RESULT_MS = const(2600)
PAGE_MS = const(1500)
UNDO_MS = const(5000)  # an unanswered undo question is dropped
WHY_HOLD_MS = const(3000)  # the broken rule shown, before the replay starts again
END_MS = const(800)  # a wrong count: the end of the replay, before the counts


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


class Screens:
    """The referee's update and render: every state's screen (a mixin of referee.Mode)."""

    def update(self, now):
        st = self.state
        if st == ROLL and not self.dice.running(now):
            self.state = BOARD
        elif st == UNDO and F.since(now, self.t0) >= UNDO_MS:
            self.state = self.back
        elif st == RESULT:
            t = F.since(now, self.t0)
            if t >= VERDICT_MS and not self.ok and not self.explained:
                self.explained = True
                self.state = WHY  # a wrong claim: why, until A
                self.t0 = now
            elif t >= RESULT_MS:
                self._next_round(now)
        if self.state == WHY:
            self._time_why(now)

    def _time_why(self, now):
        """Where the explanation is (``why_t`` into ``why_legal`` moves); the replay
        sliding the legal moves runs from the period's start."""
        code = self.code
        if code == BELOW_OPTIMUM:
            return
        replay = self.replay
        legal = self.bad - 1 if code == ILLEGAL_MOVE else replay.n - 1
        hops = legal * anim.HOP_MS
        period = hops + (END_MS + WHY_HOLD_MS if code == WRONG_COUNT else WHY_HOLD_MS)
        t = F.since(now, self.t0) % period
        self.why_legal = legal
        self.why_t = t
        if t < hops:  # the legal moves slide, leaving their trail
            replay.t0 = ticks_add(now, -t)

    def render(self, now, frame):
        st = self.state
        g = self.game
        app = self.app
        if st == ROLL:
            self.dice.render(now, frame)
        elif st == BOARD:
            w = g.waypoint
            draw_round(frame, app, g.start, g.target, -1 if w is None else w, now)
            self.flash.render(now, frame)
        elif st == PLAYER:
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
        elif st == SCORES:
            page = 0
            if score_pages(g.players) > 1:
                page = F.since(now, self.t0) // PAGE_MS % 2
            scores(frame, g.tokens, g.players, page, g.pool)
        elif st == UNDO:
            now_shown = F.blink(now, 800)
            tokens = g.tokens if now_shown else self.undo_tokens
            page = 0
            if score_pages(g.players) > 1:
                page = F.since(now, self.t0) // (2 * PAGE_MS) % 2
            scores(frame, tokens, g.players, page, g.pool if now_shown else self.undo_pool)
            if not now_shown:  # after the undo, dim: a question, also when no token moves
                F.dim(frame, 80)
        elif st == COUNT:
            F.fill(frame, 0, 0, 0)
            self._claim_count(frame)
            for i in range(24, 36):
                F.put_entry(frame, i, P.PLAYERS, self.player, 120)
        elif st == DEMO:
            w = g.waypoint
            draw_round(frame, app, self.robot, g.target, -1 if w is None else w, now)
            for i in range(len(self.moves) - 1):
                F.put_rgb(frame, self.moves[i], P.TRAIL)
            if self.moves:
                F.put_die(frame, g.start, app.pal, app.layout.colours[g.start], 255)
            if self.cursor != self.robot:
                F.cursor(frame, self.cursor, app.pal, app.layout.colours[self.cursor], now)
        elif st == RESULT:
            rgb = P.GOOD if self.ok else P.REFUSE
            t = F.since(now, self.t0)
            if t < VERDICT_MS:  # the whole grid flashes the verdict twice
                F.fill(frame, 0, 0, 0)
                if t % 400 < 250:
                    for i in range(36):
                        F.put_scaled(frame, i, rgb[0], rgb[1], rgb[2], 110)
                return
            # then the scores, the claimant's colour blinking the verdict
            page = self.player // 6
            scores(frame, g.tokens, g.players, page,
                   g.pool if page + 1 == score_pages(g.players) else -1)
            if F.blink(now, 400):
                F.put_rgb(frame, (self.player % 6) * 6, rgb)
        elif st == WHY:
            self._render_why(now, frame)
        elif st == REVEAL:
            F.board(frame, app.layout, app.pal, 70)
            self.replay.render(now, frame)  # played, it stays until A
        else:  # OVER
            F.board(frame, app.layout, app.pal, 50)
            if self.party.render(now, frame):
                return
            page = F.since(now, self.t0) // PAGE_MS % 2 if g.players > 6 else 0
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
        legal = self.why_legal
        hops = legal * anim.HOP_MS
        t = self.why_t
        if code == WRONG_COUNT and t >= hops + END_MS:
            self._counts(frame, self.shown, P.REFUSE)
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
