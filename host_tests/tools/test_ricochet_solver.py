"""The Ricochet solver against a brute-force BFS over whole positions, and the claim
checker against corrupted solutions."""

import functools
import itertools
import math

import pytest
from hypothesis import given, settings, strategies as st

from tools.ricochet import rules as rr
from test_ricochet_rules import ALL_ASSEMBLIES, Model
from tools.ricochet.cli import deal
from tools.ricochet.solver import power_sum_values, solve


def reference(board, robots, target, limit, ricochet=True):
    """Fewest moves (slides plus passes) to ``target``, or None beyond ``limit``.

    Uniform-cost search over whole states: every robot's cell and, under the ricochet
    rule, the ricochet state (unmoved, moved only E-W, only N-S, turned) of every robot
    that can complete the target (the others' cannot matter); every robot distinct, no
    bounds, no table tricks; the firmware's slide is the only rule used, the turn is
    written out here from the rule's wording.
    """
    cells = tuple(robots)
    can = [target == rr.VORTEX or w == target >> 2 for w in range(rr.ROBOT_COUNT)]
    start = cells + tuple(0 if ricochet and c else 3 for c in can)
    seen = {start: 0}
    buckets = [[] for _ in range(limit + 1)]
    buckets[0].append(start)
    best = None
    for g in range(limit):
        if best is not None and best <= g + 1:
            break
        for state in buckets[g]:
            if seen[state] != g:
                continue
            pos = rr.new_robots(state[:rr.ROBOT_COUNT])
            for who in range(rr.ROBOT_COUNT):
                if pos[who] == rr.ABSENT:
                    continue
                for d in range(4):
                    # a turn: a move along the other axis than this robot's previous move
                    was = state[rr.ROBOT_COUNT + who]
                    axis = 1 if d in (1, 3) else 2
                    turned = 3 if was == 3 or (was != 0 and was != axis) else axis
                    if not can[who]:
                        turned = was
                    for k in range(16 if who == rr.CLEAR else 1):
                        q = board.slide(pos, who, d, k)
                        if q == rr.CANNOT_PASS:
                            break
                        cost = g + 1 + k
                        if q < 0 or cost > limit:
                            continue
                        if board.completes(who, q, target) and turned == 3:
                            best = cost if best is None else min(best, cost)
                            continue
                        nxt = list(state)
                        nxt[who] = q
                        nxt[rr.ROBOT_COUNT + who] = turned
                        nxt = tuple(nxt)
                        if cost < seen.get(nxt, limit + 1):
                            seen[nxt] = cost
                            buckets[cost].append(nxt)
    return best


@functools.lru_cache(maxsize=None)
def board_of(faces):
    """One Board per assembly, so that the solver's tables are built once for it."""
    return rr.Board(faces)


@functools.lru_cache(maxsize=None)
def short_deals(clear, silver, vortex_only=False, passes_only=False, count=3, longest=5,
                helpers_only=False, ricochet=True):
    """Seeds of random deals whose optimum is at most ``longest`` moves (found by the
    solver, then judged by the reference)."""
    found = []
    for seed in range(3000):
        faces, robots, target = deal(seed, silver=silver, clear=clear)
        if vortex_only and target != rr.VORTEX:
            continue
        result = solve(board_of(faces), robots, target, max_moves=longest, ricochet=ricochet)
        if result.count is None or result.count < 2:
            continue
        if passes_only and not any(k for _, _, k in result.moves):
            continue
        if helpers_only and (target == rr.VORTEX or result.count < longest
                             or all(w == target >> 2 for w, _, _ in result.moves)):
            continue
        found.append(seed)
        if len(found) == count:
            break
    return tuple(found)


CASES = [
    dict(clear=False, silver=False),
    dict(clear=False, silver=True),
    dict(clear=True, silver=False),
    dict(clear=True, silver=False, vortex_only=True),
    dict(clear=True, silver=True, passes_only=True, count=2, longest=4),
    dict(clear=False, silver=False, helpers_only=True, count=2, longest=6),
    dict(clear=False, silver=False, ricochet=False),
    dict(clear=True, silver=False, ricochet=False),
    dict(clear=True, silver=False, vortex_only=True, ricochet=False),
]


