"""python -m tools.ricochet: the command-line contract of issue 7."""

import io
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from tools.ricochet import rules as rr
from tools.ricochet import cli
from tools.ricochet.solver import solve

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEAL = ["--faces", "1A,2B,3A,4B", "--robots", "red=0,0", "green=15,0", "blue=0,15",
        "yellow=15,15", "clear=5,5", "--target", "red circle"]


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_solve_json_has_the_documented_shape_and_checks():
    code, out, err = run("solve", *DEAL, "--json")
    assert code == 0 and not err
    answer = json.loads(out)
    assert set(answer) == {"moves", "ricochet_rule", "solution"}
    assert answer["ricochet_rule"] is True
    assert all(set(m) == {"robot", "dir", "passes"} for m in answer["solution"])
    assert answer["moves"] == sum(1 + m["passes"] for m in answer["solution"])
    claim = ", ".join("%s %s%s" % (m["robot"], m["dir"], "+%d" % m["passes"] if m["passes"] else "")
                      for m in answer["solution"])
    code, out, _ = run("check", *DEAL, "--moves", claim)
    verdict = json.loads(out)
    assert code == 0 and verdict["ok"] is True and verdict["moves"] == answer["moves"]
    assert set(verdict) == {"ok", "moves", "reason", "ricochet_rule"}
    assert verdict["ricochet_rule"] is True


def test_solve_text_lists_each_move_and_where_it_ends():
    code, out, _ = run("solve", *DEAL)
    assert code == 0
    lines = out.strip().splitlines()
    count = int(lines[0].split(": ")[1].split()[0])
    assert lines[0].startswith("red circle: ") and ", ricochet rule (" in lines[0]
    assert len(lines) - 1 == count - sum(int(w.split("+")[1]) for w in out.split() if "+" in w)


def test_check_reports_a_wrong_claim_with_exit_1():
    code, out, err = run("check", *DEAL, "--moves", "red E")
    verdict = json.loads(out)
    assert code == 1 and verdict["ok"] is False and verdict["moves"] == 1
    assert "red ends at (1,0)" in verdict["reason"]


