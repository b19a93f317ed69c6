"""The command's quick path: ``python -m tools.ricochet solve --game ID --json``, the one a
program calls for each deal, answered without argparse, json or the regular-expression
module they import (some 40 million instructions of a fresh process's 130 million, three
times what the search of a 10-move deal costs). Anything else, or anything unusual here
(a mistyped game ID, no solution within the default 30 moves, output that cannot be
written), goes to the full command (cli.py), which answers it as it always has: the quick
path prints exactly what cli.py prints or nothing at all.
"""

import sys

from tools.ricochet import rules as rr


def solution_text(result):
    """cli.solution_json(result) as json.dumps writes it (the names are plain ASCII)."""
    moves = ", ".join('{"robot": "%s", "dir": "%s", "passes": %d}'
                      % (rr.ROBOT_NAMES[w], rr.DIRECTIONS[d], k) for w, d, k in result.moves)
    return '{"moves": %d, "ricochet_rule": %s, "solution": [%s]}' % (
        result.count, "true" if result.ricochet else "false", moves)


def answer(argv):
    """The output for ``argv`` when it is ``solve --game ID --json`` (in that order) and the
    deal has a solution; None for anything else (then cli.py answers)."""
    if len(argv) != 4 or argv[0] != "solve" or argv[1] != "--game" or argv[3] != "--json":
        return None
    try:
        faces, robots, target = rr.decode_game(argv[2])
    except rr.RicochetError:
        return None  # cli.py says what is wrong with it
    from tools.ricochet.solver import solve
    result = solve(rr.Board(faces), robots, target)
    if result.count is None:
        return None
    return solution_text(result) + "\n"


def run():
    """Answers the command line here when it can (exit status 0); else cli.py does."""
    try:
        text = answer(sys.argv[1:])
        if text is not None:
            sys.stdout.write(text)
            sys.stdout.flush()
            return 0
    except KeyboardInterrupt:
        return 130
    except OSError:
        pass  # a closed or full output: cli.py's run reports it as it does
    return None
