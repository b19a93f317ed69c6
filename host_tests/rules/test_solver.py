"""The solver against brute-force readings of the rules, on random layouts."""

from hypothesis import assume, given
from hypothesis import strategies as st

from layouts import (cells, isolated_layouts, layouts, legal, reference_distances,
                     reference_walk_exists, reference_walk_layers)
from microrobots.rules import solver as S
from microrobots.rules.board import Layout
from microrobots.rules.solver import UNREACHABLE, Solver


@given(layouts, cells)
def test_moves_are_exactly_the_legal_hops(layout, a):
    solver = Solver(layout)
    assert solver.moves(a) == [b for b in range(36) if legal(layout, a, b)]
    assert solver.degree(a) == len(solver.moves(a))
    for b in range(36):
        assert solver.is_move(a, b) == legal(layout, a, b)


@given(layouts, cells)
def test_distances_match_reference(layout, start):
    got = list(Solver(layout).distances(start))
    want = reference_distances(layout, start)
    assert got == [UNREACHABLE if d is None else d for d in want]


@given(layouts, cells, cells)
def test_path_is_legal_and_optimal(layout, start, target):
    solver = Solver(layout)
    want = reference_distances(layout, start)[target]
    path = solver.path(start, target)
    if want is None:
        assert path is None and solver.distance(start, target) is None
        return
    assert path[0] == start and path[-1] == target
    assert len(path) - 1 == want == solver.distance(start, target)
    assert all(legal(layout, a, b) for a, b in zip(path, path[1:]))


@given(layouts, cells, cells, cells)
def test_path_via_waypoint(layout, start, via, target):
    solver = Solver(layout)
    first = reference_distances(layout, start)[via]
    second = reference_distances(layout, via)[target]
    path = solver.path(start, target, via)
    if first is None or second is None:
        assert path is None and solver.distance(start, target, via) is None
        return
    assert len(path) - 1 == first + second == solver.distance(start, target, via)
    assert via in path and path[0] == start and path[-1] == target
    assert all(legal(layout, a, b) for a, b in zip(path, path[1:]))


@given(layouts, cells, cells, st.integers(0, 4))
def test_walk_exists_matches_enumeration(layout, start, target, n):
    solver = Solver(layout)
    assert solver.walk_exists(start, target, n) == reference_walk_exists(layout, start, target, n)


@given(layouts, cells, cells, cells, st.integers(0, 4))
def test_walk_exists_with_via_matches_enumeration(layout, start, via, target, n):
    solver = Solver(layout)
    assert solver.walk_exists(start, target, n, via) == \
        reference_walk_exists(layout, start, target, n, via)


@given(layouts, cells, cells, st.one_of(st.none(), cells), st.integers(5, 60))
def test_long_walks_match_layered_reference(layout, start, target, via, n):
    # Too long to enumerate: step the set of (cell, waypoint seen) states n times.
    solver = Solver(layout)
    assert solver.walk_exists(start, target, n, via) == \
        reference_walk_layers(layout, start, target, n, via)


@given(isolated_layouts(), cells, st.one_of(st.none(), cells), st.integers(0, 5))
def test_walks_from_a_cell_without_a_move(layout_and_cell, other, via, n):
    # A custom layout can leave a die with no move: the robot there can only stay (n = 0).
    layout, cell = layout_and_cell
    solver = Solver(layout)
    assert solver.degree(cell) == 0 and reference_walk_exists(layout, cell, cell, 0)
    assert solver.walk_exists(cell, cell, n) is (n == 0)
    assert solver.walk_exists(cell, cell, 10 ** 9 + n % 2) is False
    for start, target in ((cell, other), (other, cell)):
        assert solver.walk_exists(start, target, n, via) == \
            reference_walk_exists(layout, start, target, n, via)


def test_walk_exists_huge_claims_answer_at_once():
    solver = Solver(Layout.named("black"))
    start, target = 0, 35
    d = solver.distance(start, target)
    assert solver.walk_exists(start, target, 10 ** 9 + d % 2)
    assert not solver.walk_exists(start, target, -1)


