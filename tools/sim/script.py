"""Scripted play for tests and benchmarks: a player who reads the app's state.

A ``Session`` runs the simulator driver in-process (CPython), presses buttons at a
steady pace, and records every press as an events-file line, so that the same session
can be replayed by ``tools.sim --headless`` (on either runtime)::

    s = Session(seed=7)
    s.tap("a")                      # menu -> solo
    s.solo_round()                  # the optimal route, cell by cell
    open("play.txt", "w").write(s.events_text())

Closed loop: the moves depend on the rolled puzzle, which the session reads from
``s.app``. CPython only (the replay is what runs in MicroPython).
"""

from tools.sim import driver as simdriver

BUTTONS = ("up", "down", "left", "right", "a", "b")
GAP_MS = 140  # from one press to the next
TAP_MS = 60


class Session:
    """The device under a scripted player. ``frames`` collects the driver's frame lines;
    ``clock`` is the tick the device's clock starts from (see the driver's --clock)."""

    def __init__(self, seed=1234, state=None, start=100, clock=0):
        self.frames = []
        self.lines = []
        self.driver = simdriver.Driver(self._out, seed, state, clock=clock)
        self.t = start
        self.events = []

    def _out(self, line):
        self.lines.append(line)
        if '"pixels"' in line:
            self.frames.append(line)

    @property
    def app(self):
        return self.driver.device.app

    @property
    def display(self):
        return self.driver.device.display

    def _press(self, button, length):
        b = BUTTONS.index(button)
        self.driver.feed("%d %d" % (self.t, 1 << b))
        self.driver.feed("%d 0" % (self.t + length))
        self.events.append("%d %s%s" % (self.t, button,
                                        "" if length == TAP_MS else " hold %d" % length))
        self.t += max(GAP_MS, length + GAP_MS - TAP_MS)
        self.driver.run_until(self.t)
        app = self.app
        while app is not None and app.switching:  # a new mode: wait for it to show
            self.t += 20
            self.driver.run_until(self.t)

    def tap(self, button, times=1):
        for _ in range(times):
            self._press(button, TAP_MS)

    def hold(self, button, ms=800):
        self._press(button, ms)

    def wait(self, ms):
        self.t += ms
        self.driver.run_until(self.t)

    def until_saved(self, limit_ms=10000):
        """Play on (no key) until the app has written what it noted for saving: a
        decision reaches the flash in idle frames after its animation (app.App.flush)."""
        end = self.t + limit_ms
        while self.app.saver.unsaved:
            if self.t >= end:
                raise AssertionError("still unsaved after %d ms" % limit_ms)
            self.wait(20)

    def events_text(self):
        return "\n".join(self.events) + "\n"

    # -- moving the cursor --------------------------------------------------------
    def cursor_to(self, robot, cell):
        """D-pad taps that bring the cursor to ``cell`` on the robot's row or column."""
        dr = cell // 6 - robot // 6
        dc = cell % 6 - robot % 6
        if dr and dc:
            raise ValueError("cell %d is not on the row or column of %d" % (cell, robot))
        cursor = getattr(self.app.current, "cursor", robot)
        if dc and cursor // 6 == robot // 6:  # the cursor is on the row already
            dc = cell % 6 - cursor % 6
        elif dr and cursor % 6 == robot % 6:
            dr = cell // 6 - cursor // 6
        if dc:
            self.tap("right" if dc > 0 else "left", abs(dc))
        else:
            self.tap("down" if dr > 0 else "up", abs(dr))

    def move(self, robot, cell):
        self.cursor_to(robot, cell)
        self.tap("a")

    # -- whole rounds ---------------------------------------------------------------
    def settle(self):
        """Skip the dice animation if it runs (B does it without side effects)."""
        mode = self.app.current
        screen = mode.screen
        if screen is mode.rolling if screen is not None else getattr(mode, "state", None) == 0:
            self.tap("b")  # the dice (solo's and the referee's screen, the classroom's state 0)

    def solo_round(self, extra=0):
        """Solve the solo puzzle on screen by an optimal route (plus ``extra`` back-and-forth
        pairs of moves), then step through score and replay to the next roll."""
        solo = self.app.current
        self.settle()
        g = solo.game
        route = g.route()
        robot = route[0]
        for _ in range(extra):
            back = route[1]
            self.move(robot, back)
            self.move(back, robot)
        for cell in route[1:]:
            self.move(robot, cell)
            robot = cell
        return route

    def finish_solo(self):
        """From the celebration to the next puzzle: A through score and replay."""
        self.wait(3200)
        self.tap("a")  # score -> replay
        self.wait(6000)
        self.tap("a")  # next round
        self.settle()

    def claim(self, player, count, cells):
        """Referee: ``player`` claims ``count`` and demonstrates ``cells`` (after the start)."""
        ref = self.app.current
        self.tap("a")  # board -> choose player: nobody chosen yet
        self.tap("down", player + 1)  # the first down chooses the first player
        self.tap("a")  # -> count, starts at 1
        if count >= 1:
            self.tap("up", count - 1)
        else:
            self.tap("down")  # a claim of 0
        self.tap("a")
        if ref.screen is ref.demo:  # the claim was not below the optimum
            robot = ref.robot
            for cell in cells:
                if cell // 6 != robot // 6 and cell % 6 != robot % 6:
                    raise ValueError("demonstrations here go along rows and columns")
                self.move(robot, cell)
                robot = cell
            if len(cells) < count:
                self.hold("a")
