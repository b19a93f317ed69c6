"""Replay a shared or saved Micro Robots game, round by round.

    python -m tools.replay MR2.3x.2026.black:CADB0312.b9ob3b-    # a share string
    python -m tools.replay --saved referee.json                  # a saved game
    python -m tools.replay ... --json                            # one JSON object

Shows each round's start, target (and waypoint), the optimum, the decision and the
tokens after it, with the firmware's own game engine. Players are the letters a-h in
seating order, as in share strings. Bad input: exit code 2 and one line on stderr.

``--saved`` reads every form the firmware writes: the device's ``solo.json`` and
``referee.json`` (``{"format": 1, "data": {"mode": ..., "game": {...}}}``, the store's
wrapper around the mode's save; solo adds the moves made in the round being played: its
last 100 positions as "trail", the count as "walked"; older saves wrote "moves"),
the older ``game.json`` of the same form, the mode's save alone, or ``game.to_dict()``.
"""

import json

from tools import cli, i18n
from tools.i18n import _, console, ngettext, usage
from tools.cli import UsageError

from microrobots.rules import notation

from microrobots.rules.decisions import OUTCOME_LETTERS
from microrobots.rules.game import GameStateError
from microrobots.device.store import FORMAT as STORE_FORMAT

PROG = "tools.replay"


def build_parser():
    """The command line, its help in the language installed."""
    p = cli.Parser(prog="python -m tools.replay",
                   description=_("Replay a shared or saved Micro Robots game, round by round."))
    p.add_argument("share", nargs="?", help=_("a share string, e.g. MR2.2.7.black:ABCD0000.a3o"))
    p.add_argument("--saved", metavar="FILE", help=_(
        "a saved game: the device's solo.json or referee.json, or game.to_dict() as JSON"))
    p.add_argument("--json", action="store_true", help=_("one JSON object"))
    i18n.add_lang_option(p)
    return p


def unwrap(data, path):
    """``(game dict, mode or None, solo moves or None)`` from any saved form (see above)."""
    if isinstance(data, dict) and data.get("format") == STORE_FORMAT and "data" in data:
        data = data["data"]  # the store's wrapper: every file on the device has it
    if not isinstance(data, dict) or "format" in data:
        return data, None, None  # game.to_dict() itself (from_dict names what is wrong)
    if "game" not in data:
        raise UsageError(_("%s: not a saved game (the device keeps its games in solo.json "
                           "and referee.json)") % path)
    mode = data.get("mode")
    trail = data.get("trail")
    moves = data.get("moves") if trail is None else trail
    if moves is not None and (not isinstance(moves, list) or not all(
            isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 36 for c in moves)):
        raise UsageError(_("%s: %s must be a list of cells 0..35")
                         % (path, "moves" if trail is None else "trail"))
    if trail is not None:  # the walk's last positions: from the start, or a longer walk's end
        walked = data.get("walked")
        if not isinstance(walked, int) or isinstance(walked, bool) or walked < len(trail) - 1 \
                or not trail:
            raise UsageError(_("%s: walked must count the trail's moves at least") % path)
        moves = trail[1:] if walked == len(trail) - 1 else [None] + trail  # None: not kept
    return data["game"], mode if isinstance(mode, str) else None, moves


def load(args):
    """``(game, mode, moves)``: the finished replay's Game from a share string or a saved
    file; for a device's save its mode and (solo) the moves made in the open round."""
    if (args.share is None) == (args.saved is None):
        raise UsageError(_("give a share string or --saved FILE (one of them)"))
    if args.share is not None:
        return notation.replay(args.share), None, None
    data, mode, moves = unwrap(cli.read_json(args.saved, "saved game"), args.saved)
    try:
        return notation.from_dict(data), mode, moves
    except GameStateError as e:
        raise UsageError("%s: %s" % (args.saved, e))


def player_name(p):
    return chr(ord("a") + p)


