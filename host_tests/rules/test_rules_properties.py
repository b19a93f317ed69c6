"""Fast, targeted properties of the rules (issue 37): a broken penalty recipient, a
waypoint on the target or a wrong winner fails here within seconds, shrunk to a small
case, beside the long randomised games of test_game_play.py.

Each property sets up exactly the situation it is about: a game started from a chosen
base (notation.set_base: the tokens and pool a table has reached), then one claim.
"""


import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from microrobots.rules import notation
from microrobots.rules.board import CELLS, Layout, LayoutError
from microrobots.rules.game import (
    MAX_CLAIM, POOL, WIN_TOKENS, Game, GameError, penalty_recipient,
)
from microrobots.rules.solver import WAYPOINT_MISSED, Solver
from layouts import layout_from_pairs, layout_with_a_dead_cell, legal, reference_distances
from test_game_play import bfs, named_layouts, reference_recipient

LAYOUT = Layout.named("black:CADB0312")
SOLVER = Solver(LAYOUT)
FAST = settings(max_examples=200, deadline=None)


@st.composite
def tables(draw, most=WIN_TOKENS - 1):
    """``(tokens, claimant)``: 2..8 players holding 0..most tokens each, out of the pool."""
    players = draw(st.integers(2, 8))
    tokens = draw(st.lists(st.integers(0, most), min_size=players, max_size=players))
    while sum(tokens) >= POOL:  # the pool keeps one token at least
        tokens[tokens.index(max(tokens))] -= 1
    return tokens, draw(st.integers(0, players - 1))


def game_at(tokens, start=5):
    """A game of ``len(tokens)`` players whose table holds ``tokens`` (from a base)."""
    g = Game(LAYOUT, len(tokens), False, 7, 0, SOLVER)
    pool = POOL - sum(tokens)
    notation.set_base(g, 1, [1, 2], start, pool, list(tokens), 0, 0, 0, 0, 0, "test")
    return g


@FAST
@given(tables())
def test_penalty_recipient_is_the_fewest_then_the_first_after_the_claimant(table):
    tokens, claimant = table
    assert penalty_recipient(tokens, claimant) == reference_recipient(tokens, claimant)


@FAST
@given(tables())
def test_a_wrong_claim_pays_its_token_to_the_recipient(table):
    tokens, claimant = table
    g = game_at(tokens)
    v = g.claim(claimant, 0)  # below any optimum: wrong at once
    assert not v.ok
    want = list(tokens)
    if tokens[claimant]:
        to = reference_recipient(tokens, claimant)
        want[claimant] -= 1
        want[to] += 1
    assert g.tokens == want
    assert g.pool == POOL - sum(tokens)  # a penalty never touches the pool
    if max(want) >= WIN_TOKENS:
        assert g.over and g.winners == [want.index(WIN_TOKENS)]
    else:
        assert not g.over and g.winners == []


@FAST
@given(tables())
def test_a_correct_claim_takes_from_the_pool_and_five_win_at_once(table):
    tokens, claimant = table
    g = game_at(tokens)
    route = g.route()
    assert g.claim(claimant, len(route) - 1, route[1:]).ok
    want = list(tokens)
    want[claimant] += 1
    assert g.tokens == want and g.pool == POOL - sum(want)
    if want[claimant] == WIN_TOKENS:
        assert g.over and g.winners == [claimant]
    elif g.pool == 0:
        assert g.over and g.winners == [p for p in range(len(want)) if want[p] == max(want)]
    else:
        assert not g.over and g.winners == []


def test_the_last_token_from_the_pool_shares_the_win_among_the_most():
    tokens = [4, 4, 4, 4, 4, 4, 0, 0]  # 24 out: one left in the pool
    g = game_at(tokens)
    route = g.route()
    g.claim(6, len(route) - 1, route[1:])
    assert g.pool == 0 and g.over and g.winners == [0, 1, 2, 3, 4, 5]


@FAST
@given(tables(), st.integers(0, 7))
def test_a_penalty_that_brings_five_wins_for_the_receiver(table, pick):
    tokens, claimant = table
    if len(tokens) < 2:
        return
    to = reference_recipient(tokens, claimant)
    tokens = list(tokens)
    tokens[to] = WIN_TOKENS - 1
    others = [p for p in range(len(tokens)) if p != claimant]
    for p in others:  # the receiver stays the fewest: everyone else holds four too
        tokens[p] = WIN_TOKENS - 1
    tokens[claimant] = 1
    if sum(tokens) >= POOL:
        return
    g = game_at(tokens)
    g.claim(claimant, 0)
    first = reference_recipient(tokens, claimant)
    assert g.over and g.winners == [first] and g.tokens[first] == WIN_TOKENS


@settings(max_examples=60, deadline=None)
@given(named_layouts(), st.integers(0, 2**32 - 1), st.sampled_from([0, 0, 3, 5]))
def test_the_waypoint_is_never_the_start_or_the_target(layout, seed, difficulty):
    g = Game(layout, 1, True, seed, difficulty)
    for _ in range(4):
        assert g.start != g.target
        assert g.waypoint is not None and g.waypoint not in (g.start, g.target)
        dist = bfs(layout, g.start)
        assert g.optimum() == dist[g.waypoint] + bfs(layout, g.waypoint)[g.target]
        g.give_up()


@settings(max_examples=60, deadline=None)
@given(named_layouts(), st.integers(0, 2**32 - 1), st.integers(0, 6))
def test_a_target_is_never_the_start_and_meets_the_difficulty_if_it_can(layout, seed, want):
    g = Game(layout, 1, False, seed, want)
    for _ in range(4):
        assert g.start != g.target
        dist = bfs(layout, g.start)
        assert g.optimum() == dist[g.target]
        if max(dist.values()) >= want:
            # 36 rolls hardly ever all miss every cell that far; when they do, the
            # farthest rolled is used, never one nearer than another rolled
            assert g.optimum() >= want or g.rerolls == 35
        g.give_up()


