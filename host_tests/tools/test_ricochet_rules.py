"""Ricochet Robots rules (tools/ricochet/rules.py) against the quadrant data file
and a naive cell-by-cell model of the slide rule written here from the issue's wording."""

import itertools
import json
import os

import pytest
from hypothesis import given, strategies as st

from tools.ricochet import rules as rr
import ricochet_rules_mpy
from mpy import run_file

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tools", "ricochet", "quadrants.txt")
DELTA = {0: (0, -1), 1: (1, 0), 2: (0, 1), 3: (-1, 0)}


def read_data():
    """face -> {"walls": [(x, y, sides)], "targets": [(x, y, colour, shape)]}"""
    faces, face = {}, None
    with open(DATA) as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            if words[0] == "face":
                face = faces.setdefault(words[1], {"walls": [], "targets": []})
            elif words[0] == "wall":
                face["walls"].append((int(words[1]), int(words[2]), words[3]))
            elif words[0] == "target":
                face["targets"].append((int(words[1]), int(words[2]), words[3], words[4]))
            else:
                raise AssertionError("unknown line %r" % line)
    return faces


DATA_FACES = read_data()
ALL_ASSEMBLIES = [tuple(b + s for b, s in zip(order, sides))
                  for order in itertools.permutations("1234")
                  for sides in itertools.product("AB", repeat=4)]


# -- the data file and the embedded copy --------------------------------------------------
def test_embedded_faces_match_the_data_file():
    assert sorted(DATA_FACES) == sorted(rr.FACES)
    for name, face in DATA_FACES.items():
        tokens = ["%d%d%s" % w for w in face["walls"]]
        tokens += ["%d%d%s" % (x, y, "v" if c == "any" else c[0] + s[0])
                   for x, y, c, s in face["targets"]]
        assert sorted(rr.FACES[name].split()) == sorted(tokens), name


def test_data_file_invariants_per_face():
    for name, face in DATA_FACES.items():
        assert (7, 7, "NESW") in face["walls"], name  # its corner of the central barrier
        walled = {(x, y): sides for x, y, sides in face["walls"]}
        for x, y, _colour, _shape in face["targets"]:
            assert 0 <= x < 8 and 0 <= y < 8
            # every target sits in a corner of two walls
            sides = walled.get((x, y), "")
            assert len(sides) == 2 and sides not in ("NS", "EW"), (name, x, y)
        vortices = [t for t in face["targets"] if t[2] == "any"]
        assert len(vortices) == (1 if name[0] == "4" else 0), name


@pytest.mark.parametrize("faces", ALL_ASSEMBLIES[::7] + ALL_ASSEMBLIES[-3:])
def test_every_assembled_board_has_17_targets_one_vortex(faces):
    board = rr.Board(",".join(faces))
    cells = list(board.targets)
    assert len(cells) == 17 and len(set(cells)) == 17  # all present, on distinct cells
    targets = [t for f in faces for t in DATA_FACES[f]["targets"]]
    assert len(targets) == 17
    assert sum(1 for t in targets if t[2] == "any") == 1
    assert len({(t[2], t[3]) for t in targets}) == 17  # 16 colour-shape pairs and the vortex
    for c in cells:
        assert c not in rr.CENTRE


def test_all_384_assemblies_build():
    for faces in ALL_ASSEMBLIES:
        assert 0xFF not in rr.Board(faces).targets


# -- an independent model of the board -----------------------------------------------------
class Model:
    """Walls as a set of (cell, neighbour) pairs built straight from the data file."""

    def __init__(self, faces):
        self.walls = set()
        self.targets = {}
        for q, name in enumerate(faces):
            for x, y, sides in DATA_FACES[name]["walls"]:
                for side in sides:
                    self._add(*self._place(x, y, "NESW".index(side), q))
            for x, y, colour, shape in DATA_FACES[name]["targets"]:
                x, y, _ = self._place(x, y, 0, q)
                key = "vortex" if colour == "any" else colour + " " + shape
                self.targets[key] = (x, y)
        centre = {(7, 7), (8, 7), (7, 8), (8, 8)}
        self.solid = set()
        for x, y in centre:
            for d, (dx, dy) in DELTA.items():
                self._add(x, y, d)
                self.solid.add(((x, y), (x + dx, y + dy)))
                self.solid.add(((x + dx, y + dy), (x, y)))

    @staticmethod
    def _place(x, y, side, quarter_turns):
        for _ in range(quarter_turns):  # clockwise about the board's centre
            x, y, side = 15 - y, x, (side + 1) % 4
        return x, y, side

    def _add(self, x, y, d):
        dx, dy = DELTA[d]
        self.walls.add(((x, y), (x + dx, y + dy)))
        self.walls.add(((x + dx, y + dy), (x, y)))

    def slide(self, robots, who, d, passes, clear_stops_on_targets=False):
        """Cell-by-cell: returns (x, y) or None when the move cannot be made. The clear
        robot (robot 5) lands on no target but the vortex, unless told it may."""
        x, y = robots[who]
        start = (x, y)
        others = {r for i, r in enumerate(robots) if r is not None and i != who}
        dx, dy = DELTA[d]
        while True:
            nxt = (x + dx, y + dy)
            if not (0 <= nxt[0] < 16 and 0 <= nxt[1] < 16):
                break
            if nxt in others:
                break
            if ((x, y), nxt) in self.walls:
                if passes == 0 or ((x, y), nxt) in self.solid:
                    break
                passes -= 1
            x, y = nxt
        if passes or (x, y) == start:
            return None
        if who == 5 and not clear_stops_on_targets and (x, y) in [
                cell for name, cell in self.targets.items() if name != "vortex"]:
            return None
        return (x, y)


