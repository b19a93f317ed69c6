"""make flash-circuitpython (tools/circuitpy.py): what a CIRCUITPY drive gets, and that
what is already on the drive (config.json, saved games) stays."""

import glob
import os
import shutil
import subprocess
import sys

import pytest

from tools import circuitpy, circuitpy_compiler
from tools.cli import firmware_files
from tools.rp2040.circuitpython import probe_source

COMPILER, NO_COMPILER = circuitpy_compiler.find(allow_build=False)
needs_compiler = pytest.mark.skipif(COMPILER is None, reason=NO_COMPILER or "")
BOOT_OUT_10 = b"Adafruit CircuitPython 10.2.1 on 2026-12-01; Raspberry Pi Pico with rp2040\n"


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
    (drive / "microrobots").mkdir()
    (drive / "microrobots" / "app.mpy").write_bytes(b"C\x06stale")
    (drive / "config.json").write_text('{"led_pin": 3}')
    (drive / "settings.json").write_text("{}")
    (drive / "code.py").write_text('print("Hello World!")')
    out = []

    class Out:
        def write(self, s):
            out.append(s)

    assert circuitpy.main(["--drive", str(drive), "--source"], out=Out()) == 0
    assert (drive / "config.json").read_text() == '{"led_pin": 3}'
    assert (drive / "settings.json").read_text() == "{}"
    assert (drive / "code.py").read_bytes() == circuitpy.CODE_PY.encode()
    assert (drive / "lib" / "neopixel.py").exists()
    assert (drive / "microrobots" / "app.py").exists()
    assert not (drive / "microrobots" / "app.mpy").exists()  # it would be stale
    assert not list(drive.rglob("*.new"))
    assert "".join(out).splitlines()[0] == "the firmware as source (--source)"


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


def test_the_benchs_probe_collects_its_own_garbage_between_frames_outside_their_timing():
    plain, collecting = probe_source(), probe_source(collect_every=4)
    compile(collecting, "code.py", "exec")
    assert collecting.count("gc.collect()") == plain.count("gc.collect()") + 1
    added = collecting.index("if n % 4 == 0:")
    # after the frame's own timing has ended (a nested frame returns first), before the
    # harness's command, and its time counted as the probe's, not the firmware's
    assert collecting.index("if depth[0]:") < added < collecting.index("cmd = buf[8] & 255")
    assert "buf[cur[0] + 11] += _diff(_us(), t)" in collecting[added:collecting.index("cmd = buf[8]")]


@needs_compiler
def test_the_firmware_goes_on_as_circuitpythons_own_mpy_but_code_py_and_boot_py():
    tree = circuitpy.drive_tree(COMPILER)
    sources = [f for f in firmware_files() if f != "config.json"]
    native = {f for f in sources if f.endswith("_viper.py")}  # CircuitPython runs the twins
    assert native and all(f.replace("_viper", "_plain") in sources for f in native)
    modules = {f[:-3] + ".mpy" if f.endswith(".py") else f for f in set(sources) - native}
    assert set(tree) == modules | {"code.py", "boot.py", "lib/neopixel.mpy"}
    for path, data in tree.items():
        if path.endswith(".mpy"):
            # CircuitPython's header: 'C', version 6, no native code (plain bytecode)
            assert data[:2] == b"C\x06", path
    assert tree["code.py"] == circuitpy.CODE_PY.encode()
    assert tree["boot.py"] == circuitpy.boot_py()


@needs_compiler
def test_a_drive_gets_mpy_for_its_own_major_version_and_source_for_any_other(tmp_path):
    def install(boot_out):
        drive = tmp_path / boot_out.decode()[:24].replace(" ", "_")
        drive.mkdir()
        (drive / "boot_out.txt").write_bytes(boot_out)
        (drive / "microrobots").mkdir()
        (drive / "microrobots" / "app.py").write_text("stale = True")
        out = []
        assert circuitpy.main(["--drive", str(drive)], out=type(
            "Out", (), {"write": lambda self, s: out.append(s)})()) == 0
        return drive, "".join(out).splitlines()[0]

    drive, line = install(BOOT_OUT_10.replace(b"10.2.1", b"10.0.3"))
    assert line == ("the firmware as .mpy for CircuitPython 10.x (mpy-cross %s, for the "
                    "board's 10.0.3)" % COMPILER.version)
    assert (drive / "microrobots" / "app.mpy").read_bytes()[:1] == b"C"
    assert not (drive / "microrobots" / "app.py").exists()  # it would shadow the .mpy
    assert (drive / "code.py").exists() and (drive / "boot.py").exists()
    drive, line = install(b"Adafruit CircuitPython 9.2.8 on 2025-05-28; Raspberry Pi Pico")
    assert line == ("the firmware as source: the board runs CircuitPython 9.2.8, and the "
                    "compiler writes CircuitPython 10.x's .mpy")
    assert (drive / "microrobots" / "app.py").read_bytes() == open(
        os.path.join(circuitpy.FIRMWARE, "microrobots", "app.py"), "rb").read()
    assert not list(drive.rglob("*.mpy"))
    drive, line = install(b"no version here")
    assert line.startswith("the firmware as source: the board runs an unknown CircuitPython")


