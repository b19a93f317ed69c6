"""The page's flash as one file (tools/sim/web/flashfile.py), on CPython: the file a real
device's flash exports, read back whole; every kind of bad file refused in one line.
(host_tests/web/test_web_app.py drives the page's Export and Import buttons.)"""

import json
import os

from hypothesis import given, settings, strategies as st

from microrobots.device import store
from microrobots.preferences import RANGES, SETTINGS
from tools.sim.script import Session
from tools.sim.web import flashfile

_played = {}


def played_flash(tmp_path_factory=None):
    """A device's flash after a solo game begun and a referee game begun: {name: bytes}."""
    if not _played:
        import tempfile

        state = tempfile.mkdtemp(prefix="flashfile-")
        s = Session(seed=5, state=state)
        s.tap("a")  # the menu's first quadrant: solo
        s.settle()
        solo = s.app.current
        route = solo.game.route()
        s.move(route[0], route[1])
        s.until_saved()
        s.hold("b")  # back to the menu
        s.tap("right")
        s.tap("a")  # the referee
        s.settle()
        s.until_saved()
        for name in sorted(os.listdir(state)):
            with open(os.path.join(state, name), "rb") as f:
                _played[name] = f.read()
    return dict(_played)


def test_a_played_flash_exports_and_reads_back_byte_for_byte():
    files = played_flash()
    assert {"settings.json", "solo.json", "referee.json"} <= set(files), sorted(files)
    text = flashfile.export(files)
    assert text.startswith(b"Micro Robots flash 1\n") and text.endswith(b"end\n")
    back, problem = flashfile.check(text)
    assert problem is None
    assert back == {n: files[n] for n in flashfile.NAMES if n in files}


def test_only_the_devices_own_files_are_exported():
    files = played_flash()
    files["solo.tmp"] = b"{"
    files["referee.bad.json"] = b"junk"
    back, problem = flashfile.check(flashfile.export(files))
    assert problem is None and set(back) <= set(flashfile.NAMES)


def settings_file(**change):
    data = dict(SETTINGS, **change)
    return store.Store.encode(data).encode()


@settings(max_examples=40, deadline=None)
@given(st.fixed_dictionaries({k: st.integers(lo, hi) for k, (lo, hi) in RANGES.items()
                              if k in SETTINGS}))
def test_any_valid_settings_round_trip(values):
    files = {"settings.json": settings_file(**values)}
    back, problem = flashfile.check(flashfile.export(files))
    assert problem is None and back == files


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_file_cut_anywhere_is_refused(data):
    text = flashfile.export(played_flash())
    cut = data.draw(st.integers(0, len(text) - 2))  # "end" without its newline is whole
    files, problem = flashfile.check(text[:cut])
    assert files is None and problem and "\n" not in problem


def bad(text):
    files, problem = flashfile.check(text)
    assert files is None, "accepted"
    assert problem and "\n" not in problem and len(problem) < 200, problem
    return problem


def entry(name, data):
    return b"%s %d\n%s\n" % (name.encode(), len(data), data)


def test_bad_files_are_refused_with_one_line_naming_what_is_wrong():
    head = flashfile.HEADER + b"\n"
    good = settings_file()
    assert "not a Micro Robots flash file" in bad(b"")
    assert "not a Micro Robots flash file" in bad(b'{"settings.json": "..."}')
    assert "cut short" in bad(head + entry("settings.json", good))
    assert "not a file of the device" in bad(head + entry("evil.json", good) + b"end\n")
    assert "not a file of the device" in bad(head + entry("../settings.json", good) + b"end\n")
    assert "twice" in bad(head + entry("settings.json", good) * 2 + b"end\n")
    assert "after" in bad(head + entry("settings.json", good) + b"end\nmore\n")
    wrong_size = b"settings.json %d\n%s\n" % (len(good) + 3, good)
    assert "settings.json" in bad(head + wrong_size + b"end\n")
    assert "not a number" in bad(head + b"settings.json -5\n" + good + b"\nend\n")
    big = b" " * (store.MAX_BYTES + 1)
    assert "settings.json: over 8 KB" in bad(head + entry("settings.json", big) + b"end\n")
    assert "over" in bad(head + b"x" * (flashfile.MAX_TOTAL + 1))


def test_a_bad_file_inside_is_refused_as_the_device_would_read_it():
    head = flashfile.HEADER + b"\n"
    cases = {
        b'{"format": 1, "data": {"brightness": 5': "settings.json: ",  # cut short
        b'{"format": 2, "data": {}}': "format 2",
        b'{"format": 1, "data": {"brightness": 99}}': "brightness",  # out of range
        b'{"format": 1, "data": null}': "null",
        "{\"format\": 1}".encode("utf-16"): "settings.json: ",
        b"[" * 100 + b"]" * 100: "settings.json: ",
    }
    for raw, words in cases.items():
        assert words in bad(head + entry("settings.json", raw) + b"end\n"), raw


def test_a_saved_game_must_replay_on_the_settings_layout():
    files = played_flash()
    head = flashfile.HEADER + b"\n"
    solo = json.loads(files["solo.json"])
    other = dict(SETTINGS, side="copper" if SETTINGS["side"] == "black" else "black")
    text = head + entry("settings.json", store.Store.encode(other).encode()) \
        + entry("solo.json", files["solo.json"]) + b"end\n"
    assert "solo.json: not a solo game on the settings' layout" == bad(text)
    solo["data"]["game"]["seed"] = "seven"
    text = head + entry("solo.json", json.dumps(solo).encode()) + b"end\n"
    assert bad(text).startswith("solo.json: saved game: seed must be an integer")
    text = head + entry("referee.json", files["solo.json"]) + b"end\n"
    assert bad(text) == "referee.json: not a saved referee game"


def test_a_bad_config_is_refused_naming_its_key():
    head = flashfile.HEADER + b"\n"
    problem = bad(head + entry("config.json", b'{"led_pin": 99}') + b"end\n")
    assert problem.startswith("config.json") and "led_pin" in problem
    files, problem = flashfile.check(head + entry("config.json", b'{"led_pin": 3}') + b"end\n")
    assert problem is None