faces_st = st.sampled_from(ALL_ASSEMBLIES)
cell_st = st.tuples(st.integers(0, 15), st.integers(0, 15)).filter(
    lambda c: c not in {(7, 7), (8, 7), (7, 8), (8, 8)})


@st.composite
def positions(draw, clear=None):
    """Six distinct cells; silver maybe absent; clear present (True), absent (False) or maybe."""
    robots = list(draw(st.lists(cell_st, min_size=6, max_size=6, unique=True)))
    if not draw(st.booleans()):
        robots[4] = None
    if clear is False or (clear is None and not draw(st.integers(0, 3))):
        robots[5] = None
    return robots


def to_bytes(robots):
    return rr.new_robots([rr.ABSENT if r is None else r[1] * 16 + r[0] for r in robots])


@given(faces_st, positions(), st.integers(0, 5), st.integers(0, 3), st.integers(0, 3),
       st.booleans())
def test_slide_matches_the_cell_by_cell_model(faces, robots, who, d, passes, landing):
    board, model = rr.Board(faces), Model(faces)
    pos = to_bytes(robots)
    got = board.slide(pos, who, d, passes, clear_stops_on_targets=landing)
    if robots[who] is None:
        assert got == rr.NOT_PLACED
    elif passes and who != rr.CLEAR:
        assert got == rr.NOT_CLEAR
    else:
        want = model.slide(robots, who, d, passes, clear_stops_on_targets=landing)
        assert (None if got < 0 else rr.xy(got)) == want
    assert pos == to_bytes(robots)  # slide never changes the robots


@given(faces_st)
def test_walls_are_stored_on_both_sides_and_solid_where_they_must_be(faces):
    board, model = rr.Board(faces), Model(faces)
    for c in range(256):
        x, y = rr.xy(c)
        for d, (dx, dy) in DELTA.items():
            nx, ny = x + dx, y + dy
            inside = 0 <= nx < 16 and 0 <= ny < 16
            assert board.wall(c, d) == (not inside or ((x, y), (nx, ny)) in model.walls)
            assert board.solid(c, d) == (not inside or ((x, y), (nx, ny)) in model.solid)
            if inside:
                back = (d + 2) % 4
                assert board.wall(c, d) == board.wall(ny * 16 + nx, back)
    for name, (x, y) in model.targets.items():
        assert board.targets[rr.parse_target(name)] == y * 16 + x


@given(faces_st, positions(clear=True), st.integers(0, 3), st.integers(0, 15))
def test_clear_robot_never_crosses_the_centre_or_leaves_the_board(faces, robots, d, passes):
    board = rr.Board(faces)
    pos = to_bytes(robots)
    got = board.slide(pos, rr.CLEAR, d, passes)
    if got < 0:
        return
    x0, y0 = robots[5]
    x1, y1 = rr.xy(got)
    assert (x0 == x1) or (y0 == y1)
    between = [(x, y0) for x in range(min(x0, x1), max(x0, x1) + 1)] if y0 == y1 else \
        [(x0, y) for y in range(min(y0, y1), max(y0, y1) + 1)]
    assert not set(between) & {(7, 7), (8, 7), (7, 8), (8, 8)}
    assert got not in pos[:5]


@given(faces_st, positions(clear=False), st.integers(0, 15))
def test_only_the_right_robot_completes_a_target(faces, robots, target):
    board = rr.Board(faces)
    here = board.targets[target]
    for who in range(6):
        want = target == rr.VORTEX or who == target >> 2
        assert board.completes(who, here, target) == want
    assert not board.completes(rr.CLEAR, here, target)  # never a coloured one


