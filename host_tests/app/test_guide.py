"""modes/guide.py: the help line's words, kept apart from the modes so that a Pico never
loads them. A screen names its words' function (every mode but the menu is made of
screens), and the guide finds it by that name."""

import pytest

from microrobots.modes import Screen, classroom, guide, menu, referee, settings, solo


class _App:
    settings = {"players": 2, "expert": False, "difficulty": 0, "lesson": 0, "aid": 0}


@pytest.mark.parametrize("module", [solo, referee, classroom, settings])
def test_every_screen_names_its_words_in_the_guide(module):
    """Each screen of a mode made of screens: its guide is a function of modes/guide.py,
    and guide.words finds it for the screen on show."""
    mode = module.Mode(_App())
    screens = [v for k, v in vars(mode).items() if isinstance(v, Screen) and k not in (
        "screen", "back")]  # (the one on show, the one an undo returns to)
    assert len(screens) >= 3 and mode.screen in screens
    assert len({type(s) for s in screens}) == len(screens)
    for name, screen in vars(mode).items():
        if isinstance(screen, Screen) and name not in ("screen", "back"):
            assert name == type(screen).__name__.lower()  # as the guide finds its words
            words = "%s_%s" % (mode.name, name)
            assert callable(getattr(guide, words, None)), words

    class Game:
        pass

    if hasattr(mode, "rolling"):  # a game's dice: the shared screen, the mode's words
        mode.game = Game()
        mode.screen = mode.rolling
        assert guide.words(mode) == getattr(guide, mode.name + "_rolling")(mode)


def test_the_guide_names_the_settings_and_the_menus_quadrants_in_their_order():
    assert guide.ITEMS == settings._ITEMS and len(guide.NAMES) == len(settings._ITEMS)
    assert guide.TARGETS == menu._TARGETS


def test_a_pico_never_loads_the_words(tmp_path):
    """The firmware's frame loop, in every mode, without a simulator asking for words:
    modes/guide.py stays unimported (its strings would take a Pico's RAM)."""
    import sys

    from tools.sim.script import Session

    sys.modules.pop("microrobots.modes.guide", None)
    s = Session(seed=4, state=str(tmp_path))
    s.driver._report = lambda t: None  # the device alone: nobody asks for the guide
    for quadrant in ([], ["right"], ["down"], ["down", "right"]):
        for key in quadrant:
            s.tap(key)
        s.tap("a")
        s.wait(2000)
        s.tap("a")
        s.wait(500)
        s.hold("b")
        for key in quadrant:
            s.tap({"right": "left", "down": "up"}[key])
    assert "microrobots.modes.guide" not in sys.modules
    import importlib

    importlib.import_module("microrobots.modes.guide")  # as it was, for the other tests


# The guide's lines as a simulator shows them, each screen's function called on the state it
# reads (a pure function of that state: the fakes below hold only what it reads), every branch
# with its exact words (issue 37: each line's mutants).

from types import SimpleNamespace as _NS  # noqa: E402


def _power(on_usb=False, mv=3706, percent=57, low=False, critical=False):
    return _NS(on_usb=on_usb, mv=mv, percent=percent, low=low, critical=critical)


@pytest.mark.parametrize("power, line", [
    (None, "no gauge (on USB)"),  # no power module (a simulator without one)
    (_power(on_usb=True, mv=-1), "no gauge (on USB)"),
    (_power(on_usb=True, mv=0), "on USB (charging)"),  # a gauge reading 0 mV: still one
    (_power(on_usb=True, mv=4180), "on USB (charging)"),
    (_power(percent=-1, mv=-1), "on battery (no gauge)"),
    (_power(percent=-1, mv=3706), "on battery (no gauge)"),
    (_power(percent=0, mv=3306, low=True, critical=True), "0% CRITICAL (3.31 V)"),
    (_power(percent=4, mv=3456, low=True, critical=True), "4% CRITICAL (3.46 V)"),
    (_power(percent=0, mv=3456, low=True), "0% low (3.46 V)"),
    (_power(percent=15, mv=3706, low=True), "15% low (3.71 V)"),
    (_power(percent=0, mv=3706), "0% (3.71 V)"),
    (_power(percent=57, mv=3706), "57% (3.71 V)"),
])
def test_the_battery_line_names_each_state_of_the_supply(power, line):
    """The settings' battery item and the self-test's supply: USB with or without a gauge,
    the battery without a gauge, and a reading critical, low or fine, in volts (mV / 1000,
    two decimals: 3706 mV is 3.71 V, never 3.70)."""
    assert guide._battery(power) == line
    assert guide.selftest_supply(_NS(app=_NS(power=power))) == (
        "self-test 3 of 4: the supply: %s · A: the piezo · B: leave" % line)


