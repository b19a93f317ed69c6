"""Replay a shared or saved Micro Robots game, round by round.

    python -m tools.replay MR1.3x.2026.black:CADB0312.b9ob3b-    # a share string
    python -m tools.replay --saved game.json                     # a saved game
    python -m tools.replay ... --json                            # one JSON object

Shows each round's start, target (and waypoint), the optimum, the decision and the
tokens after it, with the firmware's own game engine. Players are the letters a-h in
seating order, as in share strings. Bad input: exit code 2 and one line on stderr.
"""

import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))

from microrobots.game import OUTCOME_LETTERS, Game, GameStateError

PROG = "tools.replay"


class UsageError(Exception):
    """Bad input from the user: reported in one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def build_parser():
    p = _Parser(prog="python -m tools.replay", description=__doc__.split("\n")[0])
    p.add_argument("share", nargs="?", help="a share string, e.g. MR1.2.7.black:ABCD0000.a3o")
    p.add_argument("--saved", metavar="FILE",
                   help="a saved game (game.to_dict() as JSON, or the device's game.json)")
    p.add_argument("--json", action="store_true", help="one JSON object")
    return p


def load(args):
    """The finished replay's Game from a share string or a saved file."""
    if (args.share is None) == (args.saved is None):
        raise UsageError("give a share string or --saved FILE (one of them)")
    if args.share is not None:
        return Game.replay(args.share)
    try:
        with open(args.saved) as f:
            data = json.load(f)
    except OSError as e:
        raise UsageError("%s: cannot read (%s)" % (args.saved, e.strerror or e))
    except ValueError as e:
        raise UsageError("%s: not JSON (%s)" % (args.saved, e))
    if isinstance(data, dict) and "format" not in data and isinstance(data.get("game"), dict):
        data = data["game"]  # the device's game.json wraps the game with its mode
    try:
        return Game.from_dict(data)
    except GameStateError as e:
        raise UsageError("%s: %s" % (args.saved, e))


def player_name(p):
    return chr(ord("a") + p)


def rounds(final):
    """One dict per round, replaying ``final``'s decisions on a fresh game."""
    game = Game(final.layout, final.players, final.expert, final.seed, final.difficulty)
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
            game.apply("-")
        else:
            code = verdict.code
            r.update(player=player_name(player), claim=count, outcome=verdict.reason,
                     ok=verdict.ok, illegal_move=verdict.move or None, route=None)
            game.apply("%s%d%s%s" % (player_name(player), count, OUTCOME_LETTERS[code],
                                     verdict.move or ""))
        gave = [p for p in range(game.players) if game.tokens[p] > before[p]]
        r["penalty_to"] = (player_name(gave[0]) if player is not None and not verdict.ok
                           and gave else None)
        r["tokens"] = list(game.tokens)
        r["pool"] = game.pool
        out.append(r)
    return out


def describe(final, rows):
    mode = "%d player%s%s, seed %d, layout %s" % (
        final.players, "" if final.players == 1 else "s", ", expert" if final.expert else "",
        final.seed, final.layout.name or "custom")
    if final.difficulty:
        mode += ", difficulty %d" % final.difficulty
    lines = ["game: " + mode]
    for r in rows:
        where = "%s to %s" % (r["start"], r["target"])
        if r["waypoint"]:
            where += " via " + r["waypoint"]
        if r["player"] is None:
            what = "given up; a route: " + " ".join(r["route"])
        else:
            what = "%s claims %d: %s" % (r["player"], r["claim"], r["outcome"])
            if r["penalty_to"]:
                what += "; %s gives a token to %s" % (r["player"], r["penalty_to"])
        lines.append("round %d: %s, optimum %d - %s; tokens %s, pool %d" % (
            r["round"], where, r["optimum"], what, " ".join(map(str, r["tokens"])), r["pool"]))
    if final.over:
        lines.append("over: %s win%s" % (" and ".join(player_name(p) for p in final.winners),
                                         "s" if len(final.winners) == 1 else ""))
    else:
        tok = final.layout.token
        where = "%s to %s" % (tok(final.start), tok(final.target))
        if final.waypoint is not None:
            where += " via " + tok(final.waypoint)
        lines.append("round %d: %s, optimum %d - being played" % (final.round, where,
                                                                   final.optimum()))
    return "\n".join(lines)


def main(argv=None):
    try:
        args = build_parser().parse_args(argv)
        final = load(args)
    except (UsageError, GameStateError) as e:
        print("%s: %s" % (PROG, e), file=sys.stderr)
        return 2
    rows = rounds(final)
    if args.json:
        print(json.dumps({"share": final.share(), "rounds": rows, "over": final.over,
                          "winners": [player_name(p) for p in final.winners],
                          "state": final.to_dict()}))
    else:
        print(describe(final, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
