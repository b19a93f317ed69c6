"""A session on the emulated board: the flashed tree booted, buttons pressed, frames read.

    s = BoardSession(firmware_uf2)            # the tree make flash writes, plus the probe
    s.boot()                                  # until the app runs (the probe says so)
    s.play(edges, start=s.now + 200)          # tools.sim events (parse_events) from that now
    s.run_to(s.now + 3000)                    # emulated time, in the board's own ms
    s.records                                 # one dict per frame (probe.FIELD_NAMES)
    records, frames, seed = s.boot_data(0)
    lockstep(records, frames, seed, s.config) # the host firmware, fed the board's now and
                                              # buttons frame by frame: None if all equal

Times: the board's ``now`` (what the app sees: handheld.Device starts its clock at the
board's own ``ticks_ms``, which counts from the board's reset) is the unit of scripts and
records; ``Pico`` works in emulated ms since power-on.
"""

import json
import tempfile

from . import image, probe
from .pico import Pico
BUTTON_NAMES = ("up", "down", "left", "right", "a", "b")
# Scripts wait this long after the key that enters a mode: on the stock image the board's
# switch takes a few hundred ms (its modules' code read from flash into the heap).
SWITCH_MS = 800
BOARD_LAG_MS = 1000  # the most a switch on the stock image lags behind the host's
# The tour's waits for a board that lags behind the host (tour()): the stock image's switch
# (its modules' bytecode read from flash) takes a few hundred ms, the Micro Robots image's
# under 100 (test_rp2040.py holds it there), so there the tour need not wait as long: every
# emulated second is some 15 s of the emulator's CPU. "saved_ms": the wait for the
# settings' last save at the tour's end, None: until the host has saved, then "lag_ms".
STOCK_WAITS = {"switch_ms": SWITCH_MS, "lag_ms": BOARD_LAG_MS, "saved_ms": 1500}
TOUR_WAITS = {"stock": STOCK_WAITS,
              "ours": {"switch_ms": 300, "lag_ms": 250, "saved_ms": None}}
READ_EVERY_MS = 1000  # the probe's ring holds 160 frames: read well within 3 s


def board_config(files):
    """The board's configuration as main.py will see it (defaults if missing or bad: not
    UTF-8 either, which config.load reads from the bytes as main.py does)."""
    from microrobots.device import config

    text = files.get("config.json")
    if text is None:
        return config.defaults()
    try:
        return config.load(text)
    except config.ConfigError:
        return config.defaults()


