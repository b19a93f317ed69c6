"""The whole app, driven through the real frame loop (firmware/main.py) by a scripted
player: menu, solo, referee, classroom, settings, persistence and the power cap."""

import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from microrobots import palette as P
from microrobots.preferences import SETTINGS, check_settings
from microrobots.rules.board import Layout
from mpy import ROOT
from screens import PLAYER_RGB, read_count
from tools.sim.script import Session


def design(s, i):
    """Cell ``i`` of the frame the app drew last (design values)."""
    f = s.driver.device.frame
    return tuple(f[3 * i:3 * i + 3])


def enter(s, name):
    """From the menu, choose a quadrant and press A."""
    q = ("solo", "referee", "classroom", "settings").index(name)
    if q & 1:
        s.tap("right")
    if q & 2:
        s.tap("down")
    s.tap("a")
    assert s.app.mode == name


@pytest.fixture
def session(tmp_path):
    return Session(seed=21, state=str(tmp_path))


def test_boots_into_the_menu_with_solo_chosen(session):
    s = session
    s.wait(100)
    assert s.app.mode == "menu"
    solo_pip = design(s, 7)  # the centre of the top-left quadrant: its one pip
    referee_pip = design(s, 15)  # a pip of the referee's two (not chosen)
    assert sum(solo_pip) > 2 * sum(referee_pip) > 0
    assert design(s, 8) != (0, 0, 0) and design(s, 10) == (0, 0, 0)  # chosen: lit behind


@pytest.mark.parametrize("name", ["solo", "referee", "classroom", "settings"])
def test_every_mode_is_entered_and_left_with_a_long_b(session, name):
    s = session
    enter(s, name)
    s.wait(500)
    s.hold("b")
    assert s.app.mode == "menu"


def test_a_full_solo_round(session):
    s = session
    enter(s, "solo")
    solo = s.app.current
    g = solo.game
    start, target, optimum = g.start, g.target, g.optimum()
    route = s.solo_round()
    assert route[0] == start and route[-1] == target
    assert solo.screen is solo.solved  # solved: the celebration
    assert g.score == 1 and solo.count == optimum
    s.wait(3200)  # celebration over: the score screen, count over optimum
    assert solo.screen is solo.score
    shown = s.driver.device.frame
    assert read_count(shown, 0) == (P.GOOD, optimum)  # your count, optimal: green label
    assert read_count(shown, 3) == (P.OPTIMUM, optimum)
    s.tap("a")  # the optimal route replays
    assert solo.screen is solo.review
    s.wait(6000)
    s.tap("a")  # next puzzle: the old target is the new start
    s.settle()
    assert g.start == target
    assert solo.robot == target and solo.moves == []


