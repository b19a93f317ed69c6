"""Where the heap goes on the emulated CircuitPython board: a diagnostic run, not a test.

The bench's session (tools/bench/circuitpython.py's ``measure``) on the ``.mpy`` install,
with two additions to the probe: at boot, the bytes each backend call and each part of a
frame allocates (20 calls each, ``gc.mem_alloc`` around them, printed as ``diag NAME
BYTES``); and after every frame, outside the firmware's calls, ``gc.mem_free()`` in the
record's ``claim_us`` word (so a frame's record says what the heap held after it; a rise
is a collection). ``gc.mem_free`` costs about 4 ms of emulated time a call, counted in
``step_us`` here: this run's frame times are not the bench's.

    nice -n 10 python -m tools.bench.circuitpython_alloc    # about 20 min of wall time
"""

import statistics

from tools.bench import circuitpython as bench
from tools.rp2040 import circuitpython


_AT_BOOT = '''
    def _alloc(name, f, n=20):
        gc.collect()
        a = gc.mem_alloc()
        for _ in range(n):
            f()
        print("diag", name, (gc.mem_alloc() - a) // n)
    _b = dev.hw
    _buf = bytes(108)
    _alloc("nothing", lambda: None)
    _alloc("probe clock", _us)
    _alloc("hw.ticks_ms", _b.ticks_ms)
    _alloc("hw.ticks_diff", lambda: _b.ticks_diff(5, 3))
    _alloc("hw.pressed_mask", _b.pressed_mask)
    _alloc("hw.show", lambda: _b.show(_buf))
    _alloc("hw.sleep_ms(1)", lambda: _b.sleep_ms(1))
    _alloc("hw.vsys_mv", _b.vsys_mv)
    _alloc("hw.usb_power", _b.usb_power)
    _alloc("hw.tone", lambda: _b.tone(440))
    _alloc("hw.quiet", _b.quiet)
    _alloc("display.show", lambda: dev.display.show(dev.frame))
    _alloc("power.update", lambda: dev.power.update(dev.now, dev.app.dim_after_ms(),
                                                     dev.app.sleep_after_ms()))
    _alloc("app.update", lambda: dev.app.update(dev.now))
    _alloc("app.render", lambda: dev.app.render(dev.now, dev.frame))
    _alloc("Device.step", dev.step)
    _alloc("Device.run(1)", lambda: dev.run(1))
'''


def probe_source(collect_every=None, plain=circuitpython.probe_source):
    src = plain(collect_every)
    boot = '    buf[4] = getattr(dev, "_last", -1)\n'
    frame_end = "        buf[i + 10] = st\n"
    assert src.count(boot) == 1 and src.count(frame_end) == 1
    src = src.replace(boot, _AT_BOOT + boot)
    return src.replace(frame_end, frame_end + "        buf[i + 9] = gc.mem_free()\n")


def report(data, console):
    for line in console.splitlines():
        if line.startswith("diag "):
            print(line)
    per = {}
    before = None
    for r in data["records"]:
        free = r["claim_us"]
        if before and free and 0 <= r["mode"] < len(bench.MODES) and r["app"] != 2 and not r["saves"]:
            per.setdefault(bench.MODES[r["mode"]], []).append(before - free)
        before = free
    for mode, deltas in per.items():
        grown = [d for d in deltas if d >= 0]
        print("%-10s %4d frames: %4d B allocated a frame (median), %2d collections" % (
            mode, len(deltas), statistics.median(grown), len(deltas) - len(grown)))


def main():
    firmware, why = circuitpython.find_firmware()
    compiled, no_mpy = circuitpython.compiler()
    if firmware is None or compiled is None:
        raise SystemExit(why or no_mpy)
    circuitpython.probe_source = probe_source
    session = circuitpython.CircuitSession(firmware, compiled=compiled)
    report(bench.measure(session), session.console)


if __name__ == "__main__":
    main()