@pytest.mark.parametrize("argv, fragment", [
    (["solve", "--faces", "1A,2B,3A,5B"] + DEAL[2:], "unknown face '5B'"),
    (["solve", "--faces", "1A,2B,3A,4B", "--robots", "red=0,0", "green=0,0", "blue=1,1",
      "yellow=2,2", "--target", "vortex"], "robots red and green are both at (0,0)"),
    (["solve", "--faces", "1A,2B,3A,4B", "--robots", "red=8,8", "green=0,0", "blue=1,1",
      "yellow=2,2", "--target", "vortex"], "inside the central barrier"),
    (["solve"] + DEAL[:-2] + ["--target", "purple", "star"], "unknown target"),
    (["check"] + DEAL + ["--moves", "red W"], "move 1 is not legal: red W: the robot does not move"),
    (["check"] + DEAL + ["--moves", "red E, clear N+9"], "cannot pass that many walls"),
    (["check"] + DEAL + ["--moves", "silver N"], "that robot is not on the board"),
    (["check"] + DEAL + ["--moves", "red N+1"], "only the clear robot passes walls"),
    (["solve", "--game", "NOTAGAME"], "expected 14 characters"),
    (["solve", "--game", "00P5GD08F3W2M9"], "check character"),
    (["solve"], "--faces is missing"),
    (["random"], "--seed"),
    (["fly"], "invalid choice"),
    (["render"] + DEAL + ["--svg", "/nonexistent/dir/deal.svg"], "No such file or directory"),
    (["check"] + DEAL + ["--moves", " , "], "no moves given"),
    (["solve"] + DEAL + ["--max-moves", "0"], "--max-moves must be at least 1"),
    (["solve", "--game", "0B7P6ZBDXVGFEG"] + DEAL[:2], "not both"),
])
def test_bad_input_is_one_line_and_exit_2(argv, fragment):
    code, out, err = run(*argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("ricochet: error: ")
    assert fragment in err


def test_render_text_and_svg(tmp_path):
    svg = tmp_path / "deal.svg"
    code, out, _ = run("render", *DEAL, "--svg", str(svg))
    assert code == 0
    lines = out.splitlines()
    assert sum(line.count("###") for line in lines) == 4  # the central barrier
    for letter in "RGBYC":
        assert sum(line.count(" %s " % letter) for line in lines) == 1
    assert sum(line.count("*") for line in lines) == 1  # the target: red circle at (4,1)
    assert lines[4][4 + 4 * 4:4 + 4 * 4 + 3] == " * "
    root = ET.parse(svg).getroot()
    circles = [c for c in root.iter("{http://www.w3.org/2000/svg}circle") if c.find(
        "{http://www.w3.org/2000/svg}title") is not None]
    assert sorted(c.find("{http://www.w3.org/2000/svg}title").text for c in circles) == \
        ["blue", "clear", "green", "red", "yellow"]


def test_random_is_reproducible_and_its_game_id_recreates_the_deal():
    a = run("random", "--seed", "42", "--clear", "--json")
    b = run("random", "--seed", "42", "--clear", "--json")
    assert a == b and a[0] == 0
    deal = json.loads(a[1])
    assert run("random", "--seed", "43", "--clear", "--json")[1] != a[1]
    code, by_id, _ = run("render", "--game", deal["game"])
    code2, by_parts, _ = run("render", "--faces", deal["faces"], "--robots",
                             *deal["robots"].split(), "--target", deal["target"])
    assert code == code2 == 0 and by_id == by_parts
    assert "clear=" in deal["robots"] and "silver=" not in deal["robots"]
    faces, robots, target = rr.decode_game(deal["game"])
    assert (faces, robots, target) == cli.deal(42, clear=True)
    assert robots[rr.CLEAR] != rr.ABSENT
    board = rr.Board(faces)
    assert not set(robots) & set(board.targets)  # robots start off the targets


def test_solve_by_game_id_matches_the_library():
    faces, robots, target = cli.deal(7, clear=True)
    game = rr.encode_game(faces, robots, target)
    code, out, _ = run("solve", "--game", game, "--json")
    assert code == 0
    assert json.loads(out)["moves"] == solve(rr.Board(faces), robots, target).count


SEED27 = ["--faces", "1B,4A,3A,2B", "--robots", "red=0,2", "green=6,6", "blue=0,10",
          "yellow=1,1", "--target", "yellow", "hexagon"]


def test_ricochet_rule_is_the_default_and_its_option_drops_it():
    """Seed 27: yellow reaches its hexagon in one slide east, which the rule forbids."""
    code, out, _ = run("check", *SEED27, "--moves", "yellow E")
    verdict = json.loads(out)
    assert code == 1 and verdict["ok"] is False and verdict["ricochet_rule"] is True
    assert "without a ricochet" in verdict["reason"]
    code, out, _ = run("check", *SEED27, "--moves", "yellow E", "--no-ricochet-rule")
    assert code == 0 and json.loads(out) == {
        "ok": True, "moves": 1, "ricochet_rule": False,
        "reason": "correct: yellow reaches the yellow hexagon in 1 move"}
    with_rule = json.loads(run("solve", *SEED27, "--json")[1])
    without = json.loads(run("solve", *SEED27, "--json", "--no-ricochet-rule")[1])
    assert without == {"moves": 1, "ricochet_rule": False,
                       "solution": [{"robot": "yellow", "dir": "E", "passes": 0}]}
    assert with_rule["ricochet_rule"] is True and with_rule["moves"] > 1
    claim = ", ".join("%s %s" % (m["robot"], m["dir"]) for m in with_rule["solution"])
    assert json.loads(run("check", *SEED27, "--moves", claim)[1])["ok"] is True
    assert "1 move, no ricochet rule (" in run("solve", *SEED27, "--no-ricochet-rule")[1]
    code, out, _ = run("random", "--seed", "27", "--json")
    assert json.loads(out)["optimum"] == with_rule["moves"]
    assert json.loads(out)["ricochet_rule"] is True
    code, out, _ = run("random", "--seed", "27", "--no-ricochet-rule")
    assert out.splitlines()[-1] == "optimum 1 move, no ricochet rule"


def test_no_solution_within_the_limit_is_exit_1():
    code, out, _ = run("solve", *DEAL, "--max-moves", "1")
    assert code == 1 and "no solution within 1 move, ricochet rule" in out


def test_module_runs_as_a_program():
    proc = subprocess.run([sys.executable, "-m", "tools.ricochet", "random", "--seed", "3"],
                          cwd=ROOT, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "firmware")))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("game ")


def test_a_command_builds_only_its_own_parser_and_help_lists_them_all():
    commands = ["solve", "check", "render", "random", "serve"]
    subs = lambda parser: parser._subparsers._group_actions[0].choices  # noqa: E731
    assert list(subs(cli.build_parser("solve"))) == ["solve"]
    for first in (None, "-h", "solv"):
        assert list(subs(cli.build_parser(first))) == commands
    code, _, err = run("solv", *DEAL)
    assert code == 2 and "invalid choice: 'solv'" in err and "'serve'" in err


