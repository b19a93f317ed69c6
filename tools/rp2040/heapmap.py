"""Where the Pico's heap goes: the firmware imported one module at a time on the emulated board.

    python -m tools.rp2040.heapmap        # about a minute of wall time

    python -m tools.rp2040.heapmap --image ours   # the Micro Robots image (code in flash)

Boots what ``make flash`` writes (or the Micro Robots image) with a main.py of its own that
imports the firmware's modules in the order
of their dependencies, builds the ``Device`` and enters every mode in
turn (back to the menu between), and prints after each step, following a collection: the
heap in use (bytes, from the step's start), what the step added, and the qstr pools (the
interned names; they never shrink, and a new pool is twice the last one's size). A module's
figure is its code (a Pico runs ``.mpy`` bytecode from RAM), its constants and globals, and
the names it interns first.
"""

import sys
import time

from tools import cli

from . import image
from .pico import Pico

# Leaves first, so that a module's figure is its own.
MODULES = ("compat", "rules.solver_viper", "rules.board", "rules.rng", "rules.solver",
           "rules.decisions", "rules.rolls", "rules.game", "rules.notation", "rules.walk",
           "device.input", "device.store", "device.display_viper", "device.display", "device.sound",
           "device.hw", "device.hw.rp2", "device.power", "device.config", "palette",
           "frame_viper", "frame", "animations", "keys", "saving", "preferences", "modes",
           "modes.referee_screens", "app", "handheld")  # a mode's own module: with the mode
MODES = ("solo", "referee", "classroom", "settings")

SOURCE = r'''
import gc, micropython, sys, time
time.sleep_ms(700)  # the console is up
gc.collect()
_base = gc.mem_alloc()
_last = [0]
def rep(what):
    gc.collect()
    v = gc.mem_alloc() - _base
    print("HEAP|%%s|%%d|%%d" %% (what, v, v - _last[0]))
    micropython.qstr_info()
    _last[0] = v
rep("(start)")
%(imports)s
from microrobots import handheld as fw
from microrobots.device import hw
dev = fw.Device(hw.backend())
rep("Device (menu)")
def enter(m):  # a switch (app.App.go), and any work after it: step until it is done
    dev.app.go(m, dev.now)
    for _ in range(500):
        dev.step()
        if not dev.app.switching:
            return
for m in %(modes)r:
    enter(m)
    rep("mode " + m)
    enter("menu")
    rep("menu again")
print("HEAPMAP DONE")
while True:  # keeps the emulated clock going until the harness has read the console
    time.sleep_ms(100)
'''


def source():
    imports = "\n".join("import microrobots.%s\nrep(%r)" % (m, m) for m in MODULES)
    return SOURCE % {"imports": imports, "modes": MODES}


def measure(firmware, limit_ms=10000, frozen=False):
    """``[(step, heap in use, added, qstr line)]`` from the emulated board; ``frozen``:
    ``firmware`` is the Micro Robots image (the package in flash, nothing to write)."""
    tree = {} if frozen else image.flash_tree()
    tree["main.py"] = source().encode()
    pico = Pico(firmware, image.build_image(tree))
    pico.run_until(lambda: "HEAPMAP DONE" in pico.console or "Traceback" in pico.console,
                   limit_ms, step_ms=100)
    out = []
    lines = pico.console.splitlines()
    if "Traceback" in pico.console:
        raise RuntimeError(pico.console[pico.console.index("Traceback"):])
    for k, line in enumerate(lines):
        if line.startswith("HEAP|"):
            _, what, v, d = line.split("|")
            pools = lines[k + 1] if k + 1 < len(lines) else ""
            out.append((what, int(v), int(d), pools.replace("qstr pool: ", "")))
    return out


def report(firmware, kind="stock"):
    t = time.time()
    rows = measure(firmware, frozen=kind == "ours")
    print("heap in use, import by import (emulated RP2040, MicroPython v1.28.0, %s image; KB):"
          % kind)
    for what, v, d, pools in rows:
        print("  %-16s %6.1f %+6.1f   qstrs: %s" % (what, v / 1024, d / 1024, pools))
    print("(%.0f s wall)" % (time.time() - t))


def main(argv=None):
    parser = cli.Parser(
        prog="python -m tools.rp2040.heapmap",
        description="The heap on the emulated Pico, import by import, then every mode "
                    "(about a minute).")
    parser.add_argument("--image", choices=image.IMAGES, default="stock",
                        help="stock: MicroPython with what make flash writes; ours: the "
                             "Micro Robots image (make firmware)")
    try:
        args = parser.parse_args(argv)
    except cli.UsageError as e:
        return cli.fail("heapmap", e)
    firmware, why = image.find(args.image)
    if firmware is None:
        print(why, file=sys.stderr)
        return 1
    report(firmware, args.image)
    return 0


if __name__ == "__main__":
    cli.run(main)
