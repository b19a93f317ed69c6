"""The search in C (tools/ricochet/csearch.c, ckernel.py) against the others: the same
optimum, the same moves and the same number of positions as the pure-Python search it
mirrors (its table grows before it would replace anything), on random deals with and
without the transparent robot, under both landing readings and both ricochet rules; the
optimum of the independent breadth-first search (test_ricochet_solver's) on short ones; a
fresh command that runs it without numpy or numba; the fallback without a compiler."""

import ctypes
import os
import subprocess
import sys
from array import array

import pytest
from hypothesis import given, settings, strategies as st

from tools.ricochet import ckernel, solver
from tools.ricochet import rules as rr
from tools.ricochet.cli import deal
from test_ricochet_rules import ALL_ASSEMBLIES
from test_ricochet_solver import model_optimum, near_coloured_targets, vortex_cell_st

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

pytestmark = pytest.mark.skipif(not ckernel.available(), reason="no C compiler to build csearch.c")


def same_search(board, robots, target, **kw):
    py = solver.solve(board, robots, target, engine="python", **kw)
    c = solver.solve(board, robots, target, engine="c", **kw)
    assert c.engine == "c"
    assert (c.count, c.moves, c.nodes, c.out_of_budget) == (py.count, py.moves, py.nodes,
                                                            py.out_of_budget)
    assert [d[:2] for d in c.depths] == [d[:2] for d in py.depths]
    return c


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(ALL_ASSEMBLIES), st.integers(0, 16), st.booleans(), st.booleans())
def test_the_c_searchs_own_tables_are_the_python_searchs(faces, target, clear, rule):
    """The bounds and slack tables the C search builds for itself (in C, on a fresh board)
    are solver.Tables', number for number."""
    board = rr.Board(faces)
    tab = solver.Tables(board)
    goal = board.targets[target]
    walls = ckernel.board_walls(board.walls)
    bound = ckernel.bounds(walls, goal, clear, rule)
    assert list(bound) == [v for row in tab.bound(goal, clear, rule) for v in row]
    if clear:
        return
    closer, reach = ckernel.descents(walls, bound, solver.AFTER)
    py_closer, py_reach = tab.descents(goal, rule)
    assert list(closer) == [sum(1 << m[0] for m in py_closer[f][p])
                            for f in range(4) for p in range(rr.CELLS)]
    assert bytes(reach) == b"".join(r.to_bytes(32, "little") for row in py_reach for r in row)


def slides_within(walls, bound, f, p, moves, cells, seen):
    """The cells of every slide a relaxed search of at most ``moves`` moves from p in state
    f may make, any cell a stop, pruned by the bounds as csearch.c's relaxed() prunes."""
    if moves <= 0 or seen.get((f, p), 0) >= moves:
        return
    seen[(f, p)] = moves
    for d in range(4):
        g, x, ray = solver.AFTER[f][d], p, []
        while not walls[x] & (1 << d):
            x += (-16, 1, 16, -1)[d]
            ray.append(x)
        stops = [x for x in ray if bound[g * rr.CELLS + x] <= moves - 1]
        if stops:
            cells.update(ray)
        for x in stops:
            slides_within(walls, bound, g, x, moves - 1, cells, seen)


@settings(max_examples=8, deadline=None)
@given(st.sampled_from(ALL_ASSEMBLIES), st.integers(0, 16), st.booleans(),
       st.lists(st.integers(0, 4 * rr.CELLS - 1), min_size=40, max_size=40))
