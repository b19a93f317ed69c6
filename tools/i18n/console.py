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
]


def _pattern(template):
    import re

    kinds = []

    def hole(m):
        kinds.append(m.group(1))
        return r"(-?\d+)" if m.group(1) == "d" else "(.+?)"

    return re.compile("^" + re.sub(r"%([sd])", hole, re.escape(template).replace(
        r"\%", "%")) + "$"), kinds


_PATTERNS = [(t,) + _pattern(t) for t in TEMPLATES]


def translate_line(line, tr=None, depth=0):
    """``line`` (a console line) in the language of ``tr`` (a gettext-like function;
    default: the installed one). A line no template matches is left as it is."""
    tr = tr or _
    if depth > 4:
        return line
    whole = tr(line)
    if whole != line:
        return whole
    for template, pattern, kinds in _PATTERNS:
        m = pattern.match(line)
        if m is None:
            continue
        args = [translate_line(v, tr, depth + 1) if k == "s" else int(v)
                for v, k in zip(m.groups(), kinds)]
        return tr(template) % tuple(args)
    return line


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
    N_("the %s robot stops on the %s"),
    N_("%s stops on the %s"),
    N_("%s reaches the %s in %s"),
    N_("no robot stops on the vortex at %s"),
    N_("%s ends at %s, the %s is at %s"),
    N_("%s of %d"),
    N_("%d move"),
    N_("%d moves"),
    N_("the robot does not move"),
    N_("the clear robot cannot pass that many walls"),
    N_("only the clear robot passes walls"),
    N_("that robot is not on the board"),
    # the robots and the targets by name
    N_("red"), N_("green"), N_("blue"), N_("yellow"), N_("silver"), N_("clear"),
    N_("vortex"),
    N_("red circle"), N_("red triangle"), N_("red square"), N_("red hexagon"),
    N_("green circle"), N_("green triangle"), N_("green square"), N_("green hexagon"),
    N_("blue circle"), N_("blue triangle"), N_("blue square"), N_("blue hexagon"),
    N_("yellow circle"), N_("yellow triangle"), N_("yellow square"), N_("yellow hexagon"),
    N_("%s: %s"),
]