def test_clear_robot_never_lands_on_a_coloured_target_as_the_rulebook_says():
    """"The only target space on which it can land is the colored vortex": a move of the
    clear robot that would end on a coloured target is not legal (by default); the other
    reading lets it stop there, to no effect."""
    board = rr.Board("1A,2A,3A,4A")
    t = rr.parse_target("red circle")  # (4,1) on face 1A, walls N and W, nothing below it
    assert board.targets[t] == rr.cell(4, 1)
    robots = rr.parse_robots("red=0,0 green=15,0 blue=0,15 yellow=15,15 clear=4,5")
    assert board.slide(robots, rr.CLEAR, 0, 0) == rr.ON_TARGET
    verdict = rr.check(board, robots, t, rr.parse_moves("clear N"))
    assert verdict.code == rr.ILLEGAL_MOVE and verdict.move == 1
    assert verdict.reason == (
        "move 1 is not legal: clear N: the clear robot may land on no target but the vortex")
    # any other robot may stop there; a robot that stops the clear robot on it does not help
    assert board.slide(robots, rr.CLEAR, 0, 1) == rr.cell(4, 0)  # through the wall: legal
    assert board.slide(rr.new_robots([rr.cell(4, 0)] + list(robots[1:])), rr.CLEAR, 0, 1) \
        == rr.CANNOT_PASS


def test_clear_robot_may_stop_on_a_coloured_target_to_no_effect_in_the_other_reading():
    board = rr.Board("1A,2A,3A,4A")
    t = rr.parse_target("red circle")
    robots = rr.parse_robots("red=0,0 green=15,0 blue=0,15 yellow=15,15 clear=4,5")
    assert board.slide(robots, rr.CLEAR, 0, 0, clear_stops_on_targets=True) == rr.cell(4, 1)
    assert rr.check(board, robots, t, rr.parse_moves("clear N"),
                    clear_stops_on_targets=True).code == rr.TARGET_MISSED
    robots[0], robots[5] = rr.cell(4, 5), rr.cell(0, 0)
    assert rr.check(board, robots, t, rr.parse_moves("red N"), ricochet=False).ok
    assert rr.check(board, robots, t, rr.parse_moves("red N")).code == rr.NO_RICOCHET
    # a robot beyond the wall stops the clear robot: it cannot pass a wall into a robot
    robots = rr.parse_robots("red=4,0 green=15,0 blue=0,15 yellow=15,15 clear=4,5")
    assert board.slide(robots, rr.CLEAR, 0, 1) == rr.CANNOT_PASS
    assert board.slide(robots, rr.CLEAR, 0, 0, clear_stops_on_targets=True) == rr.cell(4, 1)
    # but with the cell free it passes the target's wall and slides to the edge
    robots[0] = rr.cell(3, 0)
    assert board.slide(robots, rr.CLEAR, 0, 1) == rr.cell(4, 0)
    assert board.slide(robots, rr.CLEAR, 0, 2) == rr.CANNOT_PASS  # the outer edge is solid


# -- the ricochet rule -------------------------------------------------------------------------
def test_after_move_counts_a_turn_only_across_the_robots_own_previous_axis():
    N, E, S, W = range(4)
    assert [rr.after_move(rr.UNMOVED, d) for d in (N, E, S, W)] == [
        rr.ALONG, rr.ACROSS, rr.ALONG, rr.ACROSS]
    assert rr.after_move(rr.ALONG, S) == rr.ALONG      # back the way it came: no turn
    assert rr.after_move(rr.ALONG, E) == rr.TURNED
    assert rr.after_move(rr.ACROSS, W) == rr.ACROSS
    assert rr.after_move(rr.ACROSS, N) == rr.TURNED
    assert all(rr.after_move(rr.TURNED, d) == rr.TURNED for d in range(4))


def test_ricochet_rule_in_the_checker():
    """Seed 27 of `tools.ricochet random`: yellow reaches its hexagon in one slide east."""
    board = rr.Board("1B,4A,3A,2B")
    robots = rr.parse_robots("red=0,2 green=6,6 blue=0,10 yellow=1,1")
    t = rr.parse_target("yellow hexagon")
    assert rr.check(board, robots, t, [(3, 1, 0)], ricochet=False).ok
    v = rr.check(board, robots, t, [(3, 1, 0)])
    assert v.code == rr.NO_RICOCHET and v.ricochet and not v.ok
    assert "without a ricochet" in v.reason
    # other robots' moves in between do not make a turn for yellow
    moves = rr.parse_moves("yellow E, red S, yellow W, yellow E")
    assert rr.check(board, robots, t, moves).code == rr.NO_RICOCHET
    assert rr.check(board, robots, t, moves, ricochet=False).code == rr.REACHED_EARLY


