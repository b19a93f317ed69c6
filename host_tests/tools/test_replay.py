"""python -m tools.replay: a shared or saved game, round by round."""

import json
import os
import subprocess
import sys

import pytest

from microrobots.rules.board import Layout
from microrobots.rules import notation
from microrobots.rules.game import Game
from tools import replay

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def sample_game():
    game = Game(Layout.named("black:CADB0312"), players=3, expert=True, seed=2026)
    r = game.route()
    game.claim(1, len(r) - 1, r[1:])  # b: correct
    game.claim(1, game.optimum() - 1, [])  # b: below the optimum, pays c
    game.give_up()
    return game


def test_rounds_in_text(capsys):
    game = sample_game()
    assert replay.main([notation.share(game)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "game: 3 players, expert, seed 2026, layout black:CADB0312"
    assert len(lines) == 1 + 3 + 1
    assert "b claims 9: correct; tokens 0 1 0, pool 24" in lines[1]
    assert "b gives a token to c; tokens 0 0 1" in lines[2]
    assert "given up; a route: G6" in lines[3]
    assert lines[4].startswith("round 4: ") and lines[4].endswith("being played")


def test_json_matches_the_engine(capsys):
    game = sample_game()
    assert replay.main([notation.share(game), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["state"] == game.to_dict() and out["share"] == notation.share(game)
    tok = game.layout.token
    first = out["rounds"][0]
    fresh = Game(game.layout, 3, True, 2026)
    assert (first["start"], first["target"], first["waypoint"], first["optimum"]) == (
        tok(fresh.start), tok(fresh.target), tok(fresh.waypoint), fresh.optimum())
    assert [r["ok"] for r in out["rounds"]] == [True, False, None]
    route = out["rounds"][2]["route"]
    assert len(route) - 1 == out["rounds"][2]["optimum"]


def test_saved_games_and_the_devices_wrapper(tmp_path, capsys):
    game = sample_game()
    plain = tmp_path / "g.json"
    plain.write_text(json.dumps(game.to_dict()))
    wrapped = tmp_path / "game.json"
    wrapped.write_text(json.dumps({"mode": "referee", "game": game.to_dict()}))
    assert replay.main(["--saved", str(plain)]) == 0
    first = capsys.readouterr().out
    assert replay.main(["--saved", str(wrapped)]) == 0
    assert capsys.readouterr().out == first


def test_the_broken_rule_names_its_move(capsys):
    game = Game(Layout.named("black:CADB0312"), players=2, seed=5)
    route = game.route()
    moves = route[1:]
    moves[1] = moves[0]  # the second move stays put
    game.claim(0, len(moves), moves)
    assert notation.share(game).endswith(".a%di2" % len(moves))
    assert replay.main([notation.share(game)]) == 0
    assert "a claims %d: move 2 is not legal" % len(moves) in capsys.readouterr().out
    assert replay.main([notation.share(game), "--json"]) == 0
    row = json.loads(capsys.readouterr().out)["rounds"][0]
    assert (row["outcome"], row["illegal_move"], row["ok"]) == ("move 2 is not legal", 2, False)
    old = notation.share(game).replace("MR2.", "MR1.", 1)[:-1]  # as format 1 wrote it: no move
    assert replay.main([old]) == 0
    assert "a claims %d: a move is not legal" % len(moves) in capsys.readouterr().out


def test_finished_games_name_the_winners(capsys):
    game = Game(Layout.named("black:ABCD0000"), players=2, seed=1)
    while not game.over:
        r = game.route()
        game.claim(1, len(r) - 1, r[1:])
    assert replay.main([notation.share(game)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "over: b wins"


@pytest.mark.parametrize("argv, message", [
    ([], "give a share string or --saved FILE"),
    (["MR1.2.1.black:ABCD0000", "--saved", "x"], "one of them"),
    (["MR9.2.1.black:ABCD0000"], "share string: expected MR2"),
    (["MR1.2.1.black:ABCD0000.c1o"], "'c' is not one of the 2 players"),
    (["--saved", "/no/such/file.json"], "cannot read"),
])
def test_bad_input_is_one_line_and_exit_2(argv, message, capsys):
    assert replay.main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and err.startswith("tools.replay: ")


def test_bad_saved_file(tmp_path, capsys):
    bad = tmp_path / "game.json"
    bad.write_text('{"format": "microrobots-game", "version": 1')  # truncated on flash
    assert replay.main(["--saved", str(bad)]) == 2
    assert "saved game: not valid JSON at line 1" in capsys.readouterr().err
    d = sample_game().to_dict()
    d["pool"] = 25
    bad.write_text(json.dumps(d))
    assert replay.main(["--saved", str(bad)]) == 2
    assert "pool is 25 but its decisions give 24" in capsys.readouterr().err


def test_runs_as_a_module():
    proc = subprocess.run([sys.executable, "-m", "tools.replay", "MR1.2.5.copper:ABCD0000.a1b"],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "a claims 1: the claim is below the optimum" in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "tools.replay", "nonsense"],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


# -- the device's own files ----------------------------------------------------------------------

def off_the_rules(game, robot):
    """A cell on ``robot``'s row that is not a legal move from it (None if every one is)."""
    row = robot // 6 * 6
    for cell in range(row, row + 6):
        if cell != robot and not game.solver.is_move(robot, cell):
            return cell
    return None


def play_on_the_device(state):
    """The firmware (App, Store, modes) under a scripted player: a refereed round won, one
    lost on an illegal second move, then a solo round left half-walked. Saves in ``state``."""
    from tools.sim.script import Session

    s = Session(seed=5, state=str(state))
    s.tap("right")
    s.tap("a")  # menu -> referee
    s.settle()
    ref = s.app.current
    route = ref.game.route()
    s.claim(1, len(route) - 1, route[1:])
    s.wait(2800)
    s.settle()
    g = ref.game
    route = g.route()
    bad = off_the_rules(g, route[1])
    assert bad is not None and len(route) > 2
    s.claim(0, len(route) - 1, [route[1], bad])
    s.wait(2800)
    s.settle()
    referee = g.to_dict()
    s.hold("b")  # back to the menu, on the referee's quadrant
    s.tap("left")
    s.tap("a")  # solo
    assert s.app.mode == "solo"
    s.settle()
    solo = s.app.current
    first = solo.game.route()[1]
    s.move(solo.game.start, first)
    s.wait(500)
    s.until_saved()  # written a second after the last decision (app.App.flush)
    return s, referee, solo.game.to_dict(), [first]


def test_the_devices_own_files_replay(tmp_path, capsys):
    session, referee, solo, moves = play_on_the_device(tmp_path)
    capsys.readouterr()  # the firmware's console
    device = json.loads((tmp_path / "referee.json").read_text())
    assert device["format"] == 1 and device["data"]["mode"] == "referee"  # the store's wrapper
    assert replay.main(["--saved", str(tmp_path / "referee.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["state"] == referee and out["mode"] == "referee"
    assert [r["ok"] for r in out["rounds"]] == [True, False]
    assert out["rounds"][1]["outcome"] == "move 2 is not legal"
    assert replay.main(["--saved", str(tmp_path / "referee.json")]) == 0
    assert "a claims %d: move 2 is not legal" % out["rounds"][1]["claim"] \
        in capsys.readouterr().out

    assert replay.main(["--saved", str(tmp_path / "solo.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    tok = session.app.layout.token
    assert out["state"] == solo and out["mode"] == "solo"
    assert out["moves"] == [tok(c) for c in moves]
    assert replay.main(["--saved", str(tmp_path / "solo.json")]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.endswith("being played; moves so far: %s %s" % (tok(solo["start"]), tok(moves[0])))

    # The older game.json had the same form; the mode's save alone and to_dict() load too.
    data = device["data"]
    for name, form in (("game.json", device), ("mode.json", data), ("dict.json", data["game"])):
        (tmp_path / name).write_text(json.dumps(form))
        assert replay.main(["--saved", str(tmp_path / name), "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["state"] == referee

    assert replay.main(["--saved", str(tmp_path / "settings.json")]) == 2
    err = capsys.readouterr().err
    assert err == ("tools.replay: %s: not a saved game (the device keeps its games in solo.json "
                   "and referee.json)\n" % (tmp_path / "settings.json"))


def test_files_written_by_micropython_replay_alike(tmp_path, capsys):
    """The same button presses on the real MicroPython interpreter: its files read the same."""
    from tools.sim import headless as sim

    here = tmp_path / "cpython"
    here.mkdir()
    session, referee, _, _ = play_on_the_device(here)
    events = tmp_path / "play.txt"
    events.write_text(session.events_text())
    pico = tmp_path / "micropython"
    pico.mkdir()
    assert sim.main(["--headless", "--seed", "5", "--events", str(events), "--frames-out",
                     str(tmp_path / "f.jsonl"), "--runtime", "micropython",
                     "--state", str(pico)]) == 0
    capsys.readouterr()
    for name in ("referee.json", "solo.json"):
        assert replay.main(["--saved", str(here / name), "--json"]) == 0
        on_cpython = capsys.readouterr().out
        assert replay.main(["--saved", str(pico / name), "--json"]) == 0
        assert capsys.readouterr().out == on_cpython


def test_replay_tool_numbers_the_rounds_of_a_folded_game(capsys):
    from tools import replay

    game = Game(Layout.named("black:ABCD0000"), players=2, seed=7)
    for _ in range(70):
        game.give_up()
    assert replay.main([notation.share(game)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("round %d: " % (game.folded + 1))
    assert lines[-1].startswith("round 71: ") and lines[-1].endswith("being played")
    assert len(lines) == 1 + len(game.decisions()) + 1