def test_solo_refuses_an_illegal_move_with_a_flash_and_takes_moves_back(session):
    s = session
    enter(s, "solo")
    s.settle()
    solo = s.app.current
    solver = s.app.solver
    robot = solo.robot
    line = [c for c in range(36) if c != robot and (c // 6 == robot // 6 or c % 6 == robot % 6)]
    bad = [c for c in line if not solver.is_move(robot, c)]
    good = [c for c in line if solver.is_move(robot, c)]
    assert bad and good
    s.cursor_to(robot, bad[0])
    s.driver.feed("%d 16" % s.t)  # A acts when released: look right after
    s.driver.feed("%d 0" % (s.t + 60))
    s.driver.run_until(s.t + 100)
    assert design(s, bad[0]) == P.REFUSE
    s.t += 600
    s.driver.run_until(s.t)
    assert design(s, bad[0]) != P.REFUSE
    assert solo.robot == robot and solo.moves == []
    s.tap("b")  # nothing to take back: nothing happens
    s.move(robot, good[0])
    assert solo.robot == good[0] and solo.moves == [good[0]]
    s.tap("b")
    assert solo.robot == robot and solo.moves == []


def test_solo_hint_lights_exactly_the_legal_destinations(session):
    s = session
    enter(s, "solo")
    s.settle()
    solo = s.app.current
    s.hold("a")
    assert solo.hint
    s.wait(200)
    moves = set(s.app.solver.moves(solo.robot))
    lit = {i for i in range(36) if design(s, i)[0] == design(s, i)[1] == design(s, i)[2] > 100}
    assert lit - {solo.robot, solo.game.target} == moves - {solo.game.target}
    s.tap("left")
    assert not solo.hint


def test_expert_solo_needs_the_waypoint_first(session):
    s = session
    s.app.change("expert", True)
    enter(s, "solo")
    s.settle()
    solo = s.app.current
    g = solo.game
    assert g.waypoint is not None and g.waypoint not in (g.start, g.target)
    direct = s.app.solver.path(g.start, g.target)
    if g.waypoint not in direct:
        robot = direct[0]
        for c in direct[1:]:
            s.move(robot, c)
            robot = c
        assert solo.screen is solo.play and g.score == 0  # on the target, but not solved
        s.tap("b", len(direct) - 1)
    s.solo_round()
    assert g.score == 1


def referee_game(s, claims):
    """Play ``claims`` (a function of the game returning (player, count, cells)) to the end."""
    enter(s, "referee")
    s.settle()
    ref = s.app.current
    g = ref.game
    rounds = 0
    while not g.over and rounds < 60:
        player, count, cells = claims(g)
        s.claim(player, count, cells)
        assert ref.screen in (ref.result, ref.over)  # the verdict, or the end
        assert g.pool + sum(g.tokens) == 25
        s.wait(2800)
        s.settle()
        rounds += 1
    return ref, g


def test_a_full_refereed_game(session):
    s = session
    turn = [0]

    def honest(g):
        turn[0] += 1
        route = g.route()
        return turn[0] % 2, len(route) - 1, route[1:]

    ref, g = referee_game(s, honest)
    assert g.over and len(g.winners) == 1 and g.tokens[g.winners[0]] == 5
    s.wait(3000)  # after the celebration: the scores, the winner's row blinking
    assert ref.screen is ref.over
    rows = [[design(s, 6 * p + c) == P.TOKEN for c in range(1, 6)].count(True) for p in range(2)]
    assert rows == g.tokens
    s.tap("a")  # a new game
    assert ref.game is not g and not ref.game.over


def test_referee_claim_below_the_optimum_fails_at_once_and_undo_restores(session):
    s = session
    enter(s, "referee")
    s.settle()
    ref = s.app.current
    g = ref.game
    route = g.route()
    s.claim(0, len(route) - 1, route[1:])
    s.wait(2800)
    s.settle()
    before = json.dumps(g.to_dict(), sort_keys=True)
    assert g.tokens == [1, 0]
    opt = g.optimum()
    if opt > 1:
        s.claim(0, opt - 1, [])
        assert ref.screen is ref.result and not ref.ok and "below" in ref.verdict
        assert g.tokens == [0, 1]  # the claimant's token goes to the other player
        s.wait(1000)  # after the red flash: why, until A - the claim over the optimum
        assert ref.screen is ref.why
        shown = s.driver.device.frame
        assert read_count(shown, 0) == (PLAYER_RGB[0], opt - 1)
        assert read_count(shown, 3) == (P.OPTIMUM, opt)
        s.wait(5000)
        assert ref.screen is ref.why  # it waits for the table
        s.tap("a")
        s.wait(2800)
        s.settle()
        assert ref.screen is ref.board
        s.tap("b")  # undo? the scores blink between now and after
        assert ref.screen is ref.undo and g.tokens == [0, 1]
        s.tap("b")  # yes
        assert json.dumps(g.to_dict(), sort_keys=True) == before


def test_referee_give_up_reveals_a_route_and_moves_no_token(session):
    s = session
    enter(s, "referee")
    s.settle()
    ref = s.app.current
    g = ref.game
    target = g.target
    s.hold("a")
    assert ref.screen is ref.reveal  # the route replays
    assert g.tokens == [0, 0] and g.pool == 25
    assert ref.replay.hop == 900  # at a pace a table can follow
    moves = ref.replay.n - 1
    s.wait(moves * 900 + 5000)  # played, and long after: still shown, no roll
    assert ref.screen is ref.reveal and not ref.replay.running(s.driver.device.now)
    s.tap("left")  # again, from the start
    assert ref.replay.running(s.driver.device.now)
    s.tap("a")  # the whole route at once
    assert ref.screen is ref.reveal and not ref.replay.running(s.driver.device.now)
    s.tap("a")  # the next roll
    s.settle()
    assert g.start == target and ref.screen is ref.board


def test_referee_wrong_demonstration_is_ruled_wrong(session):
    s = session
    enter(s, "referee")
    s.settle()
    ref = s.app.current
    g = ref.game
    route = g.route()
    # claim the optimum but demonstrate one move too few (end early with a long A)
    s.claim(1, len(route) - 1, route[1:-1])
    assert ref.screen is ref.result and not ref.ok


def test_classroom_steps_the_wave_with_a_then_replays_the_route(session):
    s = session
    enter(s, "classroom")
    s.tap("a")  # skip the dice
    room = s.app.current
    assert room.screen is room.layers and room.wave.layer == 0
    s.app.current.paused = True
    s.tap("a")
    assert room.wave.layer == 1
    s.tap("b")
    assert room.wave.layer == 0
    for _ in range(room.reach):
        s.tap("a")
    assert room.wave.layer == room.reach
    start = room.game.start
    target = room.game.target
    s.tap("a")
    assert room.screen is room.route and room.game.start == target  # given up: the next start
    assert room.replay.route[0] == start


def test_classroom_advances_by_itself(session):
    s = session
    enter(s, "classroom")
    room = s.app.current
    s.wait(2500 * 3 + 1500 * 8)
    assert room.screen in (room.layers, room.route) and (
        room.screen is room.route or room.wave.layer > 0)


def test_settings_change_persist_and_survive_a_reboot(tmp_path):
    s = Session(seed=3, state=str(tmp_path))
    enter(s, "settings")
    s.tap("down", 2)  # brightness
    s.tap("right", 3)
    assert s.app.settings["brightness"] == SETTINGS["brightness"] + 3
    assert s.display.brightness == s.app.settings["brightness"]
    s.tap("down")  # players
    s.tap("right", 2)
    s.until_saved()  # a second after the last change (app.App.flush)
    saved = json.loads((tmp_path / "settings.json").read_text())["data"]
    assert saved["brightness"] == 8 and saved["players"] == 4
    again = Session(seed=3, state=str(tmp_path))
    again.wait(100)
    assert again.app.settings["players"] == 4 and again.display.brightness == 8


def test_the_side_setting_shows_the_lower_half_of_the_board_as_it_is_now(session):
    """The settings' board picture is drawn once and copied each frame: it must still
    follow every change of side (and of palette, with the colour-blind aid)."""
    s = session
    enter(s, "settings")

    def lower_half_is_the_board():
        pal = s.app.pal
        for i in range(18, 36):
            c = s.app.layout.colours[i]
            want = tuple(v * P.BACKGROUND // 255 for v in pal[3 * c:3 * c + 3])
            assert design(s, i) == want, i
        assert all(design(s, i) == (0, 0, 0) for i in range(12, 18))  # row 2: dark

    s.wait(200)  # the switch done
    lower_half_is_the_board()
    before = [design(s, i) for i in range(18, 36)]
    s.tap("right")  # the other side
    s.wait(100)
    assert s.app.settings["side"] == "copper"
    lower_half_is_the_board()
    assert [design(s, i) for i in range(18, 36)] != before


def test_shuffle_guides_each_tile_then_keeps_the_arrangement(session):
    s = session
    enter(s, "settings")
    st = s.app.current
    s.tap("down")  # arrangement
    s.tap("right")  # shuffle
    s.tap("a")
    code = bytes(st.code).decode()
    assert st.screen is st.shuffle
    lay = Layout.named("black:" + code)
    for q in range(4):
        assert st.quadrant == q
        s.wait(900)  # past the letter: the tile's dice as they must lie
        top = (0, 3, 18, 21)[q]
        cells = [top + r * 6 + c for r in range(3) for c in range(3)]
        shown = [design(s, i) for i in cells]
        want = [tuple(P.DIE[3 * lay.colours[i]:3 * lay.colours[i] + 3]) for i in cells]
        assert sum(a == b for a, b in zip(shown, want)) >= 8  # one corner may blink white
        others = [i for i in range(36) if i not in cells]
        assert all(design(s, i) == (0, 0, 0) for i in others)
        s.tap("a")
    assert s.app.settings["tiles"] == code
    assert s.app.layout.name == "black:" + code


def test_match_a_table_quadrant_by_quadrant(session):
    s = session
    enter(s, "settings")
    st = s.app.current
    s.tap("down")
    s.tap("right", 2)  # match
    s.tap("a")
    assert st.screen is st.match
    # top-left: board B turned once; the rest as they are
    s.tap("down")  # A -> B
    s.tap("right")  # one turn
    s.tap("a")
    s.tap("up")  # top-right: B -> A
    s.tap("a", 3)  # the last A keeps it
    assert s.app.settings["tiles"] == "BACD1000"


def test_match_refuses_a_board_used_twice(session):
    s = session
    enter(s, "settings")
    st = s.app.current
    s.tap("down")
    s.tap("right", 2)
    s.tap("a")
    s.tap("down")  # top-left: B, and top-right stays B
    s.tap("a", 4)
    assert st.screen is st.match and s.app.settings["tiles"] == "ABCD0000"


def test_a_solo_game_survives_a_reboot(tmp_path):
    s = Session(seed=5, state=str(tmp_path))
    enter(s, "solo")
    s.settle()
    solo = s.app.current
    g = solo.game
    route = g.route()
    s.move(route[0], route[1])
    saved = (g.start, g.target, list(solo.moves))
    s.until_saved()  # the last decision on flash (written in idle frames)
    again = Session(seed=5, state=str(tmp_path))
    again.wait(100)
    assert again.app.mode == "solo"
    solo2 = again.app.current
    assert (solo2.game.start, solo2.game.target, solo2.moves) == saved
    robot = route[1]
    for c in route[2:]:
        again.move(robot, c)
        robot = c
    assert solo2.game.score == 1


def test_a_refereed_game_survives_a_reboot(tmp_path):
    s = Session(seed=8, state=str(tmp_path))
    enter(s, "referee")
    s.settle()
    g = s.app.current.game
    route = g.route()
    s.claim(1, len(route) - 1, route[1:])
    s.wait(2800)
    state = g.to_dict()
    s.until_saved()  # the last decision on flash (written in idle frames)
    again = Session(seed=8, state=str(tmp_path))
    again.wait(100)
    assert again.app.mode == "referee"
    assert again.app.current.game.to_dict() == state


def test_a_refereed_game_survives_a_solo_interlude_and_a_reboot(tmp_path):
    s = Session(seed=8, state=str(tmp_path))
    enter(s, "referee")
    s.settle()
    g = s.app.current.game
    route = g.route()
    s.claim(0, len(route) - 1, route[1:])
    s.wait(2800)
    table = g.to_dict()
    s.hold("b")
    s.tap("left")
    s.tap("a")  # solo, one move
    s.settle()
    solo = s.app.current
    r = solo.game.route()
    s.move(r[0], r[1])
    s.until_saved()  # the last decision on flash (written in idle frames)
    again = Session(seed=8, state=str(tmp_path))
    again.wait(100)
    assert again.app.mode == "solo" and again.app.current.moves == [r[1]]  # the newest
    again.hold("b")
    again.tap("right")
    again.tap("a")
    assert again.app.mode == "referee" and again.app.current.game.to_dict() == table


def test_expert_takes_effect_in_solo_with_a_new_game(session):
    s = session
    enter(s, "solo")
    s.settle()
    assert s.app.current.game.waypoint is None
    s.hold("b")
    s.app.change("expert", True)
    s.tap("a")
    s.settle()
    assert s.app.current.game.expert and s.app.current.game.waypoint is not None


@pytest.mark.parametrize("text", ['{"format": 1, "data": {"brightness": "max"}}', "{not json", ""])
def test_corrupt_settings_give_defaults_and_a_visible_notice(tmp_path, text):
    (tmp_path / "settings.json").write_text(text)
    s = Session(seed=1, state=str(tmp_path))
    s.wait(1000)
    assert s.app.settings == dict(SETTINGS)
    assert "settings" in s.app.notice
    border = [design(s, i) for i in (0, 5, 30, 35)]
    lit = [design(s, i) == P.NOTICE for i in (0, 5, 30, 35)]
    s.wait(400)
    lit2 = [design(s, i) == P.NOTICE for i in (0, 5, 30, 35)]
    assert all(lit) or all(lit2), border
    assert any('"notice"' in line for line in s.lines)
    s.tap("up")  # any key dismisses it
    s.wait(1000)
    assert not any(design(s, i) == P.NOTICE for i in (0, 5, 30, 35))


def guide(s):
    """The help line the simulators show last (the driver's guide lines)."""
    return [json.loads(x)["guide"] for x in s.lines if '"guide"' in x][-1]


def test_first_start_writes_the_defaults_and_greets(tmp_path):
    s = Session(seed=1, state=str(tmp_path))
    s.wait(1000)
    assert s.app.notice is None  # having no settings yet is normal: no warning
    assert not any('"notice"' in line for line in s.lines)
    assert not any(design(s, i) == P.NOTICE for i in (0, 5, 30, 35))  # no orange border
    assert guide(s).startswith("welcome")
    assert json.loads((tmp_path / "settings.json").read_text())["data"] == dict(SETTINGS)
    s.tap("right")  # a key: the greeting has done its work
    assert guide(s).startswith("referee: A opens it")
    s.until_saved()  # the last decision on flash (written in idle frames)
    again = Session(seed=1, state=str(tmp_path))
    again.wait(100)
    assert again.app.notice is None and not again.app.welcome
    assert not guide(again).startswith("welcome")


def test_a_corrupt_saved_game_is_dropped_with_a_notice(tmp_path):
    (tmp_path / "solo.json").write_text(
        '{"format": 1, "data": {"mode": "solo", "seq": 3, "game": {}}}')
    (tmp_path / "referee.json").write_text('{"format": 1, "data": [1, 2]}')
    s = Session(seed=1, state=str(tmp_path))
    s.wait(100)
    assert s.app.mode == "menu"
    assert "saved game" in s.app.notice and "referee: not a saved game" in s.app.notice
    assert not (tmp_path / "solo.json").exists() and not (tmp_path / "referee.json").exists()


def test_check_settings_keeps_good_keys_and_names_the_bad_one():
    got, problem = check_settings({"players": 5, "difficulty": 99, "side": "copper"})
    assert got["players"] == 5 and got["side"] == "copper"
    assert got["difficulty"] == SETTINGS["difficulty"]
    assert "difficulty" in problem
    assert check_settings({"tiles": "ABCD0000", "expert": 1})[0]["expert"] is False


def test_every_frame_stays_under_the_power_cap_at_full_brightness(tmp_path):
    s = Session(seed=2, state=str(tmp_path))
    s.app.change("brightness", 8)
    enter(s, "solo")
    s.solo_round()
    s.finish_solo()
    s.hold("b")
    s.tap("down")
    s.tap("a")  # classroom
    s.wait(8000)
    assert s.frames
    for line in s.frames:
        px = json.loads(line)["pixels"]
        assert len(px) == 36
        assert sum(map(sum, px)) <= 5900
    assert s.display.brightness == 8
    assert max(sum(map(sum, json.loads(x)["pixels"])) for x in s.frames) > 1500  # bright


@settings(max_examples=80)
@given(st.lists(st.tuples(st.sampled_from([0, 1, 2, 3, 4, 4, 4, 5]), st.integers(0, 12),
                          st.integers(0, 3000)), max_size=300),
       st.integers(0, 1000), st.integers(0, 3))
def test_random_buttons_never_break_the_app(presses, seed, first):
    """Mash buttons in any order and timing (taps, long presses, stray releases): no
    exception, a sane state, every frame drawn."""
    from microrobots.app import App
    from microrobots.preferences import MODES

    app = App(None, seed=seed)
    frame = bytearray(108)
    now = 0
    seen = set()

    def event(kind, button):
        app.handle(kind << 3 | button, now)
        app.update(now)
        app.render(now, frame)

    for _ in range(first):  # start in another mode now and then
        event(1, 3 if first & 1 else 1)
    for button, hold, gap in presses:
        now += gap
        event(1, button)
        if hold == 0:
            now += 700
            event(3, button)  # LONG
        now += 60
        event(2, button)
        if hold != 0:
            event(5, button)  # TAP: released before LONG
        seen.add(app.mode)
        assert app.mode in MODES or app.mode == "selftest"  # (the settings' last item)
        if app.switching:  # a mode switch takes a few frames; keys wait for it
            continue
        assert app.current is app.modes[app.mode]
        game = getattr(app.current, "game", None)
        if game is not None and game.players > 1:
            assert game.pool + sum(game.tokens) == 25
        if app.mode == "solo" and app.current.screen is app.current.play:
            solo = app.current
            assert solo.robot == (solo.moves[-1] if solo.moves else game.start)
    assert 1 <= app.brightness <= 8


def test_a_tap_of_b_while_a_is_held_long_still_counts():
    """The buttons (input.py) decide what a tap is; the app acts on their events."""
    from microrobots.app import App
    from microrobots.device.input import Buttons

    app = App(None, seed=3)
    buttons = Buttons()
    frame = bytearray(108)

    def poll(now, mask):
        buttons.poll(now, mask)
        e = buttons.next_event()
        while e >= 0:
            app.handle(e, now)
            e = buttons.next_event()
        app.update(now)
        app.render(now, frame)

    a, b, right = 1 << 4, 1 << 5, 1 << 3
    poll(0, a)  # A down
    poll(100, a | right)  # right down: the menu's choice moves to referee
    poll(160, a)
    poll(600, a)  # A held long: nothing in the menu
    poll(700, 0)  # its release is not a tap
    assert app.mode == "menu"
    poll(900, a)
    poll(960, 0)  # a tap of A enters the referee
    for t in range(1000, 1100, 20):  # the switch, a stage a frame
        poll(t, 0)
    assert app.mode == "referee" and not app.switching
    assert app.current.screen is app.current.rolling  # the dice roll
    poll(1100, a)  # hold A ...
    poll(1200, a | b)  # ... press B meanwhile,
    poll(1700, a | b)  # A becomes a long press,
    poll(1800, a)  # B is released: a tap of B, which skips the dice
    assert app.current.screen is app.current.board


def test_solo_score_shows_on_b_with_no_move_to_take_back(session):
    s = session
    enter(s, "solo")
    s.solo_round(extra=1)  # solved with two moves too many
    s.finish_solo()
    solo = s.app.current
    assert solo.game.score == 1 and solo.game.extra == 2
    s.tap("b")
    s.wait(100)
    shown = s.driver.device.frame
    assert read_count(shown, 0) == (P.GOOD, 1)  # puzzles solved
    assert read_count(shown, 2) == (P.STREAK, 1)  # in a row
    assert read_count(shown, 4) == (P.REFUSE, 2)  # moves over the optimum
    s.wait(2600)
    assert sum(1 for i in range(36) if design(s, i) == P.GOOD) == 0


def test_colour_aid_high_contrast_and_blinking_robot_colour(session):
    s = session
    s.app.change("aid", 3)
    enter(s, "solo")
    s.settle()
    solo = s.app.current
    lay = s.app.layout
    robot_colour = lay.colours[solo.robot]
    marks = {solo.robot, solo.game.target}
    same = [i for i in range(36) if lay.colours[i] == robot_colour and i not in marks]
    other = [i for i in range(36) if lay.colours[i] != robot_colour and i not in marks]
    seen_dark = seen_lit = False
    for _ in range(10):
        s.wait(100)
        dark = [design(s, i) == (0, 0, 0) for i in same]
        assert all(dark) or not any(dark)  # they blink together
        seen_dark |= all(dark)
        seen_lit |= not any(dark)
        for i in other:  # the rest in the high-contrast palette, dimmed
            c = lay.colours[i]
            want = tuple(v * P.BACKGROUND // 255 for v in P.palette(True)[3 * c:3 * c + 3])
            assert design(s, i) == want
    assert seen_dark and seen_lit


# -- the table must see why ---------------------------------------------------------------
def frames_for(s, ms, cells):
    """The design colours of ``cells`` in every frame drawn over the next ``ms``."""
    seen = []
    for _ in range(ms // 20):
        s.wait(20)
        seen.append([design(s, i) for i in cells])
    return seen


def console_lines(s):
    return [json.loads(x)["console"] for x in s.lines if '"console"' in x]


def line_cells(a):
    """The other cells of ``a``'s row and column."""
    return [c for c in range(36) if c != a and (c // 6 == a // 6 or c % 6 == a % 6)]


def between(a, b):
    step = 1 if a // 6 == b // 6 else 6
    lo, hi = min(a, b), max(a, b)
    return list(range(lo + step, hi, step))


def test_an_illegal_move_is_replayed_and_drawn_in_red_with_the_reason_on_the_console(session):
    s = session
    enter(s, "referee")
    s.settle()
    ref = s.app.current
    g = ref.game
    solver = s.app.solver
    start = g.start
    first = next(c for c in line_cells(start) if solver.is_move(start, c) and c != g.target)
    bad = next(c for c in line_cells(first) if not solver.is_move(first, c) and between(first, c))
    claim = max(g.optimum(), 3)
    s.claim(1, claim, [first, bad])  # then held A: ended early
    assert ref.screen is ref.result and ref.verdict == "move 2 is not legal"
    line = console_lines(s)[-1]
    lay = s.app.layout
    assert "player 2 claims %d: wrong: move 2 is not legal (%s to %s)" % (
        claim, lay.token(first), lay.token(bad)) in line
    s.wait(800 + 420 + 100)  # the red flash, then the first (legal) move replays
    assert ref.screen is ref.why
    seen = frames_for(s, 1200, [start, first, bad] + between(first, bad))
    lit_bad = [f[2] for f in seen]
    assert P.REFUSE in lit_bad  # where it went: blinking red ...
    colour = lay.colours[bad]
    assert tuple(P.DIE[3 * colour:3 * colour + 3]) in lit_bad  # ... and its own colour
    assert all(f[0] == P.TRAIL for f in seen)  # the start: the trail
    for f in seen:
        assert all(c == (210, 0, 0) for c in f[3:])  # from the robot to there, in red
    robot_colour = tuple(P.DIE[3 * lay.colours[first]:3 * lay.colours[first] + 3])
    assert robot_colour in [f[1] for f in seen]  # the robot where the illegal move began
    s.wait(4000)
    assert ref.screen is ref.why  # held, replayed, until A
    s.tap("a")
    assert ref.screen is ref.result  # the scores, then the next round
    s.wait(2000)
    s.settle()
    assert ref.screen is ref.board


def test_a_missed_target_is_marked_after_the_replay(session):
    s = session
    enter(s, "referee")
    s.settle()
    ref = s.app.current
    g = ref.game
    solver = s.app.solver
    start, target = g.start, g.target
    n = next(c for c in line_cells(start) if solver.is_move(start, c) and c != target)
    claim = g.optimum() + (g.optimum() % 2)  # even: back and forth ends on the start
    walk = [n, start] * (claim // 2)
    s.claim(0, claim, walk)
    assert ref.verdict == "the robot does not end on the target"
    assert "(%s, not %s)" % (s.app.layout.token(start), s.app.layout.token(target)) in \
        console_lines(s)[-1]
    s.wait(800 + 420 * claim + 100)  # the flash, the whole walk replayed
    seen = frames_for(s, 1000, [target, start])
    assert P.REFUSE in [f[0] for f in seen]  # the target blinks red: missed
    assert all(f[0] in (P.REFUSE, tuple(P.DIE[3 * s.app.layout.colours[target]:][:3]))
               for f in seen)


def test_one_move_shown_is_said_as_one_move(session):
    s = session
    enter(s, "referee")
    s.settle()
    route = s.app.current.game.route()
    claim = max(2, len(route) - 1)
    s.claim(1, claim, route[1:2])  # one move, then a held A ends the demonstration
    assert "wrong: 1 move shown for a claim of %d;" % claim in console_lines(s)[-1]


def test_a_wrong_count_shows_the_moves_made_against_the_claim(session):
    s = session
    enter(s, "referee")
    s.settle()
    ref = s.app.current
    g = ref.game
    route = g.route()
    claim = len(route)  # one more than the route shows
    s.claim(1, claim, route[1:])  # all but one move: held A ends it
    assert ref.verdict == "the number of moves differs from the claim"
    assert "wrong: %d move%s shown for a claim of %d" % (
        claim - 1, "" if claim == 2 else "s", claim) in console_lines(s)[-1]
    s.wait(800 + 420 * (claim - 1) + 900)  # the flash, the replay, its end
    shown = s.driver.device.frame
    assert read_count(shown, 0) == (PLAYER_RGB[1], claim)  # claimed, in the claimant's colour
    assert read_count(shown, 3) == (P.REFUSE, claim - 1)  # made


def test_a_missed_waypoint_blinks_red(tmp_path):
    for seed in range(40):  # a round whose direct route avoids the waypoint
        s = Session(seed=seed, state=str(tmp_path / str(seed)))
        s.app.change("expert", True)
        s.app.change("players", 2)
        enter(s, "referee")
        s.settle()
        g = s.app.current.game
        direct = s.app.solver.path(g.start, g.target)
        if g.waypoint not in direct and (g.optimum() - len(direct) + 1) % 2 == 0:
            break
    else:
        pytest.fail("no round to miss the waypoint in")
    ref = s.app.current
    claim = g.optimum()
    a, b = direct[0], direct[1]
    walk = [b, a] * ((claim - len(direct) + 1) // 2) + direct[1:]
    assert len(walk) == claim and g.waypoint not in walk
    via = g.waypoint
    s.claim(0, claim, walk)
    assert ref.verdict == "the robot did not visit the waypoint first"
    s.wait(800 + 420 * claim + 100)
    seen = frames_for(s, 1000, [via])
    assert P.REFUSE in [f[0] for f in seen]


def test_the_claimant_is_chosen_deliberately_every_round(session):
    s = session
    enter(s, "referee")
    s.settle()
    ref = s.app.current
    g = ref.game
    route = g.route()
    s.claim(1, len(route) - 1, route[1:])  # player 2 claims and wins a token
    s.wait(2800)
    s.settle()
    assert g.tokens == [0, 1]
    s.tap("a")  # the next claim: nobody chosen, the colours pulse
    assert ref.screen is ref.claimant and ref.player == -1
    levels = {f[0] for f in frames_for(s, 900, [0])}
    assert len(levels) > 3
    s.tap("a")  # A, A: refused, not credited to the last claimant
    assert ref.screen is ref.claimant and ref.player == -1
    s.tap("up")  # up from nobody: the last player
    assert ref.player == 1
    s.tap("b")
    s.tap("a")
    s.tap("down")  # down from nobody: the first
    assert ref.player == 0
    s.tap("a")
    assert ref.screen is ref.claim


def test_undo_asks_first_and_shows_what_would_change(session):
    s = session
    enter(s, "referee")
    s.settle()
    ref = s.app.current
    g = ref.game
    route = g.route()
    s.claim(0, len(route) - 1, route[1:])
    s.wait(2800)
    s.settle()
    assert g.tokens == [1, 0] and g.pool == 24
    s.tap("b")  # one B: a question, nothing undone
    assert ref.screen is ref.undo and g.tokens == [1, 0]
    rows = [[design(s, c) for c in range(6)] for _ in range(2)]
    seen = {tuple(tuple(x) for x in f) for f in frames_for(s, 900, range(6))}
    token = [f[1] for f in seen]
    after = tuple(v * 80 // 255 for v in P.DIM)  # after the undo: its slot empty, dimmed
    assert P.TOKEN in token and after in token  # player 1's token blinks: now and after
    assert rows
    s.tap("up")  # any other key keeps the decision
    assert ref.screen is ref.board and g.tokens == [1, 0]
    s.tap("b")
    s.wait(5200)  # unanswered: kept
    assert ref.screen is ref.board and g.tokens == [1, 0]
    s.tap("b")
    s.tap("b")  # asked and confirmed
    assert ref.screen is ref.board and g.tokens == [0, 0] and g.pool == 25
    assert "undone" in console_lines(s)[-1]
    s.tap("b")  # nothing left to undo: no question
    assert ref.screen is ref.board


def test_the_undo_question_blinks_also_when_no_token_would_move(session):
    """A give-up (or a wrong claim by a player with no token) moves no token: the scores
    now and after an undo are the same, and the question looked like the scores shown
    by UP. It blinks: the scores after the undo are dimmed."""
    s = session
    enter(s, "referee")
    s.settle()
    ref = s.app.current
    s.hold("a")  # nobody found a route
    s.tap("a")  # the route whole
    s.tap("a")  # the next roll
    s.settle()
    assert ref.screen is ref.board and ref.game.tokens == [0, 0]
    s.tap("up")  # the scores, as UP shows them: steady
    shown = {tuple(f) for f in frames_for(s, 1600, range(36))}
    assert len(shown) == 1
    s.tap("a")
    assert ref.screen is ref.board
    s.tap("b")  # the question: it blinks between the scores and a dimmed copy
    assert ref.screen is ref.undo
    asked = {tuple(f) for f in frames_for(s, 1600, range(36))}
    assert len(asked) == 2 and shown <= asked
    bright, = shown
    dimmed, = asked - shown
    assert all(sum(d) < sum(b) for d, b in zip(dimmed, bright) if sum(b))
    s.tap("b")
    assert ref.screen is ref.board and ref.game.decisions() == []


def test_a_finished_game_asks_before_the_winning_token_goes_back(session):
    s = session
    turn = [0]

    def honest(g):
        turn[0] += 1
        route = g.route()
        return 0, len(route) - 1, route[1:]

    ref, g = referee_game(s, honest)
    assert g.over and g.tokens[0] == 5
    s.wait(3000)
    s.tap("b")
    assert ref.screen is ref.undo and g.over
    s.tap("a")  # kept
    assert ref.screen is ref.over and g.over
    s.tap("b")
    s.tap("b")
    assert ref.screen is ref.board and not g.over and g.tokens[0] == 4


def test_the_pool_shows_its_exact_count_on_the_score_screen(session):
    s = session
    enter(s, "referee")
    s.settle()
    ref = s.app.current
    g = ref.game
    for _ in range(4):  # 21 tokens left in the pool
        route = g.route()
        s.claim(len(g.decisions()) % 2, len(route) - 1, route[1:])
        s.wait(2800)
        s.settle()
    assert g.pool == 21
    s.tap("up")
    assert ref.screen is ref.scores
    shown = s.driver.device.frame
    assert read_count(shown, 3) == (P.POOL, 21)  # not five cells, like 25


def test_solo_give_up_shows_an_optimal_route_and_resets_the_streak(session):
    s = session
    enter(s, "solo")
    s.solo_round()
    s.finish_solo()
    solo = s.app.current
    g = solo.game
    assert g.streak == 1
    start, target, optimum = g.start, g.target, g.optimum()
    s.hold("a")  # a hint
    assert solo.hint and solo.screen is solo.play
    s.hold("a")  # still stuck: give up
    assert solo.screen is solo.review and g.streak == 0 and g.score == 1
    assert g.start == target  # the next round is rolled
    assert list(solo.replay.route[:solo.replay.n]) == solo.route
    assert solo.route[0] == start and solo.route[-1] == target and len(solo.route) == optimum + 1
    s.wait(420 * optimum + 1500)
    assert design(s, start) == P.TRAIL
    s.tap("a")
    s.settle()
    assert solo.screen is solo.play and solo.robot == target
    s.until_saved()  # the last decision on flash (written in idle frames)
    again = Session(seed=21, state=s.driver.device.store.root)
    again.wait(100)
    assert again.app.current.game.streak == 0 and again.app.current.game.start == target


def test_a_reset_resumes_the_game_and_a_held_b_shows_the_menu_on_it(tmp_path):
    """As docs/troubleshooting.md says: after a reset the device comes back where it was;
    holding B gives the menu, its quadrant chosen."""
    s = Session(seed=8, state=str(tmp_path))
    enter(s, "referee")
    s.settle()
    s.until_saved()  # the last decision on flash (written in idle frames)
    again = Session(seed=8, state=str(tmp_path))
    again.wait(100)
    assert again.app.mode == "referee"
    again.hold("b")
    assert again.app.mode == "menu" and again.app.current.choice == 1
    with open(os.path.join(ROOT, "docs", "troubleshooting.md")) as f:
        first = f.read().split("\n\n")[1]
    assert "A reset returns to the mode that was on show, a game\nin progress where it was" in first


def go_to(s, name):
    """From the menu, wherever its choice is, into mode ``name``."""
    q = ("solo", "referee", "classroom", "settings").index(name)
    c = s.app.current.choice
    if (c ^ q) & 1:
        s.tap("right" if q & 1 else "left")
    if (c ^ q) & 2:
        s.tap("down" if q & 2 else "up")
    s.tap("a")
    assert s.app.mode == name


def test_the_referee_plays_with_the_players_the_settings_name(tmp_path):
    """A table of three sets players to 3 and chooses the referee: it gets a game of
    three, also when yesterday's game for two (with decisions) was in progress. Browsing
    the values and setting them back keeps the game; so does a restart (the game on
    flash resumes as it was, until the referee is chosen from the menu)."""
    state = str(tmp_path)
    s = Session(seed=21, state=state)
    go_to(s, "referee")
    s.settle()
    s.hold("a")  # a decision: nobody found a route
    s.wait(3000)
    old = s.app.current.game
    assert old.players == 2 and len(old.decisions()) == 1
    s.hold("b")
    go_to(s, "settings")
    s.tap("down", 3)  # players: 3, 4, back to 2
    s.tap("right", 2)
    s.tap("left", 2)
    s.hold("b")
    go_to(s, "referee")
    assert s.app.current.game.seed == old.seed and len(s.app.current.game.decisions()) == 1
    s.hold("b")
    go_to(s, "settings")
    s.tap("down", 3)
    s.tap("right")
    assert s.app.settings["players"] == 3
    s.hold("b")
    go_to(s, "referee")
    g = s.app.current.game
    assert g.players == 3 and g.decisions() == [] and g.tokens == [0, 0, 0]
    s.settle()
    s.hold("b")
    go_to(s, "settings")
    s.tap("down", 4)  # expert on, then a restart
    s.tap("right")
    assert s.app.settings["expert"] is True
    s.hold("b")
    s.until_saved()  # the last decision on flash (written in idle frames)
    again = Session(seed=22, state=state)
    again.wait(100)
    assert again.app.mode == "menu"  # the mode on show when it stopped; the game kept
    with open(os.path.join(state, "referee.json")) as f:
        assert json.load(f)["data"]["game"]["seed"] == g.seed
    go_to(again, "referee")
    g = again.app.current.game
    assert (g.players, g.expert) == (3, True) and g.waypoint is not None


@pytest.mark.parametrize("left", ["classroom", "settings", "solo", "menu"])
def test_a_restart_returns_to_the_mode_on_show_not_an_older_game(tmp_path, left):
    """A finished referee game on flash; the player goes on in another mode and the power
    goes: the restart shows that mode, with its own state, not the referee game."""
    state = str(tmp_path)
    s = Session(seed=5, state=state)
    go_to(s, "referee")
    s.settle()
    s.hold("a")  # a decision: the referee game is saved
    s.hold("b")
    if left != "menu":
        go_to(s, left)
    if left in ("solo", "classroom"):
        s.settle()  # (B skips the dice; in the settings B goes back)
    if left == "solo":
        solo_target = s.app.current.game.target
    s.until_saved()
    again = Session(seed=5, state=state)
    again.wait(100)
    assert again.app.mode == left
    if left == "solo":
        assert again.app.current.game.target == solo_target  # its own game, resumed
    if left == "classroom":
        assert "layer" in guide(again) or "dice roll" in guide(again)
    assert os.path.exists(os.path.join(state, "referee.json"))  # kept for later
    if left != "menu":
        again.hold("b")
    go_to(again, "referee")
    assert again.app.current.game.round == 2  # and the referee game is where it was


def test_a_game_from_a_share_link_is_on_show_at_boot_whatever_mode_was_left(tmp_path):
    """The web page puts a ?game= link's game on the flash before boot (page.prepare): it
    opens, also when the device was left in the classroom."""
    import importlib
    import sys

    state = str(tmp_path)
    s = Session(seed=5, state=state)
    go_to(s, "classroom")
    s.until_saved()
    path = list(sys.path)
    sys.path += [os.path.join(ROOT, "tools", "sim"), os.path.join(ROOT, "tools", "sim", "web")]
    try:  # the page's Python side, as the page imports it (events.py beside it)
        page = importlib.import_module("page")
        assert page.prepare("MR1.3x.2026.black:CADB0312.b9ob3b-", root=state + "/") is None
    finally:
        sys.path[:] = path
    again = Session(seed=5, state=state)
    again.wait(100)
    assert again.app.mode == "referee" and again.app.current.game.seed == 2026
