"""The simulator's engine: the real firmware loop (firmware/main.py's Device) on fake
pins and a fake clock, driven by timed button states on stdin, frames out on stdout.

It runs unchanged under CPython (``tools.sim`` imports it) and inside MicroPython::

    .venv/bin/micropython -X heapsize=190k tools/sim/driver.py --seed 7 --state /tmp/dev/

Options: ``--seed N`` (the number the hardware gives for new games, default 1234),
``--state DIR`` (the device's flash: settings.json, solo.json, referee.json and an
optional config.json live there; without it nothing is saved), ``--until MS`` (at end of input,
keep running until this time), ``--tones`` (also report the buzzer), ``--clock MS`` (the
tick the device's clock starts from, 0..2**30-1: e.g. a few seconds before the ticks
wrap, as on a Pico after 12.4 days; times in the input and output count from the start
either way), ``--words FILE`` (the guide's words: a language's table compiled by tools/i18n,
build/i18n/<lang>.json; English without it).

Protocol — input, one line each, read as they come (a live front end can stream):

    <ms> <mask>     from time <ms> on, the buttons held are <mask> (bit 0 up, 1 down,
                    2 left, 3 right, 4 a, 5 b; 0 = none held). Times never go back.
                    The clock first runs, frame by frame (20 ms each), up to <ms>.
    <ms>            just run the clock up to <ms> (same buttons).
    battery <mV>    from now on the device runs on a cell at <mV> millivolts (its fake
                    ADC reads it; USB unplugged); ``battery usb``: on USB again.
    quit            stop now (as does the end of input, after --until).
    # ...           a comment; blank lines are ignored.

Output, one line each, flushed at once:

    {"t": 40, "mode": "menu", "pixels": [[r, g, b], ... 36]}
        the LEDs changed at frame time t: the values actually written (after gamma,
        brightness and the power cap), in row-major grid order;
    {"t": 60, "tone": 880}          with --tones: the buzzer's frequency from t (0: off);
    {"t": 60, "notice": "..."}      the app reset a file to defaults (once);
    {"t": 60, "guide": "..."}       what to do now, when it changes, after a frame line
                                    (the mode's own words: modes/guide.py; "" when
                                    it has none);
    {"t": 80, "console": "..."}     a line the app has for the serial console (the
                                    referee's verdict and why: handheld.Device.console);
    {"t": 90, "power": "dimmed", "percent": 62, "low": false, "usb": false}
                                    the power state when it changes: "awake", "dimmed"
                                    or "asleep"; the battery's charge (-1: on USB);
    {"t": 9000, "end": true, "heap": 41232}   last line: the time reached and the bytes
                                    of heap in use after a collection (MicroPython);
    {"error": "..."}                bad input or option; the driver exits with status 2.

Any other line (not starting with ``{``) is the firmware's console output (a bad
config.json, a traceback) and should be shown as such.
"""

import sys

FRAME_MS = 20
_NOWHERE = "/nonexistent-microrobots-sim/"  # the flash without --state
_HELP = ("usage: driver.py [--seed N] [--state DIR] [--until MS] [--tones] [--clock MS] "
         "[--words FILE]")


def _firmware_path():
    """``firmware/`` at the top of the checkout, two folders up (no os.path in MicroPython):
    ``firmware`` when run as ``tools/sim/driver.py`` from the checkout, as tools.cli does
    (short module paths: MicroPython keeps them on its heap)."""
    here = __file__.replace("\\", "/")
    cut = here.rfind("/")
    folder = here[:cut] if cut >= 0 else "."
    if folder == "tools/sim" or folder.endswith("/tools/sim"):
        return folder[:-9] + "firmware"
    return folder + "/../../firmware"


try:
    import microrobots  # noqa: F401  - already importable (tools.sim, tests)
except ImportError:
    sys.path.insert(0, _firmware_path())

from microrobots import handheld  # noqa: E402  - the device loop under test
from microrobots.device.hw.fake import Hardware as _FakeHardware  # noqa: E402


class UsageError(Exception):
    """Bad options or a bad input line: one line for the user."""


