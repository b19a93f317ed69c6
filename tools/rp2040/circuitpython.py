"""The firmware on an emulated Pico running CircuitPython 10 (rp2040py), booted with the
very drive ``make flash-circuitpython`` writes (tools/circuitpy.py).

    uf2, why = find_firmware()             # CIRCUITPY_FIRMWARE, else ../shared/circuitpython/
    s = CircuitSession(uf2)                # the drive with the probe as code.py
    s.boot(); s.play(edges, start); s.run_to(now)
    s.records; s.boot_data(0); s.files()   # as tools/rp2040/session.py's BoardSession

What differs from MicroPython's session:

- The drive is CircuitPython's FAT12 (1 MB at flash offset 0x100000), written with
  mtools from the tree tools/circuitpy.py makes: source, ``code.py``, ``boot.py`` and
  ``lib/neopixel.py``.
- The probe (probe.py's, adapted) is ``code.py``: CircuitPython runs ``code.py`` at
  boot and has no ``time.ticks_us``, so the probe times with ``time.monotonic_ns()``
  (about 30 us steps on the RP2040; the long it returns is the probe's own garbage).
- The firmware's clock is ``supervisor.ticks_ms()``: the board's microsecond timer in
  1/1024 s ticks, made ms, starting 65 s before its 2**29 wrap. ``board_ms`` maps the
  firmware's ``now`` to emulated time through that same formula.
"""

import os
import re
import tempfile

from tools import circuitpy, circuitpy_compiler
from tools.cli import ROOT

from . import image, probe
from .pico import Pico
from .session import BUTTON_NAMES, BoardSession, board_config

ENV = "CIRCUITPY_FIRMWARE"
PATTERN = os.path.join("shared", "circuitpython", "circuitpython-*raspberry_pi_pico.uf2")
_TICKS_PERIOD = 1 << 29  # supervisor.ticks_ms()
_TICKS_START = 0x1FFF0000  # its value at power-on: 65.5 s before it wraps


def find_firmware(root=ROOT):
    """``(path, None)`` for the CircuitPython image to boot, or ``(None, why)``:
    ``$CIRCUITPY_FIRMWARE``, else ``shared/circuitpython/`` beside the checkout."""
    return image.find_uf2(ENV, PATTERN, "no CircuitPython image for the emulated Pico: set %s "
                          "to a raspberry_pi_pico .uf2 (e.g. ../shared/circuitpython/"
                          "circuitpython-10.2.1-raspberry_pi_pico.uf2)" % ENV, root)


