"""Issue 20's reproductions on the device (CPython; MicroPython in test_fuzz_files.py):
every damaged file ends with the file kept aside, one line, and a working app."""

import json

import pytest
from tools.sim.script import Session

DEEP_CONFIG = b'{"led_pin": ' + b"[" * 1000 + b"]" * 1000 + b"}"
DEEP_SOLO = b'{"format": 1, "data": ' + b"[" * 6000 + b"]" * 6000 + b"}"


def boot(tmp_path, files, seed=5):
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    s = Session(seed=seed, state=str(tmp_path))
    s.wait(200)
    return s


@pytest.mark.parametrize("data, line", [
    ('{"note": "caf\u00e9"}'.encode("latin-1"),
     "config.json: not UTF-8 text (byte 0xe9 at offset 13; saved as Latin-1? save as UTF-8)"),
    ('{"led_pin": 2}'.encode("utf-16"), "config.json: not UTF-8 text (saved as UTF-16? save as UTF-8)"),
    (DEEP_CONFIG, "config.json: nested deeper than 16 levels"),
])
def test_a_config_json_that_cannot_be_read_gives_the_red_x_and_one_line(
        tmp_path, capsys, data, line):
    # reproductions 1 and 2: not UTF-8, nested 1,000 deep
    s = boot(tmp_path, {"config.json": data})
    d = s.driver.device
    assert d.app is None and d.problem.endswith(line)
    out = capsys.readouterr().out
    assert line in out and "Traceback" not in out
    assert d.frame[0] == 255 and d.frame[1] == 0  # the red X (its first cell)


def test_a_config_json_in_utf8_with_a_byte_order_mark_is_read(tmp_path):
    s = boot(tmp_path, {"config.json": '{"brightness_cap": 4000}'.encode("utf-8-sig")})
    assert s.driver.device.problem is None and s.app.mode == "menu"


def test_a_saved_game_nested_6000_deep_is_set_aside_at_boot(tmp_path):
    # reproduction 3 (its CPython side: on MicroPython this was a MemoryError loop)
    s = boot(tmp_path, {"solo.json": DEEP_SOLO})
    assert s.app is not None and s.app.mode == "menu"
    assert "solo.json: over 8 KB: not a file of this device" in s.app.notice
    assert (tmp_path / "solo.bad.json").read_bytes() == DEEP_SOLO
    assert not (tmp_path / "solo.json").exists()


def test_a_memory_error_that_repeats_sets_the_game_aside_and_the_restart_is_clean(
        tmp_path, monkeypatch, capsys):
    # reproduction 3's loop: a saved game whose every load runs out of heap
    from microrobots.modes import solo as solo_module

    s = Session(seed=5, state=str(tmp_path))
    s.tap("a")
    s.settle()
    s.until_saved()
    saved = (tmp_path / "solo.json").read_bytes()

    def hungry(self, saved, now):
        raise MemoryError("memory allocation failed, allocating 12000 bytes")

    monkeypatch.setattr(solo_module.Mode, "resume", hungry)
    again = Session(seed=5, state=str(tmp_path))
    again.wait(100)
    d = again.driver.device
    assert d.app is None and (tmp_path / "solo.json").exists(), "kept the first time"
    again.wait(1200)
    again.tap("a")  # restart: the same MemoryError, now the file goes aside
    assert d.app is None
    assert (tmp_path / "solo.bad.json").read_bytes() == saved
    assert not (tmp_path / "solo.json").exists()
    again.wait(1200)
    again.tap("a")  # restart: clean, and it says why
    assert d.app is not None and d.app.mode == "menu"
    assert "solo.json: the app stopped with it again (MemoryError); kept as" in d.app.notice
    out = capsys.readouterr().out
    assert out.count("error: the app stopped (MemoryError)") == 2


def test_a_damaged_tmp_beside_a_good_game_leaves_the_game_playing(tmp_path):
    # reproduction 4
    s = Session(seed=5, state=str(tmp_path))
    s.tap("a")
    s.settle()
    s.until_saved()
    game = s.app.current.game.to_dict()
    (tmp_path / "solo.tmp").write_bytes(DEEP_SOLO)
    again = boot(tmp_path, {})
    assert again.app.mode == "solo" and again.app.current.game.to_dict() == game
    assert again.app.notice is None
    assert not (tmp_path / "solo.bad.json").exists() and not (tmp_path / "solo.tmp").exists()


