"""The firmware on an emulated RP2040 running CircuitPython 10.2.1 (rp2040py), booted from
exactly the drive ``make flash-circuitpython`` writes: buttons as GPIO levels, the LEDs
read back off the WS2812 data pin, the saves read back off the FAT drive.

The image comes from ``CIRCUITPY_FIRMWARE`` or ``shared/circuitpython/`` beside the
checkout; without one these tests skip with one line saying so. The board work runs once,
in the background, from the moment the tests are collected
(tools/rp2040/circuitpython_checks.py, started by conftest.py); these tests run last.
"""

import base64
import json
import shutil

import circuitpython_background
import pytest

from tools.rp2040.circuitpython import find_firmware, lockstep

FIRMWARE, WHY = find_firmware()
if FIRMWARE is not None and shutil.which("mcopy") is None:
    FIRMWARE, WHY = None, "mtools is missing: the drive image cannot be made (make system-deps)"
pytestmark = pytest.mark.skipif(FIRMWARE is None, reason=WHY or "")

MODES = ("menu", "solo", "referee", "classroom", "settings")
KB = 1024


@pytest.fixture(scope="module")
def tour():
    t = circuitpython_background.result("tour")
    assert "error" not in t, t.get("error")
    return t


@pytest.fixture(scope="module")
def bad_config():
    return circuitpython_background.result("bad_config")


@pytest.fixture(scope="module")
def source_boot():
    t = circuitpython_background.result("source_boot")
    assert "error" not in t, t.get("error")
    return t


@pytest.fixture(scope="module")
def taps():
    t = circuitpython_background.result("taps")
    assert "error" not in t, t.get("error")
    return t


def test_no_tap_is_lost_while_a_save_holds_the_fat_drive(taps):
    """A save rewrites the FAT drive (5-7 sector erases, 270-380 ms, interrupts off in each
    erase) and taps fall inside, one inside every erase: hw/button_watch.py's state machine
    records them through rp2pio, and every tap is a press, in order, after the freeze."""
    assert taps["erases"] > 0 and taps["inside_erases"] > 0, "no erase in the session"
    assert taps["lost"] == [], "lost %s (%s)" % (taps["lost"], taps["lost_why"])
    assert taps["presses"] == taps["taps"], "%d presses, %d taps" % (taps["presses"],
                                                                      taps["taps"])
    assert taps["pio"]["running"], "the buttons' state machine is not running"
    assert taps["pio"]["rx_stalled"] == [], "its RX FIFO filled: it sampled nothing meanwhile"


def test_the_board_runs_the_firmware_as_circuitpythons_own_mpy(tour):
    if tour["no_mpy"]:
        pytest.skip("the source install only: " + tour["no_mpy"])
    code = tour["code_on_drive"]
    assert "microrobots/app.mpy" in code and "main.mpy" in code, code
    assert {name for name in code if name.endswith(".py")} == {"code.py", "boot.py"}


def test_the_source_install_boots_into_the_menu_frame_by_frame(source_boot):
    assert console_lines(source_boot["console"]) == []
    records = source_boot["records"]
    assert records and {r["mode"] for r in records} == {MODES.index("menu")}
    frames = frames_of(source_boot)
    assert len(frames) >= 10
    mismatch = lockstep(records, frames, source_boot["seed"], source_boot["config"],
                        source_boot["origin"])
    assert mismatch is None, str(mismatch)


def frames_of(boot):
    return [(ms, base64.b64decode(f)) for ms, f in boot["frames"]]


def files_of(tour):
    return {k: base64.b64decode(v) for k, v in tour["files_at_reset"].items()}


def saved(files, name):
    return json.loads(files[name + ".json"])["data"]


def console_lines(text):
    return [x for x in text.splitlines() if x.strip()]


def test_boots_into_the_menu_with_nothing_wrong_on_the_console(tour):
    first = tour["boots"][0]
    assert first["records"][0]["mode"] == MODES.index("menu")
    lines = console_lines(tour["console"])
    # A freshly flashed board has no settings yet: that is normal, nothing to say.
    assert lines == [], lines
    assert console_lines(tour["console_after_reset"]) == []
    menu = frames_of(first)[0][1]
    assert any(menu[0:9]) and any(menu[3 * 21:3 * 21 + 3])  # solo and settings quadrants lit


def test_every_mode_shows_the_host_firmwares_frames_frame_by_frame(tour):
    boot = tour["boots"][0]
    records = boot["records"]
    assert {MODES[r["mode"]] for r in records} == set(MODES)
    frames = frames_of(boot)
    assert records[-1]["writes"] <= len(frames) <= records[-1]["writes"] + 1
    assert len(frames) >= 100
    mismatch = lockstep(records, frames, boot["seed"], tour["config"], boot["origin"])
    assert mismatch is None, str(mismatch)


def test_settings_and_the_game_survive_a_reset_on_the_fat_drive(tour):
    files = files_of(tour)
    # settings.json was written at least twice: the second time a rename over an
    # existing file, which FAT does as a remove and a rename (store.py)
    assert saved(files, "settings")["brightness"] == 6
    assert saved(files, "settings")["games"] == 3  # solo, referee, classroom
    assert {"solo.json", "referee.json"} <= set(files)
    assert not any(name.endswith(".tmp") for name in files)
    assert tour["resumed"]
    again = tour["boots"][1]
    # The tour ends in the menu: the board comes back to the mode on show (the games kept
    # on the drive, as read above)
    assert again["records"][0]["mode"] == MODES.index("menu")
    mismatch = lockstep(again["records"], frames_of(again), again["seed"], tour["config"],
                        again["origin"], state=files)
    assert mismatch is None, str(mismatch)


def test_one_mode_resident_at_a_time_and_the_heap_in_use(tour):
    """Figures (heap free, frame work) are make bench's; here only what must hold."""
    assert 16 * KB < tour["heap_after_boot"] < 120 * KB
    readings = {}
    for mode, what, value in tour["readings"]:
        assert value is not None, "the probe did not answer %s in %s" % (what, mode)
        readings[mode, what] = value
    for mode in MODES:
        assert readings[mode, "modes"] == 1, "%s: %d modes loaded" % (
            mode, readings[mode, "modes"])
        assert 16 * KB < readings[mode, "heap"] < 120 * KB, mode


def test_a_bad_config_shows_the_red_x_and_names_the_key(bad_config):
    assert "config.json: unknown key 'led_pn' (did you mean 'led_pin'?)" in \
        console_lines(bad_config["console"])
    frame = base64.b64decode(bad_config["frames"][-1][1])
    cross = {7 * k for k in range(6)} | {5 * k + 5 for k in range(6)}
    for cell in range(36):
        r, g, b = frame[3 * cell:3 * cell + 3]
        if cell in cross:
            assert r > 0 and g == 0 and b == 0, cell
        else:
            assert r == g == b == 0, cell
