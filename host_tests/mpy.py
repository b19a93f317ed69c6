"""Run code inside the real MicroPython interpreter (the `micropython` command).

The firmware as ``make flash`` puts it on a board (modules compiled to .mpy by
mpy-cross, staged once per test run in build/mpy-unix/) is put on MicroPython's path,
so a script can ``from microrobots.rules.solver import Solver`` exactly as a Pico runs it.
Compiling the whole app from source needs more room than a Pico-sized heap offers the
64-bit port; no board compiles it (ours runs it from flash, the stock image from .mpy).

A test's MicroPython side is a file beside it, ``*_mpy.py``, run by ``run_file``: no
script kept in a string, so the linter reads every one and CPython can import the same
functions.
"""

import os
import shutil
import subprocess
import sys

import pytest

from tools.cli import SIM_HEAP

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
# The heap the simulator's MicroPython runtime gets (tools/cli.py, SIM_HEAP: a Pico's,
# on a port whose objects are bigger).
HEAP = SIM_HEAP


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


def run_file(path, *args, heap=HEAP, stdin=None, timeout=120):
    """Run the script file ``path`` (a ``*_mpy.py`` beside its test) in MicroPython with
    ``args`` as ``sys.argv[1:]``; return its stdout.

    The file is imported from its folder (relative to the checkout, as tools.cli's
    micropython_main does: the unix port would keep a script's absolute folder on its
    heap), host_tests/ after it (its helpers, as under pytest), and its ``main()`` called
    if it has one, so CPython can import the same file for its functions without running
    anything. Fails the calling test with MicroPython's output when the script raises.
    """
    folder, name = os.path.split(os.path.relpath(os.path.abspath(path), ROOT))
    name = name[:-3]
    # its folder first, host_tests/ last for the helpers (fakefs...), as under pytest
    code = ("sys.path.insert(0, %r)\nsys.path.append('host_tests')\nimport %s\n"
            "if hasattr(%s, 'main'):\n    %s.main()\n" % (folder, name, name, name))
    exe = micropython_binary()
    if exe is None:
        pytest.fail("the micropython command is missing: run `make test` to install it")
    # the firmware relative to the checkout (cwd): module paths stay on MicroPython's
    # heap, so an absolute one would make the 190k tests depend on where the checkout lies
    prelude = "import sys\nsys.path.insert(0, %r)\n" % firmware()
    proc = subprocess.run(
        [exe, "-X", "heapsize=" + heap, "-c", prelude + code, *args],
        input=stdin, capture_output=True, text=True, errors="replace", timeout=timeout, cwd=ROOT)
    if proc.returncode != 0:
        pytest.fail("micropython failed (%d):\n%s%s" % (proc.returncode, proc.stdout, proc.stderr))
    return proc.stdout
