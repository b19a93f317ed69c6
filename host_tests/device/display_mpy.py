"""The display on both runtimes: ``shown`` is called by device/test_display.py under
CPython and, through ``main`` (a config and frames as JSON on stdin), inside MicroPython,
which also measures the bytes 30 frames of a display without a write callback allocate."""

import gc
import json
import sys

from microrobots.device.display import Display


def shown(config, frames):
    """Each frame through a Display at brightness 6: ``{"out": [[written, total,
    capped]], "writes": [what it wrote]}``."""
    writes = []
    display = Display(config, write=lambda buf: writes.append(bytes(buf)), brightness=6)
    out = []
    for f in frames:
        display.show(bytearray(f))
        out.append([list(display.written), display.total, display.capped])
    return {"out": out, "writes": [list(w) for w in writes]}


def allocations(config, frames):
    """``[bytes allocated, frames written]`` over 30 changed frames each shown twice."""
    frames = [bytearray(f) for f in frames]
    silent = Display(config, brightness=3)
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for n in range(30):
        f = frames[n % 6]
        f[n] = 255 - f[n]
        silent.show(f)
        silent.show(f)
    allocated = gc.mem_alloc() - before
    gc.enable()
    return [allocated, silent.writes]


def main():
    config, frames = json.loads(sys.stdin.read())
    got = shown(config, frames)
    got["allocated"], got["count"] = allocations(config, frames)
    print(json.dumps(got))