class SimHardware(_FakeHardware):
    """Fake pins that give the chosen seed and report tones (MicroPython has no
    closures in nested classes, so the Driver sets these class attributes; ``sim_out``
    as a staticmethod, since a plain function stored on a class would be called as a
    method, with the hardware as its first argument)."""

    sim_seed = 1234
    sim_out = None
    sim_tones = False

    def seed(self):
        return self.sim_seed

    def tone(self, freq):
        if self.sim_tones:
            self.sim_out('{"t": %d, "tone": %d}' % (self.elapsed, max(freq, 0)))

    def quiet(self):
        if self.sim_tones:
            self.sim_out('{"t": %d, "tone": 0}' % self.elapsed)


class SimDevice(handheld.Device):
    """The firmware's Device whose serial console lines become ``console`` output lines."""

    def __init__(self, out, Hardware, config_path, root):
        self.sim_out = out
        super().__init__(Hardware, config_path, root)

    def console(self, line):
        self.sim_out('{"t": %d, "console": %s}' % (self.hw.elapsed, _quote(line)))


def frame_line(t, mode, written):
    """The JSON line of one written frame (built by hand: identical on every runtime)."""
    parts = []
    for i in range(0, 108, 3):
        parts.append("[%d, %d, %d]" % (written[i], written[i + 1], written[i + 2]))
    return '{"t": %d, "mode": "%s", "pixels": [%s]}' % (t, mode, ", ".join(parts))


def _quote(text):
    out = []
    for ch in text:
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif ord(ch) < 32:
            out.append(" ")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def guide(app):
    """What the mode shown says to do now ("" while none: a switch, a halted app), the
    pieces in play named after it (modes/pieces.py: "robot on white 2, target pink 4")."""
    mode = getattr(app, "current", None)
    if mode is None or app.switching:
        return ""
    from microrobots.modes import guide, pieces  # the words; the pieces in play after them

    return pieces.with_guide(app, guide.words(mode) or "")


class Driver:
    """The device, a mask of held buttons and a clock. ``out(line)`` receives output."""

    def __init__(self, out, seed=1234, state=None, tones=False, clock=0):
        self.out = out
        root = _NOWHERE  # no files: loads find nothing, saves fail quietly
        if state:
            root = state if state.endswith("/") else state + "/"
        config_path = root + "config.json"
        SimHardware.sim_seed = seed
        SimHardware.sim_out = staticmethod(out)
        SimHardware.sim_tones = tones
        SimHardware.start = clock
        self.device = SimDevice(out, SimHardware, config_path, root)
        self.mask = 0
        self._writes = -1
        self._noticed = False
        self._guide = None
        self._power = None
        self._store_error = None
        self._flash = bool(state)  # without one, every save fails: no news

    @property
    def now(self):
        """ms since the start (the device's own clock is ticks, which may wrap)."""
        return self.device.hw.elapsed

    def run_until(self, t):
        """Run frames while the next frame starts before ``t``."""
        dev = self.device
        while dev.hw.elapsed < t:
            dev.hw.pressed = self.mask
            start = dev.hw.elapsed  # the frame's time
            dev.run(1)
            self._report(start)
            error = dev.store.error if self._flash else None  # a failed save says so, on
            if error is not None and error != self._store_error:  # the console (no screen)
                self.out('{"t": %d, "console": %s}' % (start, _quote("note: " + error)))
            self._store_error = error

    def _report(self, t):
        dev = self.device
        disp = dev.display
        app = dev.app
        if disp.writes != self._writes:
            self._writes = disp.writes
            mode = app.mode if app is not None else "halted"
            self.out(frame_line(t, mode, disp.written))
            text = guide(app)  # (a new step shows: asked only then, it allocates)
            if text != self._guide:
                self._guide = text
                self.out('{"t": %d, "guide": %s}' % (t, _quote(text)))
        power = dev.power
        state = "asleep" if dev.asleep else "dimmed" if power.dimmed else "awake"
        said = (state, power.percent, power.low, power.on_usb)
        if said != self._power:
            self._power = said
            self.out('{"t": %d, "power": "%s", "percent": %d, "low": %s, "usb": %s}' % (
                t, state, power.percent, "true" if power.low else "false",
                "true" if power.on_usb else "false"))
        if app is not None and app.notice and not self._noticed:
            self._noticed = True
            self.out('{"t": %d, "notice": %s}' % (t, _quote(app.notice)))

    def feed(self, line):
        """Take one input line; False when it says quit. Raises UsageError."""
        text = line.strip()
        if not text or text[0] == "#":
            return True
        if text == "quit":
            return False
        fields = text.split()
        if fields[0] == "battery":
            return self._battery(fields, text)
        if len(fields) > 2 or not fields[0].isdigit() or (
                len(fields) == 2 and not fields[1].isdigit()):
            raise UsageError("bad input line %r: expected <ms> [<mask>]" % text[:40])
        t = int(fields[0])
        self.run_until(t)
        if len(fields) == 2:
            mask = int(fields[1])
            if mask > 63:
                raise UsageError("bad mask %d in %r: six buttons, 0..63" % (mask, text[:40]))
            self.mask = mask
        return True

    def _battery(self, fields, text):
        hw = self.device.hw
        if len(fields) == 2 and fields[1] == "usb":
            hw.vsys, hw.usb = -1, 1
        elif len(fields) == 2 and fields[1].isdigit() and 2500 <= int(fields[1]) <= 4500:
            hw.vsys, hw.usb = int(fields[1]), 0
        else:
            raise UsageError("bad input line %r: expected battery <mV 2500..4500> or "
                             "battery usb" % text[:40])
        self.device.power.read(self.device.now)  # the gauge sees it at once
        return True

    def finish(self, until=-1):
        """Run to ``until`` (if later), then report the end line."""
        if until > 0:
            self.run_until(until)
        app = self.device.app
        if app is not None and hasattr(app, "saver"):  # a clean stop (q, end of input):
            app.saver.flush()  # what the app has still to save goes to the flash now
        heap = -1
        try:
            import gc

            gc.collect()
            heap = gc.mem_alloc()
        except (ImportError, AttributeError):
            pass
        self.out('{"t": %d, "end": true, "heap": %d}' % (self.now, heap))


