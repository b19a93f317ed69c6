"""Referee: the grid runs a table game of Micro Robots for 2-8 players.

The dice roll the start (robot, blinking white), the target (slow pulse) and in expert
play the waypoint (two quick beats). Everybody searches; whoever finds a route
announces a move count, and the referee enters the claim:

- A: start a claim. The score rows appear; the D-pad picks the claimant (their row
  blinks); A confirms.
- Count: UP/DOWN add or take one move, RIGHT/LEFT five; shown as two dice (tens, units)
  in the claimant's colour, the claimant's number below. A confirms. A claim below the
  optimum fails at once (red flash).
- Demonstration: the claimant shows the moves; the referee follows each one with the
  D-pad cursor (along the robot's row or column) and A. Every cell may be entered, legal
  or not: the engine rules. After the claimed number of moves the verdict comes at once
  (hold A to end early); B takes the last entered move back, or returns to the count.
- Verdict: the grid flashes green = correct, the claimant takes a token; red = wrong, the
  claimant gives a token to the player with the fewest. Then the scores show, the
  claimant's colour blinking green or red, and the next target is rolled (the old target
  is the new start). A or B hurries on.

On the board: B undoes the last decision (a mis-press costs nothing), UP shows the
scores (one row per player: their colour, then a gold cell per token; the last row is
the pool, one white cell per five tokens, rounded up), hold A when nobody finds a route: an optimal
route is revealed and no token moves. Five tokens win at once; otherwise, when the pool
is empty, the most tokens win. A then starts a new game. Hold B: menu (game kept).
"""

from ..app import (
    A, B, DOWN, LEFT, LONG_A, RIGHT, SOUND_BAD, SOUND_CLICK, SOUND_GOOD, SOUND_MOVE,
    SOUND_ROLL, SOUND_WIN, UP,
)
from .. import frame as F
from .. import palette as P
from ..compat import const
from ..game import Game, GameError
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
_VERDICT_MS = const(800)
_RESULT_MS = const(2600)
_PAGE_MS = const(1500)


class Mode(Base):
    name = "referee"

    def __init__(self, app):
        super().__init__(app)
        self.game = None
        self.dice = F.DiceRoll()
        self.flash = F.Flash()
        self.party = F.Celebrate()
        self.replay = F.Replay()
        self.state = _BOARD
        self.t0 = 0
        self.player = 0
        self.count = 1
        self.moves = []
        self.robot = 0
        self.cursor = 0
        self.ok = False  # the last verdict
        self.verdict = ""  # its reason, for the console
        self.at = 0  # where the revealed route ends

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
        elif self.state != _OVER:
            self.state = _BOARD

    def new_game(self, now):
        app = self.app
        s = app.settings
        self.game = Game(app.layout, s["players"], s["expert"], app.new_seed(), 0, app.solver)
        self.player = 0
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
            game = Game.from_dict(saved.get("game"))
        except GameError as e:
            return False, str(e)
        if game.layout != self.app.layout or game.players < 2:
            return False, "saved game: not a refereed game on this layout"
        self.game = game
        self.state = _OVER if game.over else _BOARD
        self.t0 = now - 10000
        return True, None

    # -- keys -----------------------------------------------------------------
    def key(self, key, now):
        st = self.state
        g = self.game
        app = self.app
        if st == _ROLL or st == _RESULT or st == _REVEAL:
            if key == A or key == B:  # hurry on
                self._next_round(now)
            return
        if st == _SCORES:
            self.state = _BOARD
            return
        if st == _OVER:
            if key == A:
                self.new_game(now)
            elif key == B:
                self._undo(now)
            return
        if st == _BOARD:
            if key == A:
                self.state = _PLAYER
            elif key == LONG_A:
                route = g.give_up()
                self.replay.start(now, route)
                self.at = route[-1]
                self.save()
                self.state = _REVEAL
                self.t0 = now
                app.beep(SOUND_MOVE)
                return
            elif key == B:
                self._undo(now)
                return
            elif key == UP:
                self.state = _SCORES
                self.t0 = now
            app.beep(SOUND_CLICK)
            return
        if st == _PLAYER:
            n = g.players
            if key == DOWN or key == RIGHT:
                self.player = (self.player + 1) % n
            elif key == UP or key == LEFT:
                self.player = (self.player - 1) % n
            elif key == A:
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

    def _judge(self, now, moves):
        g = self.game
        self.at = g.start
        verdict = g.claim(self.player, self.count, moves)
        self.ok = verdict.ok
        self.verdict = verdict.reason
        self.save()
        self.state = _RESULT
        self.t0 = now
        self.app.beep(SOUND_GOOD if self.ok else SOUND_BAD)

    def _undo(self, now):
        if self.game.undo():
            self.save()
            self.state = _BOARD
            self.flash.start(now, -1, P.TRAIL)
            self.app.beep(SOUND_CLICK)

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
        elif st == _PLAYER or st == _SCORES:
            page = 0
            if g.players > 6:
                page = self.player // 6 if st == _PLAYER else (now - self.t0) // _PAGE_MS % 2
            F.scores(frame, g.tokens, g.players, page, g.pool if page == 1 or g.players < 6 else -1)
            if st == _PLAYER and F.blink(now, 400):
                row = self.player % 6
                for c in range(1, 6):
                    F.put(frame, row * 6 + c, 0, 0, 0)
                F.put_rgb(frame, row * 6, P.ROBOT_WHITE)
        elif st == _COUNT:
            F.fill(frame, 0, 0, 0)
            F.number(frame, self.count, P.PLAYER_RGB[self.player], 0)
            F.digit(frame, 3, 0, self.player + 1, P.ROBOT_WHITE, P.DIM)
            for i in range(21, 36):
                if i % 6 >= 3:
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
            t = now - self.t0
            if t < _VERDICT_MS:  # the whole grid flashes the verdict twice
                F.fill(frame, 0, 0, 0)
                if t % 400 < 250:
                    for i in range(36):
                        F.put_scaled(frame, i, rgb[0], rgb[1], rgb[2], 110)
            else:  # then the scores, the claimant's colour blinking the verdict
                F.scores(frame, g.tokens, g.players, self.player // 6, -1)
                if F.blink(now, 400):
                    F.put_rgb(frame, (self.player % 6) * 6, rgb)
            if t >= _RESULT_MS:
                self._next_round(now)
        elif st == _REVEAL:
            F.board(frame, app.layout, app.pal, 70)
            if not self.replay.render(now, frame):
                self._next_round(now)
        else:  # _OVER
            F.board(frame, app.layout, app.pal, 50)
            if self.party.render(now, frame):
                return
            page = (now - self.t0) // _PAGE_MS % 2 if g.players > 6 else 0
            F.scores(frame, g.tokens, g.players, page, -1)
            if F.blink(now, 500):
                for p in g.winners:
                    if p // 6 == page:
                        F.put_rgb(frame, (p % 6) * 6, P.ROBOT_WHITE)