def case_id(case):
    return "-".join(k if v is True else "no-ricochet" if k == "ricochet" else "%s=%s" % (k, v)
                    for k, v in case.items() if v is not False or k == "ricochet") or "plain"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_solver_is_optimal_against_whole_position_bfs(case):
    seeds = short_deals(**case)
    rule = case.get("ricochet", True)
    assert seeds, "no short deal found for %r" % case
    for seed in seeds:  # the solver's answer, then BFS up to it: equal, not less
        faces, robots, target = deal(seed, silver=case["silver"], clear=case["clear"])
        board = rr.Board(faces)
        result = solve(board, robots, target, ricochet=rule)
        assert result.ricochet == rule
        assert result.count == reference(board, robots, target, result.count, rule), seed
        assert sum(1 + k for _, _, k in result.moves) == result.count
        verdict = rr.check(board, robots, target, result.moves, ricochet=rule)
        assert verdict.ok and verdict.moves == result.count, verdict.reason
        # and nothing shorter: the search within one move less finds nothing either
        assert solve(board, robots, target, max_moves=result.count - 1, ricochet=rule).count is None


vortex_cell_st = st.integers(0, 255).filter(lambda c: c not in rr.CENTRE)


@settings(max_examples=40)
@given(st.sampled_from(ALL_ASSEMBLIES), st.lists(vortex_cell_st, min_size=6, max_size=6, unique=True),
       st.integers(0, 16), st.booleans(), st.integers(0, 15), st.booleans())