def test_a_fresh_solve_imports_no_shutil():
    """argparse imports shutil (with bz2 and lzma) for the terminal's width: the command's
    parsers read it themselves, so a fresh solve does without."""
    code = ("import runpy, sys\n"
            "sys.argv = ['tools.ricochet', 'solve', '--game', '0ZQ0NA4S0T61MC', '--json']\n"
            "try:\n"
            "    runpy.run_module('tools.ricochet', run_name='__main__', alter_sys=True)\n"
            "except SystemExit:\n"
            "    pass\n"
            "print('shutil' in sys.modules, file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=os.pathsep.join(
                              [ROOT, os.path.join(ROOT, "firmware")])))
    assert json.loads(proc.stdout)["moves"] == 3
    assert proc.stderr.split()[-1] == "False", proc.stderr


def _fresh_solve(*argv):
    """``python -m tools.ricochet ARGV`` in a fresh process: (status, stdout, stderr, the
    modules of those named it had imported by its exit)."""
    code = ("import atexit, runpy, sys\n"
            "atexit.register(lambda: print(' '.join(m for m in ('argparse', 're', 'json')"
            " if m in sys.modules), file=sys.stderr))\n"
            "sys.argv = ['tools.ricochet'] + %r\n"
            "runpy.run_module('tools.ricochet', run_name='__main__', alter_sys=True)\n"
            % (list(argv),))
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=os.pathsep.join(
                              [ROOT, os.path.join(ROOT, "firmware")])))
    lines = proc.stderr.splitlines()
    return proc.returncode, proc.stdout, "\n".join(lines[:-1]), set(lines[-1].split())


@pytest.mark.parametrize("game", ["0ZQ0NA4S0T61MC", "0F8JMYHTS10HC3", "0B7P6ZBDXVGFEG"],
                         ids=["3 moves", "8 moves", "clear robot"])
def test_the_quick_path_answers_as_the_full_command_without_argparse_or_json(game):
    """``solve --game ID --json`` is answered by quick.py: cli.py's very output (checked
    here against cli.main in this process), with neither argparse nor json nor re loaded."""
    status, out, err, loaded = _fresh_solve("solve", "--game", game, "--json")
    assert (status, err, loaded) == (0, "", set())
    assert out == run("solve", "--game", game, "--json")[1]
    from tools.ricochet import quick
    faces, robots, target = rr.decode_game(game)
    assert quick.solution_text(solve(rr.Board(faces), robots, target)) == out.strip()


@pytest.mark.parametrize("argv", [
    ["solve", "--game", "0ZQ0NA4S0T61MX", "--json"],   # a mistyped game ID
    ["solve", "--json", "--game", "0ZQ0NA4S0T61MC"],   # another order
    ["solve", "--game", "0ZQ0NA4S0T61MC"],             # text output
    ["solve", "--game", "0ZQ0NA4S0T61MC", "--json", "--no-ricochet-rule"],
], ids=["bad id", "order", "text", "rule off"])
def test_anything_else_is_the_full_commands(argv):
    status, out, err, loaded = _fresh_solve(*argv)
    assert "argparse" in loaded
    code, full_out, full_err = run(*argv)
    seconds = re.compile(r"in [0-9.]+ s\)")  # the text output's search time
    assert (status, seconds.sub("", out), err) == (code, seconds.sub("", full_out),
                                                   full_err.rstrip("\n"))


def test_the_help_is_laid_out_as_argparse_lays_it_out(monkeypatch):
    """The same help as argparse's own layout (which asks shutil for the width), at any
    terminal width."""
    import argparse

    def help_text(formatter):
        monkeypatch.setattr(cli, "_Formatter", formatter)
        return cli.build_parser("check")._subparsers._group_actions[0].choices["check"].format_help()
    texts = []
    formatter = cli._Formatter
    for columns in range(40, 121):
        monkeypatch.setenv("COLUMNS", str(columns))
        ours = help_text(formatter)
        assert ours == help_text(argparse.HelpFormatter), columns
        texts.append(ours)
    assert len(set(texts)) > 10


def test_the_clear_robot_lands_on_no_coloured_target_unless_the_other_reading_is_asked():
    claim = ("check", "--game", "0B7P6ZBDXVGFEG", "--moves", "clear N, clear W, clear S+1")
    code, out, err = run(*claim)
    assert code == 2 and out == ""
    assert err.strip() == ("ricochet: error: --moves: move 2 is not legal: clear W: the clear"
                           " robot may land on no target but the vortex")
    code, out, err = run(*claim, "--clear-may-stop-on-targets")
    assert code == 0 and json.loads(out)["ok"] is True
    code, out, _ = run("solve", "--game", "0B7P6ZBDXVGFEG", "--json")
    assert json.loads(out)["moves"] == 5
    code, out, _ = run("solve", "--game", "0B7P6ZBDXVGFEG", "--json", "--clear-may-stop-on-targets")
    assert json.loads(out)["moves"] == 4
