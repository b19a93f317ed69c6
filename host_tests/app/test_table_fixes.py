"""Three things a player met (issue 33), each played as the player met it, through the
simulator's session (tools/sim/script.py: the firmware's own loop, buttons pressed):

- in solo, a move that is not one is refused with the red flash on the die and a guide
  line that says why;
- browsing the difficulty (1, then back to "any") keeps the solo game in progress, as the
  referee keeps its game when the players are only browsed; a value left changed starts
  a new game, of that difficulty;
- on the referee's verdict, B asks to take the decision back (B again does), as the
  button table says, instead of moving on like A.
"""

import json
import tempfile

from microrobots import palette as P
from microrobots.rules.board import COLOUR_NAMES
from tools.sim.script import Session


def guide_of(s):
    """The guide line the simulators show (tools/sim/driver.py, as make play and the page)."""
    from tools.sim import driver

    return driver.guide(s.app)


def name(layout, cell):
    return "%s %d" % (COLOUR_NAMES[layout.colour(cell)], layout.number(cell))


def pixels_after(s, t0):
    """The LED frames the driver reported since time ``t0``: [[r, g, b] * 36, ...]."""
    out = []
    for line in s.frames:
        msg = json.loads(line)
        if msg["t"] >= t0:
            out.append(msg["pixels"])
    return out


def not_a_move(s):
    """A cell on the robot's row or column that the robot cannot move to."""
    solo = s.app.current
    robot = solo.robot
    for cell in range(36):
        on_line = cell // 6 == robot // 6 or cell % 6 == robot % 6
        if on_line and cell != robot and not s.app.solver.is_move(robot, cell):
            return cell
    return None


def test_an_illegal_move_in_solo_flashes_red_and_the_guide_says_why():
    for seed in range(1, 40):  # a puzzle whose robot has a die on its lines it cannot reach
        s = Session(seed=seed)
        s.tap("a")
        s.settle()
        if not_a_move(s) is not None:
            break
    solo = s.app.current
    layout = s.app.layout
    robot = solo.robot
    bad = not_a_move(s)
    s.cursor_to(robot, bad)
    t0 = s.t
    s.tap("a")
    assert solo.robot == robot and solo.walk.count == 0  # refused
    reds = [f[bad] for f in pixels_after(s, t0)]
    refuse = P.REFUSE
    assert any(p[0] > 2 * max(p[1], p[2], 8) for p in reds), (reds[:6], refuse)
    text = guide_of(s)
    assert text.startswith("refused: %s " % name(layout, bad)), text
    assert name(layout, robot) in text and "colour or number" in text, text
    s.tap("left" if bad % 6 else "right")  # the next key: the guide goes on as before
    assert not guide_of(s).startswith("refused"), guide_of(s)


def settings_item(s, item):
    """From the menu into the settings, down to item ``item`` (settings._ITEMS)."""
    s.tap("down")
    s.tap("right")
    s.tap("a")
    assert s.app.mode == "settings"
    s.tap("down", item)


DIFFICULTY = 6  # settings._ITEMS.index("difficulty")


def solo_with_a_move(state):
    s = Session(seed=9, state=state)
    s.tap("a")
    s.settle()
    solo = s.app.current
    route = solo.game.route()
    s.move(route[0], route[1])
    return s, (solo.game.start, solo.game.target, solo.game.seed), route[1]


def back_to_solo(s):
    s.hold("b")  # to the menu (on the settings' quadrant)
    s.tap("up")
    s.tap("left")
    s.tap("a")
    assert s.app.mode == "solo"
    s.settle()
    return s.app.current


def test_browsing_the_difficulty_keeps_the_solo_game_in_progress():
    with tempfile.TemporaryDirectory() as state:
        s, game, robot = solo_with_a_move(state)
        s.hold("b")
        settings_item(s, DIFFICULTY)
        s.tap("right")  # 1
        assert s.app.settings["difficulty"] == 1
        s.tap("left")  # and back to "any"
        assert s.app.settings["difficulty"] == 0
        s.until_saved()
        solo = back_to_solo(s)
        assert (solo.game.start, solo.game.target, solo.game.seed) == game
        assert solo.robot == robot and solo.walk.count == 1
        s.until_saved()
        # and after a power cut too: the saved game was kept (the mode on show resumes)
        again = Session(seed=9, state=state)
        again.wait(1500)
        assert again.app.mode == "solo"
        kept = again.app.current
        assert (kept.game.start, kept.game.target, kept.game.seed) == game


def test_a_difficulty_left_changed_starts_a_new_solo_game_of_it():
    with tempfile.TemporaryDirectory() as state:
        s, game, _ = solo_with_a_move(state)
        s.hold("b")
        settings_item(s, DIFFICULTY)
        s.tap("right", 2)  # 2: left so
        solo = back_to_solo(s)
        assert (solo.game.start, solo.game.target, solo.game.seed) != game
        assert solo.game.difficulty == 2 and solo.walk.count == 0


def wrong_claim(s):
    s.tap("right")
    s.tap("a")
    s.settle()
    ref = s.app.current
    route = ref.game.route()
    s.claim(0, len(route), route[1:])  # one move more than the optimum: wrong
    return ref


def test_b_on_the_referees_verdict_asks_to_take_it_back_and_b_again_does():
    s = Session(seed=11)
    ref = wrong_claim(s)
    game = ref.game
    assert ref.screen in (ref.result, ref.why)  # RESULT or WHY: the verdict on show
    decided = game.decision_text()
    tokens = list(game.tokens)
    assert decided  # the claim was decided
    s.tap("b")
    assert ref.screen is ref.undo, ref.screen  # asked, nothing undone yet
    assert game.decision_text() == decided
    assert guide_of(s).startswith("undo the last decision? B: yes")
    s.tap("b")
    assert game.decision_text() != decided and ref.screen is ref.board  # undone: the board again
    assert list(game.tokens) != tokens or game.round == 1


def test_a_on_the_verdict_still_moves_on_and_b_then_any_key_keeps_the_decision():
    s = Session(seed=11)
    ref = wrong_claim(s)
    decided = ref.game.decision_text()
    s.tap("b")
    s.tap("a")  # any other key: no
    assert ref.game.decision_text() == decided and ref.screen in (ref.result, ref.why)
    s.tap("a")
    s.wait(400)
    assert ref.screen not in (ref.result, ref.undo, ref.why) and ref.game.decision_text() == decided