def test_a_target_of_exactly_the_difficulty_is_taken():
    """Round 1 of seed 12345 at difficulty 4 rolls a four-move target first."""
    g = Game(Layout.named("copper:DCBA3210"), 1, False, 12345, 4)
    assert g.optimum() == 4 and g.rerolls == 0


def renumbered(layout):
    """``layout`` with the numbers of two dice of one colour swapped: a real board (each
    pair once), with the same colours everywhere."""
    numbers = bytearray(layout.numbers)
    other = [i for i in range(1, 36) if layout.colours[i] == layout.colours[0]][0]
    numbers[0], numbers[other] = numbers[other], numbers[0]
    return Layout(bytearray(layout.colours), numbers)


def test_layouts_that_differ_only_in_their_numbers_are_different_boards():
    a = Layout.named("black:ABCD0000")
    b = renumbered(a)
    assert a.colours == b.colours and a.numbers != b.numbers
    assert a != b and not a == b
    assert a == Layout(bytearray(a.colours), bytearray(a.numbers))


def test_a_saved_game_on_another_numbering_is_not_this_layouts():
    """The solver is reused, and a saved game resumed, only on the same board."""
    a = Layout.named("black:ABCD0000")
    b = renumbered(a)
    g = Game(b, 1, False, 3, 0, Solver(a))  # a solver for the other board is not used
    assert g.solver.layout == b


# -- a damaged saved game, refused one damage at a time, with its one-line reason ------------
def long_perfect_solo(rounds=70):
    """A solo game solved perfectly for ``rounds`` rounds: it folded its oldest decisions
    into a base whose extra and last_extra are both 0."""
    g = Game(LAYOUT, 1, False, 4, 0, SOLVER)
    for _ in range(rounds):
        g.solved(g.optimum())
    return g


def long_table(players=3, rounds=70):
    """A table game of ``rounds`` give-ups: folded, its base holds the untouched tokens."""
    g = Game(LAYOUT, players, False, 9, 0, SOLVER)
    for _ in range(rounds):
        g.give_up()
    return g


def refusal(d):
    try:
        notation.from_dict(d)
    except notation.GameStateError as e:
        return str(e)
    return None


def test_a_long_perfect_solo_save_is_accepted():
    g = long_perfect_solo()
    d = g.to_dict()
    assert "base" in d and d["base"]["extra"] == d["base"]["last_extra"] == 0
    back = notation.from_dict(d)
    assert back.to_dict() == d


def test_a_long_solo_save_with_extra_equal_to_last_extra_is_accepted():
    g = Game(LAYOUT, 1, False, 4, 0, SOLVER)
    g.solved(g.optimum() + 2)  # two moves over, once: extra == last_extra == 2 from now on
    for _ in range(69):
        g.solved(g.optimum())
    d = g.to_dict()
    assert d["base"]["extra"] == 2 and d["base"]["last_extra"] == 0
    assert notation.from_dict(d).to_dict() == d
    g = Game(LAYOUT, 1, False, 4, 0, SOLVER)
    for _ in range(65):
        g.solved(g.optimum())
    g.solved(g.optimum() + 2)
    for _ in range(20):
        g.solved(g.optimum())
    d = g.to_dict()
    assert notation.from_dict(d).to_dict() == d


def based(d, **changes):
    d = dict(d)
    d["base"] = dict(d["base"], **changes)
    return d


def test_a_base_whose_tokens_already_hold_five_is_refused():
    d = long_table().to_dict()
    assert notation.from_dict(d)
    bad = based(d, tokens=[5, 0, 0], pool=20)
    assert refusal(bad) == "saved game: base: bad tokens [5, 0, 0]"


def test_a_base_with_an_empty_pool_is_refused():
    d = long_table(players=8).to_dict()
    bad = based(d, tokens=[4, 4, 4, 4, 4, 4, 1, 0], pool=0)
    assert refusal(bad) == ("saved game: base: pool 0 and tokens [4, 4, 4, 4, 4, 4, 1, 0] "
                            "do not add up to 25")


def test_a_base_whose_pool_and_tokens_do_not_add_up_is_refused():
    d = long_table().to_dict()
    assert refusal(based(d, pool=24)) == ("saved game: base: pool 24 and tokens [0, 0, 0] do "
                                         "not add up to 25")


def test_a_solo_base_with_last_extra_over_extra_is_refused():
    d = long_perfect_solo().to_dict()
    assert refusal(based(d, last_extra=1)) == "saved game: base: inconsistent statistics"


def test_waypoint_missed_in_a_round_without_a_waypoint_is_refused():
    g = Game(LAYOUT, 2, False, 7, 0, SOLVER)
    d = g.to_dict()
    d["decisions"] = "a%dw" % g.optimum()
    assert refusal(d) == "saved game: decision 1: no waypoint this round"
    for seed in range(1, 100):  # the same outcome in a round with a waypoint: accepted
        x = Game(LAYOUT, 2, True, seed, 0, SOLVER)
        direct = x.solver.path(x.start, x.target)
        if x.waypoint in direct or len(direct) - 1 != x.optimum():
            continue  # wanted: a direct route as long as the one through the waypoint
        v = x.claim(0, x.optimum(), direct[1:])
        if v.code == WAYPOINT_MISSED:
            break
    assert v.code == WAYPOINT_MISSED
    assert x.decision_text().endswith("w")
    assert notation.from_dict(x.to_dict()).to_dict() == x.to_dict()


