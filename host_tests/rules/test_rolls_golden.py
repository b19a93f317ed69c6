"""The rolls a seed gives, pinned (issue 37): rules/rolls.py says the generator's sequence
is part of the saved-game format (a saved game is its seed and its decisions, replayed),
so a change to how a round is rolled must show here, not in a player's lost game.

Each case: a layout, players, expert, seed, difficulty, and the first eight rounds as
(start, target, waypoint, optimum, rerolls), every round given up (no token moves, the
target becomes the next start). Written from the firmware as it was when the format was
fixed; if a change here is intended, it needs a new format version (game.py VERSION).
"""

import pytest

from microrobots.rules.board import Layout
from microrobots.rules.game import Game

GOLDEN = [
    ('black:ABCD0000', 2, False, 1, 0, [
        (12, 4, None, 3, 1), (4, 30, None, 6, 0), (30, 16, None, 4, 0), (16, 27, None, 2, 0),
        (27, 5, None, 2, 0), (5, 8, None, 2, 0), (8, 13, None, 3, 0), (13, 6, None, 3, 0)]),
    ('black:CADB0312', 3, True, 7, 0, [
        (5, 19, 33, 5, 0), (19, 18, 26, 7, 0), (18, 29, 5, 8, 0), (29, 35, 32, 6, 0),
        (35, 4, 1, 6, 0), (4, 5, 16, 3, 0), (5, 25, 32, 10, 0), (25, 16, 2, 6, 0)]),
    # solo at difficulty 4: targets of exactly four moves are taken (rounds 1, 2, 4, 5...)
    ('copper:DCBA3210', 1, False, 12345, 4, [
        (18, 2, None, 4, 0), (2, 18, None, 4, 2), (18, 16, None, 5, 0), (16, 7, None, 4, 0),
        (7, 6, None, 4, 0), (6, 17, None, 4, 2), (17, 20, None, 5, 0), (20, 25, None, 4, 0)]),
    ('black:BADC1230', 1, True, 99, 6, [
        (10, 8, 27, 7, 2), (8, 10, 26, 9, 0), (10, 35, 21, 8, 9), (35, 10, 17, 6, 1),
        (10, 35, 15, 9, 0), (35, 7, 4, 7, 12), (7, 30, 4, 7, 15), (30, 10, 16, 9, 2)]),
    # difficulty 8 on a board whose farthest target is 7 moves away: every round uses up
    # its rolls and takes the first of the farthest rolled
    ('copper:ABCD0000', 1, False, 0xFFFFFFFF, 8, [
        (5, 11, None, 7, 35), (11, 5, None, 7, 35), (5, 11, None, 7, 35), (11, 35, None, 7, 35),
        (35, 11, None, 7, 35), (11, 29, None, 7, 35), (29, 11, None, 7, 35),
        (11, 21, None, 7, 35)]),
    ('black:ABCD0000', 4, True, 2026, 0, [
        (8, 24, 4, 7, 0), (24, 26, 18, 6, 0), (26, 28, 17, 5, 0), (28, 0, 26, 11, 0),
        (0, 19, 2, 8, 0), (19, 25, 3, 9, 0), (25, 21, 11, 5, 0), (21, 17, 22, 5, 0)]),
]


@pytest.mark.parametrize("name,players,expert,seed,difficulty,rounds", GOLDEN,
                         ids=["%s-%dp-%s-s%d-d%d" % (c[0], c[1], "x" if c[2] else "n", c[3], c[4])
                              for c in GOLDEN])
def test_a_seed_rolls_the_same_rounds(name, players, expert, seed, difficulty, rounds):
    g = Game(Layout.named(name), players, expert, seed, difficulty)
    got = []
    for _ in rounds:
        got.append((g.start, g.target, g.waypoint, g.optimum(), g.rerolls))
        g.give_up()
    assert got == rounds


@pytest.mark.parametrize("name,players,expert,seed,difficulty,rounds", GOLDEN[:3])
def test_the_same_rounds_come_back_from_a_saved_game(name, players, expert, seed,
                                                    difficulty, rounds):
    """A saved game is its seed and decisions: read back, it is in the pinned round."""
    from microrobots.rules import notation

    g = Game(Layout.named(name), players, expert, seed, difficulty)
    for _ in range(5):
        g.give_up()
    back = notation.from_dict(g.to_dict())
    assert (back.start, back.target, back.waypoint, back.optimum()) == rounds[5][:4]


def test_the_games_of_a_boot_seed_are_pinned():
    """The n-th new game of a device booted with a seed (app.App.new_seed, the classroom
    lesson N, the web page's ?seed=N): a saved game names its own seed, so these
    numbers decide which puzzles a given boot plays."""
    from microrobots.rules.rng import game_seed

    assert [game_seed(1234, n) for n in (1, 2, 3)] == [9153, 17072, 24991]
    assert game_seed(0x3FFFFFFF, 2) == 15837  # wraps within 30 bits
    assert game_seed(0, 0) == 0
