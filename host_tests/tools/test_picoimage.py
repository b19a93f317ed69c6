"""make firmware (tools/picoimage): what decides a rebuild, the staging, the one-line errors.
The image itself is booted on the emulated RP2040 by test_rp2040.py."""

import os

import pytest

from tools.picoimage import __main__ as picoimage


def test_the_build_id_follows_every_frozen_file_and_nothing_else():
    files = picoimage.firmware_sources()
    key = picoimage.image_key("src", "RPI_PICO", files)
    assert picoimage.image_key("src", "RPI_PICO", dict(files)) == key
    assert picoimage.image_key("src", "RPI_PICO2", files) != key
    assert picoimage.image_key("other", "RPI_PICO", files) != key
    changed = dict(files)
    changed["microrobots/rules/board.py"] += b"\n"
    assert picoimage.image_key("src", "RPI_PICO", changed) != key


def test_what_is_frozen_the_package_and_the_launcher():
    files = picoimage.firmware_sources()
    assert "microrobots/app.py" in files and "microrobots/device/hw/rp2.py" in files
    assert "microrobots/modes/solo.py" in files
    assert "microrobots/handheld.py" in files and "handheld.py" not in files
    assert b"from microrobots import handheld" in files["main.py"]
    assert b'package("microrobots")' in files["manifest.py"]


def test_staging_touches_only_what_changed_and_drops_what_went(tmp_path):
    folder = str(tmp_path)
    picoimage.stage(folder, {"a.py": b"1", "pkg/b.py": b"2", "gone.py": b"3"})
    b = os.path.join(folder, "pkg", "b.py")
    os.utime(b, (1, 1))
    picoimage.stage(folder, {"a.py": b"changed", "pkg/b.py": b"2"})
    assert os.stat(b).st_mtime == 1  # unchanged: make sees nothing to freeze again
    with open(os.path.join(folder, "a.py"), "rb") as f:
        assert f.read() == b"changed"
    assert not os.path.exists(os.path.join(folder, "gone.py"))


