"""What the screens of each game mode show and do, pinned where a mutation run
(``make mutate SCOPE=modes``, docs/testing.md) found nothing guarding it: each test
plays the mode as a player meets it and reads the grid, the guide or the saved game."""

import pytest

from microrobots import frame as F
from microrobots import palette as P
from test_guarded_behaviours import console, enter, game_on_flash, next_round, set_players
from tools.sim.script import Session


def cell(s, c):
    f = s.driver.device.frame
    return tuple(f[3 * c:3 * c + 3])


def samples(s, ms, step=20):
    """The grid every ``step`` ms for ``ms`` ms, with the device's clock at each."""
    out = []
    for _ in range(ms // step):
        s.wait(step)
        out.append((s.driver.device.now, [cell(s, c) for c in range(36)]))
    return out


# -- the referee: the end of a game -------------------------------------------------------
def won_game(tmp_path, players, winner):
    """A referee game in which ``winner`` (0-based) claims every round right until five."""
    state = str(tmp_path)
    s = Session(seed=8, state=state)
    if players != 2:
        set_players(s, players)
    enter(s, "referee")
    s.settle()
    ref = s.app.current
    for k in range(5):
        route = ref.game.route()
        s.claim(winner, len(route) - 1, route[1:])
        if k < 4:
            next_round(s)
    s.wait(2800)  # the verdict, then the celebration begins
    assert ref.screen is ref.over
    return s, ref, state


def player(p):
    """Player ``p``'s colour (0-based) as the grid shows it."""
    return tuple(P.PLAYERS[3 * p:3 * p + 3])


def scores_rows(grid, players_on_page):
    """Tokens per row of a score picture (gold cells in columns 1-5)."""
    return [sum(1 for c in range(1, 6) if grid[6 * r + c] == P.TOKEN)
            for r in range(players_on_page)]


def test_the_winner_blinks_on_the_scores_after_the_celebration(tmp_path):
    s, ref, state = won_game(tmp_path, 2, 0)
    board50 = bytearray(108)
    F.board(board50, s.app.layout, s.app.pal, 50)
    party = samples(s, 3000)  # (the celebration takes some 2.5 s)
    # the celebration first: rings over the board dimmed to 50, no scores yet
    assert any(grid[24:] != [(0, 0, 0)] * 12 for _, grid in party[:50])
    assert any(sum(1 for c in range(36) if grid[c] == tuple(board50[3 * c:3 * c + 3])) >= 6
               for _, grid in party[:50])
    shown = samples(s, 2000)
    white = 0
    for now, grid in shown:
        assert scores_rows(grid, 2) == [5, 0]
        assert grid[6] == player(1)  # the loser's colour, never blinking
        assert grid[12:] == [(0, 0, 0)] * 24  # no pool's count on the winners' screen
        if now % 500 < 250:
            assert grid[0] == P.ROBOT_WHITE, now
            white += 1
        else:
            assert grid[0] == player(0), now
    assert 20 < white < 80


@pytest.mark.parametrize("players", [6, 7, 8])
def test_the_winner_blinks_on_its_page_only(tmp_path, players):
    """Six players fit one page; with seven or eight the pages alternate (1.5 s each)."""
    winner = players - 1
    s, ref, state = won_game(tmp_path, players, winner)
    samples(s, 3000)  # the celebration
    seen = set()
    for now, grid in samples(s, 3200, 40):
        page = F.since(now, ref.t0) // 1500 % 2 if players > 6 else 0
        seen.add(page)
        shown = range(6 * page, min(players, 6 * page + 6))
        blink = P.ROBOT_WHITE if now % 500 < 250 else player(winner)
        assert scores_rows(grid, len(shown)) == [5 if p == winner else 0 for p in shown]
        assert [grid[6 * r] for r in range(len(shown))] == [
            blink if p == winner else player(p) for p in shown], now
        assert grid[6 * len(shown):] == [(0, 0, 0)] * (36 - 6 * len(shown))
    assert seen == ({0, 1} if players > 6 else {0})


def test_after_the_win_b_undoes_the_winning_claim_and_a_starts_a_new_game(tmp_path):
    s, ref, state = won_game(tmp_path, 2, 0)
    s.wait(3000)
    s.tap("b")  # undo the last decision?
    assert ref.screen is ref.undo
    s.tap("b")
    assert console(s)[-1] == "round 5: the last decision undone; tokens 4 0, pool 21"
    assert ref.screen is ref.board and not ref.game.over
    route = ref.game.route()
    s.claim(0, len(route) - 1, route[1:])  # the same claim again: won again
    s.wait(2800)
    assert ref.screen is ref.over
    s.wait(3000)
    s.tap("a")  # a new game
    s.settle()
    g = game_on_flash(s, state, "referee")
    assert (g.round, g.tokens, g.pool, g.over) == (1, [0, 0], 25, False)
