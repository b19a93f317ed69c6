"""tools/lesson.py, the searches the classroom shows: every moment of breadth-first and
depth-first search checked against naive references (a queue and a stack written out
here, the rule read from layouts.legal) and against the solver's distances."""

from collections import deque

from hypothesis import given
from hypothesis import strategies as st

from layouts import cells, layouts, legal
from microrobots.rules.board import Layout
from microrobots.rules.solver import UNREACHABLE, Solver
from tools import lesson


def reference(layout, start, kind):
    """Every moment of the search as (taken cell, the line after it, counts), naively."""
    counts = {start: 0}
    line = deque([start])
    moments = [(None, list(line), dict(counts))]
    while line:
        cell = line.popleft() if kind == "bfs" else line.pop()
        for n in range(36):
            if legal(layout, cell, n) and n not in counts:
                counts[n] = counts[cell] + 1
                line.append(n)
        waiting = list(line) if kind == "bfs" else list(reversed(line))
        moments.append((cell, waiting, dict(counts)))
    return moments


@given(layouts, cells, cells, st.sampled_from(lesson.KINDS))
def test_every_moment_matches_a_naive_queue_or_stack(layout, start, target, kind):
    search = lesson.Search(Solver(layout), start, target, kind)
    moments = reference(layout, start, kind)
    assert search.steps() == len(moments) - 1
    for k, (cell, waiting, counts) in enumerate(moments):
        state = search.state(k)
        assert state["current"] == (-1 if cell is None else cell)
        assert state["waiting"] == waiting
        assert state["visited"] == [m[0] for m in moments[1:k + 1]]
        assert state["moves"] == [counts.get(c, -1) for c in range(36)]
        assert state["found"] == (target in counts)
        if k:
            assert sorted(state["new"]) == sorted(set(counts) - set(moments[k - 1][2]))


@given(layouts, cells, cells)
def test_breadth_first_counts_are_the_solvers_distances_and_depth_first_is_never_shorter(
        layout, start, target):
    solver = Solver(layout)
    bfs = lesson.Search(solver, start, target, lesson.BREADTH_FIRST)
    dfs = lesson.Search(solver, start, target, lesson.DEPTH_FIRST)
    dist = solver.distances(start)
    assert bfs.moves == [-1 if d == UNREACHABLE else d for d in dist]
    if dist[target] == UNREACHABLE:
        assert bfs.route() == dfs.route() == [] and bfs.found == dfs.found == -1
        return
    for search in (bfs, dfs):
        route = search.route()
        assert route[0] == start and route[-1] == target
        assert all(legal(layout, a, b) for a, b in zip(route, route[1:]))
        assert len(route) - 1 == search.moves[target]
        assert search.state(search.found)["found"]
        assert search.found == 0 or not search.state(search.found - 1)["found"]
    assert len(bfs.route()) - 1 == dist[target]
    assert len(dfs.route()) >= len(bfs.route())


@given(layouts, cells)
def test_a_layer_step_ends_where_the_next_count_begins(layout, start):
    search = lesson.Search(Solver(layout), start, start)
    k, seen = 0, [0]
    while k < search.steps():
        k = search.next_stop(k, lesson.LAYER)
        seen.append(k)
    # after each layer step every cell of counts up to d is visited, and d + 1 all seen
    for k in seen[1:]:
        visited = search.state(k)["visited"]
        d = search.moves[visited[-1]]
        assert sorted(visited) == sorted(c for c in range(36) if 0 <= search.moves[c] <= d)
    back = [seen[-1]]
    while back[-1] > 0:
        back.append(search.prev_stop(back[-1], lesson.LAYER))
    assert back == list(reversed(seen))
    assert search.next_stop(0, lesson.CELL) == min(1, search.steps())


def test_one_puzzle_by_hand():
    """black:ABCD0000 from pink 4 (cell 32): the first cells, written out."""
    layout = Layout.named("black:ABCD0000")
    search = lesson.Search(Solver(layout), 32, 17)
    assert layout.token(32) == "P4"
    first = search.state(1)
    assert first["current"] == 32 and first["visited"] == [32]
    assert [layout.token(c) for c in first["waiting"]] == ["W4", "P6"]
    assert first["moves"][20] == first["moves"][33] == 1


def test_the_graph_lists_every_move_once():
    layout = Layout.named("copper:CADB0312")
    solver = Solver(layout)
    edges = lesson.edges(solver)
    assert len(edges) == sum(solver.degree(c) for c in range(36)) // 2
    assert all(a < b and legal(layout, a, b) for a, b in edges)
