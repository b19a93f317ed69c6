"""The background runs of tools/rp2040/checks.py for test_rp2040.py (see conftest.py):
one process per part and image (the stock MicroPython image with make flash's files, the
Micro Robots image), so that the boards boot side by side."""

import json
import os
import subprocess
import sys

from tools.rp2040 import image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "build", "rp2040")
PARTS = ("tour", "bad_config")
TIMEOUT_S = 2400  # minutes of emulation; far longer on a machine others share

_procs = {}
_why = {}  # image kind -> why its board tests cannot run
_started = False


def _paths(part, kind):
    name = "%s-%s" % (part, kind)
    return os.path.join(OUT, name + ".json"), os.path.join(OUT, name + ".log")


def start():
    """Start the runs unless running; an image that cannot run has ``why(kind)``."""
    global _started
    if _started:
        return
    _started = True
    os.makedirs(OUT, exist_ok=True)
    for kind in image.IMAGES:
        firmware, why = image.find(kind)
        if firmware is None:
            _why[kind] = why
            continue
        env = dict(os.environ, PICO_FIRMWARE=image.find_firmware()[0] or "")
        for part in PARTS:
            out, log = _paths(part, kind)
            if os.path.exists(out):
                os.remove(out)
            with open(log, "w") as f:
                _procs[part, kind] = subprocess.Popen(
                    [sys.executable, "-m", "tools.rp2040.checks", "--part", part,
                     "--image", kind, "--json", out],
                    cwd=ROOT, env=env, stdout=f, stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL)


def why(kind):
    """Why the board tests of image ``kind`` cannot run (one line), or None."""
    return image.find(kind)[1]


def result(part, kind):
    """The results of ``part`` on image ``kind`` (a dict), waiting for them; RuntimeError
    if it failed."""
    start()
    if kind in _why:
        raise RuntimeError(_why[kind])
    out, log = _paths(part, kind)
    proc = _procs[part, kind]
    try:
        code = proc.wait(TIMEOUT_S)
    except subprocess.TimeoutExpired:
        stop()
        raise RuntimeError("the emulated-board run took over %d s (log: %s)" % (TIMEOUT_S, log))
    if code != 0 or not os.path.exists(out):
        with open(log) as f:
            tail = f.read()[-1500:]
        raise RuntimeError("the emulated-board run %s failed (%d):\n%s" % (part, code, tail))
    with open(out) as f:
        return json.load(f)


def stop():
    for proc in _procs.values():
        if proc.poll() is None:
            proc.kill()
            proc.wait()
