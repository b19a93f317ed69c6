"""What a player or a table depends on, met as they meet it (issue 37): keys pressed on the
simulated handheld, the files on its flash read back after a reboot, the line the
console prints and the cells the grid lights.

Each of these was once changed on purpose in the firmware (a save removed, a take-back
sent to the start, the wrong receiver named...) and no test noticed; each test here
failed against that change. They read the game from the flash through the rules' public
API (notation.from_dict), not from the modes' attributes, so that they hold however the
modes are built.
"""

import json
import os

from microrobots import palette as P
from microrobots.rules import notation
from tools.sim.script import Session

QUADRANTS = ("solo", "referee", "classroom", "settings")


def enter(s, name):
    """From the menu, wherever its choice is (it remembers the last), into ``name``."""
    q = QUADRANTS.index(name)
    c = s.app.current.choice
    if (c ^ q) & 1:
        s.tap("right" if q & 1 else "left")
    if (c ^ q) & 2:
        s.tap("down" if q & 2 else "up")
    s.tap("a")
    assert s.app.mode == name


def on_flash(state, name):
    """What the device keeps in NAME.json (the store's envelope taken off)."""
    with open(os.path.join(state, name + ".json")) as f:
        return json.load(f)["data"]


def game_on_flash(s, state, name):
    """The game the device wrote last for mode ``name``, read back as the rules read it."""
    s.until_saved()
    return notation.from_dict(on_flash(state, name)["game"])


def reboot(state, seed=3):
    """Power off and on: a new device on the same flash."""
    again = Session(seed=seed, state=state)
    again.wait(200)
    return again


def console(s):
    return [json.loads(x)["console"] for x in s.lines if '"console"' in x]


def notices(s):
    return [json.loads(x)["notice"] for x in s.lines if '"notice"' in x]


def next_round(s):
    """Referee: from a verdict or a revealed route to the next board."""
    s.wait(2800)
    s.tap("a")
    s.settle()


def after_wrong(s):
    """Referee: from a wrong verdict, through its explanation (until A), to the next board."""
    s.wait(1000)
    s.tap("a")
    s.wait(2800)
    s.settle()


def give_up(s):
    """Referee: hold A (nobody found a route), see it all, roll the next target."""
    s.hold("a")
    s.tap("a")  # the whole route at once
    s.tap("a")  # the next roll
    s.settle()


