"""The game engine: whole games with honest and dishonest claims against the rules."""

import itertools

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from microrobots.rules import solver as S
from microrobots.rules.board import Layout
from microrobots.rules import notation
from microrobots.rules.game import (
    MAX_CLAIM, POOL, WIN_TOKENS, Game, GameError, penalty_recipient,
)
from microrobots.rules.rolls import ROLLS  # rolls per target before a fallback
from microrobots.rules.solver import Solver
from layouts import layout_with_a_dead_cell

PERMS = ["".join(p) for p in itertools.permutations("ABCD")]


@st.composite
def named_layouts(draw):
    side = draw(st.sampled_from(["black", "copper"]))
    code = draw(st.sampled_from(PERMS)) + "".join(
        draw(st.lists(st.sampled_from("0123"), min_size=4, max_size=4)))
    return Layout.named(side + ":" + code)


@st.composite
def custom_layouts(draw):
    """Any of the 36! arrangements: about half of them leave some cells unreachable."""
    pairs = draw(st.permutations(range(36)))
    return Layout([p // 6 for p in pairs], [p % 6 + 1 for p in pairs])


layouts = st.one_of(named_layouts(), custom_layouts())


def bfs(layout, start):
    """Reference distances: a plain BFS over the move rule, independent of the solver."""
    def legal(a, b):
        same_line = a // 6 == b // 6 or a % 6 == b % 6
        same_face = (layout.colours[a] == layout.colours[b]
                     or layout.numbers[a] == layout.numbers[b])
        return a != b and same_line and same_face
    dist = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for a in frontier:
            for b in range(36):
                if b not in dist and legal(a, b):
                    dist[b] = dist[a] + 1
                    nxt.append(b)
        frontier = nxt
    return dist


def reference_recipient(tokens, claimant):
    """The penalty rule read literally: fewest tokens among the others, then seating order."""
    n = len(tokens)
    others = [p for p in range(n) if p != claimant]
    if not others:
        return -1
    return min(others, key=lambda p: (tokens[p], (p - claimant) % n))


def check_round(game):
    """What must hold at the start of every round."""
    lay = game.layout
    assert game.pool + sum(game.tokens) == POOL
    assert game.pool >= 0 and all(t >= 0 for t in game.tokens)
    assert len(game.tokens) == game.players
    assert game.start != game.target
    dist = bfs(lay, game.start)
    assert game.target in dist, "target must be reachable"
    if game.waypoint is not None:
        assert game.expert
        assert game.waypoint not in (game.start, game.target)
        assert game.waypoint in dist
        assert game.optimum() == dist[game.waypoint] + bfs(lay, game.waypoint)[game.target]
    else:
        # Expert play drops the waypoint only when no cell can serve (a custom layout).
        if game.expert:
            assert set(dist) <= {game.start, game.target} and game.notice
        assert game.optimum() == dist[game.target]
    if game.optimum() < game.difficulty:
        assert game.rerolls == ROLLS - 1, "difficulty falls back only after all rolls"
    if not game.over:
        assert game.winners == []
        assert all(t < WIN_TOKENS for t in game.tokens) and game.pool > 0


def honest_moves(game, solver, extra_pairs):
    """An optimal route, lengthened by stepping off the target and back ``extra_pairs`` times."""
    route = solver.path(game.start, game.target, game.waypoint)
    moves = route[1:]
    step = solver.moves(game.target)[0]
    moves += [step, game.target] * extra_pairs
    return moves


def dishonest(game, solver, kind, data):
    """(count, moves, expected code) for a wrong claim of the given kind, or None."""
    opt = game.optimum()
    route = honest_moves(game, solver, 0)
    if kind == "below":
        return data.draw(st.integers(0, opt - 1)), route, S.BELOW_OPTIMUM
    if kind == "count":
        wrong = data.draw(st.integers(opt + 1, opt + 6))  # the route has opt moves
        return wrong, route, S.WRONG_COUNT
    if kind == "illegal":
        k = data.draw(st.integers(0, len(route) - 1))
        prev = game.start if k == 0 else route[k - 1]
        bad = [c for c in range(36) if not solver.is_move(prev, c)]
        moves = route[:k] + [data.draw(st.sampled_from(bad))] + route[k + 1:]
        return len(moves), moves, S.ILLEGAL_MOVE
    if kind == "miss":
        off = [c for c in solver.moves(game.target) if c != game.target]
        moves = route + [off[0]]
        return len(moves), moves, S.TARGET_MISSED
    if kind == "skip" and game.waypoint is not None:
        direct = solver.path(game.start, game.target)
        if game.waypoint in direct:
            return None
        step = [c for c in solver.moves(game.target) if c != game.waypoint]
        if not step:
            return None
        moves = direct[1:]
        while len(moves) < opt:
            moves += [step[0], game.target]
        return len(moves), moves, S.WAYPOINT_MISSED
    return None


def expected_tokens(game, player, ok):
    tokens = list(game.tokens)
    pool = game.pool
    if game.players == 1:
        return tokens, pool
    if ok:
        tokens[player] += 1
        pool -= 1
    elif tokens[player] > 0:
        to = reference_recipient(tokens, player)
        tokens[player] -= 1
        tokens[to] += 1
    return tokens, pool


def check_end(game, tokens, pool):
    if any(t >= WIN_TOKENS for t in tokens):
        assert game.over and game.winners == [tokens.index(max(tokens))]
        assert max(tokens) == WIN_TOKENS
    elif pool == 0:
        assert game.over
        assert game.winners == [p for p in range(game.players) if tokens[p] == max(tokens)]
    else:
        assert not game.over and game.winners == []


KINDS = ["honest", "honest", "honest", "below", "count", "illegal", "miss", "skip", "give_up"]
MOSTLY_HONEST = ["honest"] * 12 + KINDS  # tables that reach the end of the pool


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=60)
@given(layout=layouts, players=st.integers(1, 8), expert=st.booleans(),
       seed=st.integers(0, 2**32 - 1), difficulty=st.sampled_from([0, 0, 0, 3, 6]),
       balanced=st.booleans(), data=st.data())
def test_whole_games(layout, players, expert, seed, difficulty, balanced, data):
    game = Game(layout, players, expert, seed, difficulty)
    solver = Solver(layout)
    kinds = MOSTLY_HONEST if balanced else KINDS
    for _ in range(60):
        check_round(game)
        if game.over:
            break
        before = game.to_dict()
        kind = data.draw(st.sampled_from(kinds))
        if balanced:  # everyone claims in turn: games where the pool runs dry
            player = game.tokens.index(min(game.tokens))
        else:
            player = data.draw(st.integers(0, players - 1))
        old_target = game.target
        if kind == "give_up":
            route = game.give_up()
            assert route[0] == before["start"] and route[-1] == old_target
            assert len(route) - 1 == S.Solver(layout).distance(
                before["start"], old_target, before["waypoint"])
            tokens, pool = before["tokens"], before["pool"]
            ok = None
        else:
            if kind == "honest":
                moves = honest_moves(game, solver, data.draw(st.integers(0, 2)))
                count, code = len(moves), S.CORRECT
                assert game.claim_possible(count)
            else:
                wrong = dishonest(game, solver, kind, data)
                if wrong is None:
                    continue
                count, moves, code = wrong
            tokens, pool = expected_tokens(game, player, code == S.CORRECT)
            verdict = game.claim(player, count, moves)
            assert verdict.code == code and verdict.ok == (code == S.CORRECT)
            assert verdict is not game.solver.verdict, "an independent copy"
            assert isinstance(verdict.reason, str) and verdict.reason
            ok = verdict.ok
        assert game.tokens == tokens and game.pool == pool
        check_end(game, tokens, pool)
        if not game.over:
            assert game.start == old_target, "the target becomes the next start"
        after = game.to_dict()
        if data.draw(st.integers(0, 4)) == 0:  # the referee's mis-press costs nothing
            assert game.undo()
            assert game.to_dict() == before
            if ok is None:
                game.give_up()
            else:
                game.claim(player, count, moves)
            assert game.to_dict() == after
    event("over: pool empty" if game.over and game.pool == 0 else
          "over: five tokens" if game.over else "still running")
    if game.over:
        with pytest.raises(GameError):
            game.claim(0, game.optimum(), [])
        with pytest.raises(GameError):
            game.give_up()
    assert notation.from_dict(game.to_dict()).to_dict() == game.to_dict()
    assert notation.replay(notation.share(game)).to_dict() == game.to_dict()


@given(tokens=st.lists(st.integers(0, 4), min_size=1, max_size=8), data=st.data())
def test_penalty_recipient_matches_the_rule(tokens, data):
    claimant = data.draw(st.integers(0, len(tokens) - 1))
    assert penalty_recipient(tokens, claimant) == reference_recipient(tokens, claimant)


def test_penalty_ties_go_to_the_first_player_after_the_claimant():
    assert penalty_recipient([2, 1, 3, 1], 2) == 3  # players 3 and 1 tie: 3 sits after 2
    assert penalty_recipient([2, 1, 3, 1], 3) == 1  # wrapping around: 0, 1 -> 1 has fewest
    assert penalty_recipient([0, 0, 0], 2) == 0
    assert penalty_recipient([4], 0) == -1


def play_correct(game, player):
    route = game.route()
    return game.claim(player, len(route) - 1, route[1:])


def test_pool_running_dry_shares_the_win():
    # 7 players claiming in turn: 25 tokens = 4 + 4 + 4 + 4 + 3 + 3 + 3, nobody reaches 5.
    game = Game(Layout.named("copper:DCBA1230"), players=7, seed=99)
    for k in range(25):
        assert not game.over
        assert play_correct(game, k % 7).ok
    assert game.over and game.pool == 0
    assert game.tokens == [4, 4, 4, 4, 3, 3, 3]
    assert game.winners == [0, 1, 2, 3]


def test_five_tokens_win_at_once_even_by_penalty():
    game = Game(Layout.named("black:ABCD0000"), players=3, seed=5)
    for _ in range(4):
        play_correct(game, 0)
        play_correct(game, 2)
    play_correct(game, 1)
    assert game.tokens == [4, 1, 4] and not game.over
    # Player 1 claims too little: gives a token to the poorer of 0 and 2 - a tie,
    # so the first after the claimant: player 2, who now holds 5 and wins.
    verdict = game.claim(1, 0, [])
    assert verdict.code == S.BELOW_OPTIMUM and not verdict.ok
    assert game.tokens == [4, 0, 5] and game.winners == [2] and game.over
    assert game.pool == POOL - 9
    start, target = game.start, game.target
    assert game.undo() and not game.over and game.tokens == [4, 1, 4]
    assert (game.start, game.target) == (start, target)


def test_a_wrong_claim_without_tokens_costs_nothing():
    game = Game(Layout.named("black:ABCD0000"), players=2, seed=1)
    verdict = game.claim(0, game.optimum() + 1, [])
    assert verdict.code == S.WRONG_COUNT
    assert game.tokens == [0, 0] and game.pool == POOL


def test_solo_keeps_score_streak_and_moves_over_the_optimum():
    game = Game(Layout.named("black:CADB0312"), players=1, seed=3)
    play_correct(game, 0)
    solver = game.solver
    moves = honest_moves(game, solver, 1)  # two moves longer than needed
    opt = game.optimum()
    assert game.claim(0, len(moves), moves).ok
    assert (game.score, game.streak, game.best_streak) == (2, 2, 2)
    assert game.extra == game.last_extra == len(moves) - opt == 2
    game.give_up()
    assert (game.score, game.streak, game.best_streak) == (2, 0, 2)
    game.claim(0, 0, [])
    assert game.streak == 0 and game.tokens == [0] and game.pool == POOL and not game.over


@pytest.mark.parametrize("difficulty", [4, 7])
def test_difficulty_sets_the_minimum_distance(difficulty):
    game = Game(Layout.named("black:ABCD0000"), players=1, seed=11, difficulty=difficulty)
    met = 0
    for _ in range(30):
        d = game.optimum()
        assert d >= difficulty or game.rerolls == ROLLS - 1
        met += d >= difficulty
        game.give_up()
    assert met >= 20, "most rounds find a target that far"


def test_impossible_difficulty_falls_back_to_the_farthest_rolled():
    game = Game(Layout.named("copper:ABCD0000"), players=1, seed=2, difficulty=40)
    far = 0
    for _ in range(10):
        check_round(game)
        assert game.rerolls == ROLLS - 1
        far += game.optimum() >= 6
        game.give_up()
    assert far >= 8, "the farthest of 36 rolls is far"


def test_expert_waypoint_and_demonstration_order():
    game = Game(Layout.named("copper:ABCD0000"), players=2, expert=True, seed=4)
    assert game.waypoint is not None
    route = game.route()
    assert game.waypoint in route[1:-1] or game.waypoint == route[-1]
    assert game.claim(1, len(route) - 1, route[1:]).ok


def test_custom_layout_rerolls_unreachable_targets_and_says_so():
    lay, dead, _ = layout_with_a_dead_cell()
    notices = 0
    for seed in range(40):
        game = Game(lay, players=2, seed=seed)
        for _ in range(8):
            check_round(game)
            assert game.target not in dead and game.start not in dead
            notices += game.notice is not None
            game.give_up()
    assert notices > 0, "the players are told when a roll was unreachable"


def test_bad_requests_are_refused():
    lay = Layout.named("black:ABCD0000")
    for bad in (dict(players=0), dict(players=9), dict(players=True), dict(seed=-1),
                dict(seed=2**32), dict(difficulty=-1), dict(seed=1.5)):
        with pytest.raises(GameError):
            Game(lay, **bad)
    with pytest.raises(GameError):
        Game("black:ABCD0000")
    game = Game(lay, players=2)
    for player in (-1, 2, None):
        with pytest.raises(GameError):
            game.claim(player, 3, [])
    for count in (-1, MAX_CLAIM + 1, "3"):
        with pytest.raises(GameError):
            game.claim(0, count, [])
    assert game.to_dict()["decisions"] == "", "a refused request changes nothing"
    assert not game.undo()


def test_a_new_game_is_two_players_and_seed_0_and_each_refusal_says_what_and_why():
    lay = Layout.named("black:ABCD0000")
    game = Game(lay)
    assert (game.players, game.seed, game.difficulty, game.expert) == (2, 0, 0, False)
    assert game.to_dict() == Game(lay, players=2, seed=0).to_dict()
    assert game.folded == 0 and Game(lay, difficulty=254).difficulty == 254  # the longest
    cases = [((lay,), dict(difficulty=255), "difficulty must be 0 to 254 moves, not 255"),
             (("black:ABCD0000",), {}, "layout must be a board.Layout, not 'black:ABCD0000'"),
             ((lay,), dict(players=9), "players must be 1 to 8, not 9"),
             ((lay,), dict(seed=-1), "seed must be an int from 0 to 4294967295, not -1")]
    for args, kw, message in cases:
        with pytest.raises(GameError) as refused:
            Game(*args, **kw)
        assert str(refused.value) == message


def test_claim_possible_agrees_with_walks():
    game = Game(Layout.named("copper:BADC3210"), players=2, seed=8, expert=True)
    for _ in range(10):
        opt = game.optimum()
        assert not game.claim_possible(opt - 1) and not game.claim_possible(-1)
        assert game.claim_possible(opt)
        for n in range(opt, opt + 5):
            assert game.claim_possible(n) == game.solver.walk_exists(
                game.start, game.target, n, game.waypoint)
        game.give_up()


def test_seed_fixes_the_game():
    lay = Layout.named("black:CADB0312")
    a = [Game(lay, seed=s).to_dict() for s in (0, 1, 2)]
    b = [Game(lay, seed=s).to_dict() for s in (0, 1, 2)]
    assert a == b
    firsts = {(Game(lay, seed=s).start, Game(lay, seed=s).target) for s in range(50)}
    assert len(firsts) > 30, "nearby seeds give different games"


@pytest.mark.parametrize("seed", [0, 1, 2**32 - 1])
def test_targets_are_spread_over_every_cell(seed):
    # Fixed seeds: the rolls are deterministic, so this is a fact, not a gamble.
    game = Game(Layout.named("black:ABCD0000"), players=1, seed=seed)
    counts = [0] * 36
    for _ in range(1000):
        counts[game.target] += 1
        game.give_up()
    assert min(counts) > 10 and max(counts) < 60, counts  # about 28 each


class NoMoves(Solver):
    """A solver for a board on which nothing moves (no real layout is like that:
    it would need two orthogonal 6x6 Latin squares, which do not exist)."""

    def degree(self, i):
        return 0

    def distances(self, start):
        dist = super().distances(start)
        for i in range(36):
            dist[i] = 0 if i == start else S.UNREACHABLE
        return dist


def test_a_board_without_moves_is_refused_clearly():
    layout = Layout.named("black:ABCD0000")
    with pytest.raises(GameError, match="no cell has a legal move") as refused:
        Game(layout, players=2, solver=NoMoves(layout))
    assert str(refused.value).count("\n") == 0 and "None" not in str(refused.value)
