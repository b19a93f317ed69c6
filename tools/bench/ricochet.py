"""make bench: the Ricochet Robots solver on a fixed set of deals, beside the anchor figures.

Each deal is a game ID (``python -m tools.ricochet render --game ID`` shows it); they came
from ``python -m tools.ricochet random --seed N [--clear]`` and were picked for the length
of their optimal solution, from 2 moves up. The anchor is Michael Fogleman's Ricochet model,
the best known pure-Python solver, as quoted in issue 7 for this machine class: 0-1.3 s for
deals of 2-9 moves and 57 s to search to depth 15 on a hard deal. It has no transparent robot.
"""

import sys

from tools.ricochet.solver import solve

from microrobots import ricochet as rr

# (game ID, seed it came from): four robots, then with the transparent robot.
# 2634*: the four-robot deal of seed 2634 with the transparent robot put on (0,15).
PLAIN = [
    ("1E229HEKP06HDC", 204), ("0ZQ0NA4S0T61MC", 1336), ("12X3J800T8JBNN", 939),
    ("0YX6NSY77XD34J", 1009), ("11FX5KGWN2D3PM", 1024), ("15729XQZ1K9TX5", 325),
    ("0F8JMYHTS10HC3", 246), ("0XS0GJRY231A47", 1250), ("00F7CN8GQR25KW", 1377),
    ("16VNYVZ9Z6G54W", 917), ("0M8DWM9833M7H1", 475), ("06D2GWSDR671DY", 1105),
    ("10KA7TEDT9EZ9R", 838), ("1HQDVP4BHS4PJJ", 780), ("149RMBJ35S7KA1", 2455),
    ("1BJAWHC584RR8F", 2634),
]
CLEAR = [
    ("0PESEYXGQZRK65", 572), ("10GNECX83KNHDK", 918), ("02SX7FVCPAP1F1", 1099),
    ("0B7P6ZBDXVGFEG", 25), ("0YX6NSY77XCVNV", 1009), ("0R34V0DN97SBPB", 1454),
    ("0S5DAJ75TA0TPC", 1256), ("06QRY0WR4XDB8E", 146), ("01BD7RMFFJW5FH", 130),
    ("05T7BZM3FZ8NQF", 528), ("1DPSHS7G5NHMRV", 1115), ("075AAMJ2HTBKSF", 188),
    ("1BJAWHC584RQRY", "2634*"),
]
# a hard deal (17 moves, four robots): how long to search every solution up to 15 moves,
# the anchor's 57 s, and then to find the optimum
DEEP = ("0BZHQD9MQM5YVC", 2970)
DEEP_DEPTH = 15
DEEP_LIMIT = 17


def anchor(count):
    if count is None:
        return ""
    return "0-1.3 s" if count <= 9 else "-"


def run(game):
    faces, robots, target = rr.decode_game(game)
    return solve(rr.Board(faces), robots, target), target, robots


def report(out=None):
    out = out or sys.stdout
    print("Ricochet Robots solver (tools/ricochet_solver.py, pure Python IDA*)", file=out)
    print("anchor: M. Fogleman's pure-Python Ricochet, 0-1.3 s for 2-9 moves, 57 s to depth 15",
          file=out)
    for title, deals in (("four robots", PLAIN), ("with the transparent robot", CLEAR)):
        print("\n  %s" % title, file=out)
        print("  %-16s %5s %-16s %6s %10s %9s %9s" % (
            "game", "seed", "target", "moves", "positions", "seconds", "anchor"), file=out)
        total = 0.0
        for game, seed in deals:
            result, target, robots = run(game)
            total += result.seconds
            passes = sum(k for _, _, k in result.moves)
            print("  %-16s %5s %-16s %6s %10d %9.3f %9s%s" % (
                game, seed, rr.target_name(target), result.count, result.nodes, result.seconds,
                anchor(result.count),
                "  (%d pass%s)" % (passes, "es" if passes > 1 else "") if passes else ""), file=out)
            out.flush()
        print("  total %.1f s" % total, file=out)
    game, seed = DEEP
    faces, robots, target = rr.decode_game(game)
    result = solve(rr.Board(faces), robots, target, max_moves=DEEP_LIMIT)
    print("\n  hard deal %s (seed %d, %s, four robots)" % (game, seed, rr.target_name(target)),
          file=out)
    for bound, nodes, seconds in result.depths:
        if bound < 10:
            continue
        print("    no solution in %2d moves: %9d positions, %6.1f s so far%s" % (
            bound, nodes, seconds, "   (anchor: 57 s)" if bound == DEEP_DEPTH else ""), file=out)
    if result.count is not None:
        print("    optimum %d moves: %d positions in all, %.1f s" % (
            result.count, result.nodes, result.seconds), file=out)
    else:
        print("    no solution within %d moves (%.1f s)" % (DEEP_LIMIT, result.seconds), file=out)


if __name__ == "__main__":
    report()
