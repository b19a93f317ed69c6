"""The firmware's console lines in the reader's language, translated where they are shown.

A Pico's console is English and stays so: the referee's verdicts and reasons are built
there with ``%`` from these very templates (modes/referee.py's ``say``, rules/solver.py's
``Verdict.reason``, handheld.py's errors), and translating them on the Pico would cost it
heap. The simulators show the line translated instead: each template below becomes a
pattern (``%d`` a number, ``%s`` any text, itself translated in turn), tried in this
order, most specific first; the terminal does it here, the page in tools/i18n/lang.js
(from the same list, shipped in catalogs.js). host_tests/tools/test_i18n.py plays a
correct and a wrong claim and checks every word of the lines comes out translated.
"""

from tools.i18n import N_, _

TEMPLATES = [
    N_("round %d: %s claims %d: %s; tokens %s, pool %d"),
    N_("round %d: given up; a route of %d move: %s"),
    N_("round %d: given up; a route of %d moves: %s"),
    N_("round %d: the last decision undone; tokens %s, pool %d"),
    N_("%s; %s gives a token to player %d"),
    N_("correct; %s takes a token"),
    N_("wrong: %d move shown for a claim of %d"),
    N_("wrong: %d moves shown for a claim of %d"),
    N_("wrong: %s (%s to %s)"),
    N_("wrong: %s (%s, not %s)"),
    N_("wrong: %s (%d)"),
    N_("wrong: %s (%s)"),
    N_("wrong: %s"),
    N_("player %d"),
    N_("move %d is not legal"),
    N_("a move is not legal"),
    N_("the number of moves differs from the claim"),
    N_("the robot does not end on the target"),
    N_("the robot did not visit the waypoint first"),
    N_("the claim is below the optimum"),
    N_("error: the app stopped (%s); release a button to restart it"),
    N_("notice: %s"),
    # the notices of a saved file set aside or reset (device/store.py, handheld.py, the
    # modes' resume, rules/notation.py's GameStateError), in the words the firmware says
    N_("%s: the app stopped with it again (%s); kept as %s"),
    N_("%s: the app stopped with it (%s); kept as %s"),
    N_("%s; kept as %s"),  # (app.py: a damaged file set aside, after its problem)
    N_("%s: cannot be read (%s); using defaults"),
    N_("%s: %s; using defaults"),
    N_("saved game: %s"),
    N_("not a solo game on this layout"),
    N_("not a refereed game on this layout"),
    N_("not a saved file of this device"),
    N_("not a saved file of this device (its data is null)"),
    N_("saved in format %s, this firmware reads %d"),
    N_("over %d KB: not a file of this device"),
    N_("a number out of range"),
    N_("cannot be read (%s)"),
    N_("a string over %d bytes"),
    N_("nested deeper than %d levels"),
    N_("not UTF-8 text (saved as UTF-16? save as UTF-8)"),
    N_("not UTF-8 text (byte 0x%02x at offset %d; saved as Latin-1? save as UTF-8)"),
    N_("not UTF-8 text (saved as Latin-1? save as UTF-8)"),
    N_("corrupt or cut short (not valid JSON)"),
    N_("not valid JSON at line %d column %d: %s"),
    N_("not valid JSON (%s)"),
    N_("over %d decisions"),
    N_("decision %d comes after the end of the game"),
    N_("decision %d: bad move count"),
    N_("decision %d: bad move count or outcome"),
    N_("decision %d: no waypoint this round"),
    N_("decision %d: %s"),
    N_("truncated, %s is missing"),
    N_("unknown field %s"),
    N_("%s must be an integer, not %s"),
    N_("expert must be true or false, not %s"),
    N_("not a Micro Robots game (format %s)"),
    N_("bad format version %s"),
    N_("format version %d is newer than this firmware reads (%d)"),
    N_("expected a JSON object, not %s"),
    N_("base: a field has the wrong type or sign"),
    N_("base: %s"),
]

# The most general, tried last wherever lines are said (after RICOCHET's too): two problems
# at once (app.py's _join), a file's or a field's name before its problem.
GENERAL = [N_("%s; %s"), N_("%s: %s")]


def _pattern(template):
    import re

    kinds = []

    def hole(m):
        kinds.append(m.group(1))
        return {"d": r"(-?\d+)", "x": "([0-9a-f]+)"}.get(m.group(1), "(.+?)")

    return re.compile("^" + re.sub(r"%(?:02)?([sdx])", hole, re.escape(template).replace(
        r"\%", "%")) + "$"), kinds


