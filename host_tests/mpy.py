"""Run code inside the real MicroPython interpreter (the `micropython` command).

The firmware directory is put on MicroPython's path, so a script can
``from microrobots.solver import Solver`` exactly as main.py does on a Pico.
"""

import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
HEAP = "190k"  # a Pico-sized heap; see docs/performance.md


def micropython_binary():
    """Path of the `micropython` command from the venv (or PATH), else None."""
    here = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.path.exists(here):
        return here
    return shutil.which("micropython")


def run(script, heap=HEAP, stdin=None, timeout=120, check=True):
    """Run ``script`` (source text) in MicroPython; return its stdout.

    Fails the calling test with MicroPython's output when the script raises.
    """
    exe = micropython_binary()
    if exe is None:
        pytest.fail("the micropython command is missing: run `make test` to install it")
    # firmware/ relative to the checkout (cwd): module paths stay on MicroPython's heap,
    # so an absolute one would make the 190k tests depend on where the checkout lies
    prelude = "import sys\nsys.path.insert(0, 'firmware')\n"
    proc = subprocess.run(
        [exe, "-X", "heapsize=" + heap, "-c", prelude + script],
        input=stdin, capture_output=True, text=True, errors="replace", timeout=timeout, cwd=ROOT)
    if check and proc.returncode != 0:
        pytest.fail("micropython failed (%d):\n%s%s" % (proc.returncode, proc.stdout, proc.stderr))
    return proc.stdout
