"""The rp2 backend type-checked against the Pico's real API (micropython-rp2-rpi_pico-stubs).

mypy reads the stubs of `machine`, `neopixel` and `rp2` for the Raspberry Pi Pico, so a
misspelt method, a wrong argument count or type in hw/rp2.py fails here, on the host,
before it reaches a board. Errors inside the stubs themselves are not ours and ignored.
"""

import os
import subprocess
import sys

import pytest

from mpy import FIRMWARE

STUB_MODULES = ("machine.pyi", "neopixel.pyi", "rp2", "micropython.pyi", "time.pyi")


def site_packages():
    return next(p for p in sys.path if p.endswith("site-packages") and os.path.isdir(p))


def stub_dir(tmp_path):
    """A folder holding only the Pico stubs: site-packages also has Adafruit's neopixel.py
    and Blinka's micropython, which would shadow them."""
    site = site_packages()
    out = tmp_path / "stubs"
    out.mkdir()
    for name in STUB_MODULES:
        if os.path.exists(os.path.join(site, name)):
            os.symlink(os.path.join(site, name), out / name)
    return out


def test_rp2_backend_matches_pico_stubs(tmp_path):
    pytest.importorskip("mypy")
    stubs = stub_dir(tmp_path)
    assert (stubs / "machine.pyi").exists(), "micropython-rp2-rpi_pico-stubs not installed"
    target = os.path.join("microrobots", "device", "hw", "rp2.py")
    assert os.path.exists(os.path.join(FIRMWARE, target)), target
    env = dict(os.environ, MYPYPATH=str(stubs))
    # micropython-stdlib-stubs: MicroPython's own time, os... instead of CPython's typeshed
    typeshed = ["--custom-typeshed-dir", site_packages()]
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--follow-imports=silent", "--no-error-summary",
         "--cache-dir", str(tmp_path / "cache"), "--check-untyped-defs", *typeshed, target],
        cwd=FIRMWARE, env=env, capture_output=True, text=True)
    ours = [line for line in proc.stdout.splitlines() if line.startswith(target)]
    assert not ours, "\n".join(ours)
    # the check is live: the stubs were found and a wrong call would be reported
    probe = tmp_path / "probe.py"
    probe.write_text("import time\nfrom machine import Pin\nPin(2, Pin.OUT).valuex()\n"
                     "time.ticks_ms()\ntime.ticks_msx()\n")
    proc = subprocess.run([sys.executable, "-m", "mypy", "--follow-imports=silent",
                           "--cache-dir", str(tmp_path / "cache"), *typeshed, str(probe)],
                          env=env, capture_output=True, text=True)
    errors = [line for line in proc.stdout.splitlines() if line.startswith(str(probe))]
    assert len(errors) == 2, proc.stdout
    assert 'has no attribute "valuex"' in errors[0] and '"ticks_msx"' in errors[1]
