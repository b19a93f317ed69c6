"""Run code inside the real MicroPython interpreter (the `micropython` command).

The firmware as ``make flash`` puts it on a board (modules compiled to .mpy by
mpy-cross, staged once per test run in build/mpy-unix/) is put on MicroPython's path,
so a script can ``from microrobots.rules.solver import Solver`` exactly as a Pico runs it.
Compiling the whole app from source needs more room than a Pico-sized heap offers the
64-bit port; no board compiles it (ours runs it from flash, the stock image from .mpy).
"""

import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
# The heap the simulator's MicroPython runtime gets (tools/cli.py, SIM_HEAP): a Pico's.
HEAP = "190k"


def micropython_binary():
    """Path of the `micropython` command from the venv (or PATH), else None."""
    here = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.path.exists(here):
        return here
    return shutil.which("micropython")


def firmware():
    """The staged firmware's folder, relative to the checkout (staged on first use)."""
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from tools.sim import soak

    return soak.staged()


def run(script, heap=HEAP, stdin=None, timeout=120, check=True):
    """Run ``script`` (source text) in MicroPython; return its stdout.

    Fails the calling test with MicroPython's output when the script raises.
    """
    exe = micropython_binary()
    if exe is None:
        pytest.fail("the micropython command is missing: run `make test` to install it")
    # the firmware relative to the checkout (cwd): module paths stay on MicroPython's
    # heap, so an absolute one would make the 190k tests depend on where the checkout lies
    prelude = "import sys\nsys.path.insert(0, %r)\n" % firmware()
    proc = subprocess.run(
        [exe, "-X", "heapsize=" + heap, "-c", prelude + script],
        input=stdin, capture_output=True, text=True, errors="replace", timeout=timeout, cwd=ROOT)
    if check and proc.returncode != 0:
        pytest.fail("micropython failed (%d):\n%s%s" % (proc.returncode, proc.stdout, proc.stderr))
    return proc.stdout