@pytest.mark.parametrize("colour, word", [(0, "red"), (1, "green"), (2, "blue"), (3, "white")])
def test_the_self_tests_colour_lines(colour, word):
    m = _NS(screen=_NS(colour=colour))
    assert guide.selftest_colours(m) == (
        "self-test 1 of 4: every LED %s · A: the next colour · B: leave" % word)


@pytest.mark.parametrize("seen, tail", [
    (0, "6 buttons still to press"),
    (0b000001, "5 buttons still to press"),
    (0b000010, "5 buttons still to press"),
    (0b101010, "3 buttons still to press"),
    (0b111110, "1 button still to press"),
    (0b011111, "1 button still to press"),
    (0b111111, "0 buttons still to press"),
])
def test_the_self_tests_buttons_line_counts_the_buttons_not_yet_pressed(seen, tail):
    m = _NS(screen=_NS(seen=seen))
    assert guide.selftest_buttons(m) == (
        "self-test 2 of 4: press every button, each lights its part of the grid · " + tail)


def test_the_self_tests_piezo_line():
    assert guide.selftest_piezo(_NS()) == (
        "self-test 4 of 4: the piezo plays a scale · A: start again · B: leave")


@pytest.mark.parametrize("route, gave_up, line", [
    ([5, 7], False, "an optimal route, 1 move · A: the next target"),
    ([5, 7, 9, 11], False, "an optimal route, 3 moves · A: the next target"),
    ([5, 7], True, "given up: an optimal route, 1 move · A: the next target"),
    ([5, 7, 9, 11], True, "given up: an optimal route, 3 moves · A: the next target"),
])
def test_solos_review_counts_the_moves_of_the_route_shown(route, gave_up, line):
    """The route's cells less its start: the moves."""
    assert guide.solo_review(_NS(route=route, gave_up=gave_up)) == line


@pytest.mark.parametrize("winners, line", [
    ([0], "player 1 wins · A: a new game · B: undo the last decision"),
    ([2], "player 3 wins · A: a new game · B: undo the last decision"),
    ([0, 2], "players 1 and 3 win · A: a new game · B: undo the last decision"),
    ([1, 2, 3], "players 2 and 3 and 4 win · A: a new game · B: undo the last decision"),
])
def test_the_referees_end_names_the_winner_or_winners(winners, line):
    assert guide.referee_over(_NS(game=_NS(winners=winners))) == line


@pytest.mark.parametrize("pool", [0, 7])
def test_the_referees_scores_line_gives_the_pool(pool):
    assert guide.referee_scores(_NS(game=_NS(pool=pool))) == (
        "the scores: a row per player, gold = tokens; the pool: %d · any key: back" % pool)


@pytest.mark.parametrize("quadrant, letters", [(0, "A"), (2, "C"), (3, "D")])
def test_the_settings_shuffle_and_match_lines_name_the_quadrant_and_board(quadrant, letters):
    m = _NS(code=b"ABCD", quadrant=quadrant)
    assert guide.settings_shuffle(m) == (
        "shuffle: lay board %s turned as shown in quadrant %d of 4 (white: its top-left) "
        "· A: next · LEFT: back · B: cancel" % (letters, quadrant + 1))
    assert guide.settings_match(m) == (
        "match the table, quadrant %d of 4: up/down the board (%s), left/right turn it "
        "· A: next · B: back" % (quadrant + 1, letters))


class _Layout:
    """Cell c: colour c % 6 (blue, yellow, green, red, pink, white), number c // 6 % 6 + 1."""

    def colour(self, cell):
        return cell % 6

    def number(self, cell):
        return cell // 6 % 6 + 1


def _refusing(legal, robot=9, refused=22, count=3):
    app = _NS(layout=_Layout(), solver=_NS(is_move=lambda a, b: legal and (a, b) == (
        robot, refused)))
    return _NS(app=app, robot=robot, refused=refused, walk=_NS(count=count))


def test_a_refused_moves_line_says_why():
    """Not a move: the die aimed at, the robot's colour and number; a legal move past the
    round's limit: the count."""
    assert guide.refused(_refusing(False)) == (
        "refused: pink 4 is neither red nor a 2: a move goes along the row or column onto "
        "a die of the robot's colour or number · D-pad the cursor, A: there")
    assert guide.refused(_refusing(True, count=15)) == (
        "refused: 15 moves is the most a round counts · B: a move back")


