"""The CircuitPython board sessions behind host_tests/test_circuitpython.py, as one run.

    python -m tools.rp2040.circuitpython_checks --part tour --json build/circuitpython/tour.json
    python -m tools.rp2040.circuitpython_checks --part bad_config --json ...

As tools/rp2040/checks.py does for MicroPython: the board work runs once, in a background
process (started when the tests are collected), and the tests judge what it wrote.

1. ``tour``: the drive make flash-circuitpython writes (the firmware as CircuitPython's
   ``.mpy``), the probe as code.py: boot; session.tour (every mode) with the heap read in
   a quiet stretch of each mode; the drive read back; the RUN pin pulsed; boot again and
   500 ms of what it resumes.
2. ``bad_config``: the drive as written, no probe, a bad ``config.json``: until the LEDs
   show something.
3. ``source_boot``: the drive written with ``--source`` (what a board gets when no
   compiler is to be had), the probe as code.py: boot and the menu's first second.
4. ``taps``: tools/rp2040/taps.py's session on the drive as written (typical flash
   times): TAPS random taps in solo with saves among them and a tap inside every erase.

Without CircuitPython's mpy-cross (tools/circuitpy_compiler.py) the first two run on the
source install, and their results say why (``no_mpy``).
"""

import base64
import sys
import time

from tools import circuitpy_compiler, cli

from . import image, probe
from .circuitpython import CircuitSession, find_firmware, plain_console
from .session import grid_frames, tour

BAD_CONFIG = b'{"led_pn": 3}'
_T0 = time.time()


def _b64(data):
    return base64.b64encode(data).decode()


def _say(what, pico):
    print("%6.0f s wall, %6.0f ms emulated: %s" % (time.time() - _T0, pico.ms, what),
          file=sys.stderr, flush=True)


def tour_run(firmware, compiled):
    s = CircuitSession(firmware, compiled=compiled)
    if not s.boot():
        return {"error": "the probed firmware did not start: " + s.console[-600:]}
    _say("booted", s.pico)
    first_frame_ms = s.pico.leds[0][0] if s.pico.leds else None
    edges, length, quiet = tour(s.seed)
    start = s.now + 100
    s.play(edges, start)
    boxes = []
    for mode, a, _ in quiet:
        boxes.append((mode, "modes", s.command(start + a, probe.CMD_MODES)))
        boxes.append((mode, "heap", s.command(start + a + 40, probe.CMD_HEAP)))
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
        "first_frame_ms": first_frame_ms,
        "heap_after_boot": s.boots[0][2][probe.H_BOOT],
        "heap_before_firmware": s.boots[0][2][probe.H_BASE],
        "start": start, "length": length, "quiet": quiet,
        "readings": readings,
        "console": plain_console(console),
        "console_after_reset": plain_console(s.pico.console[len(console):]),
        "files_at_reset": {k: _b64(v) for k, v in files.items()
                           if not k.endswith((".py", ".mpy"))},
        "code_on_drive": sorted(k for k in files if k.endswith((".py", ".mpy"))),
        "resumed": resumed,
        "config": s.config,
        "boots": [{"seed": h[probe.H_SEED], "heap_after_boot": h[probe.H_BOOT],
                   "origin": h[probe.H_ORIGIN],
                   "records": s.boot_data(k)[0],
                   "frames": [(ms, _b64(f)) for ms, f in s.boot_data(k)[1]]}
                  for k, (_, _, h) in enumerate(s.boots)],
        "emulated_ms": s.pico.ms,
    }


def bad_config_run(firmware, compiled):
    s = CircuitSession(firmware, {"config.json": BAD_CONFIG}, probed=False, compiled=compiled)
    pico = s.pico
    pico.run_until(lambda: pico.leds and "config.json" in pico.console, 9000, 100)
    frames = grid_frames(pico.leds, s.config)
    _say("a bad config.json", pico)
    return {"console": plain_console(pico.console),
            "frames": [(ms, _b64(f)) for ms, f in frames], "emulated_ms": pico.ms}


def source_boot_run(firmware, compiled):
    s = CircuitSession(firmware)  # the source install, whatever compiler there is
    if not s.boot():
        return {"error": "the probed firmware did not start from source: " + s.console[-600:]}
    _say("booted from source", s.pico)
    first_frame_ms = s.pico.leds[0][0] if s.pico.leds else None
    s.run_to(s.now + 1000)
    records, frames, _ = s.boot_data(0)
    return {"first_frame_ms": first_frame_ms, "console": plain_console(s.pico.console),
            "config": s.config, "origin": s.boots[0][2][probe.H_ORIGIN],
            "seed": s.boots[0][2][probe.H_SEED], "records": records,
            "frames": [(ms, _b64(f)) for ms, f in frames], "emulated_ms": s.pico.ms}


TAPS = 40  # some 10 s emulated: four saves, 20-odd erases


def taps_run(firmware, compiled):
    from .taps import tap_session

    t = tap_session(firmware, taps=TAPS, seed=1, flash_times="typical", inside_erases=True,
                    circuitpython=compiled or True)
    return {k: v for k, v in t.items() if k != "console"}


PARTS = {"tour": tour_run, "bad_config": bad_config_run, "source_boot": source_boot_run,
         "taps": taps_run}


def main(argv=None):
    parser = cli.Parser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", required=True, help="where to write the results")
    parser.add_argument("--part", choices=sorted(PARTS), required=True,
                        help="which session: each runs in a process of its own")
    args = parser.parse_args(argv)
    firmware, why = find_firmware()
    if firmware is None:
        print(why, file=sys.stderr)
        return 2
    compiled, no_mpy = circuitpy_compiler.find(log=lambda m: print(m, file=sys.stderr))
    t0 = time.time()
    result = PARTS[args.part](firmware, compiled)
    result["firmware"] = firmware
    result["no_mpy"] = no_mpy
    result["wall_s"] = time.time() - t0
    image.write_result(args.json, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
