"""python -m tools.worksheet: the classroom's worksheets. The answer sheets agree with the
solver on a hundred seeds (the data drawn, and the numbers read back from the drawing),
the seed rolls the classroom's puzzle, the PDF is whole, bad arguments get one line."""

import os
import re
import shutil
import subprocess
import sys

import pytest

from microrobots.app import App
from microrobots.rules.board import Layout
from microrobots.rules.game import Game
from microrobots.rules.solver import UNREACHABLE, Solver
from tools import worksheet as ws

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAYOUT = Layout.named("black:ABCD0000")
SOLVER = Solver(LAYOUT)


def drawn(svg, cls):
    """What the drawing wrote in each group of class ``cls``: {cell: text}."""
    out = {}
    for cell, body in re.findall(r'<g class="%s" data-cell="(\d+)"[^>]*>(.*?)</g>' % cls, svg,
                                 re.S):
        texts = re.findall(r">([^<]*)</text>", body)
        out[int(cell)] = texts[0] if texts else ""
    return out


@pytest.mark.parametrize("seed", range(100))
def test_the_answer_sheet_agrees_with_the_solver(seed):
    start, target, waypoint = ws.classroom_puzzle(LAYOUT, seed, 1 + seed % 3, SOLVER)
    data = ws.puzzle_data(LAYOUT, start, target, waypoint, SOLVER)
    dist = list(SOLVER.distances(start))
    assert data["distances"] == [-1 if d == UNREACHABLE else d for d in dist]
    assert data["optimum"] == dist[target] == len(data["route"]) - 1
    assert data["one_move"] == [c for c in range(36) if dist[c] == 1]
    route = data["route"]
    assert route[0] == start and route[-1] == target
    assert all(SOLVER.is_move(a, b) for a, b in zip(route, route[1:]))
    c = data["challenge"]
    assert c["optimum"] == SOLVER.distance(start, target, waypoint) == len(c["route"]) - 1
    assert waypoint in c["route"]
    assert data["dfs"]["length"] >= data["optimum"] == data["bfs"]["length"]
    svg = ws.render_svg(data, "answers", seed, 1)
    numbers = drawn(svg, "distance")
    assert numbers == {i: (str(d) if d >= 0 else "-") for i, d in enumerate(data["distances"])}
    assert sorted(drawn(svg, "circled")) == data["one_move"]
    assert re.search(r'<g class="route" data-cells="([\d ]+)"', svg).group(1) \
        == " ".join(map(str, route))
    assert "Fewest moves R to T: %d." % data["optimum"] in svg


def test_the_seed_rolls_the_classrooms_puzzles():
    """Seed 7: a fresh device's first game, round after round as the classroom goes on."""
    game = Game(LAYOUT, 1, False, (7 + 7919) & 0x3FFFFFFF, 0, SOLVER)
    assert App(None, seed=7).new_seed() == 7 + 7919
    for puzzle in range(1, 5):
        start, target, waypoint = ws.classroom_puzzle(LAYOUT, 7, puzzle, SOLVER)
        assert (start, target) == (game.start, game.target)
        assert waypoint not in (start, target, None)
        game.give_up()
    assert ws.classroom_puzzle(LAYOUT, 7, 2, SOLVER)[0] == ws.classroom_puzzle(LAYOUT, 7, 1)[1]


def test_the_blank_sheets_mark_the_puzzle_and_leave_the_boxes_empty():
    start, target, waypoint = ws.classroom_puzzle(LAYOUT, 3, 1, SOLVER)
    data = ws.puzzle_data(LAYOUT, start, target, waypoint, SOLVER)
    for sheet, marks in (("warmup", {"robot": start}),
                         ("distances", {"robot": start, "target": target}),
                         ("challenge", {"robot": start, "target": target,
                                        "waypoint": waypoint})):
        svg = ws.render_svg(data, sheet, 3, 1)
        assert drawn(svg, "distance") == {} and drawn(svg, "circled") == {}
        assert svg.count('class="corner"') == 36
        for what in ("robot", "target", "waypoint"):
            assert list(drawn(svg, what)) == ([marks[what]] if what in marks else [])


