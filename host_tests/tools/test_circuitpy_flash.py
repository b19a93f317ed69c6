"""make flash-circuitpython (tools/circuitpy.py): what a CIRCUITPY drive gets, and that
what is already on the drive (config.json, saved games) stays."""

import os
import shutil
import subprocess
import sys

import pytest

from tools import circuitpy
from tools.cli import firmware_files
from tools.rp2040.circuitpython import probe_source


def test_the_drive_gets_the_firmware_as_source_code_py_boot_py_and_the_neopixel_library():
    tree = circuitpy.drive_tree()
    sources = [f for f in firmware_files() if f != "config.json"]
    assert set(tree) == set(sources) | {"code.py", "boot.py", "lib/neopixel.py"}
    assert not any(path.endswith(".mpy") for path in tree)  # CircuitPython's own format
    assert b"import main" in tree["code.py"] and b"main.main()" in tree["code.py"]
    assert b"class NeoPixel" in tree["lib/neopixel.py"]
    assert b"adafruit_pixelbuf" in tree["lib/neopixel.py"]  # built into CircuitPython
    for path, data in tree.items():
        if path.endswith(".py"):
            compile(data, path, "exec")  # every file is Python that parses


def test_boot_py_gives_the_drive_to_the_firmware_unless_b_is_held(tmp_path):
    """boot.py run under CPython with fakes of board, digitalio and storage."""
    import types

    remounts = []
    held = []

    class Pin:
        def __init__(self, pin):
            self.pin = pin

        def switch_to_input(self, pull):
            assert pull == "up"

        @property
        def value(self):
            return not held  # active low

        def deinit(self):
            pass

    fakes = {
        "board": types.SimpleNamespace(**{"GP%d" % n: n for n in range(30)}),
        "digitalio": types.SimpleNamespace(DigitalInOut=Pin,
                                           Pull=types.SimpleNamespace(UP="up")),
        "storage": types.SimpleNamespace(remount=lambda path, readonly: remounts.append(
            (path, readonly))),
    }
    source = circuitpy.boot_py()
    old = dict(sys.modules)
    cwd = os.getcwd()
    try:
        sys.modules.update(fakes)
        os.chdir(tmp_path)
        (tmp_path / "config.json").write_text('{"buttons": {"b": 7}}')
        exec(compile(source, "boot.py", "exec"), {"__name__": "boot"})
        assert remounts == [("/", False)]
        held.append(True)
        exec(compile(source, "boot.py", "exec"), {"__name__": "boot"})
        assert remounts == [("/", False)]  # B held: the drive stays the computer's
        # the pin comes from config.json (7), or the default wiring's when that is bad
        (tmp_path / "config.json").write_text("{bad")
        pins = []
        fakes["digitalio"].DigitalInOut = lambda pin: pins.append(pin) or Pin(pin)
        exec(compile(source, "boot.py", "exec"), {"__name__": "boot"})
        assert pins == [15]
    finally:
        os.chdir(cwd)
        sys.modules.clear()
        sys.modules.update(old)


def test_writing_a_drive_keeps_its_config_and_saves(tmp_path):
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (drive / "boot_out.txt").write_text("Adafruit CircuitPython 10.2.1")
    (drive / "config.json").write_text('{"led_pin": 3}')
    (drive / "settings.json").write_text("{}")
    (drive / "code.py").write_text('print("Hello World!")')
    out = []

    class Out:
        def write(self, s):
            out.append(s)

    assert circuitpy.main(["--drive", str(drive)], out=Out()) == 0
    assert (drive / "config.json").read_text() == '{"led_pin": 3}'
    assert (drive / "settings.json").read_text() == "{}"
    assert (drive / "code.py").read_bytes() == circuitpy.CODE_PY.encode()
    assert (drive / "lib" / "neopixel.py").exists()
    assert (drive / "microrobots" / "app.py").exists()
    assert not list(drive.rglob("*.new"))


def test_a_folder_that_is_not_a_circuitpython_drive_is_refused_in_one_line(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "tools.circuitpy", "--drive", str(tmp_path)],
                          capture_output=True, text=True, cwd=circuitpy.ROOT)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [
        "error: %s: not a CircuitPython drive (no boot_out.txt)" % tmp_path]


@pytest.mark.skipif(shutil.which("mcopy") is None, reason="mtools is missing (make system-deps)")
def test_a_drive_image_holds_the_tree_and_keeps_what_was_on_it(tmp_path):
    image = str(tmp_path / "drive.img")
    circuitpy.write_image({"config.json": b'{"led_pin": 3}'}, image)  # a formatted drive
    assert os.path.getsize(image) == circuitpy.DRIVE_SECTORS * 512
    assert circuitpy.main(["--image", image], out=open(os.devnull, "w")) == 0
    files = circuitpy.read_image(image)
    tree = circuitpy.drive_tree()
    for path, data in tree.items():
        assert files[path] == data, path
    assert files["config.json"] == b'{"led_pin": 3}'


def test_the_circuitpython_probe_uses_only_what_circuitpython_has():
    src = probe_source()
    compile(src, "code.py", "exec")
    assert "ticks_us" not in src and "print_exception(e)" in src
    assert "from microrobots import handheld as fw" in src