def referee_game(tmp_path, players, expert):
    """A referee game of ``players``, expert or not, saved with its settings."""
    s = Session(seed=9, state=str(tmp_path))
    s.app.change("players", players)
    s.app.change("expert", expert)
    s.tap("right")
    s.tap("a")
    s.settle()
    s.until_saved()
    assert s.app.mode == "referee"
    return s.app.current.game.to_dict()


@pytest.mark.parametrize("damage", [b"", b'{"format": 1, "data": null}', b"\xff\xfe{\x00",
                                    b'{"format": 1, "data": {"players": 99}}'])
def test_damaged_settings_never_start_a_new_game_over_a_saved_one(tmp_path, damage):
    # reproduction 5: the game's own rules come from the game
    game = referee_game(tmp_path, 3, True)
    (tmp_path / "settings.json").write_bytes(damage)
    s = boot(tmp_path, {})
    s.hold("b")  # hold B, A into the referee (the menu is on its quadrant)
    assert s.app.mode == "menu"
    s.tap("a")
    s.settle()
    assert s.app.mode == "referee" and s.app.current.game.to_dict()["decisions"] == game[
        "decisions"]
    assert s.app.current.game.players == 3 and s.app.current.game.expert
    assert s.app.settings["players"] == 3 and s.app.settings["expert"] is True
    s.until_saved()
    kept = json.loads((tmp_path / "referee.json").read_text())["data"]["game"]
    assert (kept["players"], kept["seed"]) == (3, game["seed"])
    if b"99" not in damage:  # unreadable: kept aside (a bad value only gets its default)
        assert (tmp_path / "settings.bad.json").read_bytes() == damage


def test_damaged_settings_take_the_saved_games_layout(tmp_path):
    s = Session(seed=9, state=str(tmp_path))
    s.app.change("tiles", "CADB0312")
    s.tap("right")
    s.tap("a")
    s.settle()
    s.until_saved()
    seed = s.app.current.game.seed
    (tmp_path / "settings.json").write_bytes(b"{")
    again = boot(tmp_path, {})
    assert again.app.mode == "referee" and again.app.current.game.seed == seed
    assert again.app.settings["tiles"] == "CADB0312"


def test_a_player_who_changes_the_settings_starts_the_new_game(tmp_path):
    referee_game(tmp_path, 3, True)
    (tmp_path / "settings.json").write_bytes(b"")
    s = boot(tmp_path, {})
    assert s.app.settings["players"] == 3
    s.app.change("players", 4)  # the settings mode's way
    s.hold("b")
    s.tap("a")
    s.settle()
    assert s.app.current.game.players == 4


def test_settings_holding_null_data_are_set_aside_not_overwritten(tmp_path):
    # reproduction 6
    s = boot(tmp_path, {"settings.json": b'{"format": 1, "data": null}'})
    assert "settings.json: not a saved file of this device (its data is null)" in s.app.notice
    assert (tmp_path / "settings.bad.json").read_bytes() == b'{"format": 1, "data": null}'


def test_the_store_reproductions_inside_micropython():
    # reproductions 3, 4 and 6 in the firmware's own interpreter, with a Pico-sized heap
    import os

    import mpy

    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "damaged_files_mpy.py")
    lines = mpy.run_file(script).strip().splitlines()
    assert lines == [
        "({'a': 1}, None) ['solo.json']",
        "({'a': 1}, None) ['solo.json']",
        "(None, 'solo.json: nested deeper than 16 levels; using defaults') ['solo.json']",
        "(None, 'solo.json: over 8 KB: not a file of this device; using defaults') ['solo.json']",
        "(None, 'solo.json: a string over 2048 bytes; using defaults') ['solo.json']",
        "(None, 'solo.json: not a saved file of this device (its data is null); using defaults')"
        " ['solo.json']",
    ]
