"""The emulated-board sessions behind host_tests/device/test_rp2040.py, as one run.

    python -m tools.rp2040.checks --part tour --image stock --json build/rp2040/tour.json
    python -m tools.rp2040.checks --part bad_config --image ours --json build/rp2040/bad.json

``--image stock``: the stock MicroPython image with the files ``make flash`` writes;
``--image ours``: the Micro Robots image (``make firmware``), the firmware built in.

The emulator is slow (about 20-45 s of wall time per emulated second), so the tests'
board work is done once, here, and written to a JSON file that the tests judge:

1. A freshly flashed board with the probe: boot; ``session.tour`` (every mode), with
   the heap in use, the bytes allocated and the modes loaded over a quiet stretch of each
   mode; its files dumped; the RUN pin pulsed; boot again and 500 ms of what it resumes.
2. A board with a bad ``config.json`` and no probe (the tree as ``make flash`` writes
   it, untouched): until the LEDs show something.
3. The builder's self-test (modes/selftest.py): a board powered on with A held; the
   four colours, each button held in turn, the supply's screen, A: the piezo's.
4. Every board kind (boards.py: a Pico, a Pico W on the Pico's image, a YD-RP2040 clone)
   off USB, powered on at 5000 mV, its supply read as 0, 1000, 3300 and 5000 mV in turn,
   1.1 s each:
   whether the battery picture showed, or the board slept (frames stopped).

``host_tests/conftest.py`` starts both, each in a background process of its own, when the
tests are collected, so that they run beside the rest of the suite.
"""

import base64
import sys
import time

from tools import cli

from . import image, probe
from .session import TOUR_WAITS, BoardSession, tour

BAD_CONFIG = b'{"led_pn": 3}'


def _b64(data):
    return base64.b64encode(data).decode()


_T0 = time.time()


def _say(what, pico):
    """A progress line on stderr (the tests' background log)."""
    print("%6.0f s wall, %6.0f ms emulated: %s" % (time.time() - _T0, pico.ms, what),
          file=sys.stderr, flush=True)


def tour_run(firmware, frozen):
    s = BoardSession(firmware, frozen=frozen)
    t0 = time.time()
    if not s.boot():
        return {"error": "the probed firmware did not start: " + s.pico.console[-400:]}
    boot_wall = time.time() - t0
    _say("booted", s.pico)
    edges, length, quiet = tour(s.seed, waits=TOUR_WAITS["ours" if frozen else "stock"])
    s.run_to_first_frame()  # the tour's times count from the menu's first frame
    start = s.now + 100
    s.play(edges, start)
    boxes = []
    for mode, a, b in quiet:
        # three frames apart: the board takes one command per frame, at the frame's end,
        # and a collection on the stock image (every module's bytecode in its heap) makes
        # that frame's period longer than one
        boxes.append((mode, "modes", s.command(start + a, probe.CMD_MODES)))
        boxes.append((mode, "heap", s.command(start + a + 60, probe.CMD_HEAP)))
        boxes.append((mode, "window", s.command(start + a + 120, probe.CMD_WINDOW)))
        boxes.append((mode, "allocated", s.command(start + b, probe.CMD_WINDOW_END)))
    s.run_to(start + length)
    readings = [(mode, what, s.answer(box)) for mode, what, box in boxes]
    _say("toured every mode", s.pico)
    files = s.files()
    console = s.pico.console
    s.reset()
    resumed = s.boot()
    s.run_to(s.now + 500)
    _say("resumed after a reset" if resumed else "did not restart after a reset", s.pico)
    return {
        "boot_ms": s.boots[0][2][probe.H_ORIGIN],
        "boot_wall_s": boot_wall,
        "heap_after_boot": s.boots[0][2][probe.H_BOOT],
        "start": start, "length": length, "quiet": quiet,
        "readings": readings,
        "console": console,
        "console_after_reset": s.pico.console[len(console):],
        "files_at_reset": {k: _b64(v) for k, v in files.items()
                           if not k.endswith((".py", ".mpy"))},
        "resumed": resumed,
        "config": s.config,
        "boots": [{"seed": h[probe.H_SEED], "heap_after_boot": h[probe.H_BOOT],
                   "records": s.boot_data(k)[0], "shown": s.shown.get(k),
                   "frames": [(ms, _b64(f)) for ms, f in s.boot_data(k)[1]]}
                  for k, (_, _, h) in enumerate(s.boots)],
        "emulated_ms": s.pico.ms,
    }


def bad_config_run(firmware, frozen):
    s = BoardSession(firmware, {"config.json": BAD_CONFIG}, probed=False, frozen=frozen)
    pico = s.pico
    pico.run_until(lambda: pico.leds and "config.json" in pico.console, 3000)
    from .session import grid_frames

    frames = grid_frames(pico.leds, s.config)
    _say("a bad config.json", pico)
    return {"console": pico.console, "frames": [(ms, _b64(f)) for ms, f in frames],
            "emulated_ms": pico.ms}


BOOT_MV = 5000  # VSYS at power-on, off USB
SUPPLIES_MV = (0, 1000, 3300, 5000)  # then a segment each
SEGMENT_MS = 1100  # the gauge is read once a second
FRAME_MS = 20