def line_of(cell):
    """The other cells of ``cell``'s row and column."""
    return [c for c in range(36) if c != cell and (c // 6 == cell // 6 or c % 6 == cell % 6)]


# -- saves after a take-back ---------------------------------------------------------------
def test_a_solo_take_back_stays_taken_back_after_a_reboot(tmp_path):
    state = str(tmp_path)
    s = Session(seed=5, state=state)
    enter(s, "solo")
    s.settle()
    g = game_on_flash(s, state, "solo")
    route = g.route()
    s.move(route[0], route[1])
    s.until_saved()
    assert on_flash(state, "solo")["walked"] == 1
    s.tap("b")  # the move taken back
    s.until_saved()
    again = reboot(state)
    assert again.app.mode == "solo"
    walk = on_flash(state, "solo")
    assert walk["walked"] == 0 and walk["trail"] == [g.start], "the taken-back move came back"
    again.move(route[0], route[1])  # the robot is on the start: the first move again
    again.until_saved()
    assert on_flash(state, "solo")["trail"] == route[:2]


def test_a_referee_undo_stays_undone_after_a_reboot(tmp_path):
    state = str(tmp_path)
    s = Session(seed=8, state=state)
    enter(s, "referee")
    s.settle()
    g = game_on_flash(s, state, "referee")
    route = g.route()
    s.claim(0, len(route) - 1, route[1:])
    next_round(s)
    assert game_on_flash(s, state, "referee").tokens == [1, 0]
    s.tap("b")  # undo? the scores blink
    s.tap("b")  # yes
    assert console(s)[-1] == "round 1: the last decision undone; tokens 0 0, pool 25"
    s.until_saved()
    again = reboot(state)
    assert again.app.mode == "referee"
    back = notation.from_dict(on_flash(state, "referee")["game"])
    assert back.decision_text() == "" and back.tokens == [0, 0], "the undone claim came back"
    assert (back.start, back.target) == (g.start, g.target)


# -- a demonstration taken back more than one move -----------------------------------------
def test_a_demonstration_taken_back_two_moves_goes_on_from_the_cell_before(tmp_path):
    state = str(tmp_path)
    s = Session(seed=8, state=state)
    enter(s, "referee")
    s.settle()
    g = game_on_flash(s, state, "referee")
    for _ in range(30):  # a round of four moves at least: two detours fit before the count
        if g.optimum() >= 4:
            break
        give_up(s)
        g = game_on_flash(s, state, "referee")
    assert g.optimum() >= 4
    route = g.route()
    count = len(route) - 1
    s.tap("a")
    s.tap("down")  # player 1
    s.tap("a")
    s.tap("up", count - 1)
    s.tap("a")  # the demonstration begins
    s.move(route[0], route[1])
    detour = [c for c in line_of(route[1]) if c not in route][0]
    s.move(route[1], detour)
    farther = [c for c in line_of(detour) if c not in route and c != route[1]][0]
    s.move(detour, farther)
    s.tap("b")
    s.tap("b")  # both detours taken back: the robot is on route[1] again
    robot = route[1]
    for cell in route[2:]:
        s.move(robot, cell)
        robot = cell
    said = console(s)[-1]
    assert "claims %d: correct; player 1 takes a token" % count in said, said


# -- who received the penalty ---------------------------------------------------------------
def set_players(s, n):
    """Settings: the players' row to ``n`` (from 2), then back to the menu."""
    enter(s, "settings")
    s.tap("down", 3)
    s.tap("right", n - 2)
    s.hold("b")
    assert s.app.mode == "menu"


def token_rows(s, players):
    """The score screen (UP on the board) as the table reads it: tokens per player."""
    s.tap("up")
    f = s.driver.device.frame
    rows = [sum(1 for c in range(1, 6) if tuple(f[3 * (6 * p + c):3 * (6 * p + c) + 3])
                == P.TOKEN) for p in range(players)]
    s.tap("a")  # back to the board
    return rows


def wrong_claim(s, g, player):
    """``player`` claims the optimum and shows one move too few (a wrong count)."""
    route = g.route()
    s.claim(player, len(route) - 1, route[1:-1])


def too_few(g):
    """The console's reason for wrong_claim: one move fewer shown than claimed."""
    shown = g.optimum() - 1
    return "wrong: %d move%s shown for a claim of %d" % (shown, "" if shown == 1 else "s",
                                                          g.optimum())


def test_the_penalty_goes_to_the_fewest_tokens_first_after_the_claimant(tmp_path):
    state = str(tmp_path)
    s = Session(seed=11, state=state)
    set_players(s, 3)
    enter(s, "referee")
    s.settle()
    g = game_on_flash(s, state, "referee")
    assert g.players == 3
    route = g.route()
    s.claim(2, len(route) - 1, route[1:])  # player 3 takes a token
    next_round(s)
    g = game_on_flash(s, state, "referee")
    wrong_claim(s, g, 2)  # players 1 and 2 tie with none: the first after 3, wrapping, is 1
    said = console(s)[-1]
    assert said == ("round 2: player 3 claims %d: %s; player 3 gives a token to player 1; "
                    "tokens 1 0 0, pool 24" % (g.optimum(), too_few(g))), said
    after_wrong(s)
    assert token_rows(s, 3) == [1, 0, 0]
    g = game_on_flash(s, state, "referee")
    route = g.route()
    s.claim(1, len(route) - 1, route[1:])  # player 2 takes one: 1 1 0
    next_round(s)
    g = game_on_flash(s, state, "referee")
    wrong_claim(s, g, 0)  # player 3 has the fewest, though player 2 sits next
    said = console(s)[-1]
    assert said == ("round 4: player 1 claims %d: %s; player 1 gives a token to player 3; "
                    "tokens 0 1 1, pool 23" % (g.optimum(), too_few(g))), said
    after_wrong(s)
    assert token_rows(s, 3) == [0, 1, 1]
    assert game_on_flash(s, state, "referee").tokens == [0, 1, 1]


# -- a save from the other mode -------------------------------------------------------------
def saved_games(tmp_path):
    """A referee save and a solo save, each with a decision, on a fresh flash."""
    state = str(tmp_path)
    s = Session(seed=8, state=state)
    enter(s, "referee")
    s.settle()
    give_up(s)
    s.until_saved()
    s.hold("b")
    enter(s, "solo")
    s.settle()
    g = game_on_flash(s, state, "solo")
    s.move(g.start, g.route()[1])
    s.until_saved()
    s.hold("b")
    s.until_saved()
    return state


def swap_in(state, into, source):
    with open(os.path.join(state, source + ".json")) as f:
        text = f.read()
    with open(os.path.join(state, into + ".json"), "w") as f:
        f.write(text)


def test_solo_refuses_a_referee_save_with_its_reason(tmp_path):
    state = saved_games(tmp_path)
    referee = on_flash(state, "referee")["game"]
    swap_in(state, "solo", "referee")
    again = reboot(state)
    enter(again, "solo")
    again.settle()
    again.until_saved()
    assert any("not a solo game" in n for n in notices(again)), notices(again)
    mine = on_flash(state, "solo")["game"]
    assert mine["players"] == 1 and mine["seed"] != referee["seed"]


def test_the_referee_refuses_a_solo_save_with_its_reason(tmp_path):
    state = saved_games(tmp_path)
    solo = on_flash(state, "solo")["game"]
    swap_in(state, "referee", "solo")
    again = reboot(state)
    enter(again, "referee")
    again.settle()
    again.until_saved()
    assert any("not a refereed game" in n for n in notices(again)), notices(again)
    mine = on_flash(state, "referee")["game"]
    assert mine["players"] == 2 and mine["seed"] != solo["seed"]


# -- the route a give-up shows ---------------------------------------------------------------
def optimal_routes(solver, start, target):
    """Brute force: every shortest route from ``start`` to ``target``."""
    frontier = [[start]]
    while frontier:
        done = [r for r in frontier if r[-1] == target]
        if done:
            return done
        frontier = [r + [n] for r in frontier for n in range(36)
                    if solver.is_move(r[-1], n) and n not in r]
    return []


def test_a_give_up_shows_the_route_that_prefers_lower_cells(tmp_path):
    state = str(tmp_path)
    s = Session(seed=8, state=state)
    enter(s, "referee")
    s.settle()
    choices = 0
    for _ in range(20):
        g = game_on_flash(s, state, "referee")
        routes = optimal_routes(g.solver, g.start, g.target)
        give_up(s)
        said = console(s)[-1]
        n = len(routes[0]) - 1
        assert said == "round %d: given up; a route of %d move%s: %s" % (
            g.round, n, "" if n == 1 else "s", " ".join(g.layout.token(c) for c in min(routes)))
        choices += len(routes) > 1
        if choices == 3:
            break
    assert choices == 3, "too few rounds with a choice of routes"


# -- a celebration interrupted by a reboot --------------------------------------------------
def test_a_reboot_after_a_solved_round_starts_the_next_round_afresh(tmp_path):
    """Solved after a long walk (over the hundred moves B can take back): the walk saved
    with the new round is the new round's, so a reboot during the celebration does not
    carry the old walk into it."""
    state = str(tmp_path)
    s = Session(seed=5, state=state)
    enter(s, "solo")
    s.settle()
    g = game_on_flash(s, state, "solo")
    route = g.route()
    a, b = route[0], route[1]
    for _ in range(51):  # 102 moves there and back
        s.move(a, b)
        s.move(b, a)
    robot = a
    for cell in route[1:]:
        s.move(robot, cell)
        robot = cell
    s.until_saved()  # written after the last move, during the celebration
    after = notation.from_dict(on_flash(state, "solo")["game"])
    assert after.score == 1 and after.start == g.target
    again = reboot(state)
    walk = on_flash(state, "solo")
    assert walk["trail"] == [after.start] and walk["walked"] == 0, walk
    nxt = after.route()
    again.settle()
    again.move(nxt[0], nxt[1])  # the robot stands on the new start
    again.until_saved()
    assert on_flash(state, "solo")["trail"] == nxt[:2]


# -- the count a referee enters ---------------------------------------------------------------
def enter_claim(s, player, keys):
    """Referee: a claim for ``player`` whose count is entered with ``keys`` (from 1)."""
    s.tap("a")
    s.tap("down", player + 1)
    s.tap("a")  # the count starts at 1
    for key, times in keys:
        s.tap(key, times)
    s.tap("a")


def test_the_count_keys_step_by_one_and_five_within_0_to_99(tmp_path):
    state = str(tmp_path)
    s = Session(seed=8, state=state)
    enter(s, "referee")
    s.settle()
    enter_claim(s, 0, [("down", 3)])  # 1, then 0: it stops there
    said = console(s)[-1]
    assert said.startswith("round 1: player 1 claims 0: wrong: "), said
    after_wrong(s)
    enter_claim(s, 1, [("right", 25)])  # 1 + 5 * 25, stopped at 99
    s.hold("a")  # no move shown: ended at once
    said = console(s)[-1]
    assert said.startswith("round 2: player 2 claims 99: wrong: 0 moves shown for a claim"
                           " of 99"), said
    after_wrong(s)
    enter_claim(s, 0, [("right", 3), ("left", 1), ("up", 2), ("down", 1)])  # 1+15-5+2-1
    s.hold("a")
    said = console(s)[-1]
    assert said.startswith("round 3: player 1 claims 12: "), said


# -- solo: the route a give-up replays, and the keys that leave it (issue 37) ----------------
def solo_give_up(s):
    """Solo: hold A (the hint), hold A again (give up): the review's replay starts."""
    s.hold("a")
    s.hold("a")
    solo = s.app.current
    assert solo.screen is solo.review and solo.gave_up
    return solo


def cell(s, i):
    """Cell ``i`` of the frame the app drew last, as (r, g, b) before the LEDs' gamma."""
    f = s.driver.device.frame
    return tuple(f[3 * i:3 * i + 3])


def test_solo_review_b_hurries_the_replay_but_after_it_only_a_rolls_on(tmp_path):
    state = str(tmp_path)
    s = Session(seed=5, state=state)
    enter(s, "solo")
    s.settle()
    solo = solo_give_up(s)
    s.tap("up")  # not A or B: the replay goes on
    assert solo.screen is solo.review
    s.tap("b")  # B while it replays: the next roll at once
    assert solo.screen is solo.rolling
    s.settle()
    solo = solo_give_up(s)
    route, at = solo.route, solo.solved_at
    s.wait(8000)  # the replay over
    assert not solo.replay.running(s.driver.device.now)
    seen = set()
    for _ in range(8):  # given up: the target blinks the trail's colour and white
        s.wait(250)
        seen.add(cell(s, at))
        assert cell(s, route[0]) == P.TRAIL
    assert seen == {P.TRAIL, P.ROBOT_WHITE}
    s.tap("b")  # after the replay only A rolls on
    s.tap("up")
    assert solo.screen is solo.review
    s.tap("a")
    assert solo.screen is solo.rolling


def test_solo_b_hurries_the_celebration_and_the_score_and_a_solved_target_blinks_green(tmp_path):
    state = str(tmp_path)
    s = Session(seed=5, state=state)
    enter(s, "solo")
    route = s.solo_round()
    solo = s.app.current
    assert solo.screen is solo.solved
    s.tap("up")  # not A or B: the celebration goes on
    assert solo.screen is solo.solved
    s.tap("b")
    assert solo.screen is solo.score
    s.tap("up")
    assert solo.screen is solo.score
    s.tap("b")
    assert solo.screen is solo.review and not solo.gave_up
    s.wait(8000)  # the replay over
    seen = set()
    for _ in range(8):
        s.wait(250)
        seen.add(cell(s, route[-1]))
    assert seen == {P.GOOD, P.ROBOT_WHITE}


# -- what the piezo plays in solo -------------------------------------------------------------
def tones(s, since=0):
    """The piezo's notes (Hz, rests left out) from line ``since`` of the session's output."""
    return [json.loads(x)["tone"] for x in s.lines[since:] if '"tone"' in x
            and json.loads(x)["tone"]]


def played(heard, sound):
    """Did ``heard`` hold the notes of ``sound`` (keys.TONES), one after another?"""
    from microrobots.keys import TONES

    notes = [f for f, _ms in TONES[sound] if f]
    return any(heard[i:i + len(notes)] == notes for i in range(len(heard)))


def test_solo_sounds_a_roll_a_perfect_solve_a_longer_one_and_a_give_up(tmp_path, monkeypatch):
    """The dice's roll, the fanfare for a solve in the optimum (only then: a longer one
    ends on the move's note), the move's note for a give-up."""
    from microrobots.keys import SOUND_GOOD, SOUND_MOVE, SOUND_ROLL
    from tools.sim import driver as simdriver

    s = Session(seed=5, state=str(tmp_path))
    monkeypatch.setattr(simdriver.SimHardware, "sim_tones", True)  # (the Driver set it off)
    enter(s, "solo")
    s.wait(300)
    assert played(tones(s), SOUND_ROLL), "the first round's dice were silent"
    k = len(s.lines)
    s.solo_round()
    s.wait(500)
    assert played(tones(s, k), SOUND_GOOD), "a solve in the optimum played no fanfare"
    k = len(s.lines)
    s.finish_solo()
    assert played(tones(s, k), SOUND_ROLL), "the next round's dice were silent"
    route = s.app.current.game.route()
    s.move(route[0], route[1])
    s.move(route[1], route[0])  # two moves over the optimum
    k = len(s.lines)
    s.solo_round()
    s.wait(500)
    heard = tones(s, k)
    assert not played(heard, SOUND_GOOD), "a solve over the optimum played the fanfare"
    assert played(heard[-1:], SOUND_MOVE)
    s.finish_solo()
    k = len(s.lines)
    s.hold("a")  # the hint: silent
    assert tones(s, k) == []
    s.hold("a")  # given up
    s.wait(300)
    assert played(tones(s, k), SOUND_MOVE), "a give-up was silent"


# -- what the dice throw in solo ---------------------------------------------------------------
def thrown(s):
    """Watch the dice to the end (no key): the cells each throw showed blinking white, in
    order."""
    solo = s.app.current
    cells = []
    while solo.screen is solo.rolling:
        s.wait(50)
        white = [i for i in range(36) if cell(s, i) == P.ROBOT_WHITE]
        if len(white) == 1 and (not cells or cells[-1] != white[0]):
            cells.append(white[0])
    return cells


def test_solos_dice_throw_the_start_only_for_a_games_first_round_and_the_waypoint(tmp_path):
    s = Session(seed=5, state=str(tmp_path))
    s.app.change("expert", True)
    enter(s, "solo")
    g = s.app.current.game
    assert thrown(s) == [g.start, g.target, g.waypoint]
    s.solo_round()
    s.wait(3200)
    s.tap("a")  # score -> replay
    s.wait(6000)
    s.tap("a")  # the next round: its start is the old target, not thrown
    g = s.app.current.game
    assert thrown(s) == [g.target, g.waypoint]
    s.solo_round()
    s.wait(3200)
    s.tap("a")  # score -> replay
    s.tap("b")  # the replay hurried: the next round at once, its start not thrown either
    g = s.app.current.game
    assert thrown(s) == [g.target, g.waypoint]


def test_solos_first_help_line_counts_moves_and_names_no_refused_move(tmp_path):
    """A new solo round on a fresh device: the help line (the simulators' status line)
    says where to go, not why a move was refused: no move has been tried."""
    from microrobots.modes import guide

    s = Session(seed=5, state=str(tmp_path))
    enter(s, "solo")
    s.settle()
    assert guide.words(s.app.current).startswith("to the target: 0 moves so far · ")


def test_solos_keys_sound_a_click_a_refusal_a_move_and_a_take_back(tmp_path, monkeypatch):
    from microrobots.keys import SOUND_CLICK, SOUND_MOVE, SOUND_REFUSE, TONES
    from tools.sim import driver as simdriver

    s = Session(seed=5, state=str(tmp_path))
    monkeypatch.setattr(simdriver.SimHardware, "sim_tones", True)
    enter(s, "solo")
    s.settle()
    g = s.app.current.game
    route = g.route()
    refused = next(c for c in line_of(g.start) if not g.solver.is_move(g.start, c))
    click = [f for f, _ms in TONES[SOUND_CLICK]]

    def heard(action):
        k = len(s.lines)
        action()
        s.wait(300)
        return tones(s, k)

    steps = abs(refused // 6 - g.start // 6) + abs(refused % 6 - g.start % 6)
    assert heard(lambda: s.cursor_to(g.start, refused)) == click * steps  # a click a step
    assert played(heard(lambda: s.tap("a")), SOUND_REFUSE)
    assert played(heard(lambda: s.move(g.start, route[1]))[-1:], SOUND_MOVE)
    assert heard(lambda: s.tap("b")) == click  # the move taken back


def test_solos_score_labels_the_moves_green_only_in_the_optimum_on_black(tmp_path):
    """The score screen: column 0 of the top row, the moves' label, is green for a solve in
    the optimum, red for a longer one; the rest of the grid is dark (so is the score for
    a moment, Stats, that B shows with no move to take back)."""
    s = Session(seed=5, state=str(tmp_path))
    enter(s, "solo")
    s.solo_round()
    solo = s.app.current
    s.tap("b")  # the celebration hurried: the score
    assert solo.screen is solo.score
    assert cell(s, 0) == P.GOOD and cell(s, 35) == (0, 0, 0)
    s.tap("b")
    s.tap("a")  # the next round
    s.settle()
    route = solo.game.route()
    s.move(route[0], route[1])
    s.move(route[1], route[0])
    s.solo_round()
    s.tap("b")
    assert solo.screen is solo.score
    assert cell(s, 0) == P.REFUSE and cell(s, 35) == (0, 0, 0)
    s.tap("b")
    s.tap("a")
    s.settle()
    s.tap("b")  # no move to take back: the score for a moment
    assert solo.screen is solo.stats
    assert cell(s, 35) == (0, 0, 0) and cell(s, 0) == P.GOOD


# -- what the classroom's dice throw -----------------------------------------------------------
def test_the_classrooms_dice_throw_the_start_only_for_a_new_puzzle_not_the_next(tmp_path,
                                                                               monkeypatch):
    from microrobots.keys import SOUND_CLICK, TONES
    from tools.sim import driver as simdriver

    s = Session(seed=5, state=str(tmp_path))
    monkeypatch.setattr(simdriver.SimHardware, "sim_tones", True)
    enter(s, "classroom")
    room = s.app.current
    g = room.game
    assert thrown(s) == [g.start, g.target]
    assert room.screen is room.layers
    target = g.target
    k = len(s.lines)
    while room.screen is room.layers:
        s.tap("a")  # the layers one by one, then the route
    s.wait(100)
    assert tones(s, k)[:1] == [f for f, _ms in TONES[SOUND_CLICK]]  # each key clicks
    s.tap("a")  # the next puzzle: it starts where the route ended
    assert room.game.start == target
    assert thrown(s) == [room.game.target]
    s.hold("b")  # to the menu, and back: a new puzzle, its start thrown too
    enter(s, "classroom")
    room = s.app.current
    assert thrown(s) == [room.game.start, room.game.target]


def test_a_lessons_later_puzzle_throws_its_start_after_catching_up(tmp_path):
    from microrobots.modes.classroom import lesson_game

    s = Session(seed=5, state=str(tmp_path))
    s.app.change("lesson", 3)
    s.app.change("puzzle", 4)
    enter(s, "classroom")
    room = s.app.current
    while room.screen is room.catchup:
        s.wait(20)
    g = lesson_game(s.app.layout, s.app.solver, 3, 4)
    assert thrown(s) == [g.start, g.target]


def test_the_classrooms_layers_step_back_with_b_only_and_the_route_goes_on_unless_paused(
        tmp_path):
    from microrobots.modes import guide

    s = Session(seed=5, state=str(tmp_path))
    enter(s, "classroom")
    room = s.app.current
    s.settle()
    assert room.screen is room.layers and room.reach >= 2
    s.tap("up")  # paused: nothing steps by itself
    s.tap("a", 2)
    assert guide.words(room).startswith("layer 2: ")
    for key in ("down", "left", "right"):
        s.tap(key)  # not B: the layer stays
    assert guide.words(room).startswith("layer 2: ")
    s.tap("b")
    s.wait(100)
    assert guide.words(room).startswith("layer 1: ")
    s.tap("b", 2)  # the robot's layer is the first: B goes no further
    s.wait(100)
    assert guide.words(room).startswith("layer 0: ")
    while room.screen is room.layers:
        s.tap("a")
    s.wait(6000)  # paused: the route stays, its replay long over
    assert room.screen is room.route
    s.tap("up")  # going on: 1.5 s after the replay, the next puzzle
    s.wait(1300)
    assert room.screen is room.route
    s.wait(400)
    assert room.screen is room.rolling
    s.settle()
    s.tap("a")
    s.tap("b")  # a layer back, not paused: the layers go on stepping by themselves
    s.wait(1600)
    assert guide.words(room).startswith("layer 1: ")
    while room.screen is room.layers:
        s.tap("a")
    opened = s.driver.device.now  # (within a press of the route's opening)
    samples = []
    while room.screen is room.route:
        samples.append(s.driver.device.now)
        s.wait(40)
        assert s.driver.device.now - opened < 20000
    assert room.screen is room.rolling
    assert samples[-1] - opened >= 1500 - 200  # not before 1.5 s (less a press)


def test_solos_score_goes_on_to_the_route_by_itself(tmp_path):
    """No key on the score: after a while the optimal route replays, from the start."""
    from microrobots.modes.solo_screens import _SCORE_MS

    s = Session(seed=5, state=str(tmp_path))
    enter(s, "solo")
    route = s.solo_round()
    solo = s.app.current
    s.tap("b")  # the celebration hurried: the score
    assert solo.screen is solo.score
    s.wait(_SCORE_MS - 300)
    assert solo.screen is solo.score
    s.wait(400)
    assert solo.screen is solo.review
    s.wait(100)
    assert cell(s, route[0]) != (0, 0, 0)  # the replay under way, drawn
    s.wait(8000)
    assert cell(s, route[0]) == P.TRAIL


def route_avoiding(solver, start, target, avoid):
    """Brute force: a shortest route from ``start`` to ``target`` not through ``avoid``."""
    frontier, seen = [[start]], {start, avoid}
    while frontier:
        for r in frontier:
            if r[-1] == target:
                return r
        nxt = []
        for r in frontier:
            for n in range(36):
                if n not in seen and solver.is_move(r[-1], n):
                    seen.add(n)
                    nxt.append(r + [n])
        frontier = nxt
    return None


def test_on_the_target_before_the_waypoint_the_waypoint_flashes_white(tmp_path):
    for seed in range(5, 40):
        s = Session(seed=seed, state=str(tmp_path / str(seed)))
        s.app.change("expert", True)
        enter(s, "solo")
        s.settle()
        g = s.app.current.game
        route = route_avoiding(g.solver, g.start, g.target, g.waypoint)
        if route and len(route) <= 6:
            break
    else:
        raise AssertionError("no seed with a short route around the waypoint")
    for a, b in zip(route, route[1:]):
        s.move(a, b)
    seen = [cell(s, g.waypoint) for _ in range(40) if s.wait(20) is None]
    assert P.ROBOT_WHITE in seen and P.REFUSE not in seen


def test_solos_review_dims_the_board_under_the_route(tmp_path):
    """The replayed route over the board at 70 / 255 (dimmer than a round's 180)."""
    from microrobots import frame as F

    s = Session(seed=5, state=str(tmp_path))
    enter(s, "solo")
    s.settle()
    solo = solo_give_up(s)
    s.wait(8000)  # the replay over
    app = s.app
    away = [c for c in range(36) if c not in solo.route]
    want = bytearray(108)
    for c in away:
        F.put_die(want, c, app.pal, app.layout.colours[c], 70)
    assert [cell(s, c) for c in away] == [tuple(want[3 * c:3 * c + 3]) for c in away]
