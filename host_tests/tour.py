"""The first ten minutes, scripted: a three-player referee game to its winner, a solo round
and the classroom, on a new device. Played in-process (tools/sim/script.py), it gives the
events of each step and the help line after it (the modes' own words, as the driver
reports them), for the front ends' tests to replay and compare: test_web.py in Chromium,
test_terminal.py in tmux.

    steps = tour(state_dir)     # [Step(events, words, guide), ...]

Each step's ``events`` are the events-file lines it adds (times from the device's start),
``words`` what its help line must say, ``guide`` the whole line there.
"""

import json
import os

from microrobots.modes import guide as guide_words
from tools.sim.script import Session

SEED = 8


class Step:
    def __init__(self, events, words, guide, t):
        self.events = events
        self.words = words
        self.guide = guide
        self.t = t
        self.reached = None  # the classroom: each cell's distance once reached, else -1

    def __repr__(self):
        return "Step(%r, %r)" % (self.events, self.words)


def guide(s):
    """The help line as the simulators show it now."""
    lines = [json.loads(x)["guide"] for x in s.lines if '"guide"' in x]
    return lines[-1] if lines else ""


class Tour:
    def __init__(self, state):
        os.makedirs(state, exist_ok=True)  # a new device's flash, empty
        self.s = Session(seed=SEED, state=state)
        self.steps = []
        self._seen = 0

    def step(self, words, *taps, wait=False):
        """Tap ``taps`` (a button, or (button, ms) for a hold), or with ``wait`` let the
        time pass until the help line says ``words``; then it must say them."""
        s = self.s
        for tap in taps:
            if isinstance(tap, tuple):
                s.hold(*tap)
            else:
                s.tap(tap)
        limit = s.t + 15000
        while wait and words not in guide(s) and s.t < limit:
            s.wait(20)
        s.wait(200)  # a moment for the screen, as a player takes
        line = guide(s)
        assert words in line, "after %r the help line says %r, not %r" % (taps, line, words)
        self.steps.append(Step(s.events[self._seen:], words, line, s.t))
        self._seen = len(s.events)
        if s.app.mode == "classroom":
            self.steps[-1].reached = guide_words.reached(s.app.current)

    def moves(self, cells, last_words, wait=False):
        """Demonstrate (referee) or play (solo) ``cells`` from the robot, saying each move."""
        s = self.s
        mode = s.app.current
        robot = mode.robot
        for k, cell in enumerate(cells):
            s.cursor_to(robot, cell)
            robot = cell
            if k + 1 < len(cells):
                self.step(mode.name == "referee" and "move %d of %d" % (k + 2, len(cells))
                          or "%d move%s so far" % (k + 1, "" if k == 0 else "s"), "a")
            else:
                self.step(last_words, "a", wait=wait)

    def claim(self, player, cells, last_words, wait=False):
        g = self.s.app.current.game
        self.step("who claims?", "a")
        self.step("player 1 claims? A: yes", "down")
        for p in range(player):
            self.step("player %d claims? A: yes" % (p + 2), "down")
        self.step("player %d claims 1 move?" % (player + 1), "a")
        for n in range(2, len(cells) + 1):
            self.step("player %d claims %d moves?" % (player + 1, n), "up")
        if len(cells) < g.optimum():  # below the optimum: wrong at once
            self.step(last_words, "a")
            return
        self.step("player %d shows move 1 of %d" % (player + 1, len(cells)), "a")
        self.moves(cells, last_words, wait)


def tour(state):
    t = Tour(state)
    s = t.s
    t.step("welcome to Micro Robots! the menu: solo: A opens it", wait=True)
    t.step("settings: A opens it", "right", "down")
    t.step("1 of 13, side: black", "a")
    t.step("4 of 13, players: 2", "down", "down", "down")
    t.step("4 of 13, players: 3", "right")
    t.step("settings: A opens it", ("b", 800))
    t.step("referee: A opens it", "up")
    t.step("round 1: find a route", "a", wait=True)
    ref = s.app.current
    route = ref.game.route()
    t.claim(1, route[1:], "correct: player 2 takes a token")
    t.step("round 2: find a route", wait=True)
    route = ref.game.route()
    t.claim(2, route[2:], "wrong: ")  # one move short of the optimum: wrong at once
    t.step("round 3: find a route", "a", wait=True)
    for r in range(5):
        route = ref.game.route()
        if r < 4:
            t.claim(0, route[1:], "correct: player 1 takes a token")
            t.step("round %d: find a route" % (r + 4), wait=True)
        else:
            t.claim(0, route[1:], "player 1 wins", wait=True)
    t.step("referee: A opens it", ("b", 800))
    t.step("solo: A opens it", "left")
    t.step("0 moves so far", "a", wait=True)
    solo = s.app.current
    route = solo.game.route()
    detour = [route[1], route[0]] + route[1:]  # there and back first: two moves too many
    t.moves(detour, "solved in %d moves" % (len(route) + 1))
    t.step("you %d, optimum %d" % (len(route) + 1, len(route) - 1), wait=True)
    t.step("an optimal route, %d moves" % (len(route) - 1), "a")
    t.step("solo: A opens it", ("b", 800))
    t.step("classroom: A opens it", "down")
    t.step("(paused)", "a", "up")
    t.step("layer 0: the robot", wait=True)
    room = s.app.current
    for layer in range(1, room.reach):
        t.step("layer %d: every cell %d move%s away" % (layer, layer, "s" * (layer > 1)), "a")
    t.step("layer %d reaches the target" % room.reach, "a")
    t.step("the shortest route: %d moves" % room.reach, "a")
    return t.steps