def translator(templates):
    """A function ``(line, tr=None)`` that says a line built with ``%`` from one of
    ``templates`` (``%d`` a number, ``%02x`` a byte, ``%s`` any text, itself translated
    in turn; tried in order, most specific first) in the language of ``tr`` (a
    gettext-like function; default: the installed one). A line no template matches is
    left as it is."""
    patterns = [(t,) + _pattern(t) for t in templates]

    def translate(line, tr=None, depth=0):
        tr = tr or _
        if depth > 4:
            return line
        whole = tr(line)
        if whole != line:
            return whole
        for template, pattern, kinds in patterns:
            m = pattern.match(line)
            if m is None:
                continue
            args = [translate(v, tr, depth + 1) if k == "s" else int(v, 16 if k == "x" else 10)
                    for v, k in zip(m.groups(), kinds)]
            return tr(template) % tuple(args)
        return line

    return translate


translate_line = translator(TEMPLATES + GENERAL)


# The Ricochet table's host (tools/ricochet: rules.py's Verdict.reason, table.py's
# demonstrate) says its reasons, robots and targets in English too; its page translates
# them the same way (tools/ricochet/web/table.js through lang.js).
RICOCHET = [
    N_("bid %s: show it move by move"),
    N_("%s reaches the %s in %s, over the bid of %d"),
    N_("%s made, the bid was %d: %s"),
    N_("%s; %s, it does not count"),
    N_("correct: %s"),
    N_("move %d is not legal: %s"),
    N_("the target is already reached after move %d: %s"),
    N_("%s without a ricochet: it never turned (ricochet rule)"),
    N_("the target is not reached: %s"),
    N_("no robot stops on the vortex at %s"),  # (before "%s stops on the %s", which it also fits)
    N_("the %s robot stops on the %s"),
    N_("%s stops on the %s"),
    N_("%s reaches the %s in %s"),
    N_("%s ends at %s, the %s is at %s"),
    N_("%s of %d"),
    N_("%d move"),
    N_("%d moves"),
    N_("the robot does not move"),
    N_("the clear robot cannot pass that many walls"),
    N_("only the clear robot passes walls"),
    N_("that robot is not on the board"),
    # the server's refusals (tools/ricochet: table.py's BadRequest, serve.py, workers.py;
    # rules.py's RicochetError inside them), which the page says as its status line
    N_("the request is nested deeper than %d levels"),
    N_("the request is not JSON (not UTF-8 at byte %d)"),
    N_("the request is not JSON (%s)"),
    N_("the request holds a text of %d characters (%s): at most %d"),
    N_("the request body must be 0-%d bytes"),
    N_("no such request: %s"),
    N_("the request must be a JSON object"),
    N_("%s is missing"),
    N_("robots: %s: %s is not a cell 0-255"),
    N_('robots: give {"red": cell, ...}'),
    N_("target: give its name or index 0-16"),
    N_("target: %d is not an index 0-16"),
    N_("ricochet: true or false"),
    N_("clear_stops_on_targets: true or false"),
    N_("max_moves: a whole number 1-%d"),
    N_("moves: a list of at most %d [robot, direction, passes]"),
    N_("moves: move %d: give [robot, direction, passes 0-15]"),
    N_("moves: move %d: direction must be N, E, S or W"),
    N_("moves: move %d: %s"),
    N_("bid: a whole number 1-%d"),
    N_("moves: the target was completed by move %d already"),
    N_("the search gave up after %d positions (the server's budget)"),
    N_("the %s solver has %d requests waiting already: try again in a moment"),
    N_("the search took over %s s without an answer (the server's budget)"),
    N_("the server is stopping"),
    N_("faces: %s"), N_("robots: %s"), N_("target: %s"),
    N_("faces %s: give four, for NW,NE,SE,SW, e.g. 1A,2B,3A,4B"),
    N_("unknown face %s (use 1A-4A or 1B-4B)"),
    N_("faces %s: board %s is used twice"),
    N_("faces %s: no %s target"),
    N_("unknown target %s (use e.g. \"red circle\" or vortex)"),
    N_("unknown robot %s (use red green blue yellow silver clear)"),
    N_("robot %s is placed twice"),
    N_("robot %s at %s is inside the central barrier"),
    N_("robot %s is missing"),
    N_("robot %s: %d is not a cell 0-255"),
    N_("robots %s and %s are both at %s"),
    N_("quick"), N_("long"),
    # the robots and the targets by name
    N_("red"), N_("green"), N_("blue"), N_("yellow"), N_("silver"), N_("clear"),
    N_("vortex"),
    N_("red circle"), N_("red triangle"), N_("red square"), N_("red hexagon"),
    N_("green circle"), N_("green triangle"), N_("green square"), N_("green hexagon"),
    N_("blue circle"), N_("blue triangle"), N_("blue square"), N_("blue hexagon"),
    N_("yellow circle"), N_("yellow triangle"), N_("yellow square"), N_("yellow hexagon"),
]