def test_robot_in_the_centre_is_rejected_and_absence_is_no_cell():
    """Issue 10: (7,7) used to be the 'no robot' marker."""
    for name in ("red", "clear", "silver"):
        others = "red=0,0 green=1,0 blue=2,0 yellow=3,0".replace("%s=0,0" % name, "")
        with pytest.raises(rr.RicochetError, match="robot %s at \\(7,7\\) is inside the central"
                           % name):
            rr.parse_robots(others + " %s=7,7" % name)
    assert rr.ABSENT not in range(rr.CELLS)
    robots = rr.parse_robots("red=0,0 green=1,0 blue=2,0 yellow=3,0")
    assert list(robots[4:]) == [rr.ABSENT, rr.ABSENT]
    robots[rr.CLEAR] = 0x77
    with pytest.raises(rr.RicochetError, match="central barrier"):
        rr.validate_robots(robots)


# -- text forms and game IDs ------------------------------------------------------------------
@pytest.mark.parametrize("text, fragment", [
    ("1A,2B,3A", "give four"), ("1A,2B,3A,5B", "unknown face '5B'"),
    ("1A,2B,2A,4B", "board 2 is used twice"), ("1C,2B,3A,4B", "unknown face"),
])
def test_bad_faces_are_named(text, fragment):
    with pytest.raises(rr.RicochetError, match=fragment):
        rr.parse_faces(text)


@pytest.mark.parametrize("text, fragment", [
    ("red=1,1 green=1,1 blue=2,2 yellow=3,3", "both at \\(1,1\\)"),
    ("red=7,8 green=1,1 blue=2,2 yellow=3,3", "inside the central barrier"),
    ("red=1,1 green=2,1 blue=2,2", "yellow is missing"),
    ("red=1,16 green=2,1 blue=2,2 yellow=3,3", "not a coordinate"),
    ("pink=1,1", "unknown robot"), ("red=1", "NAME=X,Y"),
    ("red=1,1 red=2,2", "placed twice"),
])
def test_bad_robots_are_named(text, fragment):
    with pytest.raises(rr.RicochetError, match=fragment):
        rr.parse_robots(text)


def test_moves_parse_and_format_round_trip():
    moves = rr.parse_moves("red N, clear E+1, green s ; c W +3")
    assert moves == [(0, 0, 0), (5, 1, 1), (1, 2, 0), (5, 3, 3)]
    assert ", ".join(rr.format_move(*m) for m in moves) == "red N, clear E+1, green S, clear W+3"
    for bad in ("red X", "red N+1", "red", "clear E+x", "mauve N"):
        with pytest.raises(rr.RicochetError):
            rr.parse_moves(bad)


@given(faces_st, positions(), st.integers(0, 16))
def test_game_id_round_trip(faces, robots, target):
    pos = to_bytes(robots)
    game = rr.encode_game(faces, pos, target)
    assert len(game) == 14
    assert rr.decode_game(game) == (faces, pos, target)
    assert rr.decode_game(game.lower()) == (faces, pos, target)


def test_game_id_typos_are_caught():
    game = rr.encode_game(("1A", "2B", "3A", "4B"),
                          rr.parse_robots("red=0,0 green=15,0 blue=0,15 yellow=15,15 clear=5,5"), 3)
    for i in range(len(game)):
        for ch in "0123456789ABCDEFGHJKMNPQRSTVWXYZ":
            if ch == game[i] or {ch, game[i]} == {"0", "Z"}:
                continue  # 0 and Z are 31 apart: the one substitution mod 31 misses
            typo = game[:i] + ch + game[i + 1:]
            try:
                decoded = rr.decode_game(typo)
            except rr.RicochetError:
                continue
            raise AssertionError("typo %s decoded as %r" % (typo, decoded))


# -- the real MicroPython ---------------------------------------------------------------------
def test_micropython_checks_a_claim_like_cpython():
    from tools.ricochet.solver import solve
    faces, robots_text, target = "3B,1A,2A,4B", "red=0,2 green=4,5 blue=5,4 yellow=2,5 clear=6,12", 16
    board, robots = rr.Board(faces), rr.parse_robots(robots_text)
    best = solve(board, robots, target)
    claims = ["clear S, clear E+1", "red E, red S", "green N+1", "clear N+1, clear E",
              "blue W, blue W", ", ".join(rr.format_move(*m) for m in best.moves)]
    got = json.loads(run_file(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                           "ricochet_rules_mpy.py"),
                              stdin=json.dumps([faces, robots_text, target, claims])))
    want = ricochet_rules_mpy.verdicts(rr, board, robots, target, claims)
    want += [0, rr.encode_game(board.faces, robots, target)]
    assert got == want
    assert want[-3][:2] == [True, best.count]  # the solver's solution checks on the device
    assert len({str(w[2]) if isinstance(w, list) else w for w in want[:-2]}) >= 3  # varied verdicts


def test_module_doc_example_is_true():
    import doctest
    result = doctest.testmod(rr)
    assert result.attempted >= 5 and result.failed == 0
