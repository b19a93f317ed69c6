"""The line that names the pieces in play (modes/pieces.py), as the terminal and the web
page show it after the mode's guide (issue 37): the robot, the target, the waypoint until
it is visited, solo's cursor when it is away from the robot; nothing in the menu, in the
settings or while the dice roll."""


from microrobots.modes import pieces
from microrobots.rules.board import COLOUR_NAMES
from tools.sim.script import Session


def named(s, cell):
    layout = s.app.layout
    return "%s %d" % (COLOUR_NAMES[layout.colour(cell)], layout.number(cell))


def to_quadrant(s, name):
    q = ("solo", "referee", "classroom", "settings").index(name)
    c = s.app.current.choice
    if (c ^ q) & 1:
        s.tap("right")
    if (c ^ q) & 2:
        s.tap("down")
    s.tap("a")
    assert s.app.mode == name


def test_solo_names_the_robot_the_target_and_the_cursor_away_from_the_robot(tmp_path):
    s = Session(seed=5, state=str(tmp_path))
    s.wait(100)
    assert pieces.line(s.app) == ""  # the menu
    assert pieces.with_guide(s.app, "choose a mode") == "choose a mode"
    to_quadrant(s, "solo")
    assert s.app.current.screen is s.app.current.rolling  # the dice rolling
    assert pieces.line(s.app) == ""
    s.settle()
    solo = s.app.current
    g = solo.game
    want = "robot on %s, target %s" % (named(s, g.start), named(s, g.target))
    assert pieces.line(s.app) == want
    assert pieces.with_guide(s.app, "move") == "move · " + want
    assert pieces.with_guide(s.app, None) == want
    route = g.route()
    s.cursor_to(route[0], route[1])
    assert pieces.line(s.app) == want + ", cursor on %s" % named(s, route[1])
    s.tap("a")
    s.wait(800)
    assert pieces.line(s.app) == "robot on %s, target %s" % (named(s, route[1]),
                                                           named(s, g.target))


def test_the_waypoint_is_named_until_the_robot_has_visited_it(tmp_path):
    s = Session(seed=5, state=str(tmp_path))
    s.wait(100)
    to_quadrant(s, "settings")
    s.tap("down", 4)  # expert
    s.tap("right")
    assert s.app.settings["expert"] is True
    s.tap("b")
    s.wait(300)
    assert pieces.line(s.app) == ""  # the settings, then the menu: no pieces
    to_quadrant(s, "solo")
    s.settle()
    g = s.app.current.game
    assert g.waypoint is not None
    base = "robot on %s, target %s" % (named(s, g.start), named(s, g.target))
    assert pieces.line(s.app) == base + ", waypoint %s" % named(s, g.waypoint)
    route = g.route()
    robot = route[0]
    for cell in route[1:]:
        assert "waypoint" in pieces.line(s.app)
        s.move(robot, cell)
        s.wait(800)
        robot = cell
        if cell == g.waypoint:
            break
    line = pieces.line(s.app)
    assert "waypoint" not in line and line.startswith("robot on %s" % named(s, g.waypoint))


def test_the_classroom_names_its_robot_and_target(tmp_path):
    s = Session(seed=5, state=str(tmp_path))
    s.wait(100)
    to_quadrant(s, "classroom")
    assert pieces.line(s.app) == ""  # the dice rolling
    s.settle()
    s.wait(100)
    g = s.app.current.game
    assert pieces.line(s.app) == "robot on %s, target %s" % (named(s, g.start),
                                                           named(s, g.target))


def test_the_referee_names_the_start_while_the_table_searches(tmp_path):
    s = Session(seed=5, state=str(tmp_path))
    s.wait(100)
    to_quadrant(s, "referee")
    s.settle()
    g = s.app.current.game
    s.wait(100)
    assert pieces.line(s.app) == "robot on %s, target %s" % (named(s, g.start),
                                                           named(s, g.target))