def test_solver_matches_bfs_on_random_positions_with_the_clear_robot(faces, cells, target,
                                                                     silver, offset, rule):
    board = rr.Board(faces)
    robots = rr.new_robots(cells)
    if not silver:
        robots[rr.SILVER] = rr.ABSENT
    goal = board.targets[target]
    # put the clear robot on the target's row or column, where passing walls can matter
    line = [c for c in range(256) if (c // 16 == goal // 16 or c % 16 == goal % 16)
            and c not in rr.CENTRE and c not in robots[:5] and c != goal]
    robots[rr.CLEAR] = line[offset % len(line)]
    limit = 3
    want = reference(board, robots, target, limit, rule)
    got = solve(board, robots, target, max_moves=limit, ricochet=rule)
    assert got.count == want
    if want is not None:
        assert rr.check(board, robots, target, got.moves, ricochet=rule).ok


def test_helpers_of_equal_role_are_interchangeable():
    """Swapping two helpers' colours changes nothing for a coloured target, so the table
    may treat them as a set: the optimum is the same either way."""
    for seed in short_deals(clear=True, silver=True, count=4, longest=7):
        faces, robots, target = deal(seed, silver=True, clear=True)
        board = rr.Board(faces)
        helpers = [w for w in range(5) if w != target >> 2] if target != rr.VORTEX else [0, 1]
        swapped = rr.new_robots(robots)
        swapped[helpers[0]], swapped[helpers[1]] = robots[helpers[1]], robots[helpers[0]]
        assert solve(board, robots, target).count == solve(board, swapped, target).count


@pytest.mark.parametrize("k, span", [(2, 60), (3, 36), (4, 20), (5, 15)])
def test_position_keys_treat_equal_robots_as_a_set_and_nothing_more(k, span):
    """Every k-set of cells gets its own key, at both ends of the board (small cells make
    equal low power sums likely; large ones would overflow a field too narrow)."""
    values = power_sum_values(k, 20, 1024)  # a cell and its ricochet state: c * 4 + f
    for cells in (range(span), range(1024 - span, 1024)):
        keys = {sum(values[c] for c in subset) for subset in itertools.combinations(cells, k)}
        assert len(keys) == math.comb(span, k)
    assert all(v % (1 << 20) == 0 for v in values)  # the low bits stay free for the others


# -- the checker against corrupted solutions ----------------------------------------------------
def replay(faces, robots, target, moves):
    """Independent verdict from the cell-by-cell model: (ok, first illegal move or 0).
    The ricochet rule as worded: the completing robot has made, at some point, a move
    along the other axis than its own move before."""
    model = Model(faces)
    pos = [None if c == rr.ABSENT else rr.xy(c) for c in robots]
    goal = model.targets[rr.target_name(target)]
    axes = [[] for _ in pos]  # each robot's moves so far: "NS" or "EW"
    for n, (who, d, k) in enumerate(moves, 1):
        if pos[who] is None or (k and who != rr.CLEAR):
            return False, n
        q = model.slide(pos, who, d, k)
        if q is None:
            return False, n
        pos[who] = q
        axes[who].append("NS" if d in (0, 2) else "EW")
        turned = any(a != b for a, b in zip(axes[who], axes[who][1:]))
        if q == goal and (target == rr.VORTEX or who == target >> 2) and turned:
            return n == len(moves), 0
    return False, 0


def corruptions(moves):
    n = len(moves)
    for i in range(n):
        yield moves[:i] + moves[i + 1:]                                  # a move left out
        who, d, k = moves[i]
        for d2 in range(4):
            if d2 != d:
                yield moves[:i] + [(who, d2, k)] + moves[i + 1:]         # another direction
        for w2 in range(rr.ROBOT_COUNT):
            if w2 != who:
                yield moves[:i] + [(w2, d, 0)] + moves[i + 1:]          # another robot
        yield moves[:i] + [(rr.CLEAR, d, k + 1)] + moves[i + 1:]        # one more pass
        if k:
            yield moves[:i] + [(who, d, k - 1)] + moves[i + 1:]         # one pass less
        if i + 1 < n:
            yield moves[:i] + [moves[i + 1], moves[i]] + moves[i + 2:]  # two moves swapped
    for d in range(4):
        yield moves + [(moves[-1][0], d, 0)]                             # one move too many
    yield moves[:-1]


@pytest.mark.parametrize("seed", [4, 25, 146, 288])
def test_checker_against_corrupted_solutions(seed):
    faces, robots, target = deal(seed, silver=seed % 3 == 0, clear=True)
    board = rr.Board(faces)
    best = solve(board, robots, target)
    moves = list(best.moves)
    assert rr.check(board, robots, target, moves).ok
    tried = 0
    for claim in corruptions(moves):
        tried += 1
        verdict = rr.check(board, robots, target, claim)
        ok, illegal = replay(faces, robots, target, claim)
        assert verdict.ok == ok, (claim, verdict.reason)
        assert verdict.moves == sum(1 + k for _, _, k in claim)
        if illegal:
            assert verdict.code == rr.ILLEGAL_MOVE and verdict.move == illegal, verdict.reason
        if verdict.moves < best.count:
            assert not verdict.ok  # below the proven optimum: never correct
    assert tried > 20


# -- the landing rule against a search that shares no code with the rules module -----------
def model_solvable(faces, robots, target, limit, ricochet=True, clear_stops_on_targets=False):
    """Whether ``target`` can be completed in at most ``limit`` moves: breadth-first over
    whole positions where every move is the cell-by-cell model's (test_ricochet_rules.Model,
    built from the data file, with its own slide and its own landing rule), cells as (x, y),
    each robot's last axis and whether it has turned. Nothing of tools.ricochet runs."""
    model = Model(faces)
    name = rr.target_name(target)
    goal = model.targets[name]
    active = [name == "vortex" or w == target >> 2 for w in range(6)]
    start = (tuple(None if c == rr.ABSENT else rr.xy(c) for c in robots),
             tuple((None, not ricochet) for _ in range(6)))
    seen = {start: 0}
    frontier = [[] for _ in range(limit + 1)]
    frontier[0].append(start)
    for g in range(limit):
        for state in frontier[g]:
            if seen[state] != g:
                continue
            pos, axes = state
            for who in range(6):
                if pos[who] is None:
                    continue
                for d in range(4):
                    axis = "NS" if d in (0, 2) else "EW"
                    last, turned = axes[who]
                    turned = turned or (last is not None and last != axis)
                    for k in range(limit - g if who == 5 else 1):  # walls passed: k more
                        q = model.slide(list(pos), who, d, k, clear_stops_on_targets)
                        if q is None:
                            continue
                        if q == goal and active[who] and turned:
                            return True
                        nxt = (pos[:who] + (q,) + pos[who + 1:],
                               axes[:who] + ((axis, turned),) + axes[who + 1:])
                        cost = g + 1 + k
                        if cost < limit and cost < seen.get(nxt, limit):
                            seen[nxt] = cost
                            frontier[cost].append(nxt)
    return False


def model_optimum(faces, robots, target, limit, ricochet=True, clear_stops_on_targets=False):
    """The fewest moves by ``model_solvable``, or None beyond ``limit``."""
    for n in range(1, limit + 1):
        if model_solvable(faces, robots, target, n, ricochet, clear_stops_on_targets):
            return n
    return None


# seeds whose optimum the landing rule changes (the other reading is one move shorter):
# 25, the vortex (clear W would end on the red hexagon); 77, the red circle (the clear robot
# as a blocker)
LANDING_SEEDS = (25, 77)


@pytest.mark.parametrize("seed", LANDING_SEEDS)
@pytest.mark.parametrize("landing", [False, True], ids=["rulebook", "may-stop-on-targets"])
def test_the_landing_rule_against_the_independent_search(seed, landing):
    faces, robots, target = deal(seed, clear=True)
    board = rr.Board(faces)
    got = solve(board, robots, target, clear_stops_on_targets=landing, engine="python")
    assert got.count == model_optimum(faces, robots, target, got.count, True, landing)
    assert rr.check(board, robots, target, got.moves, clear_stops_on_targets=landing).ok
    other = solve(board, robots, target, clear_stops_on_targets=not landing, engine="python")
    assert other.count == got.count + (-1 if not landing else 1)  # the rule matters here
    if not landing:  # the other reading's optimum breaks the rulebook's rule
        assert not rr.check(board, robots, target, other.moves).ok


def near_coloured_targets(board, cells, offset, pick):
    """The clear robot moved onto the row or column of a coloured target (``pick``), where
    it may slide onto it."""
    robots = rr.new_robots(cells)
    spot = board.targets[pick]
    line = [c for c in range(256) if (c // 16 == spot // 16 or c % 16 == spot % 16)
            and c not in rr.CENTRE and c not in robots[:5] and c != spot]
    robots[rr.CLEAR] = line[offset % len(line)]
    return robots


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(ALL_ASSEMBLIES), st.lists(vortex_cell_st, min_size=6, max_size=6, unique=True),
       st.integers(0, 16), st.integers(0, 15), st.integers(0, 15), st.booleans(), st.booleans())
def test_landing_rule_matches_the_independent_search_on_random_deals(faces, cells, target, pick,
                                                                     offset, landing, silver):
    board = rr.Board(faces)
    robots = near_coloured_targets(board, cells, offset, pick)
    if not silver:
        robots[rr.SILVER] = rr.ABSENT
    limit = 3
    want = model_optimum(faces, robots, target, limit, True, landing)
    got = solve(board, robots, target, max_moves=limit, clear_stops_on_targets=landing,
                engine="python")
    assert got.count == want
    if want is not None:
        assert rr.check(board, robots, target, got.moves, clear_stops_on_targets=landing).ok


def test_the_bench_deal_set_reads_and_each_solution_is_an_optimum_the_checker_accepts():
    """tools/bench/ricochet_deals.txt, the issue's table's deals: 24 standard deals from 3
    to 22 moves, no transparent robot, each line's solution correct in its number of moves
    (read_deals checks it); the short ones' optimum confirmed by the solver."""
    from tools.bench import ricochet as bench
    deals = bench.read_deals()
    assert len(deals) == 24
    assert [d[1] for d in deals] == sorted(d[1] for d in deals)
    assert deals[0][1] == 3 and deals[-1][1] == 22
    for lo, hi in bench.BUCKETS:
        assert sum(1 for d in deals if lo <= d[1] <= hi) >= 4
    for game, optimum, _, _ in deals:
        faces, robots, target = rr.decode_game(game)
        assert robots[rr.SILVER] == robots[rr.CLEAR] == rr.ABSENT
        if optimum <= 6:
            assert solve(rr.Board(faces), robots, target, engine="python").count == optimum


def test_a_bench_deal_line_that_does_not_hold_is_refused_naming_its_line(tmp_path):
    from tools.bench import ricochet as bench
    path = tmp_path / "deals.txt"
    path.write_text("# a comment\n0ZQ0NA4S0T61MC 3 yellow S, blue W  # two moves only\n")
    with pytest.raises(rr.RicochetError, match="deals.txt line 2: the solution given is not 3"):
        bench.read_deals(str(path))
    path.write_text("0ZQ0NA4S0T61MC three yellow S\n")
    with pytest.raises(rr.RicochetError, match="deals.txt line 1: write GAME OPTIMUM MOVES"):
        bench.read_deals(str(path))
