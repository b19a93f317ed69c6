"""What the screens of each game mode show and do, pinned where a mutation run
(``make mutate SCOPE=modes``, docs/testing.md) found nothing guarding it: each test
plays the mode as a player meets it and reads the grid, the guide or the saved game."""

import json
import os

import pytest

from microrobots import frame as F
from microrobots import palette as P
from microrobots.modes import guide
from microrobots.keys import (
    SOUND_BAD, SOUND_CLICK, SOUND_GOOD, SOUND_MOVE, SOUND_REFUSE, SOUND_ROLL, SOUND_WIN,
)
from microrobots.rules import notation
from microrobots.rules.board import TURNED, Layout
from microrobots.rules.game import GameError
from test_guarded_behaviours import (
    after_wrong, cell, console, enter, game_on_flash, line_of, next_round, notices, on_flash,
    reboot, saved_games, set_players, swap_in,
)
from tools.sim.script import Session


def scaled(rgb, level):
    """``rgb`` at ``level`` / 255, as frame.put_scaled draws it."""
    return tuple(v * level // 255 for v in rgb)


def record_sounds(app):
    """The sounds ``app`` asks for from now on, in a list (they still play)."""
    sounds = []
    beep = app.beep
    app.beep = lambda sound: (sounds.append(sound), beep(sound))
    return sounds


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
    s, ref, _ = referee(tmp_path, players)
    for k in range(5):
        route = ref.game.route()
        s.claim(winner, len(route) - 1, route[1:])
        if k < 4:
            next_round(s)
    s.wait(2800)  # the verdict, then the celebration begins
    assert ref.screen is ref.over
    return s, ref, str(tmp_path)


def player(p):
    """Player ``p``'s colour (0-based) as the grid shows it."""
    return tuple(P.PLAYERS[3 * p:3 * p + 3])


def winners_picture(g, page, now, winner):
    """The winners' screen: the scores without the pool, the winner's colour blinking."""
    want = score_picture(g.tokens, g.players, page, -1)
    if winner // 6 == page and now % 500 < 250:
        want[(winner % 6) * 6] = P.ROBOT_WHITE
    return want


def test_the_winner_blinks_on_the_scores_after_the_celebration(tmp_path):
    s, ref, state = won_game(tmp_path, 2, 0)
    buf = bytearray(108)
    F.board(buf, s.app.layout, s.app.pal, 50)
    board50 = as_cells(buf)
    party = samples(s, 3000)  # (the celebration takes some 2.5 s)
    # the celebration first: rings over the board dimmed to 50, no scores yet
    assert any(grid[24:] != [(0, 0, 0)] * 12 for _, grid in party[:50])
    assert any(sum(1 for c in range(36) if grid[c] == board50[c]) >= 6
               for _, grid in party[:50])
    white = 0
    for now, grid in samples(s, 2000):
        assert grid == winners_picture(ref.game, 0, now, 0), now
        white += grid[0] == P.ROBOT_WHITE
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
        assert grid == winners_picture(ref.game, page, now, winner), (page, now)
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


# -- the settings: an arrangement shuffled or matched, quadrant by quadrant ----------------
CORNERS = (0, 3, 18, 21)


def quadrant_cells(q):
    return [CORNERS[q] + r * 6 + c for r in range(3) for c in range(3)]


def arranging(tmp_path, how):
    """Into the settings' arrangement item, then shuffle (1) or match (2) with A; every
    sound the app asks for recorded."""
    s = Session(seed=21, state=str(tmp_path))
    enter(s, "settings")
    st = s.app.current
    sounds = record_sounds(s.app)
    s.tap("down")  # the arrangement
    s.tap("right", how)
    s.tap("a")
    assert st.screen is (st.shuffle, st.match)[how - 1]
    return s, st, sounds


def tile_picture(s, code, q, level=255):
    """Quadrant ``q`` as arrangement ``code`` lays it (its dice at ``level``), read from a
    whole layout with that board and turn there (``code`` itself may use a board twice)."""
    rest = [b for b in "ABCD" if b != code[q]]
    letters = rest[:q] + [code[q]] + rest[q:]
    whole = "".join(letters) + "0" * q + code[4 + q] + "0" * (3 - q)
    lay = Layout.named(s.app.settings["side"] + ":" + whole)
    pal = s.app.pal
    return [scaled(pal[3 * lay.colours[i]:3 * lay.colours[i] + 3], level)
            for i in quadrant_cells(q)]


def printed_corner(code, q):
    """The cell where quadrant ``q``'s printed top-left die lies after its turns."""
    return CORNERS[q] + TURNED[(ord(code[4 + q]) - 48) * 9]


def test_shuffle_shows_each_boards_letter_then_its_dice_with_the_corner_blinking(tmp_path):
    s, st, _ = arranging(tmp_path, 1)
    code = bytes(st.code).decode()
    for q in range(4):
        opened = st.t0  # the key's time: the letter shows for 800 ms from it
        for now, grid in samples(s, 1600):
            others = [grid[i] for i in range(36) if i not in quadrant_cells(q)]
            assert others == [(0, 0, 0)] * 27  # only the quadrant to fill is lit
            mine = [grid[i] for i in quadrant_cells(q)]
            if now - opened < 800:  # the letter: 1..4 gold cells for A..D
                n = ord(code[q]) - 64
                assert mine == [P.ONE] * n + [P.DIM] * (9 - n), (q, now)
            else:  # then the tile's dice as they must lie
                want = tile_picture(s, code, q)
                corner = quadrant_cells(q).index(printed_corner(code, q))
                if now % 500 < 250:
                    want[corner] = P.ROBOT_WHITE
                assert mine == want, (q, now)
        s.tap("right" if q % 2 else "a")  # RIGHT or A: the next quadrant
    assert st.screen is st.shuffle and st.quadrant == 3
    s.tap("right")  # RIGHT does not keep the arrangement; A does
    assert st.screen is st.shuffle and s.app.settings["tiles"] == "ABCD0000"


def test_shuffle_goes_back_with_left_and_b_cancels(tmp_path):
    s, st, _ = arranging(tmp_path, 1)
    code = bytes(st.code).decode()
    s.tap("a", 2)
    assert st.quadrant == 2
    s.tap("left")
    assert st.quadrant == 1
    s.wait(100)  # the letter again, for the quadrant gone back to
    n = ord(code[1]) - 64
    assert [cell(s, i) for i in quadrant_cells(1)] == [P.ONE] * n + [P.DIM] * (9 - n)
    s.tap("left", 3)  # stops at the first
    assert st.quadrant == 0 and st.screen is st.shuffle
    s.tap("b")
    assert st.screen is st.items and s.app.settings["tiles"] == "ABCD0000"
    s.tap("a")  # a new deal starts at the first quadrant again
    assert st.screen is st.shuffle and st.quadrant == 0


def test_shuffle_deals_every_order_of_the_boards_and_every_turn(tmp_path):
    s, st, _ = arranging(tmp_path, 1)
    orders, turns = set(), set()
    for _ in range(150):
        s.tap("b")
        s.tap("a")
        code = bytes(st.code).decode()
        assert sorted(code[:4]) == list("ABCD"), code
        orders.add(code[:4])
        turns.update((q, code[4 + q]) for q in range(4))
    assert len(orders) == 24
    assert turns == {(q, t) for q in range(4) for t in "0123"}


def test_shuffle_keeps_what_it_dealt_with_a_after_the_fourth(tmp_path):
    s, st, sounds = arranging(tmp_path, 1)
    code = bytes(st.code).decode()
    s.tap("a", 4)
    assert st.screen is st.items and st.arrange == 1
    assert s.app.settings["tiles"] == code and sounds[-1] == SOUND_GOOD
    s.until_saved()
    assert json.loads((tmp_path / "settings.json").read_text())["data"]["tiles"] == code


def test_match_shows_every_board_the_chosen_one_bright_and_turns_it(tmp_path):
    s, st, _ = arranging(tmp_path, 2)
    s.tap("up")  # A -> D, going round
    s.tap("left")  # turned three times, going round
    code = "DBCD3000"
    assert bytes(st.code).decode() == code
    for now, grid in samples(s, 600):
        for q in range(4):
            want = tile_picture(s, code, q, 255 if q == 0 else 40)
            if q == 0 and now % 500 < 250:
                want[quadrant_cells(0).index(printed_corner(code, 0))] = P.ROBOT_WHITE
            assert [grid[i] for i in quadrant_cells(q)] == want, (q, now)
    s.tap("down", 2)  # D -> A -> B
    s.tap("right", 2)  # 3 -> 0 -> 1
    assert bytes(st.code).decode() == "BBCD1000"
    s.tap("a")
    s.tap("left")  # the second quadrant turned back once: 0 -> 3
    assert bytes(st.code).decode() == "BBCD1300" and st.quadrant == 1


def test_match_b_goes_back_a_quadrant_then_cancels(tmp_path):
    s, st, _ = arranging(tmp_path, 2)
    s.tap("a", 2)
    assert st.quadrant == 2
    s.tap("b")
    assert st.quadrant == 1 and st.screen is st.match
    s.tap("b")
    assert st.quadrant == 0 and st.screen is st.match
    s.tap("down")  # changed, then cancelled: nothing kept
    s.tap("b")
    assert st.screen is st.items and s.app.settings["tiles"] == "ABCD0000"


def test_match_refuses_a_board_twice_with_a_red_flash_and_the_refusal_sound(tmp_path):
    s, st, sounds = arranging(tmp_path, 2)
    s.tap("down")  # B in the first quadrant: two B's
    s.tap("a", 3)
    del sounds[:]
    s.tap("a")
    assert sounds == [SOUND_CLICK, SOUND_REFUSE]
    assert st.screen is st.match and st.quadrant == 3
    assert s.app.settings["tiles"] == "ABCD0000"
    border = [i for i in range(36) if i // 6 in (0, 5) or i % 6 in (0, 5)]
    flashed = [all(grid[i] == P.REFUSE for i in border) for _, grid in samples(s, 400)]
    assert any(flashed) and not all(flashed)  # the grid's border flashes red
    s.tap("b", 3)  # back to the first quadrant, B -> A: kept
    s.tap("up")
    del sounds[:]
    s.tap("a", 4)
    assert sounds[-1] == SOUND_GOOD and s.app.settings["tiles"] == "ABCD0000"
    assert st.screen is st.items


# -- the referee's screens, drawn as a table reads them ---------------------------------
def as_cells(buf):
    return [tuple(buf[3 * i:3 * i + 3]) for i in range(36)]


def score_picture(tokens, players, page, pool):
    """The score screen as the rules of the picture say (referee_screens.scores): a row
    per player of the page (six a page; one page up to four players, else two), the
    colour then five token cells, and the pool's count (>= 0) after an empty row if two
    rows are left for it."""
    buf = bytearray(108)
    shown = range(6 * page, min(players, 6 * page + 6))
    for row, p in enumerate(shown):
        buf[18 * row:18 * row + 3] = bytes(player(p))
        for c in range(1, 6):
            F.put_rgb(buf, 6 * row + c, P.TOKEN if c <= tokens[p] else P.DIM)
    rows = len(shown)
    if pool >= 0 and rows <= 4:
        F.count(buf, pool, rows + 1 if rows <= 3 else rows, P.POOL)
    return as_cells(buf)


def pages_of(players):
    return 1 if players <= 4 else 2


def round_picture(s, robot, target, waypoint, now):
    """A round's board as frame.py draws its pieces: the board dimmed, the waypoint, the
    target, the robot."""
    app = s.app
    colours = app.layout.colours
    buf = bytearray(108)
    F.board(buf, app.layout, app.pal, P.BACKGROUND)
    if waypoint >= 0:
        F.waypoint(buf, waypoint, app.pal, colours[waypoint], now)
    F.target(buf, target, app.pal, colours[target], now)
    F.robot(buf, robot, app.pal, colours[robot], now)
    return as_cells(buf)


def referee(tmp_path, players=2, expert=False, seed=8):
    """The referee with ``players``, its dice skipped; every sound asked for recorded."""
    s = Session(seed=seed, state=str(tmp_path))
    if players != 2:
        set_players(s, players)
    if expert:
        enter(s, "settings")
        s.tap("down", 4)  # expert
        s.tap("right")
        s.hold("b")
    enter(s, "referee")
    s.settle()
    return s, s.app.current, record_sounds(s.app)


def take_a_token(s, ref, p):
    route = ref.game.route()
    s.claim(p, len(route) - 1, route[1:])
    next_round(s)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8])