def test_the_projector_view_writes_the_distances_the_wave_has_reached():
    wave = _NS(layer=2, dist=[0, 1, 2, 3, 5, 2, 1])
    assert guide.reached(_NS(game=object(), screen=_NS(placed=True), wave=wave)) == [
        0, 1, 2, -1, -1, 2, 1]
    wave0 = _NS(layer=0, dist=[1, 0, 2])
    assert guide.reached(_NS(game=object(), screen=_NS(placed=True), wave=wave0)) == [
        -1, 0, -1]
    assert guide.reached(_NS(game=None, screen=_NS(placed=True), wave=wave)) is None
    assert guide.reached(_NS(game=object(), screen=_NS(placed=False), wave=wave)) is None


@pytest.mark.parametrize("count, optimum, solved, score", [
    (1, 1, "solved in 1 move · A: on", "you 1, optimum 1: perfect · A: an optimal route"),
    (4, 4, "solved in 4 moves · A: on", "you 4, optimum 4: perfect · A: an optimal route"),
    (5, 3, "solved in 5 moves · A: on", "you 5, optimum 3 · A: an optimal route"),
])
def test_solos_solved_and_score_lines(count, optimum, solved, score):
    m = _NS(count=count, optimum=optimum)
    assert guide.solo_solved(m) == solved
    assert guide.solo_score(m) == score


def test_solos_stats_and_the_referees_board_lines():
    assert guide.solo_stats(_NS(game=_NS(score=3, streak=2, extra=5))) == (
        "solved 3, in a row 2, moves beyond the optimum 5")
    assert guide.referee_board(_NS(game=_NS(round=4))) == (
        "round 4: find a route · A: who claims? · hold A: nobody found one · up: the scores")


# The settings' items, one line each (issue 37: every word of settings_items was a survivor).
_SETTINGS = {"side": "copper", "brightness": 5, "players": 3, "expert": True, "sound": False,
             "difficulty": 0, "aid": 2, "lesson": 0, "puzzle": 1, "dim": 1, "sleep": 0}
_TAIL = " · left/right: change · up/down: another · B: back"


def _item(name, arrange=1, power=None, **settings):
    s = dict(_SETTINGS, **settings)
    return guide.settings_items(_NS(item=guide.ITEMS.index(name), arrange=arrange,
                                    app=_NS(settings=s, power=power)))


@pytest.mark.parametrize("name, settings, line", [
    ("side", {}, "1 of 13, side: copper"),
    ("side", {"side": "black"}, "1 of 13, side: black"),
    ("brightness", {}, "3 of 13, brightness: 5"),
    ("players", {}, "4 of 13, players: 3"),
    ("expert", {}, "5 of 13, expert (waypoint): on"),
    ("expert", {"expert": False}, "5 of 13, expert (waypoint): off"),
    ("sound", {}, "6 of 13, sound: off"),
    ("sound", {"sound": True}, "6 of 13, sound: on"),
    ("difficulty", {}, "7 of 13, difficulty: any"),
    ("difficulty", {"difficulty": 1}, "7 of 13, difficulty: 1"),
    ("difficulty", {"difficulty": 4}, "7 of 13, difficulty: 4"),
    ("aid", {"aid": 0}, "8 of 13, colour aid: off"),
    ("aid", {"aid": 1}, "8 of 13, colour aid: high contrast"),
    ("aid", {}, "8 of 13, colour aid: blink the robot's colour"),
    ("aid", {"aid": 3}, "8 of 13, colour aid: both"),
    ("dim", {}, "10 of 13, dim after: 1 min"),
    ("dim", {"dim": 0}, "10 of 13, dim after: never"),
    ("sleep", {}, "11 of 13, sleep after: never"),
    ("sleep", {"sleep": 5}, "11 of 13, sleep after: 5 min"),
])
def test_each_settings_item_line_names_its_number_its_name_and_its_value(name, settings, line):
    assert _item(name, **settings) == line + _TAIL


@pytest.mark.parametrize("arrange, value", [
    (1, "keep"), (2, "shuffle: A deals one"), (3, "match a table: A")])
def test_the_arrangement_item_names_the_choice_on_show(arrange, value):
    assert _item("tiles", arrange=arrange) == "2 of 13, arrangement: %s" % value + _TAIL


def test_the_lesson_item_off_and_on():
    assert _item("lesson") == (
        "9 of 13, lesson: off, the classroom rolls new puzzles · left/right: a lesson's "
        "number (the worksheets' --seed) · up/down: another · B: back")
    assert _item("lesson", lesson=7, puzzle=3) == (
        "9 of 13, lesson 7 (the worksheets' --seed 7, the page's ?seed=7), the classroom at "
        "puzzle 3 · left/right: change · A: its first puzzle again · up/down: another · "
        "B: back")