def run(*args):
    return subprocess.run([sys.executable, "-m", "tools.worksheet", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_the_command_writes_a_whole_pdf(tmp_path):
    out = tmp_path / "sheets.pdf"
    proc = run("--seed", "7", "--tiles", "copper:CADB0312", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    data = out.read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    assert len(re.findall(rb"/Type /Page\b", data)) == 4
    again = tmp_path / "again.pdf"
    assert run("--seed", "7", "--tiles", "copper:CADB0312", "-o", str(again)).returncode == 0
    assert again.read_bytes() == data  # deterministic: a class set printed twice matches
    layout = Layout.named("copper:CADB0312")
    start, target, _ = ws.classroom_puzzle(layout, 7)
    assert "robot %s %d, target" % (("blue yellow green red pink white".split())[
        layout.colour(start)], layout.number(start)) in proc.stdout
    pdftoppm = shutil.which("pdftoppm")
    if pdftoppm:
        png = subprocess.run([pdftoppm, "-r", "20", "-png", str(out), str(tmp_path / "p")],
                             capture_output=True, timeout=120)
        assert png.returncode == 0 and len(list(tmp_path.glob("p*.png"))) == 4


def test_a_handhelds_puzzle_by_its_dice(tmp_path):
    out = tmp_path / "one.pdf"
    proc = run("--robot", "P4", "--target", "G3", "--waypoint", "green-5",
               "--sheets", "challenge,answers", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert len(re.findall(rb"/Type /Page\b", out.read_bytes())) == 2


@pytest.mark.parametrize("args, words", [
    (("--seed", "x"), "--seed 'x': not a whole number"),
    (("--seed", "1073741824"), "--seed 1073741824: outside 0..1073741823"),
    (("--puzzle", "0"), "--puzzle 0: outside 1..1000"),
    (("--robot", "Q9", "--target", "G3"), "--robot: unknown colour in 'Q9'"),
    (("--robot", "G3"), "--robot and --target go together"),
    (("--robot", "G3", "--target", "g3"), "--target: the robot already stands on g3"),
    (("--robot", "G3", "--target", "R1", "--seed", "2"), "give them or --seed, not both"),
    (("--sheets", "warmup,quiz"), "--sheets: unknown sheet 'quiz'"),
    (("--format", "svg"), "--format svg: one sheet per file"),
    (("--tiles", "black:ABCE0000"), "worksheet: "),
])
def test_bad_arguments_get_one_line(tmp_path, args, words):
    out = tmp_path / "x.pdf"
    proc = run(*args, "-o", str(out))
    assert proc.returncode == 2
    assert proc.stderr.startswith("worksheet: ") and words in proc.stderr
    assert proc.stderr.count("\n") == 1 and not out.exists()


def test_an_unwritable_output_is_one_line(tmp_path):
    proc = run("-o", str(tmp_path / "missing" / "x.pdf"))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "cannot write" in proc.stderr


def test_a_bad_layout_file_is_one_line(tmp_path):
    binary = tmp_path / "board.txt"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    for path in (binary, tmp_path / "missing.txt"):
        proc = run("--layout", str(path), "-o", str(tmp_path / "x.pdf"))
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
        assert proc.stderr.startswith("worksheet: ") and str(path) in proc.stderr


def test_a_target_out_of_reach_is_one_line(tmp_path):
    """A custom board in islands (colour r + c, number r + 2c): a target on another
    island is named, never drawn."""
    letters = "BYGRPW"
    text = "\n".join(" ".join("%s%d" % (letters[(r + c) % 6], (r + 2 * c) % 6 + 1)
                              for c in range(6)) for r in range(6)) + "\n"
    board = tmp_path / "islands.txt"
    board.write_text(text)
    layout = Layout.parse(text)
    solver = Solver(layout)
    dist = solver.distances(0)
    far = next(c for c in range(36) if dist[c] == UNREACHABLE)
    proc = run("--layout", str(board), "--robot", layout.token(0), "--target",
               layout.token(far), "-o", str(tmp_path / "x.pdf"))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "target %s cannot be reached from the robot on %s" % (
        layout.token(far), layout.token(0)) in proc.stderr
