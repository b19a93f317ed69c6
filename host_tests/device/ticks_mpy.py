"""The tick arithmetic and the frame loop through the clock's wrap, inside MicroPython:
run by device/test_ticks.py (``main``: ``period``, or ``frames`` with a config path and a
state folder). One JSON line out, after any console notice."""

import gc
import json
import sys
import time

from microrobots import compat, handheld
from microrobots.compat import TICKS_MAX
from microrobots.device.hw.fake import Hardware

# (mode, buttons pressed one after another to reach it from the menu)
PATHS = (("menu", ()), ("solo", (16,)), ("referee", (8, 16)),
         ("classroom", (2, 16)), ("settings", (2, 8, 16)))


def period():
    """compat's wrap, and whether this port's own ticks wrap at 2**62."""
    return [compat.ticks_add(0, -1), compat.ticks_diff(5, compat.TICKS_MAX - 4),
            time.ticks_add(0, -1) == 2**62 - 1]


class Quiet(Hardware):
    start = TICKS_MAX + 1 - 4000  # the clock wraps 4 s after boot

    def show(self, buf):  # the fake's copy of each write would allocate; real pins do not
        self.writes += 1


def measure(d, frames):
    """Bytes allocated by ``frames`` frames, not counting frames that save a file."""
    allocated = 0
    gc.collect()
    gc.disable()
    for _ in range(frames):
        saving = d.app.saver.unsaved  # a frame that encodes a file to save allocates its text
        before = gc.mem_alloc()
        d.run(1)
        if not saving:
            allocated += gc.mem_alloc() - before
    gc.enable()
    return allocated


def frames(config_path, root):
    """Each mode reached, 2 s in, then ``[bytes of 150 frames, clock, mode]``."""
    out = {}
    for name, path in PATHS:
        d = handheld.Device(Quiet, config_path=config_path, root=root + name + "/")
        d.run(5)
        for mask in path:
            d.hw.pressed = mask
            d.run(3)
            d.hw.pressed = 0
            d.run(10)
        d.run(100 - 13 * len(path))  # 2 s in: past the dice and the first animations
        out[name] = [measure(d, 150), d.now, d.app.mode]
        d = None
    return out


def main():
    if sys.argv[1] == "period":
        print(json.dumps(period()))
    else:
        print(json.dumps(frames(sys.argv[2], sys.argv[3])))