class BoardSession:
    """The emulated Pico with the firmware and (``probed``) the probe; see the docstring.

    ``files``: extra files for the board's flash ({path: bytes}), e.g. a config.json.
    ``frozen``: ``firmware`` is the Micro Robots image (the firmware built in): the flash
    holds only ``files`` (and the probe), as a board that was given the one .uf2 does.
    ``flash_times``: the flash chip's ("typical", "worst", None: none; flash_timing.py);
    ``board``, ``floating_mv``: the board kind and what its undriven ADC pin reads
    (boards.py).
    """

    def __init__(self, firmware, files=None, probed=True, frozen=False, flash_times="typical",
                 board="pico", floating_mv=0):
        files = dict(files or {})
        tree = {} if frozen else image.flash_tree()
        tree.update(files)
        if probed:
            tree = probe.probed(tree, frozen)
        self.config = board_config(files)
        cfg = self.config
        self.pico = Pico(firmware, image.build_image(tree), led_pin=cfg["led_pin"],
                         color_order=cfg["color_order"],
                         buttons=[cfg["buttons"][n] for n in BUTTON_NAMES],
                         flash_times=flash_times, board=board,
                         floating_mv=floating_mv)
        self.probed = probed
        self.reader = probe.ProbeReader(self.pico) if probed else None
        self.records = []
        self.header = None
        self.boots = []  # (records index, LED frames index, probe header) of each boot
        self.shown = {}  # boot -> the frames its firmware had shown at the reset (reset)
        self._leds_at_reset = 0

    # -- booting -----------------------------------------------------------------------
    def boot(self, limit_ms=4000):
        """Run until the probe reports the app running; False if it never did."""
        if not self.probed:
            raise ValueError("boot() waits for the probe; use pico.run_until instead")
        pico = self.pico
        ok = pico.run_until(lambda: self.reader.stage >= 2, pico.ms + limit_ms)
        self.header = self.reader.header() if self.reader.find() else None
        # LED frames from the power-on or the reset on belong to this boot: the first may
        # latch before the probe's "running" is seen here
        self.boots.append((len(self.records), self._leds_at_reset, self.header))
        return ok and self.header[probe.H_STAGE] == 2

    def run_to_first_frame(self, limit_ms=4000):
        """Run until this boot has recorded its first frame (the app's set-up, its modes
        imported, comes after the device's clock started: on the stock image some 280
        ms); False if it never did."""
        pico = self.pico

        def recorded():
            self._collect()
            return bool(self._current())

        return pico.run_until(recorded, pico.ms + limit_ms)

    def reset(self):
        """The RUN pin: the board restarts from its flash (saved files kept). Pulsed
        between two frames, so that the boot ends on a whole frame: ``shown[boot]`` is
        what its firmware had shown then, every frame its LED line carried (the records
        taken end a frame before it: the last frame's record stays open until the next
        frame begins, probe.ProbeReader.take)."""
        settled = self._settle()
        self._collect()
        if settled:
            self.shown[len(self.boots) - 1] = self.reader.shown()
        self._leds_at_reset = len(self.pico.leds)
        self.pico.reset()
        self.reader = probe.ProbeReader(self.pico)
        self.header = None

    def _settle(self, limit_ms=200):
        """Run on into the sleep between two frames, the last frame's LEDs latched (the
        strip latches 50 us after the last bit; half a millisecond is well past it).
        False if the board ran no frames to come between within ``limit_ms``."""
        reader, pico = self.reader, self.pico
        if reader is None or not reader.find():
            return False
        end = pico.ms + limit_ms
        while pico.ms < end:
            if reader.between_frames():
                done = reader.header()[probe.H_DONE]
                pico.run_for_ms(0.5)
                if reader.between_frames() and reader.header()[probe.H_DONE] == done:
                    return True
            else:
                pico.run_for_ms(0.2)
        return False

    @property
    def seed(self):
        return self.header[probe.H_SEED]

    @property
    def heap_after_boot(self):
        """Bytes in use after boot (after a collection), the probe's own excluded."""
        return self.header[probe.H_BOOT]

    # -- time --------------------------------------------------------------------------
    @property
    def now(self):
        """The board's ``now`` at its last recorded frame (before the first: where the
        device's clock started, H_ORIGIN)."""
        self._collect()
        if self._current():
            return self.records[-1]["now"]
        return self.header[probe.H_ORIGIN] if self.header is not None else 0

    def _current(self):
        return self.records[self.boots[-1][0]:] if self.boots else []

    def board_ms(self, now):
        """The emulated ms (since power-on) at which the board's ``now`` is ``now``: the
        app's clock is the board's ``ticks_ms`` (it starts there, at H_ORIGIN, and moves
        on by what ticks_diff measures; a session here never sleeps, which would stop
        it). (Until issue 31 this added H_ORIGIN once more: every scripted edge landed
        the boot's 200-2000 ms later than the records' ``now`` said, which the tap
        sessions read as taps lost.)"""
        pico = self.pico
        return now + pico.ms - pico.board_us() / 1000.0

    def _collect(self):
        if self.reader is not None and self.reader.find():
            self.records.extend(self.reader.take())

    def run_to(self, now):
        """Run until the board's ``now`` has reached ``now``."""
        end = self.board_ms(now)
        while self.pico.ms < end:
            self.pico.run_until_ms(min(end, self.pico.ms + READ_EVERY_MS))
            self._collect()
        if self.reader.lost:
            raise RuntimeError("the probe's ring overflowed: %d frames lost" % self.reader.lost)

    def at(self, now, fn, *args):
        """Call ``fn(*args)`` inside the emulation when the board's ``now`` is ``now``."""
        self.pico.at_ms(self.board_ms(now), fn, *args)

    # -- input -------------------------------------------------------------------------
    def play(self, edges, start=0):
        """Schedule button edges ``(ms, button, down)`` (tools.sim.headless.parse_events),
        their times counted from the board's ``now`` = ``start``."""
        mask = self.pico.mask
        for t, b, down in edges:
            mask = mask | 1 << b if down else mask & ~(1 << b)
            self.at(start + t, self.pico.set_buttons, mask)

    def command(self, now, cmd):
        """Send a probe command when the board's ``now`` is ``now``; the returned list gets
        the board's answer appended (after the next frame, once collected)."""
        box = []

        def send():
            # One command word: one sent while the board has not taken the one before
            # (a frame frozen by a save, with two commands due inside it) would overwrite
            # it, so it waits for the next frame's turn.
            if self.reader.header()[probe.H_CMD] != 0:
                self.pico.at_ms(self.pico.ms + 2, send)
                return
            box.append(self.reader.command(cmd))

        self.at(now, send)
        return box

    @staticmethod
    def answer(box):
        return box[0]() if box else None

    # -- output ------------------------------------------------------------------------
    def boot_data(self, boot):
        """``(records, LED frames in grid order, seed)`` of boot number ``boot``."""
        start, led_start, header = self.boots[boot]
        end = self.boots[boot + 1][0] if boot + 1 < len(self.boots) else len(self.records)
        led_end = self.boots[boot + 1][1] if boot + 1 < len(self.boots) else len(self.pico.leds)
        frames = grid_frames(self.pico.leds[led_start:led_end], self.config)
        return self.records[start:end], frames, header[probe.H_SEED]

    def files(self):
        """The board's filesystem now: {path: bytes}."""
        return image.read_files(self.pico.flash_image())