# -- a layout file's help, a layout's repr, the rolls' fallbacks ----------------------------
def test_a_duplicated_pair_names_the_missing_one_whatever_the_comments_say():
    text = str(LAYOUT)
    rows = text.strip().split("\n")
    first = rows[0].split()
    gone = first[1]
    first[1] = first[0]  # the first pair twice, the second one gone
    rows[0] = " ".join(first) + "   # was %s # (moved)" % gone
    rows[1] += " # %s" % gone
    with pytest.raises(LayoutError) as e:
        Layout.parse("\n".join(rows) + "\n")
    assert str(e.value).endswith("appears twice (first at line 1, column 1); missing: %s"
                                 % gone), str(e.value)


def test_a_layout_repr_reads_back():
    assert repr(LAYOUT) == "Layout.named('black:CADB0312')"
    custom = renumbered(LAYOUT)
    assert custom.name is None
    assert repr(custom) == "Layout.parse(%r)" % str(custom)
    assert Layout.parse(str(custom)) == custom


class Dice:
    """A generator that rolls what it is told: ``below(n)`` gives the next of ``faces``."""

    def __init__(self, faces):
        self.faces = list(faces)
        self.asked = []

    def below(self, n):
        self.asked.append(n)
        return self.faces.pop(0) % n


def test_pick_rolls_among_the_reachable_cells_other_than_two():
    from microrobots.rules.rolls import _pick
    from microrobots.rules.solver import UNREACHABLE

    dist = [UNREACHABLE] * 36
    for c in (3, 7, 9, 20):
        dist[c] = 2
    for k, want in enumerate([7, 9, 20]):  # 3 and 9 are the two excluded... 3 only here
        dice = Dice([k])
        assert _pick(dice, dist, 3, 3) == want and dice.asked == [3]
    dice = Dice([1])
    assert _pick(dice, dist, 3, 20) == 9 and dice.asked == [2]
    assert _pick(Dice([0]), [UNREACHABLE] * 36, 0, 0) == -1


def test_a_start_without_moves_is_rolled_again_then_picked_among_live_cells():
    from microrobots.rules.rolls import ROLLS, RollError, roll_start

    class Lines:
        """Only cells 4 and 30 have a move."""

        def degree(self, c):
            return 1 if c in (4, 30) else 0

    dead = [0] * (2 * ROLLS)  # every roll lands on cell 0 (colour 0, number 1)... dead
    dice = Dice(dead + [1])
    cell, rerolls = roll_start(dice, Layout.named("black:ABCD0000"), Lines())
    first = Layout.named("black:ABCD0000").cell_of(0, 1)
    assert first not in (4, 30)
    assert (cell, rerolls) == (30, ROLLS) and dice.asked[-1] == 2

    class Nothing:
        def degree(self, c):
            return 0

    with pytest.raises(RollError) as error:
        roll_start(Dice(dead), Layout.named("black:ABCD0000"), Nothing())
    assert str(error.value) == "layout: no cell has a legal move; nothing to play"


def test_a_rolled_start_with_one_move_is_taken_at_once():
    from microrobots.rules.rolls import roll_start

    layout = Layout.named("black:ABCD0000")

    class One:
        def degree(self, c):
            return 1

    colour, number = layout.colour(4), layout.number(4)
    dice = Dice([colour, number - 1])
    assert roll_start(dice, layout, One()) == (4, 0) and not dice.faces


class Reach:
    """A solver from whose every cell the same cells are in reach, at these distances."""

    def __init__(self, far):
        from microrobots.rules.solver import UNREACHABLE

        self.dist = [UNREACHABLE] * 36
        for cell, d in far.items():
            self.dist[cell] = d

    def distances(self, cell):
        return self.dist


def faces_of(layout, cell):
    """The two dice (colour, then number) that roll ``cell``."""
    return [layout.colour(cell), layout.number(cell) - 1]


def test_a_start_that_reaches_nothing_is_refused_naming_it():
    from microrobots.rules.rolls import ROLLS, RollError, Round

    layout = Layout.named("black:ABCD0000")
    start = 7
    dice = Dice(faces_of(layout, 20) * ROLLS)  # every roll out of reach, none to pick
    with pytest.raises(RollError) as error:
        Round().roll(dice, layout, Reach({start: 0}), start, 1, False)
    assert str(error.value) == "layout: no cell can be reached from %s" % layout.token(start)


def test_an_expert_round_whose_waypoint_rolls_all_miss_picks_one_in_reach():
    """Every waypoint roll lands on the start: the waypoint is picked with the dice among
    the cells in reach but the start and the target (here 9 and 30: the dice say the
    second)."""
    from microrobots.rules.rolls import ROLLS, Round

    layout = Layout.named("black:ABCD0000")
    start, target = 0, 20
    dice = Dice(faces_of(layout, target) + faces_of(layout, start) * ROLLS + [1])
    rnd = Round()
    rnd.roll(dice, layout, Reach({start: 0, 9: 2, target: 3, 30: 1}), start, 1, True)
    assert (rnd.target, rnd.waypoint, rnd.optimum) == (target, 30, 1 + 3)
    assert dice.asked[-1] == 2 and not dice.faces and rnd.notice is None


# colour = column + row, number = 2 * column + row: from B1 (cell 0) only R1 (cell 3)
SPLIT = Layout.parse("\n".join(" ".join("BYGRPW"[(r + c) % 6] + str((r + 2 * c) % 6 + 1)
                                         for c in range(6)) for r in range(6)))