def supervisor_ticks(board_us):
    """``supervisor.ticks_ms()`` on a CircuitPython RP2040 at timer value ``board_us``."""
    raw = 1024 * (board_us // 1000000) + (board_us % 1000000) // 977  # 1/1024 s ticks
    return (raw * 1000 // 1024 + _TICKS_START) % _TICKS_PERIOD


def probe_source(collect_every=None):
    """probe.py's probe for CircuitPython: ``code.py``, importing the device loop
    (microrobots.handheld) as on MicroPython.

    ``collect_every``: the probe collects the garbage between two frames (outside their
    timing) every that many frames. Its clock readings are longs (64 bytes each, 320
    bytes a frame) where the firmware allocates nothing per frame, and CircuitPython
    collects when its heap's areas are full: without this, the frames timed are the
    ones that pay for the probe's garbage (docs/circuitpython.md). The bench sets it;
    the tests' tours leave the heap as a user's board has it."""
    src = probe.source()
    if collect_every:
        anchor = "        cmd = buf[8] & 255\n"
        assert anchor in src
        src = src.replace(anchor, (
            "        if n %% %d == 0:  # the probe's own garbage, outside the frame's timing\n"
            "            t = _us()\n"
            "            gc.collect()\n"
            "            buf[cur[0] + 11] += _diff(_us(), t)\n" % collect_every) + anchor)
    src = src.replace("# main.py: the emulated-board harness's probe",
                      "# code.py: the emulated-board harness's CircuitPython probe")
    src = src.replace("time.ticks_us()", "_us()")
    src = src.replace("time.ticks_diff(", "_diff(")
    src = src.replace("    sys.print_exception(e)", "    import traceback\n"
                      "    traceback.print_exception(e)")
    src = src.replace("window = array(\"i\", [0])\n", "window = array(\"i\", [0])\n\n\n"
                      "def _us():\n    return time.monotonic_ns() // 1000 & 0x3FFFFFFF\n\n\n"
                      "def _diff(a, b):\n    return (a - b) & 0x3FFFFFFF\n")
    assert "ticks_us" not in src and "firmware_main" not in src
    return src


def compiler():
    """``(Compiler, None)`` for the ``.mpy`` install, or ``(None, why)`` (tools/circuitpy_compiler)."""
    return circuitpy_compiler.find()


def drive_files(files=None, probed=True, compiled=None, collect_every=None):
    """``{path: bytes}``: the drive make flash-circuitpython writes, plus ``files``; the
    probe as ``code.py`` when ``probed`` (``collect_every``: probe_source's); the modules
    as ``.mpy`` by ``compiled`` (a Compiler), else as source."""
    tree = circuitpy.drive_tree(compiled)
    tree.update(files or {})
    if probed:
        tree["code.py"] = probe_source(collect_every).encode()
    return tree


def build_drive(tree):
    """A FAT drive image (bytes) holding ``tree``, from CircuitPython's own blank drive."""
    fd, path = tempfile.mkstemp(prefix="circuitpy-", suffix=".img")
    os.close(fd)
    os.remove(path)
    try:
        circuitpy.write_image(tree, path, circuitpy.find_base_image())
        with open(path, "rb") as f:
            return f.read()
    finally:
        if os.path.exists(path):
            os.remove(path)


def read_drive(data):
    """Every file on a drive image (bytes): ``{path: bytes}``."""
    fd, path = tempfile.mkstemp(prefix="circuitpy-", suffix=".img")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        return circuitpy.read_image(path)
    finally:
        os.remove(path)


_OSC = re.compile(r"\x1b\][^\x1b\x07]*(\x1b\\|\x07)")  # the status bar in the title


def plain_console(text):
    """The console without CircuitPython's status-bar escapes."""
    return _OSC.sub("", text)


def lockstep(records, board, seed, config, origin, state=None):
    """session.lockstep with the host firmware started at ``origin``, the board's ticks
    when its ``handheld.Device`` began (probe.H_ORIGIN). CircuitPython's ticks start 65 s
    before their wrap, not near 0: a host started at 0 would be a minute further from
    what began at boot (a notice blinks for 30 s from then) than the board is."""
    from tools.sim.driver import SimHardware

    from .session import lockstep as run

    SimHardware.start = origin
    try:
        return run(records, board, seed, config, state)
    finally:
        del SimHardware.start  # fake.Hardware's own again


class CircuitSession(BoardSession):
    """BoardSession's API on the CircuitPython board (see the module docstring)."""

    def __init__(self, firmware, files=None, probed=True, compiled=None, collect_every=None,
                 flash_times="typical"):
        files = dict(files or {})
        self.compiled = compiled
        self.config = board_config(files)
        cfg = self.config
        self.pico = Pico(firmware, build_drive(drive_files(files, probed, compiled, collect_every)),
                         led_pin=cfg["led_pin"], color_order=cfg["color_order"],
                         buttons=[cfg["buttons"][n] for n in BUTTON_NAMES],
                         family="circuitpython", flash_times=flash_times)
        self.probed = probed
        self.reader = probe.ProbeReader(self.pico) if probed else None
        self.records = []
        self.header = None
        self.boots = []
        self.shown = {}
        self._leds_at_reset = 0

    def boot(self, limit_ms=9000):
        """As BoardSession.boot, then until the first frame is recorded (``now`` counts
        from there: CircuitPython's ticks are far from 0)."""
        end = self.pico.ms + limit_ms
        if not BoardSession.boot(self, limit_ms):
            return False

        def recorded():
            self._collect()
            return bool(self._current())

        return self.pico.run_until(recorded, end, 5)

    def board_ms(self, now):
        """The emulated ms (since power-on) at which the firmware's ``now`` is ``now``."""
        pico = self.pico
        ticks = supervisor_ticks(pico.board_us())
        ahead = (now - ticks) % _TICKS_PERIOD  # now is ticks, plus 2**29 after a wrap
        if ahead >= _TICKS_PERIOD // 2:
            ahead -= _TICKS_PERIOD
        return pico.ms + ahead

    @property
    def console(self):
        return plain_console(self.pico.console)

    def files(self):
        return read_drive(self.pico.flash_image())
