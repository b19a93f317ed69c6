"""device/recorded.py on both runtimes: ``masks`` is called by device/test_recorded.py
under CPython and, through ``main`` (a session as JSON on stdin), inside MicroPython,
which also measures the bytes a second pass allocates."""

import gc
import json
import sys

from microrobots.compat import ticks_add, ticks_diff
from microrobots.device.recorded import RecordedLevels


def masks(levels, session, start):
    """The masks the frames get: ``session`` is ``[[ms, [levels recorded before the
    frame, ...]], ...]``, each frame ``ms`` after the one before, from ``start``."""
    out = []
    _play(levels, session, start, out)
    return out


def allocations(levels, session, start):
    """Bytes allocated by running ``session`` again (its lists made beforehand)."""
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    _play(levels, session, start, None)
    allocated = gc.mem_alloc() - before
    gc.enable()
    return allocated


def _play(levels, session, start, out):
    now = start
    levels.reset(now, 0)
    for step, recorded in session:
        for held in recorded:
            levels.put(held)
        now = ticks_add(now, step)
        mask = levels.mask(now)
        if out is not None:
            out.append(mask)


def main():
    data = json.loads(sys.stdin.read())
    levels = RecordedLevels(ticks_diff)
    out = masks(levels, data["session"], data["start"])
    print(json.dumps({"masks": out,
                      "allocated": allocations(levels, data["session"], data["start"])}))
