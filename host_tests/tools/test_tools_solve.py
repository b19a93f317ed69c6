"""python -m tools.solve and python -m tools.boards: their contracts."""

import io
import json
import subprocess
import sys

import pytest
from hypothesis import given

from layouts import layouts, reference_distances
from microrobots.rules.board import Layout
from microrobots.rules.solver import Solver
from mpy import ROOT
from tools import boards, solve


def run(*args, stdin=None):
    proc = subprocess.run([sys.executable, "-m", "tools.solve", *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT)
    return proc.returncode, proc.stdout, proc.stderr


def test_json_contract():
    code, out, err = run("G3", "W5", "--via", "R1", "--claim", "9", "--json")
    assert code == 0 and err == ""
    answer = json.loads(out)
    assert set(answer) == {"from", "to", "via", "distance", "path", "claim", "claim_possible"}
    layout = Layout.named("black:ABCD0000")
    solver = Solver(layout)
    g3, w5, r1 = (layout.index(t) for t in ("G3", "W5", "R1"))
    assert answer["distance"] == solver.distance(g3, w5, r1) == len(answer["path"]) - 1
    assert answer["path"][0] == "G3" and answer["path"][-1] == "W5" and "R1" in answer["path"]
    assert answer["claim_possible"] == solver.walk_exists(g3, w5, 9, r1)


def test_text_output_and_tiles():
    code, out, _ = run("--tiles", "copper:CADB0312", "3-green", "green-5")
    layout = Layout.named("copper:CADB0312")
    d = Solver(layout).distance(layout.index("G3"), layout.index("G5"))
    assert code == 0 and out.startswith("G3 -> G5: %d move" % d)
    code2, out2, _ = run("--side", "copper", "--tiles", "CADB0312", "G3", "G5")
    assert (code2, out2) == (code, out)


def test_unreachable_is_null(tmp_path):
    text = "\n".join(" ".join("BYGRPW"[(r + c) % 6] + str((r + 2 * c) % 6 + 1)
                              for c in range(6)) for r in range(6))
    f = tmp_path / "split.txt"
    f.write_text(text)
    layout = Layout.parse(text)
    code, out, _ = run("--layout", str(f), layout.token(0), layout.token(1), "--claim", "3",
                       "--json")
    answer = json.loads(out)
    assert code == 0 and answer["distance"] is None and answer["path"] is None
    assert answer["claim_possible"] is False


@pytest.mark.parametrize("args", [
    ("G9", "W5"), ("G3",), ("G3", "W5", "--claim", "-1"), ("G3", "W5", "--claim", "x"),
    ("--tiles", "ABCE0000", "G3", "W5"), ("--tiles", "black:ABCD0009", "G3", "W5"),
    ("--layout", "/no/such/file", "G3", "W5"), ("--bogus",), ("G3", "W5", "--via", "Q1"),
])
def test_bad_input_exits_2_with_one_line(args):
    code, out, err = run(*args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("tools.solve: error:")
    assert "Traceback" not in err


def test_bad_layout_file_names_line(tmp_path):
    f = tmp_path / "t.txt"
    f.write_text(str(Layout.named("black")).replace("Y4", "Y7"))
    code, _, err = run("--layout", str(f), "G3", "W5")
    assert code == 2 and "t.txt: line 2, column 2: unknown number" in err


def test_jsonl_answers_in_order_and_flags_bad_lines():
    lines = "G3 W5\n# comment\nG3 W5 R1 7\nnonsense W5\nG3 W5 4\n"
    out = io.StringIO()
    code = solve.main(["--jsonl"], stdin=io.StringIO(lines), stdout=out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert code == 2  # one bad line
    assert [a.get("via") for a in answers] == [None, "R1", None, None]
    assert answers[1]["claim"] == 7 and answers[3]["claim"] == 4
    assert set(answers[2]) == {"line", "error"} and answers[2]["line"] == 4
    assert answers[2]["error"].startswith("FROM: unknown colour")


@given(layouts)
def test_stats_histogram_matches_reference(layout):
    result = solve.stats(layout, Solver(layout))
    hist = {}
    unreachable = 0
    for s in range(36):
        for t, d in enumerate(reference_distances(layout, s)):
            if t != s:
                if d is None:
                    unreachable += 1
                else:
                    hist[str(d)] = hist.get(str(d), 0) + 1
    assert result["histogram"] == hist and len(result["unreachable"]) == unreachable


def rotate_code(code):
    """The arrangement seen after turning the whole board a quarter turn clockwise:
    TL->TR->BR->BL->TL, each board one more turn."""
    boards_, turns = code[:4], [int(t) for t in code[4:]]
    dest = {0: 1, 1: 3, 3: 2, 2: 0}
    new_b, new_t = [""] * 4, [0] * 4
    for q in range(4):
        new_b[dest[q]] = boards_[q]
        new_t[dest[q]] = (turns[q] + 1) % 4
    return "".join(new_b) + "".join(map(str, new_t))


@given(layouts)
def test_bitset_all_pairs_matches_solver(layout):
    hist = [0] * 37
    unreachable = boards.all_pairs(boards.neighbour_masks(layout.colours, layout.numbers), hist)
    want = solve.stats(layout, Solver(layout))
    assert {str(d): n for d, n in enumerate(hist) if n} == want["histogram"]
    assert unreachable == len(want["unreachable"])


def test_whole_board_rotation_is_another_arrangement():
    # The symmetry tools.boards relies on: cell (r, c) moves to (c, 5 - r).
    for side in ("black", "copper"):
        for code in ("ABCD0000", "CADB0312", "DBAC3321"):
            a = Layout.from_tiles(side, code)
            b = Layout.from_tiles(side, rotate_code(code))
            for i in range(36):
                r, c = divmod(i, 6)
                assert a.token(i) == b.token(c * 6 + 5 - r)


def test_boards_analyse_json_matches_published_figures():
    proc = subprocess.run([sys.executable, "-m", "tools.boards", "analyse", "--json"],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0
    result = json.loads(proc.stdout)
    pairs = 6144 * 36 * 35
    for side, longest, mean in (("black", 14, 3.54), ("copper", 12, 3.24)):
        r = result[side]
        assert r["arrangements"] == 6144 and r["unreachable"] == 0
        assert sum(r["histogram"].values()) == pairs
        assert max(int(d) for d in r["histogram"]) == longest == r["longest"]
        assert round(r["mean"], 2) == mean


@pytest.mark.parametrize("args, message", [
    (("G3", "W5", "extra"), "FROM and TO are two cells, but 1 more word follows them: extra"),
    (("G3", "W5", "x", "y"), "FROM and TO are two cells, but 2 more words follow them: x y"),
    (("G3",), "give TO as well as FROM G3, e.g. G3 W5"),
    ((), "give FROM and TO cells, e.g. G3 W5 (or --jsonl / --stats)"),
])
def test_usage_errors_say_what_was_given(args, message):
    code, out, err = run(*args)
    assert (code, out, err) == (2, "", "tools.solve: error: %s\n" % message)


def test_counts_are_singular_and_plural_as_they_should_be():
    layout = Layout.named("black:ABCD0000")
    solver = Solver(layout)
    a, b = 0, solver.moves(0)[0]  # one move apart
    c = next(t for t in range(36) if solver.distance(a, t) == 2)
    answer = solve.query(layout, solver, a, b, claim=1)
    assert solve.describe(answer).splitlines() == [
        "%s -> %s: 1 move" % (layout.token(a), layout.token(b)),
        "route: %s %s" % (layout.token(a), layout.token(b)),
        "claim 1: possible — a route of exactly 1 move exists"]
    assert solve.describe(solve.query(layout, solver, a, c, claim=4)).splitlines()[0] \
        .endswith(": 2 moves")
    out = io.StringIO()
    solve.main(["--jsonl"], stdin=io.StringIO("G3\n"), stdout=out)
    assert json.loads(out.getvalue())["error"] == "expected FROM TO [VIA] [CLAIM], got 1 word"
    code, text, _ = run("--stats")
    assert code == 0 and "   1 move:  " in text and "   2 moves: " in text
    assert " 1 pairs" not in text and "1 moves" not in text