def test_an_unchanged_tree_is_taken_from_the_cache_not_built(tmp_path, monkeypatch):
    monkeypatch.setenv("MICROROBOTS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(picoimage, "OUT", str(tmp_path / "out"))
    key = picoimage.tree_key("RPI_PICO")
    cached = tmp_path / "cache" / "images" / key / "firmware.uf2"
    cached.parent.mkdir(parents=True)
    cached.write_bytes(b"UF2 image")
    monkeypatch.setattr(picoimage, "missing_tools", lambda: pytest.fail("it would build"))
    lines = []
    made = picoimage.build(["RPI_PICO"], log=lines.append)
    assert made == [picoimage.image_path("RPI_PICO")]
    with open(made[0], "rb") as f:
        assert f.read() == b"UF2 image"
    assert "cached build " + key in lines[0]


def run(argv, capsys):
    status = picoimage.main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_without_a_compiler_make_test_goes_on_and_make_firmware_says_what_to_install(
        tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MICROROBOTS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(picoimage, "OUT", str(tmp_path / "out"))
    monkeypatch.setattr(picoimage, "missing_tools", lambda: ["arm-none-eabi-gcc"])
    status, out, err = run(["--board", "RPI_PICO", "--if-possible"], capsys)
    assert status == 0 and err == ""
    assert out.count("\n") == 1 and "arm-none-eabi-gcc missing" in out and "skipped" in out
    status, out, err = run(["--board", "RPI_PICO"], capsys)
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and "apt-get install gcc-arm-none-eabi" in err


def test_the_offline_sources_are_found_or_named(tmp_path, monkeypatch):
    monkeypatch.setenv("PICO_SRC", str(tmp_path))
    path, why = picoimage.find_archive()
    assert path is None and why == "PICO_SRC=%s: no pico-src.tar.xz there" % tmp_path
    archive = tmp_path / "pico-src.tar.xz"
    archive.write_bytes(b"not the pinned archive")
    assert picoimage.find_archive() == (str(archive), None)
    with pytest.raises(picoimage.BuildError, match="not the pinned"):
        picoimage.unpack(str(archive), str(tmp_path / "cache"))


def test_a_bad_board_is_one_line_and_status_2(capsys):
    status, out, err = run(["--board", "ESP32"], capsys)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "ESP32" in err and "Traceback" not in err


def uf2(payload):
    """A .uf2 carrying ``payload`` in 256-byte blocks (the header's fields are not read)."""
    blocks = []
    for k in range(0, len(payload), 256):
        blocks.append(b"\0" * 32 + payload[k:k + 256].ljust(256, b"\0") + b"\0" * 224)
    return b"".join(blocks)


def test_an_image_without_this_builds_id_is_refused(tmp_path):
    path = tmp_path / "firmware.uf2"
    # the id across a block boundary: found in the flash bytes, not in the file's
    path.write_bytes(uf2(b"x" * 250 + b"BUILD = '0123456789abcdef'"))
    picoimage.check_frozen(str(path), "0123456789abcdef")
    with pytest.raises(picoimage.BuildError, match="not rebuilt"):
        picoimage.check_frozen(str(path), "fedcba9876543210")


def test_a_second_build_waits_for_the_first_and_takes_its_image(tmp_path, monkeypatch):
    """Two checkouts sharing the cache (a worktree and a CI clone) must not run make in
    one build folder at once: the second waits on the lock, then finds the image made."""
    fcntl = pytest.importorskip("fcntl")
    cache = tmp_path / "cache"
    monkeypatch.setenv("MICROROBOTS_CACHE", str(cache))
    monkeypatch.setattr(picoimage, "OUT", str(tmp_path / "out"))
    key = picoimage.tree_key("RPI_PICO")
    cached = cache / "images" / key / "firmware.uf2"
    cache.mkdir()
    lines = []

    def the_other_build_finishes(line):
        # called while we wait: the other build (holding the lock) completes
        lines.append(line)
        if len(lines) > 1:
            return
        cached.parent.mkdir(parents=True)
        cached.write_bytes(b"made by the other build")
        fcntl.flock(holder, fcntl.LOCK_UN)

    holder = open(cache / "build.lock", "w")
    fcntl.flock(holder, fcntl.LOCK_EX)
    monkeypatch.setattr(picoimage, "missing_tools", lambda: pytest.fail("it would build"))
    made = picoimage.build(["RPI_PICO"], log=the_other_build_finishes)
    holder.close()
    assert "waiting for another build" in lines[0]
    assert "cached build " + key in lines[1]
    with open(made[0], "rb") as f:
        assert f.read() == b"made by the other build"


def test_a_build_folder_cut_short_starts_over_and_a_finished_one_is_kept(
        tmp_path, monkeypatch):
    src = tmp_path / "src"
    build = src / "build-RPI_PICO"
    build.mkdir(parents=True)
    (build / "stale_generated.c").write_text("from a build that was killed")
    calls = []

    def make(cmd, env=None, log=None, what=None):
        calls.append(sorted(os.listdir(build)) if build.exists() else None)
        build.mkdir(exist_ok=True)
        (build / "firmware.uf2").write_bytes(b"UF2")
        if len(calls) == 2:
            raise picoimage.BuildError("make failed")

    monkeypatch.setattr(picoimage, "run", make)
    args = (str(src), "RPI_PICO", {"a.py": b"1"}, "key", "pt", "mc", 1, "log")
    picoimage.build_board(*args)
    assert calls[0] is None  # the unfinished folder was removed before make ran
    with pytest.raises(picoimage.BuildError):
        picoimage.build_board(*args)  # a make that fails has still run to its end:
    picoimage.build_board(*args)
    assert calls[1] == calls[2] == ["firmware.uf2"]  # ...its folder is kept
