"""make bench section: the firmware's platform layer (display, input, store) in MicroPython.

Runs inside the unix ``micropython`` interpreter with a Pico-sized heap: time per frame
written and per button poll, heap allocated by them (must be 0), the heap the platform
modules take, and the WS2812 wire time of a frame (arithmetic, not measured).
"""

import json
import subprocess
import tempfile

from tools.cli import MP_FIRMWARE, ROOT, micropython_binary, micropython_command

SCRIPT = """
import sys, gc, time, json
sys.path.insert(0, %r)
gc.collect()
base = gc.mem_alloc()
from microrobots.device.config import defaults, load
from microrobots.device.display import Display
from microrobots.device.input import Buttons
from microrobots.device.store import Store
gc.collect()
modules = gc.mem_alloc() - base
out = {"modules": modules}

def timed(fn, n, nogc=True):
    best = None
    alloc = 0
    for run in range(3):  # the best of three: other processes share the machine
        gc.collect()
        if nogc:
            gc.disable()
        a = gc.mem_alloc()
        t = time.ticks_us()
        for i in range(n):
            fn(i)
        us = time.ticks_diff(time.ticks_us(), t)
        alloc += gc.mem_alloc() - a
        gc.enable()
        best = us if best is None or us < best else best
    return best / n, alloc

for name, text in (("strip", "{}"), ("panel", '{"matrix": "panel8x8", "rotation": 90}')):
    config = load(text)
    display = Display(config, write=lambda buf: None, brightness=8)
    white = [bytearray([255] * 108), bytearray([250] * 108)]  # over the cap: scaled down
    out[name + "_capped"] = timed(lambda i: display.show(white[i & 1]), 2000)
    out[name + "_same"] = timed(lambda i: display.show(white[0]), 2000)
    dims = [bytearray((i * 7 + k) %% 64 for i in range(108)) for k in range(2)]  # under the cap
    out[name + "_uncapped"] = timed(lambda i: display.show(dims[i & 1]), 2000)

buttons = Buttons()
def poll(i):
    buttons.poll(i * 20, (i >> 4) & 63)
    e = buttons.next_event()
    while e >= 0:
        e = buttons.next_event()
out["poll"] = timed(poll, 5000)

store = Store(%r)
data = {"side": "black", "tiles": "ABCD0000", "brightness": 5, "players": 2, "expert": False}
out["save"] = timed(lambda i: store.save("bench", data), 200, False)
out["load"] = timed(lambda i: store.load("bench"), 200, False)
print(json.dumps(out))
"""


def wire_ms(leds):
    # WS2812B: 24 bits per LED at 800 kbit/s (1.25 us a bit), then >= 280 us of low to latch.
    return leds * 24 * 1.25 / 1000 + 0.28


def report():
    print("== Firmware platform: display, input, store (MicroPython unix port, 190k heap) ==")
    exe = micropython_binary()
    if exe is None:
        print("micropython not found: run `make test` first")
        return
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(micropython_command() + ["-c", SCRIPT % (MP_FIRMWARE, tmp + "/")],
                              capture_output=True, text=True, timeout=300, cwd=ROOT)
    if proc.returncode != 0:
        print("failed:", (proc.stderr.strip().splitlines() or ["?"])[-1])
        return
    r = json.loads(proc.stdout)
    print("heap taken by config, display, input, store modules: %.1f KB" % (r["modules"] / 1024))
    for name, leds in (("strip", 36), ("panel", 64)):
        print("display.show, %-5s: %5.1f us a new frame, %5.1f us a new frame over the cap, "
              "%5.1f us an unchanged one; allocated %d bytes in 18000 calls"
              % (name, r[name + "_uncapped"][0], r[name + "_capped"][0], r[name + "_same"][0],
                 r[name + "_capped"][1] + r[name + "_same"][1] + r[name + "_uncapped"][1]))
        print("  WS2812 wire time of a frame, %d LEDs: %.2f ms (interrupts off on rp2's bitstream)"
              % (leds, wire_ms(leds)))
    print("buttons.poll + drain: %.1f us a frame; allocated %d bytes in 15000 polls" % tuple(r["poll"]))
    print("store.save (tmp file + rename, host disk): %.0f us; store.load: %.0f us"
          % (r["save"][0], r["load"][0]))
    print("(times are this machine's; an RP2040 at 125 MHz runs MicroPython bytecode "
          "tens of times slower)")


if __name__ == "__main__":
    report()