def test_no_compiler_means_source_said_in_one_line(tmp_path, monkeypatch):
    fake = tmp_path / "mpy-cross"
    fake.write_text("#!/bin/sh\necho 'MicroPython v1.28.0 mpy-cross emitting mpy v6.3'\n")
    fake.chmod(0o755)
    monkeypatch.setenv(circuitpy_compiler.ENV, str(fake))
    compiler, line = circuitpy.choose_compiler(BOOT_OUT_10)
    assert compiler is None
    assert line == "the firmware as source: %s=%s: not a CircuitPython mpy-cross" % (
        circuitpy_compiler.ENV, fake)
    monkeypatch.delenv(circuitpy_compiler.ENV)
    assert circuitpy_compiler.find(root=str(tmp_path / "a" / "b"), allow_build=False) == (
        None, "no CircuitPython mpy-cross (set CIRCUITPY_MPY_CROSS, or put "
              "../shared/circuitpython/ beside the checkout)")


@needs_compiler
def test_a_compiler_named_in_the_environment_is_the_one_used(tmp_path, monkeypatch):
    monkeypatch.setenv(circuitpy_compiler.ENV, COMPILER.path)
    compiler, why = circuitpy_compiler.find(root=str(tmp_path / "a" / "b"))
    assert why is None and compiler.origin == circuitpy_compiler.ENV
    assert compiler.version == COMPILER.version
    with pytest.raises(circuitpy_compiler.CompileError, match=r"^bad\.py: "):
        compiler.compile(b"def (:\n", "bad.py")


@needs_compiler
@pytest.mark.skipif(shutil.which("mcopy") is None, reason="mtools is missing (make system-deps)")
def test_an_image_from_circuitpythons_blank_drive_gets_mpy_and_loses_its_stale_source(tmp_path):
    base = circuitpy.find_base_image()
    if base is None:
        pytest.skip("no ../shared/circuitpython/circuitpy-empty.img.xz")
    image = str(tmp_path / "drive.img")
    null = open(os.devnull, "w")
    assert circuitpy.main(["--image", image, "--source"], out=null) == 0
    assert "microrobots/app.py" in circuitpy.read_image(image)
    assert circuitpy.main(["--image", image], out=null) == 0
    files = circuitpy.read_image(image)
    assert files["microrobots/app.mpy"][:1] == b"C"
    assert "microrobots/app.py" not in files and "main.py" not in files
    assert b"CircuitPython 10." in files["boot_out.txt"]


def test_with_only_the_source_bundle_the_compiler_is_built_once_and_writes_the_same_bytes(
        tmp_path, monkeypatch):
    """The third place the installer looks: CircuitPython's mpy-cross built from
    ../shared/circuitpython/'s source bundle into the cache (about 80 s, once a machine)."""
    bundles = [b for d in circuitpy_compiler._shared_dirs()
               for b in sorted(glob.glob(os.path.join(d, circuitpy_compiler.SOURCES)))]
    if not bundles:
        pytest.skip("no ../shared/circuitpython/ source bundle beside the checkout")
    for tool in ("make", "cc"):
        if shutil.which(tool) is None:
            pytest.skip("%s is missing: the compiler cannot be built here" % tool)
    exe = circuitpy_compiler.build(bundles[-1])
    assert circuitpy_compiler.version_of(exe) == "10.2.1"
    assert circuitpy_compiler.build(bundles[-1]) == exe  # cached: not built again
    # Only the bundle beside the checkout: find() builds (here: takes the cached build).
    shared = tmp_path / "shared" / "circuitpython"
    shared.mkdir(parents=True)
    os.symlink(bundles[-1], shared / os.path.basename(bundles[-1]))
    monkeypatch.delenv(circuitpy_compiler.ENV, raising=False)
    compiler, why = circuitpy_compiler.find(root=str(tmp_path / "checkout"))
    assert why is None and compiler.path == exe and compiler.origin == str(
        shared / os.path.basename(bundles[-1]))
    if COMPILER is not None:
        source = open(os.path.join(circuitpy.FIRMWARE, "microrobots", "app.py"), "rb").read()
        assert compiler.compile(source, "app.py") == COMPILER.compile(source, "app.py")
