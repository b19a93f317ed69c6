"""make bench section: the app (modes, frames) in MicroPython with a Pico-sized heap.

- Heap: the whole firmware loop (firmware/main.py's Device, fake pins) inside
  ``micropython -X heapsize=190k``, before and after boot and after a long scripted
  session (solo rounds, a refereed game to its end, the classroom demo, settings,
  shuffle), once from .py sources (compiled on the device's heap) and once from .mpy
  files made by mpy-cross (what ``make flash`` installs). The aim is < 64 KB in use.
- Frames: the time ``app.render`` takes per frame on each kind of screen, and what it
  allocates (must be 0).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

from tools.cli import FIRMWARE, MP_FIRMWARE, PICO_HEAP, ROOT, micropython_binary, micropython_command

# Inside MicroPython: the sim driver's Device, fed mask lines from stdin.
HEAP_SCRIPT = """
import sys, gc, json
sys.path.insert(0, %(firmware)r)
sys.path.insert(0, %(tools)r)
gc.collect()
base = gc.mem_alloc()
out = {}
last = base
for group, names in () if %(lazy)s else (
        ("rules", ("microrobots.rules.board", "microrobots.rules.solver", "microrobots.rules.rng",
                   "microrobots.rules.game")),
        ("app", ("microrobots.palette", "microrobots.frame", "microrobots.app",
                 "microrobots.modes", "microrobots.modes.menu", "microrobots.modes.solo",
                 "microrobots.modes.referee", "microrobots.modes.classroom",
                 "microrobots.modes.settings")),
        ("platform", ("microrobots.compat", "microrobots.device.config", "microrobots.device.display",
                      "microrobots.device.input", "microrobots.device.store", "microrobots.device.sound",
                      "microrobots.device.hw", "microrobots.device.hw.fake", "main")),
        ("driver", ("driver",))):
    for name in names:
        __import__(name)
    gc.collect()
    out[group] = gc.mem_alloc() - last
    last = gc.mem_alloc()
import driver
drv = driver.Driver(lambda line: None, 7, %(state)r)
gc.collect()
out["boot"] = gc.mem_alloc() - base
high = 0
n = 0
while True:
    line = sys.stdin.readline()
    if not line:
        break
    drv.feed(line)
    n += 1
    if n %% 4 == 0:
        gc.collect()
        high = max(high, gc.mem_alloc() - base)
gc.collect()
out["after"] = gc.mem_alloc() - base
out["high"] = max(high, out["after"])
out["mode"] = drv.device.app.mode
print(json.dumps(out))
"""

RENDER_SCRIPT = """
import sys, gc, time, json
sys.path.insert(0, %(firmware)r)
from microrobots.app import App
fr = bytearray(108)
app = App(None, seed=9)
T = [0]
out = {}

def tap(b, n=1):
    for _ in range(n):
        app.handle(8 | b, T[0]); T[0] += 60; app.handle(16 | b, T[0]); app.handle(40 | b, T[0]); T[0] += 80
        app.update(T[0])
        app.render(T[0], fr)
        settle()

def settle():  # a switch's pieces (imports, a new game) are not a frame's work
    while app.switching:
        frames(1)

def frames(n):
    for _ in range(n):
        T[0] += 20
        app.update(T[0])
        app.render(T[0], fr)

def timed(name, n=300):
    settle()
    gc.collect(); gc.disable()
    a = gc.mem_alloc()
    frames(n)
    alloc = gc.mem_alloc() - a
    gc.enable()
    t = time.ticks_us()
    frames(n)
    out[name] = (time.ticks_diff(time.ticks_us(), t) / n, alloc)