def test_the_battery_and_self_test_items():
    assert _item("battery", power=_power(percent=57, mv=3706)) == (
        "12 of 13, battery: 57% (3.71 V) · up/down: another · B: back")
    assert _item("battery") == "12 of 13, battery: no gauge (on USB) · up/down: another · B: back"
    assert _item("selftest") == (
        "13 of 13, self-test: A starts it (every LED, every button, the supply, the piezo) "
        "· up/down: another · B: back")


def test_a_language_translates_the_sides_the_switches_and_the_colour_aid():
    """The side's, on/off's and the aid's words go through the catalogue (a reader of
    another language reads them in it)."""
    from microrobots import i18n

    i18n.install({"copper": "Kupfer", "black": "schwarz", "on": "an", "off": "aus",
                  "blink the robot's colour": "Roboterfarbe blinkt", "any": "beliebig",
                  "never": "nie"})
    try:
        assert _item("side").startswith("1 of 13, side: Kupfer ·")
        assert _item("side", side="black").startswith("1 of 13, side: schwarz ·")
        assert _item("expert").startswith("5 of 13, expert (waypoint): an ·")
        assert _item("sound").startswith("6 of 13, sound: aus ·")
        assert _item("aid").startswith("8 of 13, colour aid: Roboterfarbe blinkt ·")
        assert _item("difficulty").startswith("7 of 13, difficulty: beliebig ·")
        assert _item("sleep").startswith("11 of 13, sleep after: nie ·")
    finally:
        i18n.install(None)


# The solo's play line, the verdict's words, the referee's and the classroom's lines.

def _play(count=0, hint=False, refused=-1, waypoint=None, seen=False):
    return _NS(game=_NS(waypoint=waypoint), hint=hint, refused=refused,
               walk=_NS(count=count, seen=seen))


_MOVE_KEYS = " · D-pad the cursor, A: there · B: a move back · hold A: a hint"


@pytest.mark.parametrize("play, line", [
    (_play(hint=True, refused=4), "the lit cells: where the robot can go · hold A again: "
                                  "give up"),
    (_play(0), "to the target: 0 moves so far" + _MOVE_KEYS),
    (_play(1), "to the target: 1 move so far" + _MOVE_KEYS),
    (_play(2, waypoint=8, seen=True), "to the target: 2 moves so far" + _MOVE_KEYS),
    (_play(1, waypoint=0), "the waypoint first, then the target: 1 move so far" + _MOVE_KEYS),
    (_play(3, waypoint=8), "the waypoint first, then the target: 3 moves so far" + _MOVE_KEYS),
])
def test_solos_play_line_counts_the_moves_and_names_the_waypoint_until_it_is_seen(play, line):
    assert guide.solo_play(play) == line


def test_solos_play_line_says_why_a_move_was_refused_even_onto_cell_0():
    m = _refusing(False, robot=9, refused=0)
    m.hint, m.game = False, _NS(waypoint=None)
    assert guide.solo_play(m).startswith("refused: blue 1 is neither red nor a 2")
    m.refused = -1
    assert guide.solo_play(m) == "to the target: 3 moves so far" + _MOVE_KEYS


@pytest.mark.parametrize("code, bad, verdict, line", [
    (1, 3, "", "move 3 is not legal"),
    (1, 0, "", "a move is not legal"),
    (2, 0, "", "the number of moves differs from the claim"),
    (3, 0, "", "the robot does not end on the target"),
    (4, 0, "", "the robot did not visit the waypoint first"),
    (5, 0, "", "the claim is below the optimum"),
    (9, 0, "a reason of its own", "a reason of its own"),
])
def test_the_verdicts_reason_in_words(code, bad, verdict, line):
    assert guide.reason(_NS(code=code, bad=bad, verdict=verdict)) == line


@pytest.mark.parametrize("player, line", [
    (-1, "who claims? D-pad: the player · B: back"),
    (0, "player 1 claims? A: yes, then the count · D-pad: another · B: back"),
    (3, "player 4 claims? A: yes, then the count · D-pad: another · B: back"),
])
def test_the_referees_claimant_line(player, line):
    assert guide.referee_claimant(_NS(player=player)) == line


@pytest.mark.parametrize("player, count, line", [
    (0, 1, "player 1 claims 1 move? up/down 1, left/right 5 · A: yes, then the moves · B: back"),
    (2, 7, "player 3 claims 7 moves? up/down 1, left/right 5 · A: yes, then the moves · "
           "B: back"),
])
def test_the_referees_claim_line(player, count, line):
    assert guide.referee_claim(_NS(player=player, count=count)) == line