def switch_times(records, modes):
    """``[(mode entered, ms)]``: each mode switch in ``records`` (a boot's), from the frame
    that read the key (and switched) to the first frame of the mode entered, in the
    board's ``now``;
    ``modes``: the names of the records' mode numbers."""
    out = []
    began = None
    for r in records:
        switching = r["app"] & probe.APP_SWITCHING
        if switching and began is None:
            began = r["now"]
        elif not switching and began is not None:
            out.append((modes[r["mode"]], r["now"] - began))
            began = None
    return out


class Mismatch:
    """Where the board and the host firmware first disagree."""

    def __init__(self, frame, now, why):
        self.frame = frame
        self.now = now
        self.why = why

    def __str__(self):
        return "frame %d (now %d ms): %s" % (self.frame, self.now, self.why)


def grid_frames(leds, config):
    """LED frames ``[(ms, [(r, g, b), ...]), ...]`` as latched -> ``[(ms, bytes(108))]`` in
    grid order (R, G, B per cell), through ``config``'s wiring."""
    from microrobots.device.display import led_map

    cells = led_map(config)
    out = []
    for ms, pixels in leds:
        if len(pixels) < config["led_count"]:
            continue  # a frame cut short by a reset: the firmware sends every frame whole
        frame = bytearray(108)
        for cell, led in enumerate(cells):
            frame[3 * cell:3 * cell + 3] = bytes(pixels[led][:3])
        out.append((ms, bytes(frame)))
    return out


def lockstep(records, board, seed, config, state=None):
    """Run the host firmware (CPython, fake pins) frame by frame at the board's recorded
    ``now`` with the buttons the board read, comparing every LED frame the board wrote
    (``board``: grid_frames of that boot) with the one the host writes. None when all
    agree, else a ``Mismatch``. ``state``: the host's flash, {name: bytes} as the board had
    it at that boot (default: nothing saved, a freshly flashed board).
    """
    root = tempfile.mkdtemp(prefix="mr-lockstep-") + "/"
    try:
        dev = host_device(root, seed, config, state)
        disp = dev.display
        written = disp.writes

        def frame(k, rec):
            if rec["frame"] != k:
                return Mismatch(k, rec["now"], "the probe lost frames before this one")
            dev.hw.now = rec["now"]
            dev.hw.pressed = rec["mask"]
            dev.step()
            if disp.writes - written != rec["writes"]:
                return Mismatch(k, rec["now"], "the board has written %d frames, the host %d"
                                % (rec["writes"], disp.writes - written))
            n = rec["writes"]
            if n and (k == 0 or records[k - 1]["writes"] != n):
                if n > len(board):
                    return Mismatch(k, rec["now"], "the LED line carried %d frames, the "
                                    "firmware wrote %d" % (len(board), n))
                if bytes(disp.written) != board[n - 1][1]:
                    return Mismatch(k, rec["now"], "LED frame %d differs: board %s, host %s"
                                    % (n, list(board[n - 1][1]), list(disp.written)))
            return None

        for k, rec in enumerate(records):
            wrong = frame(k, rec)
            if wrong:
                return wrong
        return None
    finally:
        import shutil

        shutil.rmtree(root, ignore_errors=True)


