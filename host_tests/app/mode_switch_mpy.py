"""Leaving a mode inside MicroPython, run by app/test_app_micropython.py: the simulator's
driver (tools/sim/driver.py) booted with seed 6 on the state folder in argv, fed the event
lines on stdin, then a tap that picks the mode left again. Prints the heap after boot and
at the menu, the modes held there, and the mode and game come back."""

import gc
import json
import sys


def main():
    sys.path.insert(0, "tools/sim")
    gc.collect()
    base = gc.mem_alloc()
    import driver

    drv = driver.Driver(lambda line: None, 6, sys.argv[1])
    # the simulator's words (its help line), which a Pico never loads, before the figure
    # after boot: what the menu holds beyond it is what the mode left
    from microrobots.modes import guide, pieces  # noqa: F401
    gc.collect()
    boot = gc.mem_alloc() - base
    while True:
        line = sys.stdin.readline()
        if not line:
            break
        drv.feed(line)
    drv.run_until(drv.now + 200)
    gc.collect()
    menu = gc.mem_alloc() - base
    app = drv.device.app
    out = {"boot": boot, "menu": menu, "mode": app.mode, "held": sorted(app.modes)}
    drv.feed("%d 16" % drv.now)  # A pressed, then released
    drv.feed("%d 0" % (drv.now + 60))
    drv.run_until(drv.now + 200)
    out["back"] = app.mode
    out["game"] = app.current.game.to_dict()
    print(json.dumps(out))
