"""Power cuts on the emulated RP2040 (issue 20): the firmware as flashed saves on its own
LittleFS, every flash erase and page program is recorded, and the flash as it stood
after each one is a power cut at that point. Every such flash mounts, every file on it is
the old or the new version (the firmware's own files untouched), and the store loads
the old or the new state from it; at some of the cut points the board itself boots from
that flash, reaches the running app, and boots again after a reset.

Needs the MicroPython image for the emulated Pico (tools/rp2040/image.find_firmware); the
emulator is slow, so the boots are few: ``POWER_CUT_BOOTS`` (environment) cut points,
``all`` for every one. The board work is one run (tools/rp2040/power_cut_checks.py),
started when the tests are collected and cached by its inputs (board_runs.py); these tests
judge what it recorded. host_tests/test_store.py cuts the power at every byte on the host.
"""

import base64
import json
import os

import board_runs
import pytest

from microrobots.device.store import Store

from tools.rp2040 import image, power_cut_checks

BOOTS = os.environ.get("POWER_CUT_BOOTS", "2")  # (the run's command line: board_runs)
WHY = board_runs.why(board_runs.POWER_CUT)
pytestmark = pytest.mark.skipif(WHY is not None, reason=WHY or "")


class LittleFsFiles:
    """A littlefs-python filesystem as store.Store's ``fs`` (its errors as OSError)."""

    def __init__(self, fs):
        self.fs = fs

    def _call(self, fn, *args):
        from littlefs import LittleFSError

        try:
            return fn(*args)
        except FileNotFoundError as error:
            raise OSError(2, str(error)) from None
        except LittleFSError as error:
            raise OSError(-error.code, str(error)) from None

    def open(self, path, mode):
        return self._call(self.fs.open, path, mode)

    def rename(self, src, dest):
        self._call(self.fs.rename, src, dest)

    def remove(self, path):
        self._call(self.fs.remove, path)


@pytest.fixture(scope="module")
def run():
    """The run's results: the session that saves (a board with old settings boots, A enters
    solo: a new game, the settings' game count and solo.json are saved a second later) and
    the boots from some of its cut points (power_cut_checks.py)."""
    results = board_runs.result(board_runs.POWER_CUT)
    assert "error" not in results, results.get("error")
    return results


def _files(encoded):
    return {k: base64.b64decode(v) for k, v in encoded.items()}


@pytest.fixture(scope="module")
def cuts(run):
    """``(flash images, the files before, the files after, the last records' modes)``: the
    flash region before the first and after every erase and program of the session."""
    return (power_cut_checks.images(run), _files(run["before"]), _files(run["after"]),
            run["modes"])


def check_old_or_new(k, flash, before, after):
    """The flash ``flash`` mounts, each file on it is old or new, and the store loads the
    old or the new state from it (a leftover .tmp settled); ``(settings new, solo there)``."""
    from tools.rp2040.image import _lfs

    files = image.read_files(flash)  # mounts
    for path in set(before) | set(after) | set(files):
        if path.endswith(".tmp"):
            continue  # a save's own temporary file: settled by the next load
        assert files.get(path) in (before.get(path), after.get(path)), (k, path)
    fs, _ = _lfs(flash)
    store = Store("", LittleFsFiles(fs))
    settings, problem = store.load("settings")
    assert problem is None and settings["brightness"] == 3, (k, problem)
    game, problem = store.load("solo")
    assert problem is None and (game is None or json.loads(after["solo.json"])["data"] == game)
    assert not [p for p in fs.listdir("/") if p.endswith(".tmp")], k
    fs.unmount()
    return files.get("settings.json") == after["settings.json"], "solo.json" in files


def test_every_cut_point_leaves_each_file_old_or_new(cuts):
    images, before, after, modes = cuts
    assert after["settings.json"] != before["settings.json"] and "solo.json" in after, (
        len(images), sorted(after), modes)
    assert len(images) >= 5  # the erases and page programs of two saves
    seen = set()
    for k, flash in enumerate(images):
        seen.add(check_old_or_new(k, flash, before, after))
    assert (False, False) in seen and (True, True) in seen  # old and new both cut into
    print("\n%d cut points on the emulated flash (old or new: %s)" % (len(images), sorted(seen)))


def test_a_cut_in_the_middle_of_an_erase_or_a_program_loses_nothing(cuts):
    # torn operations: a sector half erased, a page half written (the flash between two
    # cut points: the first half of the bytes the operation changed)
    images, before, after, _ = cuts
    torn = 0
    for k in range(1, len(images)):
        old, new = images[k - 1], images[k]
        changed = [i for block in range(0, len(old), 4096)
                   if old[block:block + 4096] != new[block:block + 4096]
                   for i in range(block, block + 4096) if old[i] != new[i]]
        if len(changed) < 2:
            continue
        half = changed[len(changed) // 2]
        check_old_or_new(k, old[:changed[0]] + new[changed[0]:half] + old[half:], before, after)
        torn += 1
    assert torn >= 5
    print("\n%d torn erases and page programs: old or new" % torn)


def test_the_board_boots_from_the_flash_cut_at_a_save(run, cuts):
    images, before, after, _ = cuts
    n = len(images)
    points = power_cut_checks.cut_points(n, BOOTS)
    assert sorted(int(k) for k in run["boots"]) == points
    for k in points:
        board = run["boots"][str(k)]
        console = board["console"]
        assert board["booted"] == [True, True], (k, console[-400:])  # and once more, reset
        assert "Traceback" not in console and "error:" not in console, (k, console[-400:])
        assert board["settings"] is not None, k
        assert base64.b64decode(board["settings"]) in (before["settings.json"],
                                                       after["settings.json"])
        solo = board["solo"] and base64.b64decode(board["solo"])
        assert solo in (None, after["solo.json"])
        print("cut point %d of %d: booted twice" % (k, n))