def battery_pictures(frames):
    """The times of the LED frames (grid order) that show the low-battery picture."""
    from microrobots import frame as F

    pictures = []
    for critical in (False, True):
        for now in (0, 500):
            frame = bytearray(108)
            F.battery(frame, now, critical)
            pictures.append(bytes(1 if v else 0 for v in frame))
    return [ms for ms, f in frames if bytes(1 if v else 0 for v in f) in pictures]


def boards_run(firmware, frozen, kinds=None):
    """Every board kind (boards.py; or ``kinds``) off USB, its supply at each of
    SUPPLIES_MV: whether the grid showed the battery picture, or the board slept, in each
    segment."""
    from .boards import KINDS
    from .session import grid_frames

    out = {}
    for kind in kinds or KINDS:
        s = BoardSession(firmware, frozen=frozen, board=kind, floating_mv=3300)
        s.pico.set_supply(BOOT_MV, usb=False)
        if not s.boot():
            return {"error": "%s: the probed firmware did not start: %s" % (
                kind, s.pico.console[-400:])}
        segments = []
        for mv in SUPPLIES_MV:
            s.pico.set_supply(mv, usb=False)
            begin_ms, begin_frames = s.pico.ms, len(s.pico.leds)
            begin_rec = len(s.records)
            s.run_to(s.now + SEGMENT_MS)
            frames = grid_frames(s.pico.leds[begin_frames:], s.config)
            nows = [r["now"] for r in s.records[begin_rec:]]
            gap = max([b - a for a, b in zip(nows, nows[1:])] or [0])
            # the gauge read at least once at this supply: what is on show from then on
            read = begin_ms + 1000 + 2 * FRAME_MS
            settled = [f for f in frames if f[0] >= read]
            settled[:0] = [f for f in frames if f[0] < read][-1:]
            segments.append({"mv": mv, "battery_picture": len(battery_pictures(frames)),
                             "settled_battery_picture": len(battery_pictures(settled)),
                             "longest_gap_ms": gap, "ms": s.pico.ms - begin_ms})
        out[kind] = {"segments": segments, "console": s.pico.console[-600:]}
        _say("board kind %s" % kind, s.pico)
    return out


SELF_TEST_HOLD_MS = 150  # each button held this long on the buttons' screen
SELF_TEST_GAP_MS = 100
COLOUR_TAP_MS = 250  # A tapped this often on the colours' screen (each colour a second
# if left alone: the emulator's time is dear)


def selftest_run(firmware, frozen):
    """Power on with A held (modes/selftest.py); let go; A through the four colours; each
    button held in turn; the supply's screen; A: the piezo's. The LED frames, and when
    each button was held (emulated ms since power-on, as the frames' times)."""
    from .session import grid_frames

    s = BoardSession(firmware, frozen=frozen)
    s.pico.set_buttons(1 << 4)  # A, held from power-on
    if not s.boot():
        return {"error": "the probed firmware did not start: " + s.pico.console[-400:]}
    _say("booted with A held", s.pico)
    t = s.now + 200
    s.at(t, s.pico.set_buttons, 0)
    colours_at = []
    for _ in range(4):  # red shows from the start; A: green, blue, white, the buttons
        t += COLOUR_TAP_MS
        colours_at.append(s.board_ms(t - 20))
        s.at(t, s.pico.set_buttons, 1 << 4)
        s.at(t + 60, s.pico.set_buttons, 0)
    t += 300
    held = []
    for b in range(6):
        s.at(t, s.pico.set_buttons, 1 << b)
        s.at(t + SELF_TEST_HOLD_MS, s.pico.set_buttons, 0)
        held.append((b, s.board_ms(t), s.board_ms(t + SELF_TEST_HOLD_MS)))
        t += SELF_TEST_HOLD_MS + SELF_TEST_GAP_MS
    t += 1300  # every button seen, a second of calm: the supply
    supply_at = s.board_ms(t)
    t += 100
    s.at(t, s.pico.set_buttons, 1 << 4)  # A: the piezo
    s.at(t + 60, s.pico.set_buttons, 0)
    piezo_at = s.board_ms(t + 300)
    s.run_to(t + 500)
    _say("self-test done", s.pico)
    return {"frames": [(ms, _b64(f)) for ms, f in grid_frames(s.pico.leds, s.config)],
            "colours_at": colours_at, "held": held, "supply_at": supply_at,
            "piezo_at": piezo_at, "modes": sorted({r["mode"] for r in s.records}),
            "console": s.pico.console, "config": s.config, "emulated_ms": s.pico.ms}


def taps_run(firmware, frozen):
    from .tap_checks import taps_run as run  # taps against saves (tap_checks.py)

    return run(firmware, frozen)


PARTS = {"tour": tour_run, "bad_config": bad_config_run, "selftest": selftest_run,
         "boards": boards_run, "taps": taps_run}


def main(argv=None):
    parser = cli.Parser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", required=True, help="where to write the results")
    parser.add_argument("--part", choices=sorted(PARTS), required=True,
                        help="which session: each runs in a process of its own")
    parser.add_argument("--image", choices=image.IMAGES, default="stock",
                        help="the stock MicroPython image, or ours (make firmware)")
    args = parser.parse_args(argv)
    firmware, why = image.find(args.image)
    if firmware is None:
        print(why, file=sys.stderr)
        return 2
    t0 = time.time()
    result = PARTS[args.part](firmware, args.image == "ours")
    result["firmware"] = firmware
    result["wall_s"] = time.time() - t0
    image.write_result(args.json, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