def rounds(final):
    """One dict per round, replaying ``final``'s kept decisions from its base (a fresh
    game unless a long game folded its oldest decisions, see docs/game.md)."""
    game = final.rewound()
    tok = final.layout.token
    out = []
    for player, count, verdict in final.decisions():
        r = {"round": game.round, "start": tok(game.start), "target": tok(game.target),
             "waypoint": None if game.waypoint is None else tok(game.waypoint),
             "optimum": game.optimum(), "notice": game.notice}
        before = list(game.tokens)
        if player is None:
            r.update(player=None, claim=None, outcome="given up", ok=None, illegal_move=None,
                     route=[tok(c) for c in game.route()])
            notation.apply(game, "-")
        else:
            code = verdict.code
            r.update(player=player_name(player), claim=count, outcome=verdict.reason,
                     ok=verdict.ok, illegal_move=verdict.move or None, route=None)
            notation.apply(game, "%s%d%s%s" % (player_name(player), count, OUTCOME_LETTERS[code],
                                     verdict.move or ""))
        gave = [p for p in range(game.players) if game.tokens[p] > before[p]]
        r["penalty_to"] = (player_name(gave[0]) if player is not None and not verdict.ok
                           and gave else None)
        r["tokens"] = list(game.tokens)
        r["pool"] = game.pool
        out.append(r)
    return out


def describe(final, rows, moves=None):
    """The game told round by round, in the language installed (tools.i18n)."""
    n = final.players
    mode = ngettext("%d player", "%d players", n) % n
    if final.expert:
        mode = _("%s, expert") % mode
    mode = _("%s, seed %d, layout %s") % (mode, final.seed, final.layout.name or _("custom"))
    if final.difficulty:
        mode = _("%s, difficulty %d") % (mode, final.difficulty)
    lines = [_("game: %s") % mode]
    for r in rows:
        if r["waypoint"]:
            where = _("%s to %s via %s") % (r["start"], r["target"], r["waypoint"])
        else:
            where = _("%s to %s") % (r["start"], r["target"])
        if r["player"] is None:
            what = _("given up; a route: %s") % " ".join(r["route"])
        else:
            what = _("%s claims %d: %s") % (r["player"], r["claim"],
                                            console.translate_line(r["outcome"]))
            if r["penalty_to"]:
                what = _("%s; %s gives a token to %s") % (what, r["player"], r["penalty_to"])
        lines.append(_("round %d: %s, optimum %d - %s; tokens %s, pool %d") % (
            r["round"], where, r["optimum"], what, " ".join(map(str, r["tokens"])), r["pool"]))
    if final.over:
        names = _(" and ").join(player_name(p) for p in final.winners)
        lines.append(ngettext("over: %s wins", "over: %s win", len(final.winners)) % names)
    else:
        tok = final.layout.token
        if final.waypoint is not None:
            where = _("%s to %s via %s") % (tok(final.start), tok(final.target),
                                             tok(final.waypoint))
        else:
            where = _("%s to %s") % (tok(final.start), tok(final.target))
        playing = _("being played")
        if moves:
            playing = _("being played; moves so far: %s") % " ".join(
                "..." if c is None else tok(c) for c in [final.start] + moves)
        lines.append(_("round %d: %s, optimum %d - %s") % (final.round, where, final.optimum(),
                                                            playing))
    return "\n".join(lines)


def main(argv=None):
    usage.install_from(argv, PROG)
    try:
        args = build_parser().parse_args(argv)
        final, mode, moves = load(args)
    except (UsageError, GameStateError) as e:
        return cli.fail(PROG, e)
    rows = rounds(final)
    if args.json:
        tok = final.layout.token
        print(json.dumps({"share": notation.share(final), "rounds": rows, "over": final.over,
                          "winners": [player_name(p) for p in final.winners],
                          "state": final.to_dict(), "mode": mode,
                          "moves": None if moves is None else [
                              None if c is None else tok(c) for c in moves]}))
    else:
        print(describe(final, rows, moves))
    return 0


if __name__ == "__main__":
    cli.run(main)
