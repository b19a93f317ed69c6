"""Fuzzing every command that reads a user's file or text (issue 20): whatever it is given,
a command ends with status 0, or 1 where it means an answer (a wrong claim), or 2 and
exactly one line on stderr; never a traceback. ``tools.sim --headless`` on damaged flash
files exits 0 (the firmware copes) and 1 whenever the firmware it drove failed.

Cases per command and kind: ``FUZZ_CLI_EXAMPLES`` (environment); counts printed at the end.
"""

import collections
import contextlib
import io
import json
import os
import shutil
import tempfile

import pytest
from damage import KINDS, damaged, good_files
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tools import replay, solve
from microrobots.rules import notation
from tools.draw import render, wiring
from tools.ricochet import cli as ricochet
from tools.sim import headless

GOOD = good_files()

EXAMPLES = int(os.environ.get("FUZZ_CLI_EXAMPLES", "8"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))
COUNTS = collections.Counter()
BY_KIND = pytest.mark.parametrize("kind", KINDS)

LAYOUT = b"""# the default arrangement
W6 B6 B2 P5 P2 P3
R3 Y4 W3 R6 R4 Y3
B3 G4 W5 B4 G5 G3
B1 R2 W4 P1 Y6 Y1
W1 G2 G6 Y5 B5 R5
Y2 W2 P4 P6 R1 G1
"""
EVENTS = b"# into solo and out\n200 a\n900 b hold 800\n"
FRAME = json.dumps({"t": 0, "mode": "menu", "pixels": [[1, 2, 3]] * 36}).encode() + b"\n"


