"""The handheld's frame loop (microrobots.handheld.Device) with fake pins, inside
MicroPython: run by device/test_handheld.py, whose CPython side calls ``play`` too.
``main``: a command and its paths in argv, one JSON line out (after any console notice)."""

import gc
import json
import sys
from array import array

from microrobots import handheld
from microrobots.device.hw.fake import Hardware
from microrobots.preferences import MODES


def play(d, presses, frames=200):
    """Run the device ``frames`` frames, each button in ``presses`` ([frame, button])
    held for four; ``[[mode or None, sum of the LED buffer]]`` after each frame. The
    record is preallocated: 200 small lists made along the way would fragment the
    190 KB heap, which a Pico never sees."""
    modes = bytearray(frames)
    sums = array("i", bytes(4 * frames))
    for n in range(frames):
        d.hw.pressed = 0
        for at, button in presses:
            if at <= n < at + 4:
                d.hw.pressed = 1 << button
        d.run(1)
        modes[n] = MODES.index(d.app.mode) if d.app else 255
        sums[n] = sum(d.display.written)
    return [[MODES[m] if m < 255 else None, s] for m, s in zip(modes, sums)]


def configs(bad_path, good_path, root):
    """A device with a bad config (the lit cells of its red X), then one with none."""
    bad = handheld.Device(Hardware, config_path=bad_path, root=root)
    bad.run(3)
    good = handheld.Device(Hardware, config_path=good_path, root=root)
    good.run(3)
    return {"bad": [i // 3 for i in range(0, 108, 3) if bad.display.written[i]],
            "app": bad.app is None, "good": good.app.mode, "leds": len(good.display.buf)}


class Quiet(Hardware):
    def show(self, buf):  # the fake's copy of each write would allocate; real pins do not
        self.writes += 1


def frame_allocations(config_path, root, frames=400):
    """Bytes allocated by ``frames`` frames of the menu (after 50 to settle)."""
    d = handheld.Device(Quiet, config_path=config_path, root=root)
    d.run(50)
    writes = d.hw.writes
    allocated = 0
    gc.collect()
    gc.disable()
    for _ in range(frames):
        before = gc.mem_alloc()
        d.run(1)
        allocated += gc.mem_alloc() - before
    gc.enable()
    return {"allocated": allocated, "writes": d.hw.writes - writes, "mode": d.app.mode}


def main():
    command, args = sys.argv[1], sys.argv[2:]
    if command == "play":
        d = handheld.Device(Hardware, config_path=args[0], root=args[1])
        out = play(d, json.loads(args[2]))
    elif command == "configs":
        out = configs(*args)
    else:
        out = frame_allocations(*args)
    print(json.dumps(out))