def reference_verdict(layout, start, target, moves, claimed, via=None):
    cell = start
    for k, b in enumerate(moves, 1):
        if not (0 <= b < 36 and legal(layout, cell, b)):
            return S.ILLEGAL_MOVE, k
        cell = b
    if len(moves) != claimed:
        return S.WRONG_COUNT, 0
    if cell != target:
        return S.TARGET_MISSED, 0
    if via is not None and via not in [start] + list(moves):
        return S.WAYPOINT_MISSED, 0
    return S.CORRECT, 0


@given(layouts, cells, cells, st.one_of(st.none(), cells), st.data())
def test_check_judges_corrupted_demonstrations(layout, start, target, via, data):
    solver = Solver(layout)
    path = solver.path(start, target, via)
    assume(path is not None)
    moves = path[1:]
    claimed = len(moves)
    verdict = solver.check(start, target, moves, claimed, via)
    assert verdict.ok and verdict.code == S.CORRECT
    # corrupt: replace, drop or add a cell, or misstate the count
    how = data.draw(st.sampled_from(["replace", "drop", "add", "claim", "none"]))
    if how == "replace" and moves:
        k = data.draw(st.integers(0, len(moves) - 1))
        moves = moves[:k] + [data.draw(st.integers(-2, 37))] + moves[k + 1:]
    elif how == "drop" and moves:
        k = data.draw(st.integers(0, len(moves) - 1))
        moves = moves[:k] + moves[k + 1:]
    elif how == "add":
        moves = moves + [data.draw(cells)]
    elif how == "claim":
        claimed = data.draw(st.integers(0, 40))
    verdict = solver.check(start, target, moves, claimed, via)
    code, move = reference_verdict(layout, start, target, moves, claimed, via)
    assert (verdict.code, verdict.move) == (code, move)
    assert verdict.ok == (code == S.CORRECT)
    assert verdict.reason and "\n" not in verdict.reason


def test_check_names_the_first_illegal_move():
    layout = Layout.named("black")
    solver = Solver(layout)
    path = solver.path(0, 35)
    bad = path[1:]
    bad[1] = bad[0]  # standing still is not a move
    verdict = solver.check(0, 35, bad, len(bad))
    assert verdict.code == S.ILLEGAL_MOVE and verdict.move == 2
    assert verdict.reason == "move 2 is not legal"
    kept = verdict.copy()
    solver.check(0, 35, path[1:], len(path) - 1)
    assert kept.move == 2 and not kept.ok


def test_waypoint_missed_is_reported():
    layout = Layout.named("black")
    solver = Solver(layout)
    path = solver.path(0, 35)
    via = next(c for c in range(36) if c not in path)
    verdict = solver.check(0, 35, path[1:], len(path) - 1, via)
    assert verdict.code == S.WAYPOINT_MISSED


def test_unreachable_pairs_exist_on_split_layouts():
    # colour = c + r, number = 2c + r: rows only link cells three columns apart.
    text = "\n".join(" ".join("BYGRPW"[(r + c) % 6] + str((r + 2 * c) % 6 + 1)
                              for c in range(6)) for r in range(6))
    solver = Solver(Layout.parse(text))
    assert solver.moves(0) == [3]
    assert solver.distance(0, 1) is None and solver.path(0, 1) is None
    assert list(solver.distances(0)).count(UNREACHABLE) == 34
    assert not solver.walk_exists(0, 1, 7)
    assert solver.walk_exists(0, 0, 2) and not solver.walk_exists(0, 0, 1)
    # a waypoint out of reach of the start, though it reaches the target: no route
    assert solver.path(1, 4) == [1, 4]
    assert solver.path(0, 4, 1) is None and solver.distance(0, 4, 1) is None


@given(layouts, cells, cells, st.one_of(st.none(), cells), st.integers(0, 14))
def test_benchmark_baseline_agrees_with_solver(layout, start, target, via, n):
    # make bench compares speeds with tools/bench/reference_solver.py: same answers first.
    from tools.bench import reference_solver as plain
    solver = Solver(layout)
    dist = plain.distances(layout.colours, layout.numbers, start, bytearray(36), bytearray(36))
    assert dist == solver.distances(start)
    v = -1 if via is None else via
    assert plain.walk_exists(layout.colours, layout.numbers, start, target, n, v,
                             bytearray(72), bytearray(72)) == solver.walk_exists(start, target, n, via)