def run(main, argv, allowed=(0, 2)):
    """Run a command's main(argv); check its status and, for 2, its one line."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    assert status in allowed, (status, err.getvalue()[-2000:])
    if status == 2:
        lines = err.getvalue().splitlines()
        assert len(lines) == 1 and "Traceback" not in lines[0], err.getvalue()[-2000:]
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module", autouse=True)
def report_counts():
    yield
    lines = ["%-22s %-17s %5d" % (c, k, n) for (c, k), n in sorted(COUNTS.items())]
    print("\nCLI fuzz cases tried, 0 failures:\n" + "\n".join(lines))


def damaged_text(good, kind):
    """Damage for text files that are not JSON: the JSON kinds where they apply to any
    bytes, and the JSON ones applied to a JSON string holding the text."""
    if kind in ("truncated", "bit flips", "foreign encoding"):
        return damaged(good, kind).map(lambda case: case[1])
    return damaged(json.dumps(good.decode()).encode(), kind).map(lambda case: case[1])


FILE_COMMANDS = {
    # name: (main, argv with FILE, the good file, allowed statuses)
    "replay --saved solo": (replay.main, ["--saved", "FILE"], GOOD["solo"], (0, 2)),
    "replay --saved referee": (replay.main, ["--saved", "FILE"], GOOD["referee"], (0, 2)),
    "wiring --config": (wiring.main, ["--config", "FILE", "--table", "--svg", "OUT"],
                        GOOD["config"], (0, 2)),
    "render --frames": (render.main, ["--frames", "FILE", "--png", "OUT"], FRAME, (0, 2)),
    "solve --layout": (solve.main, ["--layout", "FILE", "G3", "W5"], LAYOUT, (0, 2)),
    "sim --events": (headless.main, ["--headless", "--events", "FILE", "--frames-out", "OUT"],
                     EVENTS, (0, 2)),
}
JSON_FILES = ("replay --saved solo", "replay --saved referee", "wiring --config")


@pytest.mark.parametrize("command", sorted(FILE_COMMANDS))
@BY_KIND
@FUZZ
@given(data=st.data())
def test_a_damaged_file_is_one_line_and_exit_2(command, kind, data):
    main, argv, good, allowed = FILE_COMMANDS[command]
    strategy = damaged(good, kind).map(lambda case: case[1]) if command in JSON_FILES \
        else damaged_text(good, kind)
    bad = data.draw(strategy)
    COUNTS[command, kind] += 1
    folder = tempfile.mkdtemp()
    try:
        path = os.path.join(folder, "in")
        with open(path, "wb") as f:
            f.write(bad)
        out = os.path.join(folder, "out")
        run(main, [path if a == "FILE" else out if a == "OUT" else a for a in argv], allowed)
    finally:
        shutil.rmtree(folder)


SHARE = notation.share(notation.from_dict(json.loads(GOOD["referee"])["data"]["game"]))


@BY_KIND
@FUZZ
@given(data=st.data())
def test_a_damaged_share_string_is_one_line_and_exit_2(kind, data):
    bad = data.draw(damaged_text(SHARE.encode(), kind))
    COUNTS["replay SHARE", kind] += 1
    text = bad.decode("utf-8", errors="surrogateescape")
    if text.startswith("-"):
        text = " " + text  # (a share string, not an option)
    run(replay.main, [text.replace("\x00", "")])


@BY_KIND
@FUZZ
@given(data=st.data())
def test_a_damaged_ricochet_claim_is_one_line_and_exit_2(kind, data):
    bad = data.draw(damaged_text(b"red N, clear E+1, green S", kind))
    COUNTS["ricochet check", kind] += 1
    moves = bad.decode("utf-8", errors="replace").replace("\x00", "")
    run(ricochet.main, ["check", "--game", "0B7P6ZBDXVGFEG", "--moves", moves], (0, 1, 2))


def test_the_issues_ricochet_claim():
    # reproduction 7: a superscript two passed isdigit() and int() refused it
    status, _, err = run(ricochet.main, ["check", "--game", "0B7P6ZBDXVGFEG", "--moves",
                                         "clear S+\u00b2"])
    assert status == 2 and "+k needs a number" in err


@pytest.mark.parametrize("kind", KINDS)
@settings(FUZZ, max_examples=max(2, EXAMPLES // 3))
@given(data=st.data())
def test_sim_headless_on_damaged_flash_exits_0(kind, data):
    # the firmware copes with any file on its flash: the run succeeds, the file is kept
    name = data.draw(st.sampled_from(("settings", "solo", "referee", "config")))
    bad = data.draw(damaged(GOOD[name], kind))[1]
    COUNTS["sim --headless --state", kind] += 1
    folder = tempfile.mkdtemp()
    try:
        state = os.path.join(folder, "flash")
        os.mkdir(state)
        for good in ("settings", "solo", "referee"):
            with open(os.path.join(state, good + ".json"), "wb") as f:
                f.write(GOOD[good])
        with open(os.path.join(state, name + ".json"), "wb") as f:
            f.write(bad)
        events = os.path.join(folder, "ev.txt")
        with open(events, "wb") as f:
            f.write(b"200 a\n1500 b hold 800\n3000 right\n3200 a\n")
        run(headless.main, ["--headless", "--events", events, "--frames-out",
                            os.path.join(folder, "f.jsonl"), "--state", state], (0,))
    finally:
        shutil.rmtree(folder)


def test_sim_headless_says_when_micropython_fails(tmp_path, monkeypatch):
    # reproduction 8: the MicroPython runtime exited 0 after the firmware crashed. Here
    # it runs out of a too small heap, as the 64-bit port did on a damaged file.
    from tools import cli

    monkeypatch.setattr(headless, "micropython_main",
                        lambda path, firmware=None: cli.micropython_main(
                            path, heap="24k", firmware=firmware))
    events = tmp_path / "ev.txt"
    events.write_text("200 a\n")
    status, _, err = run(headless.main, ["--headless", "--events", str(events), "--frames-out",
                                         str(tmp_path / "f.jsonl"), "--runtime", "micropython"],
                         (1,))
    assert "sim: the firmware failed: micropython failed" in err


def test_sim_headless_says_when_the_app_stopped(tmp_path, monkeypatch):
    from microrobots.modes import solo

    def broken(self, now, frame):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(solo.Mode, "render", broken)
    events = tmp_path / "ev.txt"
    events.write_text("200 a\n")
    status, _, err = run(headless.main, ["--headless", "--events", str(events), "--frames-out",
                                         str(tmp_path / "f.jsonl")], (1,))
    assert "sim: the firmware failed: error: the app stopped (ZeroDivisionError)" in err


@pytest.mark.parametrize("name, data", [
    ("solo", b'{"format": 1, "data": ' + b"[" * 6000 + b"]" * 6000 + b"}"),
    ("referee", b'{"format": 1, "data": ' + b"[" * 3000 + b"]" * 3000 + b"}"),
    ("settings", b'{"format": 1, "data": {"tiles": "' + b"x" * 8192 + b'"}}'),
    ("config", '{"note": "caf\u00e9"}'.encode("latin-1")),
    ("config", '{"led_pin": 2}'.encode("utf-16")),
    ("config", b'{"led_pin": ' + b"[" * 1000 + b"]" * 1000 + b"}"),
])
def test_sim_headless_in_micropython_on_the_issues_files(tmp_path, name, data):
    # reproductions 3 and 8 where they happened: the 64-bit port with a 190 KB heap
    state = tmp_path / "flash"
    state.mkdir()
    (state / (name + ".json")).write_bytes(data)
    events = tmp_path / "ev.txt"
    events.write_text("200 a\n1500 b hold 800\n")
    status, _, err = run(headless.main, [
        "--headless", "--events", str(events), "--frames-out", str(tmp_path / "f.jsonl"),
        "--state", str(state), "--runtime", "micropython"], (0,))
    if name == "config":
        assert "config.json: not UTF-8 text" in err or "config.json: nested deeper" in err
    else:
        assert (state / (name + ".bad.json")).read_bytes() == data


def test_a_share_string_of_100000_decisions_is_refused_before_any_is_made(monkeypatch):
    # reproduction 9: 100 KB of "-" took seconds of CPU; now no decision is made at all
    made = []
    from microrobots.rules.game import Game

    plain = Game.decide
    monkeypatch.setattr(Game, "decide", lambda self, *a: made.append(a) or plain(self, *a))
    status, _, err = run(replay.main, [SHARE.rsplit(".", 1)[0] + "." + "-" * 100000])
    assert status == 2 and "share string: over 1000 decisions" in err and not made


def test_a_saved_game_of_100000_decisions_is_refused_before_any_is_made(tmp_path, monkeypatch):
    from microrobots.rules.game import Game

    made = []
    monkeypatch.setattr(Game, "decide", lambda self, *a: made.append(a))
    whole = json.loads(GOOD["solo"])
    whole["data"]["game"]["decisions"] = "-" * 7000  # (within the 8 KB a file may have)
    path = tmp_path / "solo.json"
    path.write_text(json.dumps(whole))
    status, _, err = run(replay.main, ["--saved", str(path)])
    assert status == 2 and "saved game: a string over 2048 bytes" in err and not made
    whole["data"]["game"]["decisions"] = "-" * 1001  # counted as they are made
    path.write_text(json.dumps(whole))
    made[:] = []
    monkeypatch.undo()
    status, _, err = run(replay.main, ["--saved", str(path)])
    assert status == 2 and "saved game: over 1000 decisions" in err


@pytest.mark.parametrize("data", ['{"led_pin": 3}'.encode("utf-16"),
                                  '{"led_pin": 3, "x": "caf\u00e9"}'.encode("latin-1"),
                                  b'{"led_pin": ' + b"[" * 1000 + b"]" * 1000 + b"}"])
def test_the_emulated_board_reads_any_config_json_as_the_firmware_does(data):
    # reproduction 8's last part: the harness decoded config.json as UTF-8 itself
    from microrobots.device import config
    from tools.rp2040 import session

    assert session.board_config({"config.json": data}) == config.defaults()
    assert session.board_config({"config.json": '{"led_pin": 3}'.encode("utf-8-sig")})[
        "led_pin"] == 3


RICOCHET_DEAL = ["--faces", "1A,2B,3A,4B", "--robots", "red=1,1", "green=5,9", "blue=12,3",
                 "yellow=7,7", "--target", "red circle"]


@pytest.mark.parametrize("option", ["--game", "--faces", "--robots", "--target"])
@FUZZ
@given(text=st.one_of(st.text(max_size=40), st.sampled_from(
    ["0B7P6ZBDXVGFEG", "1A,2B,3A,4B", "red=1,1", "red circle", "\u00b2", "9" * 5000]).flatmap(
    lambda good: st.integers(0, len(good)).map(lambda n: good[:n] + "\u00b2\x00" + good[n:]))))
def test_a_damaged_ricochet_deal_is_one_line_and_exit_2(option, text):
    COUNTS["ricochet render " + option, "wrong type"] += 1
    text = text.replace("\x00", "")
    if option == "--game":
        argv = ["render", "--game", text]
    else:
        argv = list(RICOCHET_DEAL)
        i = argv.index(option)
        argv[i + 1:i + 2] = [text]
        argv = ["render"] + argv
    run(ricochet.main, argv)  # (a value starting with "-" is a usage error: 2 as well)