def test_reach2_holds_every_cell_a_route_with_one_move_more_can_cross(faces, target, rule, at):
    """rr_reach2 (the blockers' filter with one move of slack) against a search of the
    slides themselves, and the descents' reach with no move more."""
    board = rr.Board(faces)
    walls = ckernel.board_walls(board.walls)
    bound = ckernel.bounds(walls, board.targets[target], False, rule)
    _, reach = ckernel.descents(walls, bound, solver.AFTER)
    after = (ctypes.c_int32 * 16)(*[v for row in solver.AFTER for v in row])
    reach2 = (ctypes.c_uint8 * (4 * rr.CELLS * 32))()
    ckernel.load().rr_reach2(walls, bound, after, reach, reach2)
    for idx in at:
        if bound[idx] >= solver.UNREACHABLE:
            continue
        for table, more in ((reach, 0), (reach2, 1)):
            cells = set()
            slides_within(walls, bound, idx // rr.CELLS, idx % rr.CELLS, bound[idx] + more,
                          cells, {})
            bits = int.from_bytes(bytes(table[idx * 32:idx * 32 + 32]), "little")
            assert {x for x in range(rr.CELLS) if bits >> x & 1} == cells


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 100_000), st.booleans(), st.booleans(), st.booleans(), st.booleans())
def test_the_c_search_is_the_python_search_move_for_move(seed, silver, clear, rule, landing):
    faces, robots, target = deal(seed, silver=silver, clear=clear)
    board = rr.Board(faces)
    c = same_search(board, robots, target, ricochet=rule, clear_stops_on_targets=landing,
                    max_moves=6, node_limit=20_000)
    if c.count is not None:
        assert rr.check(board, robots, target, c.moves, ricochet=rule,
                        clear_stops_on_targets=landing).ok


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(ALL_ASSEMBLIES), st.lists(vortex_cell_st, min_size=6, max_size=6, unique=True),
       st.integers(0, 16), st.integers(0, 15), st.integers(0, 15), st.booleans(), st.booleans(),
       st.booleans())
def test_the_c_search_finds_the_independent_searchs_optimum(faces, cells, target, pick, offset,
                                                            landing, silver, clear):
    board = rr.Board(faces)
    robots = near_coloured_targets(board, cells, offset, pick)
    if not silver:
        robots[rr.SILVER] = rr.ABSENT
    if not clear:
        robots[rr.CLEAR] = rr.ABSENT
    limit = 3
    got = solver.solve(board, robots, target, max_moves=limit, clear_stops_on_targets=landing,
                       engine="c")
    assert got.count == model_optimum(faces, robots, target, limit, True, landing)
    if got.count is not None:
        assert rr.check(board, robots, target, got.moves, clear_stops_on_targets=landing).ok


def forward_wall_distances(board, goal):
    """The fewest slides to stop on ``goal`` having turned (state TURNED), per (state, cell),
    when walls alone stop the robot: slides made forward with the rules module's
    Board.slide (no other robot on the board), then counted back from the goal."""
    robots = array("h", [rr.ABSENT] * 6)
    into = {}  # (state, cell) reached -> the (state, cell) that reach it in one slide
    for p in range(rr.CELLS):
        robots[rr.RED] = p
        for d in range(4):
            q = board.slide(robots, rr.RED, d)
            if q < 0:
                continue
            for f in range(4):
                into.setdefault((rr.after_move(f, d), q), []).append((f, p))
    dist = {(rr.TURNED, goal): 0}
    frontier = [(rr.TURNED, goal)]
    while frontier:
        later = []
        for v in frontier:
            for u in into.get(v, ()):
                if u not in dist:
                    dist[u] = dist[v] + 1
                    later.append(u)
        frontier = later
    return [dist.get((f, p), ckernel.UNREACHABLE) for f in range(4) for p in range(rr.CELLS)]


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(ALL_ASSEMBLIES), st.integers(0, 16))
def test_the_wall_distances_behind_the_blockers_bounds(faces, target):
    """rr_wall_dist, the tables of the two quick bounds that rule positions out before the
    blockers' searches: the distances when walls alone stop the robot as slides made with
    the rules module give them; per cell and direction the least over the states the
    slide leaves; per segment the least beside its cells; per cell the least beside it."""
    board = rr.Board(faces)
    goal = board.targets[target]
    walls = ckernel.board_walls(board.walls)
    after = ckernel._i32([v for row in solver.AFTER for v in row])
    hseg, vseg = ckernel._segments(board.walls)
    out = (ckernel.ctypes.c_int32 * (11 * rr.CELLS))()
    ckernel.load().rr_wall_dist(walls, goal, after, hseg, vseg, out)
    dist = forward_wall_distances(board, goal)
    assert list(out[:4 * rr.CELLS]) == dist
    least = [min(dist[rr.after_move(f, d) * rr.CELLS + x] for f in range(4))
             for x in range(rr.CELLS) for d in range(4)]
    assert list(out[4 * rr.CELLS:8 * rr.CELLS]) == least
    steps = (-16, 1, 16, -1)
    beside, by_segment = [], {}
    for b in range(rr.CELLS):
        near = min([least[(b - steps[d]) * 4 + d] for d in range(4)
                    if 0 <= b - steps[d] < rr.CELLS] + [ckernel.UNREACHABLE])
        beside.append(near)
        for name, seg in (("h", hseg[b]), ("v", vseg[b])):
            by_segment[name, seg] = min(by_segment.get((name, seg), ckernel.UNREACHABLE), near)
    for k, name in ((8, "h"), (9, "v")):
        assert list(out[k * rr.CELLS:(k + 1) * rr.CELLS]) == [
            by_segment.get((name, s), ckernel.UNREACHABLE) for s in range(rr.CELLS)]
    assert list(out[10 * rr.CELLS:]) == beside