@pytest.mark.parametrize("player, moves, count, shown", [
    (0, [], 3, "player 1 shows move 1 of 3"),
    (2, [5], 3, "player 3 shows move 2 of 3"),
    (1, [5, 7, 9], 3, "player 2 shows move 3 of 3"),  # every move made: the last one
])
def test_the_referees_demonstration_line(player, moves, count, shown):
    assert guide.referee_demo(_NS(player=player, moves=moves, count=count)) == (
        shown + ": D-pad the cursor, A: there · B: a move back · hold A: done")


@pytest.mark.parametrize("ok, player, receiver, line", [
    (True, 0, -1, "correct: player 1 takes a token · A: the next roll · B: take it back"),
    (True, 2, -1, "correct: player 3 takes a token · A: the next roll · B: take it back"),
    (False, 1, -1, "wrong: the robot does not end on the target · no token moves · A: on · "
                   "B: take it back"),
    (False, 1, 0, "wrong: the robot does not end on the target · player 2 gives player 1 a "
                  "token · A: on · B: take it back"),
    (False, 0, 2, "wrong: the robot does not end on the target · player 1 gives player 3 a "
                  "token · A: on · B: take it back"),
])
def test_the_referees_result_names_who_takes_or_gives_a_token(ok, player, receiver, line):
    m = _NS(ok=ok, player=player, receiver=receiver, code=3, bad=0, verdict="")
    assert guide.referee_result(m) == line


@pytest.mark.parametrize("n, line", [
    (2, "nobody found it: an optimal route, 1 move · D-pad: again · A: the next roll"),
    (5, "nobody found it: an optimal route, 4 moves · D-pad: again · A: the next roll"),
])
def test_the_referees_reveal_counts_the_moves_of_the_route(n, line):
    assert guide.referee_reveal(_NS(replay=_NS(n=n))) == line


def test_the_dice_lines():
    assert guide.solo_rolling(_NS()) == "the dice roll a new target · A: skip"
    assert guide.referee_rolling(_NS()) == "the dice roll a new target · A: skip"
    room = _NS(app=_NS(settings={"lesson": 0, "puzzle": 1}), paused=False)
    assert guide.classroom_rolling(room) == (
        "the dice roll a robot and a target · A: search · up: pause")


def _room(layer=0, reach=3, lesson=0, puzzle=1, paused=False):
    return _NS(wave=_NS(layer=layer), reach=reach, paused=paused,
               app=_NS(settings={"lesson": lesson, "puzzle": puzzle}))


@pytest.mark.parametrize("room, line", [
    (_room(0), "layer 0: the robot · A: layer 1, every cell one move away · up: pause"),
    (_room(1), "layer 1: every cell 1 move away · A: the next · B: back · up: pause"),
    (_room(2), "layer 2: every cell 2 moves away · A: the next · B: back · up: pause"),
    (_room(3), "layer 3 reaches the target: the shortest route, 3 moves · A: show it · "
               "up: pause"),
    (_room(1, reach=1), "layer 1 reaches the target: the shortest route, 1 move · A: show "
                        "it · up: pause"),
    (_room(2, lesson=4, puzzle=2, paused=True),
     "lesson 4, puzzle 2: layer 2: every cell 2 moves away · A: the next · B: back · up: go "
     "on (paused)"),
])
def test_the_classrooms_layers_line(room, line):
    assert guide.classroom_layers(room) == line


@pytest.mark.parametrize("room, line", [
    (_room(reach=1), "the shortest route: 1 move · A: a new puzzle · up: pause"),
    (_room(reach=4), "the shortest route: 4 moves · A: a new puzzle · up: pause"),
    (_room(reach=1, lesson=2), "lesson 2, puzzle 1: the shortest route: 1 move · A: the next "
                               "puzzle · up: pause"),
    (_room(reach=6, lesson=2, puzzle=5), "lesson 2, puzzle 5: the shortest route: 6 moves · "
                                         "A: the next puzzle · up: pause"),
])
def test_the_classrooms_route_line(room, line):
    assert guide.classroom_route(room) == line


def test_the_menus_line_and_its_welcome():
    m = _NS(choice=0, app=_NS(welcome=True))
    first = guide.menu(m)
    assert first.startswith("welcome to Micro Robots! the menu: ")
    m.app.welcome = False
    assert first == "welcome to Micro Robots! the menu: " + guide.menu(m)


def test_a_screen_the_guide_has_no_words_for_gets_none():
    class Mute:  # a screen of the solo's the guide has no solo_mute for
        pass

    assert guide.words(_NS(name="solo", screen=Mute(), game=object())) is None
