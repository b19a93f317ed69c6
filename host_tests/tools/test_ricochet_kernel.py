"""The compiled search (tools/ricochet/kernel.py, numba) against the pure-Python one it
mirrors: the same optimum, the same moves and the same number of positions searched while
its fixed-size table has room; the same optimum when the table overflows."""

import pytest

from tools.ricochet import rules as rr
from tools.ricochet import kernel, solver
from tools.ricochet.cli import deal

pytestmark = pytest.mark.skipif(not kernel.AVAILABLE, reason="numba is not installed")

# (seed, silver, clear): four robots, five, the transparent robot, both; vortex deals among them
# 25 and 77: deals whose optimum the transparent robot's landing rule changes
SEEDS = [(s, s % 3 == 0, s % 2 == 1) for s in range(0, 12)] + [
    (25, False, True), (57, True, False), (77, False, True)]


@pytest.mark.parametrize("landing", [False, True], ids=["rulebook", "may-stop-on-targets"])
@pytest.mark.parametrize("rule", [True, False], ids=["ricochet-rule", "no-ricochet-rule"])
def test_compiled_search_is_the_python_search_move_for_move(rule, landing):
    kinds = set()
    for seed, silver, clear in SEEDS:
        faces, robots, target = deal(seed, silver=silver, clear=clear)
        board = rr.Board(faces)
        py = solver.solve(board, robots, target, ricochet=rule, engine="python", max_moves=9,
                          clear_stops_on_targets=landing)
        nb = solver.solve(board, robots, target, ricochet=rule, engine="numba", max_moves=9,
                          clear_stops_on_targets=landing)
        assert (nb.count, nb.moves, nb.nodes) == (py.count, py.moves, py.nodes), seed
        assert [d[:2] for d in nb.depths] == [d[:2] for d in py.depths]
        assert not rule or py.count is None or py.count >= 2  # one slide never turns
        assert nb.engine == "numba" and py.engine == "python"
        if py.count is not None:
            kinds.add((target == rr.VORTEX, clear, silver,
                       any(k for _, _, k in py.moves)))
            assert rr.check(board, robots, target, nb.moves, ricochet=rule,
                            clear_stops_on_targets=landing).ok
    assert len(kinds) >= 6  # vortex and coloured, with and without clear, silver, passes


def test_the_table_is_kept_from_solve_to_solve_and_never_cleared():
    """A new solve takes the next generation: the same table, and what earlier solves
    wrote in it counts as empty (the same positions searched every time)."""
    faces, robots, target = deal(246)
    board = rr.Board(faces)
    first = solver.solve(board, robots, target, engine="numba")
    table = kernel._TABLE[1]
    generation = kernel._TABLE[2]
    for _ in range(2):
        again = solver.solve(board, robots, target, engine="numba")
        assert (again.count, again.moves, again.nodes) == (first.count, first.moves, first.nodes)
    assert kernel._TABLE[1] is table and kernel._TABLE[2] == generation + 2
    kernel._TABLE[2] = 255  # the generations run out: a new table, zeroed by the system
    assert solver.solve(board, robots, target, engine="numba").nodes == first.nodes
    assert kernel._TABLE[1] is not table and kernel._TABLE[2] == 1


def test_a_full_table_costs_positions_never_the_optimum(monkeypatch):
    monkeypatch.setattr(kernel, "TABLE_BITS", 3)  # 8 buckets, 56 positions: replaced all the time
    for seed in (3, 7, 57, 146):
        faces, robots, target = deal(seed, silver=seed % 2 == 1, clear=True)
        board = rr.Board(faces)
        py = solver.solve(board, robots, target, engine="python")
        nb = solver.solve(board, robots, target, engine="numba")
        assert nb.count == py.count
        assert rr.check(board, robots, target, nb.moves).ok
        if py.nodes > 200:
            assert nb.nodes > py.nodes


def test_auto_hands_over_to_the_compiled_search_only_for_long_deals(monkeypatch):
    # without the search in C (no compiler): auto's choice between Python and numba
    monkeypatch.setattr(solver, "c_available", lambda: False)
    faces, robots, target = deal(246)  # 8 moves, 3,803 positions
    board = rr.Board(faces)
    short = deal(204)  # 4 moves, 8 positions
    solver.load_kernel()
    assert solver.kernel_loaded()  # in this process: a warm one, the compiled search at once
    assert solver.solve(rr.Board(short[0]), *short[1:], engine="auto").engine == "numba"
    monkeypatch.setattr(solver, "WARM_HANDOVER", 10_000)
    assert solver.solve(rr.Board(short[0]), *short[1:], engine="auto").engine == "python"
    monkeypatch.setattr(solver, "HANDOVER", 50)
    monkeypatch.setattr(solver, "WARM_HANDOVER", 50)  # numba is loaded in this process
    long = solver.solve(board, robots, target, engine="auto")
    assert long.engine == "python, then numba"
    assert long.count == solver.solve(board, robots, target, engine="python").count
    # the compiled search went on from the bound after the last one Python searched in full
    bounds = [b for b, _, _ in long.depths]
    assert bounds == list(range(bounds[0], bounds[0] + len(bounds)))
    assert long.nodes > sum(n for _, n, _ in long.depths)  # and the bound that solved it
