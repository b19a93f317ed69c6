"""The pieces in play, named: "robot on white 2, target pink 4" (the simulators' guide line).

On the grid the robot, the target, the waypoint and the cursor differ only by how they
blink and pulse, which a still frame, a screenshot or a player who cannot see the
pulsing does not show. The terminal and the web page put this line after the
mode's guide (tools/sim/driver.py, tools/sim/web/page.py). The device itself never
imports this module: it has no text to show.

``line(app)``: "" in a mode with no game in play (the menu, the settings) and while the
dice roll (the pieces are not placed yet).
"""

from ..i18n import _
from ..rules.board import COLOUR_NAMES


def die(layout, cell):
    """A die by its colour and number: "white 2" (in the reader's language: the colour
    words are guide.COLOURS, marked for the catalogues)."""
    return "%s %d" % (_(COLOUR_NAMES[layout.colour(cell)]), layout.number(cell))


def line(app):
    """The pieces of the mode on show, named; "" when none are in play."""
    mode = getattr(app, "current", None)
    if mode is None or getattr(app, "switching", False) or app.mode not in (
            "solo", "referee", "classroom"):
        return ""
    game = getattr(mode, "game", None)
    screen = mode.screen
    if game is None or not screen.placed:  # (the dice, or a lesson's puzzles caught up)
        return ""
    layout = app.layout
    if app.mode == "referee" and screen is not mode.demo:
        robot = game.start  # at the table the robot leaves the start only to demonstrate
    else:
        robot = getattr(mode, "robot", game.start)  # solo: where the robot stands now
    parts = [_("robot on %s") % die(layout, robot), _("target %s") % die(layout, game.target)]
    waypoint = game.waypoint
    walk = getattr(mode, "walk", None)
    if waypoint is not None and not (walk is not None and walk.seen):
        parts.append(_("waypoint %s") % die(layout, waypoint))
    cursor = getattr(mode, "cursor", robot)
    if app.mode == "solo" and cursor != robot:
        parts.append(_("cursor on %s") % die(layout, cursor))
    return ", ".join(parts)


def with_guide(app, guide):
    """``guide`` (the mode's words) with the pieces after it: "guide · robot on ...".
    (After: a terminal too short for the whole line cuts the names, not what to do.)"""
    named = line(app)
    if named and guide:
        return guide + " · " + named
    return named or guide