def test_the_scores_show_every_player_and_the_pool_page_by_page(tmp_path, players):
    s, ref, sounds = referee(tmp_path, players)
    take_a_token(s, ref, 0)
    take_a_token(s, ref, players - 1)
    g = ref.game
    assert g.tokens[0] == g.tokens[-1] == 1 and g.pool == 23
    s.tap("up")
    assert ref.screen is ref.scores and sounds[-1] == SOUND_CLICK
    seen = set()
    for now, grid in samples(s, 3200, 40):
        page = F.since(now, ref.t0) // 1500 % 2 if pages_of(players) > 1 else 0
        seen.add(page)
        assert grid == score_picture(g.tokens, players, page, g.pool), (page, now)
    assert seen == set(range(pages_of(players)))
    s.tap("down")  # any key: back to the board
    assert ref.screen is ref.board


def test_the_board_shows_the_waypoint_to_experts(tmp_path):
    s, ref, _ = referee(tmp_path, expert=True)
    g = ref.game
    assert g.waypoint is not None
    for now, grid in samples(s, 1200, 40):
        assert grid == round_picture(s, g.start, g.target, g.waypoint, now), now


@pytest.mark.parametrize("players", [3, 8])
def test_the_claimant_is_picked_with_the_d_pad_going_round(tmp_path, players):
    s, ref, sounds = referee(tmp_path, players)
    g = ref.game
    s.tap("a")  # a claim: who?
    assert ref.screen is ref.claimant and ref.player == -1
    for now, grid in samples(s, 900, 60):  # nobody chosen: the colours pulse
        want = score_picture(g.tokens, players, 0, -1)
        level = F.pulse(now, 900, 150, 255)
        for row in range(min(players, 6)):
            want[6 * row] = scaled(player(row), level)
        assert grid == want, now
    del sounds[:]
    s.tap("a")  # nobody chosen: refused
    assert ref.screen is ref.claimant and sounds == [SOUND_REFUSE]
    s.tap("up")  # from nobody, up: the last player
    assert ref.player == players - 1
    s.tap("right")  # and on: round to the first
    assert ref.player == 0
    s.tap("left")
    assert ref.player == players - 1
    s.tap("left")
    assert ref.player == players - 2
    s.tap("down")
    assert ref.player == players - 1
    chosen = players - 1
    for now, grid in samples(s, 800, 40):  # the chosen row blinks white, its tokens dark
        want = score_picture(g.tokens, players, chosen // 6, -1)
        if now % 400 < 200:
            row = chosen % 6
            want[6 * row:6 * row + 6] = [P.ROBOT_WHITE] + [(0, 0, 0)] * 5
        assert grid == want, now
    s.tap("b")
    assert ref.screen is ref.board
    s.tap("a")
    s.tap("down")  # from nobody, down: the first player
    assert ref.player == 0
    s.tap("a")
    assert ref.screen is ref.claim and ref.count == 1


def test_the_claim_shows_the_count_over_the_claimants_colour_and_b_goes_back(tmp_path):
    s, ref, sounds = referee(tmp_path, 3)
    s.tap("a")
    s.tap("down", 2)  # player 2
    s.tap("a")
    s.tap("up", 2)  # a claim of 3
    want = bytearray(108)
    F.count(want, 3, 0, P.DIM)
    F.put_rgb(want, 0, player(1))
    for i in range(24, 36):
        F.put_rgb(want, i, scaled(player(1), 120))
    for now, grid in samples(s, 200):
        assert grid == as_cells(want), now
    del sounds[:]
    s.tap("b")
    assert ref.screen is ref.claimant and ref.player == 1 and sounds == [SOUND_CLICK]


def test_a_demonstration_shows_the_trail_the_start_and_the_cursor(tmp_path):
    s, ref, sounds = referee(tmp_path)
    g = ref.game
    route = g.route()
    assert len(route) >= 4
    s.tap("a")
    s.tap("down")
    s.tap("a")
    s.tap("up", len(route) - 2)  # the optimum claimed
    s.tap("a")
    assert ref.screen is ref.demo
    robot = route[0]
    for step in route[1:3]:
        s.move(robot, step)
        robot = step
    for now, grid in samples(s, 600, 40):
        want = round_picture(s, robot, g.target, -1, now)
        want[route[1]] = P.TRAIL  # the moves before the last leave a trail
        c = s.app.layout.colours[route[0]]
        want[route[0]] = tuple(s.app.pal[3 * c:3 * c + 3])  # the start, at full level
        assert grid == want, now
    s.tap("b", 2)  # both moves taken back, then B: back to the count
    assert ref.screen is ref.demo and ref.robot == route[0]
    del sounds[:]
    s.tap("b")
    assert ref.screen is ref.claim and sounds == [SOUND_CLICK]


@pytest.mark.parametrize("players", [2, 8])
def test_the_verdict_flashes_then_the_scores_blink_the_claimant(tmp_path, players):
    s, ref, _ = referee(tmp_path, players)
    g = ref.game
    route = g.route()
    p = players - 1
    s.claim(p, len(route) - 1, route[1:])
    assert ref.screen is ref.result and ref.ok
    judged = ref.t0
    for now, grid in samples(s, 2000, 20):
        t = now - judged
        if t < 800:
            lit = scaled(P.GOOD, 110)
            assert grid == [lit if t % 400 < 250 else (0, 0, 0)] * 36, t
        else:
            page = p // 6
            want = score_picture(g.tokens, players, page,
                                 g.pool if page + 1 == pages_of(players) else -1)
            if now % 400 < 200:
                want[(p % 6) * 6] = P.GOOD
            assert grid == want, t


# -- the referee's decisions as the table hears and reads them -----------------------------
def test_the_referee_sounds_each_decision(tmp_path):
    """The dice roll, a right and a wrong verdict, a give-up, the undo asked and made, a
    win: each its own sound, the last the device asked for."""
    s, ref, sounds = referee(tmp_path)
    route = ref.game.route()
    s.claim(0, len(route) - 1, route[1:])
    assert sounds[-1] == SOUND_GOOD
    next_round(s)
    assert SOUND_ROLL in sounds[-3:]  # the next target rolled (then the board's click)
    route = ref.game.route()
    s.claim(1, len(route) - 1, route[1:-1])  # one move short: wrong
    assert sounds[-1] == SOUND_BAD
    after_wrong(s)
    s.hold("a")  # nobody finds a route
    assert ref.screen is ref.reveal and sounds[-1] == SOUND_MOVE
    s.tap("a")
    s.tap("a")
    s.settle()
    del sounds[:]
    s.tap("b")  # undo?
    assert ref.screen is ref.undo and sounds == [SOUND_CLICK]
    s.tap("b")  # yes
    assert ref.screen is ref.board and sounds == [SOUND_CLICK, SOUND_CLICK]
    for _ in range(5):  # player 1 takes tokens up to five, a win
        route = ref.game.route()
        s.claim(0, len(route) - 1, route[1:])
        if ref.game.over:
            break
        next_round(s)
    s.wait(2800)
    assert ref.screen is ref.over and sounds[-1] == SOUND_WIN


def test_a_new_game_after_a_win_rolls_its_start_with_the_dice(tmp_path):
    s, ref, _ = won_game(tmp_path, 2, 0)
    s.wait(3000)
    sounds = record_sounds(s.app)
    s.tap("a")  # a new game: the dice roll its start, target and all
    assert ref.screen is ref.rolling and sounds == [SOUND_ROLL]
    assert ref.dice.running(s.driver.device.now)
    s.settle()
    assert ref.screen is ref.board and ref.game.round == 1 and ref.game.tokens == [0, 0]


def claim_line(s, ref, player, count, moves):
    """Referee: ``player`` claims ``count`` and shows ``moves``; the console's line and
    what the rules say of that claim (judged on a copy of the game first). (Nobody holds
    a token yet: a wrong claim moves none.)"""
    g = ref.game
    copy = notation.from_dict(g.to_dict())
    verdict = copy.claim(player, count, moves)
    s.claim(player, count, moves)
    return console(s)[-1], verdict.reason, g


def a_round_with(s, ref, good, tries=40):
    """Rounds given up until one ``good(game)`` accepts (what it returns is kept)."""
    for _ in range(tries):
        found = good(ref.game)
        if found:
            return found
        s.hold("a")
        s.tap("a")
        s.tap("a")
        s.settle()
    raise AssertionError("no such round in %d" % tries)


def missing_last(g):
    """A route of the optimum whose last move lands beside the target, legally."""
    route = g.route()
    if len(route) < 4:
        return None
    before = route[-2]
    for c in range(36):
        if c not in (g.target, before) and g.solver.is_move(before, c) and c not in route:
            return route[1:-1] + [c]
    return None


def test_a_missed_target_is_read_out_with_where_the_robot_ended(tmp_path):
    s, ref, _ = referee(tmp_path)
    moves = a_round_with(s, ref, missing_last)
    lay = s.app.layout
    rnd, target = ref.game.round, ref.game.target
    said, reason, g = claim_line(s, ref, 0, len(moves), moves)
    assert said == ("round %d: player 1 claims %d: wrong: %s (%s, not %s); "
                    "tokens 0 0, pool 25" % (
                        rnd, len(moves), reason, lay.token(moves[-1]), lay.token(target)))


def walk_avoiding(g):
    """Expert: a walk of the optimum's length to the target that never stands on the
    waypoint (nor on the target before its end), or None."""
    n, via, target = g.optimum(), g.waypoint, g.target
    if via is None or n > 6:
        return None

    def walks(cell, left):
        if left == 0:
            return [[]] if cell == target else None
        for nxt in range(36):
            if nxt in (via, cell) or (nxt == target and left > 1):
                continue
            if g.solver.is_move(cell, nxt):
                rest = walks(nxt, left - 1)
                if rest:
                    return [[nxt] + rest[0]]
        return None

    found = walks(g.start, n)
    return found[0] if found else None


def test_a_missed_waypoint_is_read_out_with_the_waypoint(tmp_path):
    s, ref, _ = referee(tmp_path, expert=True)
    moves = a_round_with(s, ref, walk_avoiding)
    rnd, via = ref.game.round, ref.game.waypoint
    said, reason, g = claim_line(s, ref, 1, len(moves), moves)
    assert reason == "the robot did not visit the waypoint first"
    assert said == ("round %d: player 2 claims %d: wrong: %s (%s); tokens 0 0, "
                    "pool 25" % (rnd, len(moves), reason,
                                                       s.app.layout.token(via)))


def test_a_claim_below_the_optimum_is_read_out_with_the_optimum(tmp_path):
    s, ref, _ = referee(tmp_path)
    g = ref.game
    n = g.optimum()
    assert n >= 2
    said, reason, g = claim_line(s, ref, 0, n - 1, [])
    assert said == ("round 1: player 1 claims %d: wrong: %s (%d); tokens 0 0, "
                    "pool 25" % (n - 1, reason, n))


def test_a_route_of_one_move_given_up_is_read_out_as_one_move(tmp_path):
    s, ref, _ = referee(tmp_path)
    a_round_with(s, ref, lambda g: g.optimum() == 1, tries=80)
    g = ref.game
    rnd, lay, start, target = g.round, s.app.layout, g.start, g.target
    s.hold("a")
    assert console(s)[-1] == "round %d: given up; a route of 1 move: %s %s" % (
        rnd, lay.token(start), lay.token(target))


def thrown(s, ref):
    """The cells the dice place, in order, as the grid shows each (blinking white where
    that die lies), until the board is on show."""
    cells = []
    for _ in range(400):
        s.wait(20)
        if ref.screen is not ref.rolling:
            return cells
        grid = [cell(s, c) for c in range(36)]
        white = [c for c in range(36) if grid[c] == P.ROBOT_WHITE]
        if len(white) == 1 and (not cells or cells[-1] != white[0]):
            cells.append(white[0])
    raise AssertionError("the dice never stopped")


@pytest.mark.parametrize("expert", [False, True])
def test_the_dice_place_the_start_only_in_a_new_game(tmp_path, expert):
    """A new game: the start, the target (and the waypoint); every next round only the
    target (and the waypoint): the old target is the new start."""
    s = Session(seed=8, state=str(tmp_path))
    s.app.change("expert", expert)
    enter(s, "referee")
    ref = s.app.current
    g = ref.game
    via = [g.waypoint] if expert else []
    assert thrown(s, ref) == [g.start, g.target] + via
    assert ref.screen is ref.board
    s.hold("a")  # given up: the next target
    s.tap("a")
    s.tap("a")
    g = ref.game
    via = [g.waypoint] if expert else []
    assert thrown(s, ref) == [g.target] + via


# -- the referee's saved game: refused with its reason, or resumed where it was -----------
def test_the_referee_sets_a_solo_save_aside_with_its_reason(tmp_path):
    state = saved_games(tmp_path)
    swap_in(state, "referee", "solo")
    again = reboot(state)
    enter(again, "referee")
    again.settle()
    kept = os.path.join(state, "referee.bad.json")
    assert notices(again)[-1] == ("saved game: not a refereed game on this layout; kept as "
                                  + kept), notices(again)
    assert os.path.exists(kept)


def test_the_referee_sets_a_damaged_save_aside_with_the_rules_reason(tmp_path):
    state = saved_games(tmp_path)
    path = os.path.join(state, "referee.json")
    with open(path) as f:
        envelope = json.load(f)
    game = envelope["data"]["game"]
    game["tokens"] = [9] + game["tokens"][1:]  # more than a winner's five
    with open(path, "w") as f:
        json.dump(envelope, f)
    with pytest.raises(GameError) as why:
        notation.from_dict(game)
    again = reboot(state)
    enter(again, "referee")
    again.settle()
    kept = os.path.join(state, "referee.bad.json")
    assert notices(again)[-1] == "%s; kept as %s" % (why.value, kept), notices(again)
    assert again.app.current.game.tokens == [0, 0]  # a new game instead


def test_the_referee_comes_back_to_its_board_without_the_dice(tmp_path):
    """From the menu, or after a reboot then the menu: the game goes on, not rolled again."""
    s, ref, _ = referee(tmp_path)
    g = ref.game
    s.hold("b")
    enter(s, "referee")
    ref = s.app.current
    assert ref.screen is ref.board and ref.game.round == 1
    s.until_saved()
    again = reboot(str(tmp_path))
    ref = again.app.current
    assert again.app.mode == "referee" and ref.screen is ref.board
    again.hold("b")
    enter(again, "referee")
    ref = again.app.current
    assert ref.screen is ref.board
    assert (ref.game.start, ref.game.target, ref.game.round) == (g.start, g.target, 1)


def test_a_won_game_comes_back_to_its_winners(tmp_path):
    """From the menu, and after a reboot: the winners' screen, not the board."""
    s, ref, state = won_game(tmp_path, 2, 0)
    s.wait(3000)
    s.hold("b")
    enter(s, "referee")
    ref = s.app.current
    assert ref.screen is ref.over
    s.until_saved()
    again = reboot(state)
    ref = again.app.current
    assert again.app.mode == "referee" and ref.screen is ref.over and ref.game.over
    for now, grid in samples(again, 1000, 40):  # no celebration again: the winner blinks
        assert grid == winners_picture(ref.game, 0, now, 0), now


def test_the_referee_kept_in_memory_comes_back_without_the_dice(tmp_path):
    """No flash to put the game away on (its save failed): the mode stays, and is entered
    again."""
    s = Session(seed=8)
    enter(s, "referee")
    s.settle()
    s.wait(3000)  # the save tried, and failed
    ref = s.app.current
    g = ref.game
    s.hold("b")
    enter(s, "referee")
    assert s.app.current is ref and ref.game is g
    assert ref.screen is ref.board


def test_an_illegal_first_move_is_read_out_from_the_start(tmp_path):
    s, ref, _ = referee(tmp_path)
    g = ref.game
    start, n = g.start, g.optimum()
    assert n >= 2
    bad = [c for c in line_of(start) if not g.solver.is_move(start, c)][0]
    on = [c for c in line_of(bad) if c not in (start, bad)][0]
    said, reason, g = claim_line(s, ref, 0, n, [bad, on])
    lay = s.app.layout
    assert reason == "move 1 is not legal"
    assert said == "round 1: player 1 claims %d: wrong: %s (%s to %s); tokens 0 0, pool 25" % (
        n, reason, lay.token(start), lay.token(bad))


def test_the_guide_says_no_token_moves_when_the_claimant_has_none(tmp_path):
    s, ref, _ = referee(tmp_path)
    route = ref.game.route()
    s.claim(1, len(route) - 1, route[1:-1])  # one move short, and player 2 holds no token
    assert ref.screen is ref.result and not ref.ok
    assert guide.words(ref) == ("wrong: the number of moves differs from the claim · no "
                                "token moves · A: on · B: take it back")


BORDER = [i for i in range(36) if i // 6 in (0, 5) or i % 6 in (0, 5)]


def test_an_undo_made_flashes_the_border_in_the_trail_colour(tmp_path):
    s, ref, _ = referee(tmp_path)
    take_a_token(s, ref, 0)
    s.tap("b")  # undo?
    s.tap("b")  # yes: the board again, its border flashing
    assert ref.screen is ref.board
    flashed = 0
    for _, grid in samples(s, 300):
        if all(grid[i] == P.TRAIL for i in BORDER):
            flashed += 1
    assert flashed >= 3
    s.wait(1000)  # then the board alone
    g = ref.game
    now = s.driver.device.now
    assert [cell(s, c) for c in range(36)] == round_picture(s, g.start, g.target, -1, now)


def undo_picture(tokens, players, pool, after):
    """The undo question's scores: now, or (dimmed) after the undo."""
    buf = bytearray(108)
    for c, rgb in enumerate(score_picture(tokens, players, 0, pool)):
        F.put_rgb(buf, c, rgb)
    if after:
        F.dim(buf, 80)
    return as_cells(buf)


@pytest.mark.parametrize("expert", [False, True])
def test_the_undo_question_blinks_the_scores_now_and_after(tmp_path, expert):
    s, ref, _ = referee(tmp_path, expert=expert)
    take_a_token(s, ref, 0)
    take_a_token(s, ref, 0)
    s.tap("b")  # undo?
    assert ref.screen is ref.undo
    for now, grid in samples(s, 1600, 40):
        after = now % 800 >= 400
        want = undo_picture([1, 0] if after else [2, 0], 2, 24 if after else 23, after)
        assert grid == want, now


# -- solo: its rounds as the player sees and hears them, and its saved game -------------------
@pytest.mark.parametrize("expert", [False, True])
def test_solo_dice_place_the_start_only_in_a_new_game(tmp_path, expert):
    s = Session(seed=5, state=str(tmp_path))
    s.app.change("expert", expert)
    enter(s, "solo")
    solo = s.app.current
    g = solo.game
    via = [g.waypoint] if expert else []
    assert thrown(s, solo) == [g.start, g.target] + via
    assert solo.screen is solo.play
    s.hold("a")
    s.hold("a")  # given up: the review, then A: the next target
    s.wait(8000)
    s.tap("a")
    g = solo.game
    via = [g.waypoint] if expert else []
    assert thrown(s, solo) == [g.target] + via


def test_solo_sounds_the_dice_a_perfect_round_a_longer_one_and_a_give_up(tmp_path):
    s = Session(seed=5, state=str(tmp_path))
    sounds = record_sounds(s.app)
    enter(s, "solo")
    solo = s.app.current
    assert sounds[-1] == SOUND_ROLL
    s.solo_round()  # perfect
    assert solo.screen is solo.solved and sounds[-1] == SOUND_GOOD
    s.finish_solo()
    s.solo_round(extra=1)  # two moves more than the optimum
    assert solo.screen is solo.solved and sounds[-1] == SOUND_MOVE
    assert sounds[-2] != SOUND_GOOD
    s.finish_solo()
    del sounds[:]
    s.hold("a")
    s.hold("a")  # given up
    assert solo.screen is solo.review and sounds[-1] == SOUND_MOVE


def test_solo_sets_a_referee_save_aside_with_its_reason(tmp_path):
    state = saved_games(tmp_path)
    swap_in(state, "solo", "referee")
    again = reboot(state)
    enter(again, "solo")
    again.settle()
    kept = os.path.join(state, "solo.bad.json")
    assert notices(again)[-1] == "saved game: not a solo game on this layout; kept as " + kept
    assert os.path.exists(kept)


def test_solo_resumes_damaged_moves_with_a_notice_and_whole_ones_without(tmp_path):
    state = str(tmp_path)
    s = Session(seed=5, state=state)
    enter(s, "solo")
    s.settle()
    g = s.app.current.game
    route = g.route()
    s.move(route[0], route[1])
    s.until_saved()
    s.hold("b")
    s.until_saved()
    again = reboot(state)
    enter(again, "solo")
    assert notices(again) == [] and again.app.current.robot == route[1]
    again.hold("b")
    again.until_saved()
    path = os.path.join(state, "solo.json")
    with open(path) as f:
        envelope = json.load(f)
    trail = envelope["data"]["trail"]
    envelope["data"]["trail"] = trail + [trail[-1]]  # a move that goes nowhere
    with open(path, "w") as f:
        json.dump(envelope, f)
    third = reboot(state)
    enter(third, "solo")
    assert notices(third)[-1] == "solo: saved moves damaged; some were dropped"
    assert third.app.current.screen is third.app.current.play


def test_solo_first_words_are_the_rounds_not_a_refusal(tmp_path):
    s = Session(seed=5, state=str(tmp_path))
    enter(s, "solo")
    s.settle()
    solo = s.app.current
    assert solo.screen is solo.play
    assert guide.words(solo) == guide.solo_play(solo) and not guide.words(solo).startswith(
        "refused")


@pytest.mark.parametrize("name", ["solo", "referee"])
def test_a_game_kept_in_memory_gives_way_to_a_new_one_on_a_new_arrangement(name):
    """No flash (every save fails): the mode and its game stay in memory; a new
    arrangement chosen meanwhile drops that game, and the mode rolls one on it."""
    s = Session(seed=5)
    enter(s, name)
    s.settle()
    mode = s.app.current
    s.wait(3000)  # the save tried, and failed: the mode stays
    s.hold("b")
    s.app.change("tiles", "DCBA0000")
    enter(s, name)
    assert s.app.current is mode
    s.settle()
    assert mode.game.layout == s.app.layout and mode.game.round == 1
    assert mode.screen is (mode.play if name == "solo" else mode.board)


def test_the_referee_saves_every_target_possible_whatever_solos_difficulty(tmp_path):
    """Solo's difficulty is solo's: the table's game is saved as difficulty 0."""
    state = str(tmp_path)
    s = Session(seed=8, state=state)
    s.app.change("difficulty", 3)
    enter(s, "referee")
    s.settle()
    assert game_on_flash(s, state, "referee").difficulty == 0
    assert on_flash(state, "referee")["game"]["difficulty"] == 0


def test_expert_solo_still_asks_for_the_waypoint_after_a_reboot(tmp_path):
    state = str(tmp_path)
    s = Session(seed=5, state=state)
    s.app.change("expert", True)
    enter(s, "solo")
    s.settle()
    solo = s.app.current
    before = guide.words(solo)
    assert "waypoint" in before
    s.until_saved()
    again = reboot(state)
    solo = again.app.current
    assert again.app.mode == "solo" and solo.screen is solo.play
    assert guide.words(solo) == before


# -- the classroom: its dice, its dimmed boards, its steps ------------------------------------
def classroom_room(tmp_path, lesson=0, puzzle=1, aid=0):
    s = Session(seed=5, state=str(tmp_path))
    if lesson:
        s.app.change("lesson", lesson)
        s.app.change("puzzle", puzzle)
    if aid:
        s.app.change("aid", aid)
    enter(s, "classroom")
    return s, s.app.current


def board_cells(s, level):
    buf = bytearray(108)
    F.board(buf, s.app.layout, s.app.pal, level)
    return as_cells(buf)


def to_route(s, room):
    """Paused, A through the layers to the route."""
    s.tap("up")
    while room.screen is room.layers:
        s.tap("a")
    assert room.screen is room.route


@pytest.mark.parametrize("lesson", [0, 7])
def test_the_classroom_dice_place_the_start_only_for_a_new_puzzle(tmp_path, lesson):
    s, room = classroom_room(tmp_path, lesson, 60 if lesson else 1)
    dimmed = 0
    while room.screen is room.catchup:  # a lesson's puzzle 60: the 59 before given up
        dimmed += [cell(s, c) for c in range(36)] == board_cells(s, 40)
        s.wait(20)
    assert dimmed >= (5 if lesson else 0)
    g = room.game
    assert thrown(s, room) == [g.start, g.target]
    to_route(s, room)
    s.tap("a")  # the next puzzle: its target only
    assert thrown(s, room) == [room.game.target]


def test_the_classroom_route_replays_over_the_board_at_60_then_moves_on(tmp_path):
    s, room = classroom_room(tmp_path)
    s.settle()
    to_route(s, room)
    route = room.replay  # (the route's cells are lit by the replay)
    board = board_cells(s, 60)
    s.wait(200)
    grid = [cell(s, c) for c in range(36)]
    lit = [c for c in range(36) if grid[c] != board[c]]
    assert 0 < len(lit) <= route.n
    s.wait(8000)  # replayed, and paused: it stays
    assert room.screen is room.route
    s.tap("up")  # resumed: 1.5 s later the next puzzle
    s.wait(1300)
    assert room.screen is room.route
    s.wait(400)
    assert room.screen is room.rolling


def test_the_classroom_route_waits_for_its_replay_before_moving_on(tmp_path):
    s, room = classroom_room(tmp_path)
    s.settle()
    s.wait(1500 * (room.game.optimum() + 1) + 100)  # the layers step by themselves
    assert room.screen is room.route
    s.wait(1600)  # 1.5 s since the route began, but it still replays: it stays
    assert room.replay.running(s.driver.device.now) and room.screen is room.route
    while room.replay.running(s.driver.device.now):
        s.wait(20)
    s.wait(60)  # replayed, and more than 1.5 s since the step: the next puzzle
    assert room.screen is room.rolling


def test_the_classroom_clicks_each_key(tmp_path):
    s, room = classroom_room(tmp_path)
    s.settle()
    sounds = record_sounds(s.app)
    s.tap("up")
    s.tap("a")
    assert sounds == [SOUND_CLICK, SOUND_CLICK]


def test_b_takes_a_layer_back_and_starts_the_wait_again(tmp_path):
    s, room = classroom_room(tmp_path)
    s.settle()
    s.tap("a")
    s.tap("a")
    assert room.wave.layer == 2
    s.tap("down")  # not a layer key
    assert room.wave.layer == 2
    s.wait(1000)
    s.tap("b")  # one back; the next step 1.5 s from here
    assert room.wave.layer == 1
    s.wait(1300)
    assert room.wave.layer == 1
    s.wait(300)
    assert room.wave.layer == 2
    s.tap("up")  # paused
    s.tap("b", 3)  # to the robot alone, and no further: A then shows the first layer
    s.tap("a")
    assert room.wave.layer == 1


def wave_picture(s, layer, now):
    """The classroom's layers as drawn at ``now`` (but the robot's and the target's
    cells): the board at 40, the robot's colour blinking off with the colour aid's
    blinking on, the wave's cells up to ``layer`` over it."""
    room = s.app.current
    g = room.game
    dist = s.app.solver.distances(g.start)
    colours = s.app.layout.colours
    board = board_cells(s, 40)
    out = {}
    for i in range(36):
        if i in (g.start, g.target):
            continue
        d = dist[i]
        if d <= layer:
            k = 3 * min(d, 7)
            out[i] = scaled(tuple(P.WAVE[k:k + 3]), 255 if d == layer else 110)
        elif s.app.settings["aid"] & 2 and now % 900 >= 450 and colours[i] == colours[g.start]:
            out[i] = (0, 0, 0)
        else:
            out[i] = board[i]
    return out


@pytest.mark.parametrize("aid", [0, 2, 3])
def test_the_classroom_wave_blinks_the_robots_colour_with_the_aid(tmp_path, aid):
    s, room = classroom_room(tmp_path, aid=aid)
    s.settle()
    s.tap("up")  # paused
    s.tap("a")  # layer 1
    for layer in (1, 2, 1):
        hidden = set()
        for _ in range(60):
            s.wait(20)
            now = s.driver.device.now
            grid = [cell(s, c) for c in range(36)]
            want = wave_picture(s, layer, now)
            assert all(grid[i] == w for i, w in want.items()), (layer, now)
            hidden.add(now % 900 >= 450)
        assert hidden == {False, True}
        s.tap("a" if layer == 1 and room.wave.layer == 1 else "b")


# -- the menu: four quadrants, the chosen one glowing --------------------------------------
MENU_COLOURS = ((255, 215, 0), (20, 70, 255), (0, 230, 40), (200, 200, 190))
MENU_ICONS = ((4,), (2, 6), (), (0, 1, 2, 3, 5, 6, 7, 8))  # lit cells of each 3x3 icon
MENU_CORNERS = (0, 3, 18, 21)


def menu_picture(choice, now):
    """The menu as its docstring draws it: each quadrant's icon dim (70), the chosen one
    glowing (its pips pulsing 150-255 every 1.4 s, its background at 40); the
    classroom's icon a wave from its corner, fading with the distance d (x (5 - d) / 5),
    pulsing 60-255 every 1.2 s, 150 ms later per step, when chosen."""
    cells = [(0, 0, 0)] * 36
    glow = F.pulse(now, 1400, 150, 255)
    for q in range(4):
        chosen = q == choice
        for k in range(9):
            i = MENU_CORNERS[q] + (k // 3) * 6 + k % 3
            if q == 2:
                d = k // 3 + k % 3
                lv = (F.pulse(now - d * 150, 1200, 60, 255) if chosen else 70) * (5 - d) // 5
            elif k in MENU_ICONS[q]:
                lv = glow if chosen else 70
            else:
                lv = 40 if chosen else 0
            cells[i] = scaled(MENU_COLOURS[q], lv)
    return cells


def test_the_menu_glows_the_chosen_quadrant_and_dims_the_others(tmp_path):
    s = Session(seed=5, state=str(tmp_path))
    s.wait(300)
    menu = s.app.current
    sounds = record_sounds(s.app)
    for key in ("right", "down", "left", "up"):
        for now, grid in samples(s, 1500, 30):
            assert grid == menu_picture(menu.choice, now), (menu.choice, now)
        s.tap(key)
    assert sounds == [SOUND_CLICK] * 4
    s.tap("a")
    assert sounds[:5] == [SOUND_CLICK] * 5 and s.app.mode == "solo"


# -- the settings' words: each item's number, name and value, as the help line reads them --
def test_the_settings_words_name_each_item_and_its_values(tmp_path):
    """Golden words (settings_words.json): each item at its default, then after RIGHT x3,
    LEFT x4 (the battery and the self-test have no value to change)."""
    with open(os.path.join(os.path.dirname(__file__), "settings_words.json")) as f:
        golden = json.load(f)
    s = Session(seed=5, state=str(tmp_path))
    enter(s, "settings")
    m = s.app.current
    for name, words in golden:
        seen = [guide.words(m)]
        if len(words) > 1:
            for key in ("right", "right", "right", "left", "left", "left", "left"):
                s.tap(key)
                seen.append(guide.words(m))
            s.tap("right")
        assert seen == words, name
        s.tap("down")


# -- the help line's words along a tour of the game modes ----------------------------------
def words_tour(tmp_path):
    """guide.words at each step of a scripted tour: the referee (every verdict's words),
    solo (a hint, a refusal, the score for a moment, a solved round, a give-up) and the
    classroom (its layers, its route, paused). Compared with words_tour.json."""
    out = []

    def note(label, mode):
        out.append([label, guide.words(mode)])

    s, ref, _ = referee(tmp_path / "referee", expert=True)
    note("referee board", ref)
    s.tap("a")
    note("claimant, nobody", ref)
    s.tap("down")
    note("claimant, player 1", ref)
    s.tap("a")
    note("claim of 1", ref)
    s.tap("up")
    note("claim of 2", ref)
    s.tap("b")
    s.tap("b")
    g = ref.game
    n = g.optimum()
    if n >= 2:
        claim_line(s, ref, 0, n - 1, [])
        note("below the optimum", ref)
        after_wrong(s)
    route = ref.game.route()
    s.tap("a")
    s.tap("down", 2)
    s.tap("a")
    s.tap("up", len(route) - 2)
    s.tap("a")
    note("demonstration, move 1", ref)
    s.move(route[0], route[1])
    note("demonstration, move 2", ref)
    s.tap("b")
    s.tap("b")
    s.tap("b")
    s.tap("b")
    route = ref.game.route()
    s.claim(1, len(route) - 1, route[1:-1])
    note("wrong count", ref)
    after_wrong(s)
    g = ref.game
    start = g.start
    bad = [c for c in line_of(start) if not g.solver.is_move(start, c)][0]
    on = [c for c in line_of(bad) if c not in (start, bad)][0]
    claim_line(s, ref, 1, max(2, g.optimum()), [bad, on])
    note("illegal move", ref)
    after_wrong(s)
    moves = a_round_with(s, ref, missing_last)
    claim_line(s, ref, 0, len(moves), moves)
    note("target missed", ref)
    after_wrong(s)
    moves = a_round_with(s, ref, walk_avoiding)
    claim_line(s, ref, 1, len(moves), moves)
    note("waypoint missed", ref)
    after_wrong(s)
    route = ref.game.route()
    s.claim(0, len(route) - 1, route[1:])
    note("correct", ref)
    next_round(s)
    s.hold("a")
    note("revealed", ref)
    s.tap("a")
    s.tap("a")
    s.settle()
    s.tap("up")
    note("scores", ref)
    s.tap("a")
    s.tap("b")
    note("undo?", ref)
    s.tap("a")
    while not ref.game.over:
        route = ref.game.route()
        s.claim(0, len(route) - 1, route[1:])
        if not ref.game.over:
            next_round(s)
    s.wait(2800)
    note("over", ref)

    s = Session(seed=5, state=str(tmp_path / "solo"))
    s.app.change("expert", True)
    enter(s, "solo")
    solo = s.app.current
    note("solo rolling", solo)
    s.settle()
    note("solo play", solo)
    g = solo.game
    far = [c for c in line_of(g.start) if not g.solver.is_move(g.start, c)][0]
    s.move(g.start, far)
    note("solo refused", solo)
    s.tap("b")
    note("solo stats", solo)
    s.wait(3000)
    s.hold("a")
    note("solo hint", solo)
    s.hold("a")
    note("solo given up", solo)
    s.wait(8000)
    s.tap("a")
    s.settle()
    s.app.change("expert", False)
    s.hold("b")
    enter(s, "solo")
    s.settle()
    note("solo play, no move", s.app.current)
    route = s.app.current.game.route()
    s.move(route[0], route[1])
    note("solo play, 1 move", s.app.current)
    s.move(route[1], route[0])
    note("solo play, 2 moves", s.app.current)
    s.tap("b")
    s.tap("b")
    s.solo_round(extra=1)
    note("solo solved", s.app.current)
    s.wait(3200)
    note("solo score", s.app.current)
    s.tap("a")
    note("solo review", s.app.current)

    s, room = classroom_room(tmp_path / "classroom")
    note("classroom rolling", room)
    s.settle()
    s.tap("up")
    note("classroom layer 0, paused", room)
    while room.screen is room.layers:
        s.tap("a")
        note("classroom layer %d" % room.wave.layer, room)
    s.tap("up")
    note("classroom route", room)
    return out


def test_the_help_line_words_along_a_tour_of_the_game_modes(tmp_path):
    with open(os.path.join(os.path.dirname(__file__), "words_tour.json")) as f:
        golden = json.load(f)
    assert words_tour(tmp_path) == golden


def test_a_won_game_of_eight_comes_back_with_its_pages_alternating(tmp_path):
    s, ref, state = won_game(tmp_path, 8, 7)
    s.wait(3000)
    s.until_saved()
    again = reboot(state)
    ref = again.app.current
    assert ref.screen is ref.over
    pages = []
    for now, grid in samples(again, 3200, 40):
        pages.append([p for p in (0, 1) if grid == winners_picture(ref.game, p, now, 7)])
    assert [0] in pages and [1] in pages, pages  # players 1-6, then 7-8


# -- solo's play: its sounds, a refusal's flash, the hint ------------------------------------
def test_solo_play_sounds_each_key_and_flashes_a_refused_cell(tmp_path):
    s = Session(seed=5, state=str(tmp_path))
    enter(s, "solo")
    s.settle()
    solo = s.app.current
    g = solo.game
    sounds = record_sounds(s.app)
    route = g.route()
    s.move(route[0], route[1])  # the cursor's steps click, the move slides
    assert sounds[-1] == SOUND_MOVE and set(sounds[:-1]) == {SOUND_CLICK}
    s.tap("b")  # taken back
    assert sounds[-1] == SOUND_CLICK and solo.robot == route[0]
    del sounds[:]
    far = [c for c in line_of(g.start) if not g.solver.is_move(g.start, c)][0]
    s.move(g.start, far)
    assert sounds[-1] == SOUND_REFUSE and solo.robot == g.start
    flashed = [grid[far] == P.REFUSE for _, grid in samples(s, 200)]
    assert any(flashed)
    border = [i for i in BORDER if i not in (far, g.start, g.target)]
    assert all(s.driver.device.frame[3 * i:3 * i + 3] != bytes(P.REFUSE) for i in border)


def test_solo_hint_lights_the_robots_destinations_pulsing(tmp_path):
    s = Session(seed=5, state=str(tmp_path))
    enter(s, "solo")
    s.settle()
    solo = s.app.current
    g = solo.game
    s.hold("a")  # the hint
    lit = [c for c in range(36) if c != g.start and g.solver.is_move(g.start, c)]
    assert lit
    for now, grid in samples(s, 800, 40):
        level = F.pulse(now, 800, 120, 255)
        for c in lit:
            if c != g.target:
                assert grid[c] == (level, level, level), (c, now)


def test_expert_solo_shows_the_waypoint_until_the_robot_has_stood_on_it(tmp_path):
    s = Session(seed=5, state=str(tmp_path))
    s.app.change("expert", True)
    enter(s, "solo")
    s.settle()
    solo = s.app.current
    g = solo.game
    via = g.waypoint
    # the waypoint shows on the board until the robot has stood on it
    for now, grid in samples(s, 600, 40):
        assert grid == round_picture(s, g.start, g.target, via, now), now
    route = g.route()  # through the waypoint
    k = route.index(via)
    robot = route[0]
    for cell_ in route[1:k + 1]:
        s.move(robot, cell_)
        robot = cell_
    off = [c for c in line_of(via) if c != g.target and g.solver.is_move(via, c)][0]
    s.move(via, off)  # off the waypoint again: it is no longer shown
    robot = off
    s.wait(600)  # the slide over
    for now, grid in samples(s, 600, 40):
        assert grid == round_picture(s, robot, g.target, -1, now), now


def counts_picture(*rows):
    """Counts (frame.count) on black: (value, row, label) each."""
    buf = bytearray(108)
    for value, row, label in rows:
        F.count(buf, value, row, label)
    return as_cells(buf)


def test_solo_score_for_a_moment_and_the_rounds_score_on_black(tmp_path):
    s = Session(seed=5, state=str(tmp_path))
    enter(s, "solo")
    s.solo_round()  # perfect: 1 solved, 1 in a row, 0 beyond the optimum
    solo = s.app.current
    s.tap("b")  # the celebration hurried: the score
    assert solo.screen is solo.score
    want = counts_picture((solo.count, 0, P.GOOD), (solo.optimum, 3, P.OPTIMUM))
    for now, grid in samples(s, 400, 40):
        assert grid == want, now
    s.tap("b")
    s.wait(8000)
    s.tap("a")
    s.settle()
    g = solo.game
    s.tap("b")  # no move to take back: the score for a moment
    assert solo.screen is solo.stats
    want = counts_picture((g.score, 0, P.GOOD), (g.streak, 2, P.STREAK), (g.extra, 4, P.REFUSE))
    assert (g.score, g.streak, g.extra) == (1, 1, 0)
    for now, grid in samples(s, 400, 40):
        assert grid == want, now
    s.tap("a")  # on
    s.solo_round(extra=1)  # two moves beyond the optimum: the moves' label red
    s.tap("b")
    assert solo.screen is solo.score and solo.count == solo.optimum + 2
    want = counts_picture((solo.count, 0, P.REFUSE), (solo.optimum, 3, P.OPTIMUM))
    for now, grid in samples(s, 400, 40):
        assert grid == want, now


def test_the_classroom_wave_keeps_its_coldest_colour_from_layer_7_on(tmp_path):
    """Lesson 9's puzzle 96 needs 8 moves: its layer 8 is lit in layer 7's colour."""
    s, room = classroom_room(tmp_path, lesson=9, puzzle=96)
    for _ in range(100):
        if room.screen is not room.catchup:
            break
        s.wait(20)
    s.settle()
    s.tap("up")  # paused
    assert room.reach == 8
    for layer in range(1, 9):
        s.tap("a")
        s.wait(20)
        now = s.driver.device.now
        grid = [cell(s, c) for c in range(36)]
        want = wave_picture(s, layer, now)
        assert all(grid[i] == w for i, w in want.items()), layer
