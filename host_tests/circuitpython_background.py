"""The background runs of tools/rp2040/circuitpython_checks.py for test_circuitpython.py
(started by conftest.py when the tests are collected): one process per part."""

import json
import os
import shutil
import subprocess
import sys

from tools.rp2040.circuitpython import find_firmware

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "build", "circuitpython")
PARTS = ("tour", "bad_config", "source_boot")
TIMEOUT_S = 2400  # minutes of emulation; far longer on a machine others share

_procs = {}
_why = None


def _paths(part):
    return os.path.join(OUT, part + ".json"), os.path.join(OUT, part + ".log")


def start():
    """Start the runs unless running or unable to (no image: ``why()`` says so)."""
    global _why
    if _procs or _why is not None:
        return
    firmware, _why = find_firmware()
    if firmware is not None and shutil.which("mcopy") is None:
        firmware, _why = None, "mtools is missing: the drive image cannot be made"
    if firmware is None:
        return
    os.makedirs(OUT, exist_ok=True)
    env = dict(os.environ, CIRCUITPY_FIRMWARE=firmware)
    for part in PARTS:
        out, log = _paths(part)
        if os.path.exists(out):
            os.remove(out)
        with open(log, "w") as f:
            _procs[part] = subprocess.Popen(
                [sys.executable, "-m", "tools.rp2040.circuitpython_checks", "--part", part,
                 "--json", out], cwd=ROOT, env=env, stdout=f, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL)


def result(part):
    """The results of ``part`` (a dict), waiting for them; RuntimeError if it failed."""
    start()
    if _why is not None:
        raise RuntimeError(_why)
    out, log = _paths(part)
    proc = _procs[part]
    try:
        code = proc.wait(TIMEOUT_S)
    except subprocess.TimeoutExpired:
        stop()
        raise RuntimeError("the CircuitPython board run took over %d s (log: %s)"
                           % (TIMEOUT_S, log))
    if code != 0 or not os.path.exists(out):
        with open(log) as f:
            tail = f.read()[-1500:]
        raise RuntimeError("the CircuitPython board run %s failed (%d):\n%s"
                           % (part, code, tail))
    with open(out) as f:
        return json.load(f)


def stop():
    for proc in _procs.values():
        if proc.poll() is None:
            proc.kill()
            proc.wait()
