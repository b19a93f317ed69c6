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