timed("menu")
tap(4)
timed("solo dice roll", 80)
tap(5)
timed("solo board")
app.handle(3 << 3 | 4, T[0]); app.handle(2 << 3 | 4, T[0])
timed("solo hint")
tap(5)
app.handle(3 << 3 | 5, T[0]); app.handle(2 << 3 | 5, T[0])
settle()
tap(3); tap(4)
tap(5)
timed("referee board")
tap(0)
timed("referee scores")
tap(5)
app.handle(3 << 3 | 5, T[0]); app.handle(2 << 3 | 5, T[0])
settle()
tap(1); tap(2); tap(4); tap(4)
app.current.paused = True
tap(4, 3)
timed("classroom wave")
print(json.dumps(out))
"""


def mpy_cross():
    exe = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    return exe if os.path.exists(exe) else None


def long_session():
    """A scripted session (closed loop in CPython) as driver mask lines, and its length."""
    from tools.sim import headless as sim
    from tools.sim.script import Session

    s = Session(seed=7)
    s.tap("a")  # solo
    for _ in range(5):
        s.solo_round(extra=1)
        s.finish_solo()
    s.hold("b")
    s.tap("right")
    s.tap("a")  # referee, played to the end
    s.settle()
    ref = s.app.current
    turn = 0
    while not ref.game.over:
        route = ref.game.route()
        turn += 1
        if turn % 4 == 0 and ref.game.optimum() > 1:
            s.claim(turn % 2, ref.game.optimum() - 1, [])  # below the optimum
        else:
            s.claim(turn % 2, len(route) - 1, route[1:])
        s.wait(2800)
        s.settle()
    s.wait(3000)
    s.hold("b")
    s.tap("down")
    s.tap("left")
    s.tap("a")  # classroom, left to run
    s.wait(30000)
    s.hold("b")
    s.tap("right")
    s.tap("a")  # settings: shuffle
    s.tap("down")
    s.tap("right")
    s.tap("a")
    s.tap("a", 4)
    s.hold("b")
    s.tap("up")
    s.tap("left")
    s.tap("a")  # solo on the new arrangement
    s.solo_round()
    s.finish_solo()
    s.hold("b")  # and back to the menu
    s.wait(500)
    return sim.mask_lines(sim.parse_events(s.events_text())), s.t


def _compile(dest):
    """firmware/ and the driver as .mpy for the unix port (as make flash does for a Pico)."""
    exe = mpy_cross()
    for d, _, files in os.walk(FIRMWARE):
        for f in files:
            if f.endswith(".py"):
                src = os.path.join(d, f)
                out = os.path.join(dest, "firmware", os.path.relpath(src, FIRMWARE))[:-3] + ".mpy"
                os.makedirs(os.path.dirname(out), exist_ok=True)
                subprocess.run([exe, "-march=x64", "-o", out, src], check=True)
    os.makedirs(os.path.join(dest, "tools", "sim"), exist_ok=True)
    shutil.copy(os.path.join(ROOT, "tools", "sim", "driver.py"), os.path.join(dest, "tools", "sim"))
    return dest


def measure_heap(lines, where, lazy):
    """The heap figures of the session ``lines``, run from the folder ``where`` (the
    checkout, or one holding firmware/ and tools/sim/ as .mpy): paths relative to it, as
    tools.cli runs micropython."""
    state = tempfile.mkdtemp()
    script = HEAP_SCRIPT % {"firmware": MP_FIRMWARE, "tools": "tools/sim", "lazy": lazy,
                            "state": state}
    proc = subprocess.run(micropython_command() + ["-c", script],
                          input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=600, cwd=where)
    shutil.rmtree(state, ignore_errors=True)
    if proc.returncode != 0:
        raise RuntimeError((proc.stdout + proc.stderr).strip().splitlines()[-1])
    return json.loads(proc.stdout.strip().splitlines()[-1])


def report():
    print("== App: heap and frames (MicroPython unix port, %s heap) ==" % PICO_HEAP)
    if micropython_binary() is None:
        print("micropython not found: run `make venv`")
        return
    lines, length = long_session()
    print("long session: %d button changes over %.0f s of play (solo x6, a refereed game,"
          " classroom, shuffle)" % (len(lines), length / 1000))
    rows = [("from .py sources", ROOT)]
    tmp = tempfile.mkdtemp()
    try:
        if mpy_cross():
            rows.append(("from .mpy (as flashed)", _compile(tmp)))
        print("%-22s %9s %9s %9s | %9s %7s %9s %9s" % (
            "heap in use, KB", "platform", "rules", "app", "boot", "+modes", "session",
            "highest"))
        for name, where in rows:
            try:
                h = measure_heap(lines, where, True)
                b = measure_heap([], where, False)
            except (RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
                print("%-22s failed: %s" % (name, e))
                continue
            print("%-22s %9.1f %9.1f %9.1f | %9.1f %7.1f %9.1f %9.1f" % (
                name, b["platform"] / 1024, b["rules"] / 1024, b["app"] / 1024,
                h["boot"] / 1024, (b["boot"] - h["boot"]) / 1024, h["after"] / 1024,
                h["high"] / 1024))
        print("platform/rules/app: module code by layer (all five modes); boot: the device"
              " in the menu (modes load on first use), with the simulator driver (%.0f KB);"
              " +modes: all modes loaded; session: in use after it; highest: the most in use"
              " during it (each after a collection). This is the 64-bit unix port: a Pico's"
              " 32-bit objects are smaller." % (b["driver"] / 1024))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    proc = subprocess.run(micropython_command() + ["-c", RENDER_SCRIPT % {"firmware": MP_FIRMWARE}],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    if proc.returncode != 0:
        print("render timing failed: %s" % (proc.stdout + proc.stderr).strip()[-200:])
        return
    print("%-22s %12s %14s" % ("app.render per frame", "us (host)", "bytes alloc"))
    for name, (us, alloc) in json.loads(proc.stdout.strip().splitlines()[-1]).items():
        print("%-22s %12.1f %14d" % (name, us, alloc))


if __name__ == "__main__":
    report()