def host_device(root, seed, config, state=None):
    """The host firmware (CPython, fake pins) booted as the board was: its flash in folder
    ``root`` (ending in /) holding ``state`` ({name: bytes}, the firmware's own modules
    left out) and ``config`` where the board's differs from a freshly flashed one's."""
    from microrobots import handheld

    from tools.sim.driver import SimHardware

    for name, data in (state or {}).items():
        if "/" not in name and not name.endswith((".py", ".mpy")):
            with open(root + name, "wb") as f:
                f.write(data)
    if "config.json" not in (state or {}) and config != board_config({}):
        with open(root + "config.json", "w") as f:
            json.dump(config, f)
    SimHardware.sim_seed = seed
    SimHardware.sim_out = _ignore
    SimHardware.sim_tones = False
    return handheld.Device(SimHardware, root + "config.json", root)


def _ignore(line):
    pass


def tour(seed, quiet_ms=300, waits=None):
    """A short scripted visit of every mode, made closed-loop on the host with ``seed``
    (the board's): ``(edges, length_ms, quiet)``. ``quiet`` lists ``(mode, from, to)``:
    stretches where no button changes, for heap and allocation readings.

    The menu; solo (dice skipped, the cursor, the first move of an optimal route); the
    referee (dice skipped, player 1 claims one move: below the optimum, it fails at once;
    the verdict); the classroom (dice skipped, a wave layer); settings (brightness up one:
    saved a second later); back to the menu by holding B (B in settings). Every mode
    switch takes a few frames (app.App.go); the scripted player waits for it.

    ``waits``: how far the board may lag behind the host (``TOUR_WAITS``' keys; default
    the stock image's, ``STOCK_WAITS``): the script is played open-loop on the board, so
    every wait that lets a slow board catch up is sized for the board it is played on.
    """
    from tools.sim import headless
    from tools.sim.script import Session

    w = dict(STOCK_WAITS, **(waits or {}))
    switch_ms, lag_ms = w["switch_ms"], w["lag_ms"]
    s = Session(seed=seed, start=0)
    quiet = []

    def rest(mode, ms=quiet_ms):
        quiet.append((mode, s.t + 40, s.t + ms - 40))
        s.wait(ms)

    def calm():
        """Until the new game is on flash (its JSON encoded and written, which allocates)
        on the host, then as long again as the stock image's switch lags behind it."""
        s.until_saved()
        s.wait(lag_ms)

    rest("menu")
    s.tap("a")  # solo
    s.wait(switch_ms)
    s.settle()
    calm()
    rest("solo")
    route = s.app.current.game.route()
    s.move(route[0], route[1])
    s.hold("b", 650)
    s.tap("right")
    s.tap("a")  # referee
    s.wait(switch_ms)
    s.settle()
    calm()
    rest("referee")
    s.tap("a")  # claim: player 1 ...
    s.tap("a")  # ... one move ...
    s.tap("a")  # ... confirmed
    s.wait(200)
    s.hold("b", 650)
    s.tap("down")
    s.tap("left")
    s.tap("a")  # classroom
    s.wait(switch_ms)
    s.tap("a")  # skip the dice: the wave
    calm()
    rest("classroom")
    s.hold("b", 650)
    s.tap("right")
    s.tap("a")  # settings
    s.wait(switch_ms)
    s.tap("down", 2)
    s.tap("right")  # brightness 6
    rest("settings")
    s.tap("b")
    if w["saved_ms"] is None:  # the settings written, a second after the last change
        s.until_saved()  # (app.App.flush), as soon as the host has written them
        s.wait(lag_ms)
    else:
        s.wait(w["saved_ms"])
    edges = headless.parse_events(s.events_text(), "tour")
    return edges, s.t, quiet