def test_a_round_whose_rolls_all_miss_takes_the_one_reachable_cell():
    """Every one of a round's ROLLS lands out of reach: the target is picked among the
    cells the start reaches (here R1 alone), the players are told how many rolls missed,
    and in expert, with no third cell in reach, the round has no waypoint and says so."""
    from microrobots.rules.rolls import ROLLS, Round

    solver = Solver(SPLIT)
    miss = [1, 2] * ROLLS  # yellow, 3: Y3, cell 1, out of B1's reach
    dice = Dice(miss + [0])
    rnd = Round()
    rnd.roll(dice, SPLIT, solver, 0, 1, False)
    assert (rnd.target, rnd.optimum, rnd.rerolls, rnd.waypoint) == (3, 1, ROLLS - 1, None)
    assert dice.asked[-1] == 1 and not dice.faces  # one cell to pick among, the start apart
    assert rnd.notice == "custom layout: 36 rolled cells cannot be reached from B1; rerolled"
    dice = Dice(miss + [0] + miss)
    rnd.roll(dice, SPLIT, solver, 0, 1, True)
    assert (rnd.target, rnd.optimum, rnd.waypoint) == (3, 1, None) and not dice.faces
    assert rnd.notice == ("custom layout: 72 rolled cells cannot be reached from B1; rerolled; "
                          "custom layout: no waypoint can be reached from B1; this round has none")
    for faces in (miss + [0], [0, 0]):  # from R1 (cell 3): B1, cell 0, picked or rolled
        dice = Dice(faces)
        rnd.roll(dice, SPLIT, solver, 3, 1, False)
        assert (rnd.target, rnd.optimum) == (0, 1) and not dice.faces


def test_a_layout_file_with_two_pairs_gone_names_both_in_order():
    rows = str(LAYOUT).strip().split("\n")
    first = rows[0].split()
    gone = [first[1], first[3]]
    first[1], first[3] = first[0], first[2]
    rows[0] = " ".join(first)
    rows[2] = "Q9 " + rows[2]  # not a die: skipped, the rest of its line still counts
    with pytest.raises(LayoutError) as e:
        Layout.parse("\n".join(rows) + "\n")
    order = sorted(gone, key=lambda t: LAYOUT.colours[LAYOUT.index(t)] * 6
                   + LAYOUT.numbers[LAYOUT.index(t)])
    assert str(e.value).endswith("missing: %s %s" % tuple(order)), str(e.value)


def test_a_duplicated_pair_with_nothing_missing_says_none():
    rows = str(LAYOUT).strip().split("\n")
    first = rows[0].split()
    rows.append(first[1])  # a seventh line brings back the pair row 1 lost
    first[1] = first[0]
    rows[0] = " ".join(first)
    with pytest.raises(LayoutError) as e:
        Layout.parse("\n".join(rows) + "\n")
    assert str(e.value).endswith("; missing: none"), str(e.value)


def test_solved_refuses_a_count_no_walk_has():
    g = Game(LAYOUT, 1, False, 4, 0, SOLVER)
    with pytest.raises(notation.GameError, match="^no walk of 0 moves reaches the target$"):
        g.solved(0)


def test_neighbours_one_by_one_are_the_moves():
    for i in range(36):
        assert [SOLVER.neighbour(i, k) for k in range(SOLVER.degree(i))] == SOLVER.moves(i)


def test_a_verdict_shows_its_reason():
    from microrobots.rules.solver import CORRECT, Verdict

    assert repr(Verdict(CORRECT)) == "<Verdict %s>" % Verdict(CORRECT).reason


# -- the solo walk's saved form: what is refused, what is kept -------------------------------
def two_moves():
    a = 0
    b = SOLVER.moves(a)[0]
    c = [x for x in SOLVER.moves(b) if x != a][0]
    return a, b, c


def restored(saved, start, waypoint=-1):
    from microrobots.rules.walk import Walk

    w = Walk()
    ok = w.restore(saved, start, waypoint, SOLVER.is_move)
    return ok, w