def parse_args(argv):
    opts = {"seed": 1234, "state": None, "until": -1, "tones": False, "clock": 0,
            "words": None}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--tones":
            opts["tones"] = True
            i += 1
            continue
        if a not in ("--seed", "--state", "--until", "--clock", "--words") \
                or i + 1 >= len(argv):
            raise UsageError("bad option %r; %s" % (a, _HELP))
        v = argv[i + 1]
        if a == "--state" or a == "--words":
            opts[a[2:]] = v
        elif not v.isdigit():
            raise UsageError("%s needs a whole number, not %r" % (a, v))
        else:
            opts[a[2:]] = int(v)
        i += 2
    if opts["seed"] > 0x3FFFFFFF:
        raise UsageError("--seed must be 0..%d" % 0x3FFFFFFF)
    if opts["clock"] > 0x3FFFFFFF:
        raise UsageError("--clock must be 0..%d" % 0x3FFFFFFF)
    return opts


def install_words(path):
    """The guide in another language: the table at ``path`` (tools/i18n's JSON) into the
    firmware's i18n module (which only the guide reads)."""
    import json

    from microrobots import i18n

    try:
        with open(path) as f:
            table = json.load(f)
    except (OSError, ValueError) as e:
        raise UsageError("--words %s: cannot read it (%s)" % (path, e))
    i18n.install(table)


def run(argv, lines, out):
    """The whole driver: options, then input ``lines`` (an iterable); returns the exit code."""
    try:
        opts = parse_args(argv)
        if opts["words"]:
            install_words(opts["words"])
        drv = Driver(out, opts["seed"], opts["state"], opts["tones"], opts["clock"])
        for line in lines:
            if not drv.feed(line):
                break
        drv.finish(opts["until"])
    except UsageError as e:
        out('{"error": %s}' % _quote(str(e)))
        return 2
    return 0


def _stdin_lines():
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        yield line


def _print_flush(line):
    sys.stdout.write(line + "\n")
    try:
        sys.stdout.flush()
    except AttributeError:
        pass


def main():
    """The command: options from sys.argv, input from stdin, output to stdout."""
    return run(sys.argv[1:], _stdin_lines(), _print_flush)


if __name__ == "__main__":
    sys.exit(main())
