"""The referee's screens (modes/referee.py has the rules of the table and the Mode),
in the order of a round: each draws itself from the Mode's state and takes its keys,
calling the Mode for a decision (``m.judge``, ``m.give_up``, ``m.ask_undo``,
``m.next_round``). ``Rolling``, the dice, is modes/__init__.py's.

A module of their own, imported a frame before the Mode's at the referee's first
switch (modes.PARTS): together they made a frame over 10 ms on a Pico (each class is
made at its import).
"""

from ..keys import A, B, DOWN, LEFT, LONG_A, RIGHT, SOUND_CLICK, SOUND_MOVE, SOUND_REFUSE, UP
from .. import animations as anim
from .. import frame as F
from .. import palette as P
from ..compat import const, ticks_add
from ..rules.solver import BELOW_OPTIMUM, ILLEGAL_MOVE, TARGET_MISSED, WAYPOINT_MISSED, WRONG_COUNT
from . import Screen, draw_round, step_cursor

REVEAL_HOP_MS = const(900)  # nobody found a route: a move a table can follow (Mode.give_up)
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
            replay.t0 = ticks_add(now, -(replay.n + 2) * REVEAL_HOP_MS)
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