def test_a_walk_restores_its_bounds_exactly():
    from microrobots.rules.game import MAX_CLAIM
    from microrobots.rules.walk import _UNDO

    a, b, c = two_moves()
    assert restored({"trail": [a], "walked": 0}, a)[0]  # no move yet: one cell
    assert not restored({"trail": [], "walked": 0}, a)[0]
    ok, w = restored({"trail": [a, b], "walked": MAX_CLAIM}, b)
    assert ok and w.count == MAX_CLAIM and w.robot == b
    assert not restored({"trail": [a, b], "walked": MAX_CLAIM + 1}, a)[0]
    assert not restored({"trail": [a, b, c], "walked": 1}, a)[0]  # fewer moves than cells
    long = [a, b] * (_UNDO // 2) + [a]
    assert restored({"trail": long, "walked": _UNDO}, a)[0]
    assert not restored({"trail": long + [b], "walked": _UNDO + 1}, a)[0]
    for bad in (36, -1, "x", 2.0):
        ok, w = restored({"trail": [a, bad], "walked": 1}, a)
        assert not ok and w.count == 0 and w.robot == a
    for bad in (36, -1):  # the kept part of a long walk: no move to check it by
        assert not restored({"trail": [bad], "walked": 5}, a)[0]
    ok, w = restored({"trail": [a, b], "walked": True}, a)
    assert not ok and w.count == 0


def test_a_walk_in_the_first_format_is_refused_past_its_first_bad_move():
    a, b, c = two_moves()
    ok, w = restored({}, a)  # nothing saved: a fresh walk, nothing dropped
    assert ok and w.count == 0 and w.robot == a
    ok, w = restored({"moves": "x"}, a)
    assert not ok and w.count == 0
    ok, w = restored({"moves": [b, 35 if not SOLVER.is_move(b, 35) else a, c]}, a)
    assert not ok and w.count == 1 and w.robot == b


def test_taking_back_a_later_move_keeps_an_earlier_waypoint_visit():
    from microrobots.rules.walk import Walk

    a, b, c = two_moves()
    w = Walk()
    w.start(a, b)
    w.step(b)  # the waypoint, at move 1
    w.step(c)
    assert w.undo() and w.seen and w.to_saved()["seen"] == 1
    assert w.undo() and not w.seen and w.to_saved()["seen"] == -1


def test_a_long_walk_restores_from_its_kept_part_and_its_waypoint_visit():
    """Over 100 moves only the last ones are kept: the walk goes on from the oldest kept
    cell, with the move count and the waypoint's first visit as saved."""
    a, b, c = two_moves()  # a is cell 0: a waypoint there is cell 0
    assert a == 0
    assert not restored({"trail": [b, c], "walked": 1}, a)[0]  # whole, but not from the start
    ok, w = restored({"trail": [b, c], "walked": 3}, a)  # the kept part of three moves
    assert ok and w.count == 3 and w.robot == c and w.trail() == [b, c]
    saved = w.to_saved()
    assert saved == {"trail": [b, c], "walked": 3, "seen": 0}  # no waypoint: seen from move 0
    far = [x for x in range(1, 36) if x not in (b, c)][0]
    for waypoint, walk, seen in (
            (0, {"trail": [b, c, b], "walked": 6, "seen": 1}, 1),  # the first move
            (0, {"trail": [b, c, b], "walked": 6, "seen": 4}, 4),  # the oldest kept cell
            (far, {"trail": [b, c], "walked": 5, "seen": 2}, 2),
            (0, {"trail": [a, b, c], "walked": 3}, 1),  # not saved: on the oldest kept cell
            (far, {"trail": [b, c], "walked": 5}, -1)):  # not saved, not on it: not yet
        ok, w = restored(walk, a, waypoint)
        assert ok and w.to_saved()["seen"] == seen, (waypoint, walk)
        assert w.seen == (seen >= 0)


def test_a_long_game_loaded_from_its_save_stands_on_the_base_it_was_saved_on():
    """The base a long game folded into comes back from its file as it was, and a base
    that differs in any one of its fields is another base (tools compare them)."""
    g = long_table()
    loaded = notation.from_dict(g.to_dict())
    assert g.base is not None and loaded.base is not g.base
    assert loaded.base == g.base
    fields = list(g.base.fields())
    for k in range(len(fields)):
        other = list(fields)
        other[k] = (other[k] + (1,)) if isinstance(other[k], tuple) else other[k] + 1
        assert g.base != type(g.base)(*other), k
    assert g.base != tuple(fields)


def test_a_rewound_game_shares_its_solver():
    """Replaying a game from its base (tools/replay.py) reuses the game's solver: its
    tables are built once for a layout, not once more for every replay."""
    g = long_table(rounds=3)
    assert g.rewound().solver is g.solver is SOLVER


def test_a_refusal_quotes_a_long_value_cut_to_one_line():
    """The line a bad save or link gets names the bad value as written, up to 40
    characters; a longer one is cut to 37 and "...", so the line stays one line."""
    def seed_refusal(seed):
        try:
            notation.replay("MR2.2.%s.black:CADB0312" % seed)
        except notation.GameStateError as e:
            return str(e)
    exact = "9" * 37 + "x"  # repr adds two quotes: 40 characters, kept whole
    assert seed_refusal(exact) == "share string: bad seed '%s'" % exact
    long = exact + "y"  # 41: cut
    assert seed_refusal(long) == "share string: bad seed '%s..." % ("9" * 36)


def test_a_walk_from_the_waypoint_has_seen_it_from_its_first_cell():
    """A walk that starts on its waypoint has visited it at move 0: stepping back onto
    it later and taking every move back leaves it visited, in the saved form too."""
    from microrobots.rules.walk import Walk

    a, b, c = two_moves()
    w = Walk()
    w.start(a, a)
    assert w.seen and w.to_saved()["seen"] == 0
    w.step(b)
    w.step(a)  # back on the waypoint, at move 2
    assert w.to_saved()["seen"] == 0
    assert w.undo() and w.undo() and w.count == 0
    assert w.seen and w.to_saved()["seen"] == 0


def test_a_waypoint_on_the_first_cell_of_the_grid_is_a_waypoint():
    """Cell 0 is a cell like any other: a waypoint there is not yet visited by a walk
    that starts elsewhere, and is once the robot stands on it."""
    from microrobots.rules.walk import Walk

    a, b, c = two_moves()  # a is cell 0
    w = Walk()
    w.start(b, a)
    assert not w.seen and w.to_saved()["seen"] == -1
    w.step(a)
    assert w.seen and w.to_saved()["seen"] == 1


def test_a_round_nobody_solved_is_listed_as_no_player_no_count_no_verdict():
    """The decisions a tool reads back (tools/replay.py, the share string): a give-up is
    (None, 0, None), beside the claims as they were made."""
    g = game_at([0, 0, 0])
    g.give_up()
    route = g.route()
    count = len(route) - 1
    assert g.claim(1, count, route[1:]).ok
    g.give_up()
    decisions = g.decisions()
    assert decisions[0] == (None, 0, None) and decisions[2] == (None, 0, None)
    assert decisions[1][:2] == (1, count) and decisions[1][2].ok


@pytest.mark.parametrize("key", ["round", "start", "pool", "score", "streak", "best_streak",
                                 "extra", "last_extra"])
@pytest.mark.parametrize("bad", [-1, 1.5, "3"])
def test_a_base_number_of_the_wrong_type_or_sign_is_refused(key, bad):
    """Each number of a saved base, alone made negative, fractional or text: the save is
    refused with the one line that says so."""
    d = long_table().to_dict()
    assert refusal(d) is None
    assert refusal(based(d, **{key: bad})) == \
        "saved game: base: a field has the wrong type or sign"


@pytest.mark.parametrize("changes", [dict(rng=[-1, 2]), dict(rng=[1.5, 2]), dict(rng=[1, "2"]),
                                     dict(tokens=[-1, 1, 0]), dict(tokens=[0.5, 0.5, 0])])
def test_a_base_generator_or_tokens_of_the_wrong_type_or_sign_are_refused(changes):
    """The same for the two numbers of the generator's state and each player's tokens
    (the pool still adding up: only the sign or the type is wrong)."""
    d = long_table().to_dict()
    assert refusal(based(d, **changes)) == "saved game: base: a field has the wrong type or sign"


@FAST
@given(st.integers(0, 65535), st.integers(0, 7), st.integers(0, 65535))
def test_the_illegal_move_of_any_claim_reads_back_from_the_log(move, player, count):
    """Which move was illegal is kept in 7-bit groups: a claim of up to 65535 moves
    names any of them, three groups for the longest."""
    from microrobots.rules import decisions
    from microrobots.rules.solver import ILLEGAL_MOVE

    log = bytearray(b"\x01\x02\x00")  # a decision before it
    what = player | ILLEGAL_MOVE << 3
    decisions.append(log, what, count, move)
    assert decisions.entry(log, 3) == (what, count, move, len(log))


def test_a_save_with_too_many_decisions_or_a_bad_expert_flag_is_refused_by_name():
    d = Game(LAYOUT, 2, False, 7, 0, SOLVER).to_dict()
    assert refusal(dict(d, decisions="-" * (1000 * 13 + 1))) == \
        "saved game: over 1000 decisions"
    assert refusal(dict(d, expert="yes")) == \
        "saved game: expert must be true or false, not 'yes'"


def test_a_game_loaded_with_the_solver_of_its_layout_uses_it():
    """Loading a save reuses the solver it is given (the device's one, already built)."""
    d = Game(LAYOUT, 2, False, 7, 0, SOLVER).to_dict()
    assert notation.from_dict(d, SOLVER).solver is SOLVER


def test_a_base_of_round_0_is_refused_with_its_reason():
    d = long_table().to_dict()
    assert refusal(based(d, round=0)) == "saved game: base: round must be 1 or more"


@pytest.mark.parametrize("rng", [[0x10000, 5], [5, 0x10000], [0, 0]])
def test_a_base_generator_out_of_range_or_all_zero_is_refused(rng):
    """Each half of the generator's state is 16 bits, and 0:0 would stay 0 for ever: either
    half too large alone, or both zero, is a bad generator state."""
    d = long_table().to_dict()
    assert refusal(based(d, rng=rng)) == "saved game: base: bad generator state"


# -- a base given to set_base, field by field: refused with its reason, or taken as given --
TABLE_BASE = dict(folded=9, rng=[0x1234, 0x5678], start=5, pool=22, tokens=[1, 2, 0], score=7,
                  streak=3, best=5, extra=4, last=2)
SOLO_BASE = dict(TABLE_BASE, pool=POOL, tokens=[0])


def base_refusal(base, layout=LAYOUT):
    """set_base's one line for ``base`` on a fresh game of its players, or None once the
    game stands on exactly that base."""
    b = dict(base)
    g = Game(layout, len(b["tokens"]), False, 7, 0)
    try:
        notation.set_base(g, b["folded"], b["rng"], b["start"], b["pool"], b["tokens"],
                          b["score"], b["streak"], b["best"], b["extra"], b["last"], "test")
    except notation.GameStateError as e:
        return str(e)
    assert g.base.fields() == (b["folded"], b["rng"][0], b["rng"][1], b["start"], b["pool"],
                               tuple(b["tokens"]), b["score"], b["streak"], b["best"],
                               b["extra"], b["last"])
    assert (g.round, g.start, g.pool, list(g.tokens)) == (b["folded"] + 1, b["start"], b["pool"],
                                                         b["tokens"])
    return None


ACCEPTED = [
    dict(TABLE_BASE), dict(SOLO_BASE), dict(TABLE_BASE, folded=1, score=1, best=1, streak=1),
    dict(TABLE_BASE, rng=[0xFFFF, 0xFFFF]), dict(TABLE_BASE, rng=[0, 1]),
    dict(TABLE_BASE, rng=[1, 0]), dict(TABLE_BASE, rng=[1, 1]),
    dict(TABLE_BASE, start=CELLS - 1), dict(TABLE_BASE, start=12),  # a cell with one move
    dict(TABLE_BASE, tokens=[4, 0, 0], pool=21),
    dict(TABLE_BASE, tokens=[4, 4, 4, 4, 4, 4, 0, 0], pool=1),
    dict(TABLE_BASE, tokens=[0, 0], pool=POOL),
    dict(TABLE_BASE, score=9, best=9, streak=9), dict(TABLE_BASE, last=4),
    dict(SOLO_BASE, extra=0, last=0, score=0, best=0, streak=0),
]


@pytest.mark.parametrize("base", ACCEPTED)
def test_a_base_at_the_edge_of_every_check_is_taken_as_given(base):
    assert base_refusal(base) is None


REFUSED = [
    (dict(TABLE_BASE, folded=0, score=0, best=0, streak=0), "round must be 1 or more"),
    (dict(TABLE_BASE, rng=[0x10000, 5]), "bad generator state"),
    (dict(TABLE_BASE, rng=[5, 0x10000]), "bad generator state"),
    (dict(TABLE_BASE, rng=[0, 0]), "bad generator state"),
    (dict(TABLE_BASE, start=CELLS), "bad start cell 36"),
    (dict(TABLE_BASE, tokens=[5, 0, 0], pool=20), "bad tokens [5, 0, 0]"),
    (dict(TABLE_BASE, tokens=[0, 0, 5], pool=20), "bad tokens [0, 0, 5]"),
    (dict(SOLO_BASE, pool=POOL - 1), "bad tokens [0]"),
    (dict(SOLO_BASE, pool=POOL - 1, tokens=[1]), "bad tokens [1]"),
    (dict(SOLO_BASE, tokens=[1]), "bad tokens [1]"),
    (dict(TABLE_BASE, tokens=[1, 2], pool=21), "pool 21 and tokens [1, 2] do not add up to 25"),
    (dict(TABLE_BASE, tokens=[1, 2, 0], pool=23), "pool 23 and tokens [1, 2, 0] do not add up "
                                                  "to 25"),
    (dict(TABLE_BASE, tokens=[4, 4, 4, 4, 4, 4, 1, 0], pool=0), "pool 0 and tokens "
                                                  "[4, 4, 4, 4, 4, 4, 1, 0] do not add up to 25"),
    (dict(TABLE_BASE, streak=6), "inconsistent statistics"),
    (dict(TABLE_BASE, best=8), "inconsistent statistics"),
    (dict(TABLE_BASE, score=10, best=5), "inconsistent statistics"),
    (dict(TABLE_BASE, last=5), "inconsistent statistics"),
]


@pytest.mark.parametrize("base,why", REFUSED)
def test_each_damage_to_a_base_is_refused_alone_with_its_reason(base, why):
    assert base_refusal(base) == "test: base: " + why


def test_a_base_starting_on_a_cell_without_moves_is_refused():
    lay, dead, single = layout_with_a_dead_cell()
    dead = dead[0]
    assert base_refusal(dict(TABLE_BASE, start=dead), lay) == "test: base: bad start cell %d" % dead
    for cell in single:
        assert base_refusal(dict(TABLE_BASE, start=cell), lay) is None


def test_an_illegal_move_appended_without_its_move_names_the_first():
    """decisions.append's move defaults to 0: the first move of the claim."""
    from microrobots.rules import decisions
    from microrobots.rules.solver import ILLEGAL_MOVE

    log = bytearray()
    decisions.append(log, 2 | ILLEGAL_MOVE << 3, 7)
    assert decisions.entry(log, 0) == (2 | ILLEGAL_MOVE << 3, 7, 0, len(log))


@pytest.mark.parametrize("move", [0, 127, 128, 129, 255, 16383, 16384, 65535])
def test_an_illegal_move_on_a_7_bit_boundary_reads_back(move):
    """The moves where the 7-bit groups change length (127/128, 16383/16384)."""
    from microrobots.rules import decisions
    from microrobots.rules.solver import ILLEGAL_MOVE

    log = bytearray()
    decisions.append(log, 1 | ILLEGAL_MOVE << 3, 65535, move)
    assert decisions.entry(log, 0) == (1 | ILLEGAL_MOVE << 3, 65535, move, len(log))
    assert len(log) == 3 + (1 if move < 128 else 2 if move < 16384 else 3)


def test_decisions_applied_by_a_tool_are_refused_as_decisions():
    """apply() without a ``where`` (replay tools) names what it read: the decisions."""
    g = Game(LAYOUT, 2, False, 7, 0, SOLVER)
    with pytest.raises(notation.GameStateError) as err:
        notation.apply(g, 5)
    assert str(err.value) == "decisions: decisions must be text, not 5"


# -- claims, give-ups and moves against the rule read literally (issue 37: mutants that lived) --
def exact_walk_ends(game, count):
    """Reference: the (cell, waypoint seen) states a walk of exactly ``count`` moves from
    the round's start can end in, layer by layer over the move rule (layouts.legal)."""
    via = game.waypoint
    states = {(game.start, via is None or game.start == via)}
    for _ in range(count):
        states = {(b, seen or b == via) for a, seen in states for b in range(CELLS)
                  if legal(game.layout, a, b)}
    return states


@FAST
@given(named_layouts(), st.integers(0, 2**32 - 1), st.integers(0, 3))
def test_a_claim_is_possible_exactly_when_a_walk_through_the_waypoint_has_its_length(
        layout, seed, over):
    game = Game(layout, 2, True, seed)
    count = game.optimum() + over
    assert game.claim_possible(count) == ((game.target, True) in exact_walk_ends(game, count))


def test_a_count_only_a_walk_missing_the_waypoint_has_is_not_possible():
    """The waypoint is part of the question: a walk of the claimed length that skips it
    does not make the claim possible (a round where only such walks exist)."""
    for seed in range(200):
        game = Game(LAYOUT, 2, True, seed, 0, SOLVER)
        for count in range(game.optimum(), game.optimum() + 3):
            if not game.claim_possible(count) and (game.target, False) in exact_walk_ends(
                    game, count):
                return
    raise AssertionError("no round found where the waypoint decides")


def test_a_count_that_is_not_a_whole_number_is_never_possible():
    game = Game(LAYOUT, 2, False, 7, 0, SOLVER)
    assert game.claim_possible(game.optimum())
    assert not game.claim_possible(float(game.optimum()))
    assert not game.claim_possible(str(game.optimum()))


@FAST
@given(named_layouts(), st.integers(0, 2**32 - 1), st.booleans())
def test_giving_up_shows_an_optimal_route_through_the_waypoint(layout, seed, expert):
    game = Game(layout, 3, expert, seed)
    start, target, via, optimum = game.start, game.target, game.waypoint, game.optimum()
    route = game.give_up()
    assert route[0] == start and route[-1] == target and len(route) - 1 == optimum
    assert all(legal(layout, a, b) for a, b in zip(route, route[1:]))
    if via is not None:
        assert via in route
        d = reference_distances(layout, via)
        assert optimum == d[start] + d[target]  # (moves are symmetric)
    else:
        assert optimum == reference_distances(layout, start)[target]


def test_a_rewound_expert_game_is_expert_and_replays_to_the_same_save():
    g = Game(LAYOUT, 3, True, 9, 0, SOLVER)
    g.keep = 2
    while g.folded == 0:
        g.give_up()
    rewound = g.rewound()
    assert rewound.expert is True and rewound.waypoint is not None
    notation.apply(rewound, g.decision_text())
    assert rewound.to_dict() == g.to_dict()


def test_a_demonstration_is_judged_to_the_move_past_the_claim_and_no_further():
    """Moves past one beyond the claim are not looked at; up to it, an illegal one is
    named (here the robot stays on the target at move count + 1)."""
    g = Game(LAYOUT, 2, False, 7, 0, SOLVER)
    route = g.route()
    count = len(route) - 1
    v = g.claim(0, count, route[1:] + [route[-1], route[-2]])
    assert (v.code, v.move) == (1, count + 1)
    g.undo()
    v = g.claim(0, count, route[1:] + [route[-2], route[-2]])  # legal past, illegal after
    assert (v.code, v.move) == (2, 0)


def test_the_largest_claim_is_taken_and_one_more_is_refused_by_name():
    g = Game(LAYOUT, 2, False, 7, 0, SOLVER)
    assert g.claim(1, MAX_CLAIM).code == 2  # no demonstration: the count differs
    with pytest.raises(GameError) as err:
        g.claim(1, MAX_CLAIM + 1)
    assert str(err.value) == "a claim is 0 to 65535 moves, not 65536"


@pytest.mark.parametrize("off", [-1, CELLS, CELLS + 1])
def test_a_cell_off_the_grid_is_never_a_move(off):
    for cell in range(CELLS):
        assert not SOLVER.is_move(cell, off) and not SOLVER.is_move(off, cell)
    assert not SOLVER.is_move(off, off)
    for a in range(CELLS):
        for b in range(CELLS):
            assert SOLVER.is_move(a, b) == legal(LAYOUT, a, b)


def test_a_demonstration_that_leaves_the_grid_is_illegal_at_that_move():
    g = Game(LAYOUT, 2, False, 7, 0, SOLVER)
    route = g.route()
    v = g.claim(0, len(route) - 1, route[1:-1] + [CELLS])
    assert (v.code, v.move) == (1, len(route) - 1)


# six islands of six cells (colour = column, number = row + column): most rolls miss
ISLANDS = layout_from_pairs([(c, (r + c) % 6 + 1) for r in range(6) for c in range(6)])
NOTICE = re.compile(r"custom layout: (\d+) rolled cells? cannot be reached from ([BYGRPW][1-6]); "
                    r"rerolled$")


def test_the_notice_of_unreachable_rolls_counts_them_and_names_the_start():
    """The sentence a custom layout's players read when rolls missed: how many, with the
    plural only for more than one, and the start's face (pinned for two rounds)."""
    assert Game(ISLANDS, 2, False, 0).notice == \
        "custom layout: 2 rolled cells cannot be reached from G1; rerolled"
    assert Game(ISLANDS, 2, True, 1).notice == \
        "custom layout: 9 rolled cells cannot be reached from B3; rerolled"
    lay, _dead, _single = layout_with_a_dead_cell()
    assert Game(lay, 2, False, 6).notice == \
        "custom layout: 1 rolled cell cannot be reached from R1; rerolled"
    assert Game(lay, 2, False, 370).notice == (
        "custom layout: the rolled start had no move; rerolled; "
        "custom layout: 1 rolled cell cannot be reached from B3; rerolled")
    told = 0
    for seed in range(40):
        g = Game(ISLANDS, 2, seed % 2 == 1, seed)
        if g.notice is None:  # (every roll hit the start's island)
            continue
        told += 1
        m = NOTICE.match(g.notice)
        assert m, g.notice
        n = int(m.group(1))
        assert n >= 1 and m.group(0).count("cells ") == (n > 1)
        assert m.group(2) == ISLANDS.token(g.start)
    assert told >= 30


def test_a_request_the_game_cannot_take_is_refused_with_its_own_line():
    g = Game(LAYOUT, 2, False, 7, 0, SOLVER)
    for player, line in ((2, "player must be 0 to 1, not 2"), (-1, "player must be 0 to 1, not -1"),
                         (True, "player must be 0 to 1, not True")):
        with pytest.raises(GameError) as err:
            g.claim(player, 3)
        assert str(err.value) == line
    with pytest.raises(GameError) as err:
        g.claim(0, -1)
    assert str(err.value) == "a claim is 0 to 65535 moves, not -1"
    while not g.over:
        r = g.route()
        g.claim(0, len(r) - 1, r[1:])
    for request in (lambda: g.claim(1, 3), g.give_up, lambda: g.solved(3)):
        with pytest.raises(GameError) as err:
            request()
        assert str(err.value) == "the game is over; undo or start a new game"
