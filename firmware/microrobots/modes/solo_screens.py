"""Solo's screens (modes/solo.py has the rules of a round and the Mode), in the order of
a round: ``Play`` (and ``Stats``, the score for a moment over it), ``Solved``, ``Score``,
``Review``; ``Rolling``, the dice, is modes/__init__.py's. Each draws itself from the
Mode's state and takes its keys, calling the Mode for a step several screens take
(``m.solve``, ``m.give_up``, ``m.begin_round``).

A module of their own, imported a frame before the Mode's at solo's first switch
(modes.PARTS): together they made a frame over 10 ms on a Pico (each class is made at
its import).
"""

from ..keys import A, B, LONG_A, RIGHT, SOUND_CLICK, SOUND_MOVE, SOUND_REFUSE
from .. import frame as F
from .. import palette as P
from ..compat import const, ticks_add
from . import Screen, draw_round, step_cursor

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