def test_the_landing_deals_differ_by_a_move_in_c_as_in_python():
    for seed in (25, 77):  # test_ricochet_solver's LANDING_SEEDS: the rule changes the optimum
        faces, robots, target = deal(seed, clear=True)
        board = rr.Board(faces)
        book = same_search(board, robots, target)
        other = same_search(board, robots, target, clear_stops_on_targets=True)
        assert other.count == book.count - 1


def test_longer_deals_and_a_budget_agree_with_python():
    for seed in (246, 1377, 57):  # 8-10 moves: the table grows several times on the way
        faces, robots, target = deal(seed, silver=seed == 57, clear=seed == 57)
        same_search(rr.Board(faces), robots, target)
    faces, robots, target = deal(1377)
    board = rr.Board(faces)
    c = solver.solve(board, robots, target, engine="c", node_limit=500)
    py = solver.solve(board, robots, target, engine="python", node_limit=500)
    assert c.count is None and c.out_of_budget and py.out_of_budget
    assert [d[:2] for d in c.depths] == [d[:2] for d in py.depths]


def test_the_table_is_kept_between_solves_and_restarted_when_generations_run_out():
    faces, robots, target = deal(246)
    board = rr.Board(faces)
    first = solver.solve(board, robots, target, engine="c")
    bits, generation = ckernel.table_info()
    again = solver.solve(board, robots, target, engine="c")
    assert (again.count, again.moves, again.nodes) == (first.count, first.moves, first.nodes)
    assert ckernel.table_info() == (bits, generation + 1)
    ckernel.load().rr_table_expire()
    assert solver.solve(board, robots, target, engine="c").nodes == first.nodes
    assert ckernel.table_info()[1] == 1


def command(code, **env_changes):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.path.join(ROOT, "firmware")]))
    env.pop("RICOCHET_ENGINE", None)
    env.update(env_changes)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


FRESH = ("import sys\nfrom tools.ricochet import rules as rr, solver\n"
         "f, r, t = rr.decode_game('00F7CN8GQR25KW')\n"
         "s = solver.solve(rr.Board(f), r, t)\n"
         "print(s.count, s.engine, 'numpy' in sys.modules, 'numba' in sys.modules)\n")


def test_a_fresh_solve_runs_the_c_search_without_numpy_or_numba():
    assert command(FRESH) == ["10", "c", "False", "False"]


def test_switched_off_the_solver_runs_the_other_searches():
    count, engine = command(FRESH, RICOCHET_CSEARCH="off")[:2]
    assert count == "10" and engine != "c"


def test_a_failing_compiler_is_one_line_and_no_library(tmp_path):
    target = str(tmp_path / "lib.so")
    os.environ["CC"] = "false"
    try:
        with pytest.raises(RuntimeError, match="^cannot build csearch.c"):
            ckernel.build(target)
    finally:
        del os.environ["CC"]
    assert not os.path.exists(target)
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]


def test_a_warm_process_gets_the_table_size_of_the_numba_search():
    kernel = pytest.importorskip("tools.ricochet.kernel")
    assert solver.TABLE_BITS == kernel.TABLE_BITS
    assert solver.C_TABLE_BITS <= solver.TABLE_BITS


def test_a_full_bucket_of_the_largest_table_sends_the_key_on_instead_of_replacing():
    # seed 838, 14 moves: in a command's table (16 MB, 2**18 buckets) some 500 buckets
    # fill; replacing a key there searched 405,062 positions. The Python reference (a dict,
    # some 10 s, too slow for a test) searched 405,057, measured once on 2026-12-03; since
    # a position with one move of slack is entered only when a child of it passes the
    # blocker bound (slack1_alive), 399,265 (measured once on 2026-12-06).
    faces, robots, target = rr.decode_game("10KA7TEDT9EZ9R")
    board = rr.Board(faces)
    kept = solver.C_TABLE_BITS
    try:
        for bits in (18, 19):
            solver.C_TABLE_BITS = bits
            result = solver.solve(board, robots, target, engine="c")
            assert (result.count, result.nodes) == (14, 399_265), bits
    finally:
        solver.C_TABLE_BITS = kept
