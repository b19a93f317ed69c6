"""Look for longer deals: a bounded hill climb from a long one.

    python -m tools.ricochet.longest --from 0BZGSDSM3EERY9 --cpu-seconds 600 --seed 1

Each try moves one robot to a random free cell (not the centre, not a target) and keeps
the new deal when its optimum (ricochet rule) is at least the current one's; a longer one
is printed at once (``longer: 23 moves, game ...``). Stops after ``--cpu-seconds`` of this
process's CPU time or ``--tries``. This is how the bench's hard deals were found; it finds
nothing for sure, and says what it tried.
"""

import random
import sys
import time

from tools import cli
from tools.ricochet import solver

from tools.ricochet.table import rr  # the rules module, imported in one place (table.py)


MAX_CPU_SECONDS = 7 * 24 * 3600
MAX_TRIES = 10 ** 9


def climb(game, cpu_seconds, tries, seed, out):
    faces, robots, target = rr.decode_game(game)
    board = rr.Board(faces)
    solver.load_kernel()
    best = solver.solve(board, robots, target).count
    print("start: %s moves, game %s" % (best, game), file=out, flush=True)
    rng = random.Random(seed)
    free = [c for c in range(rr.CELLS) if c not in rr.CENTRE and board.target_at(c) < 0]
    present = [w for w in range(rr.ROBOT_COUNT) if robots[w] != rr.ABSENT]
    started = time.process_time()
    done = kept = 0
    while done < tries and time.process_time() - started < cpu_seconds:
        done += 1
        trial = rr.new_robots(robots)
        trial[rng.choice(present)] = rng.choice([c for c in free if c not in trial])
        count = solver.solve(board, trial, target, max_moves=40).count
        if count is None or count < best:
            continue
        kept += 1
        if count > best:
            print("longer: %d moves, game %s" % (count, rr.encode_game(faces, trial, target)),
                  file=out, flush=True)
        robots, best = trial, count
    print("%d tries, %d kept, %.0f s of CPU; longest %d moves, game %s" % (
        done, kept, time.process_time() - started, best, rr.encode_game(faces, robots, target)),
        file=out)
    return best


def main(argv=None):
    parser = cli.Parser(prog="python -m tools.ricochet.longest", description=__doc__.split("\n")[0])
    parser.add_argument("--from", dest="game", required=True, help="a game ID to start from")
    parser.add_argument("--cpu-seconds", type=float, default=600, help="stop after this (600)")
    parser.add_argument("--tries", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    try:
        args = parser.parse_args(argv)
        if not 0 < args.cpu_seconds <= MAX_CPU_SECONDS:  # (nan is refused too)
            raise cli.UsageError("--cpu-seconds %s: give a time over 0 and at most %d (a week)"
                                 % (str(args.cpu_seconds)[:12], MAX_CPU_SECONDS))
        if not 1 <= args.tries <= MAX_TRIES:
            raise cli.UsageError("--tries %s: give 1-%d" % (str(args.tries)[:12], MAX_TRIES))
        climb(args.game, args.cpu_seconds, args.tries, args.seed, sys.stdout)
    except (cli.UsageError, rr.RicochetError) as e:
        return cli.fail("longest", e)
    return 0


if __name__ == "__main__":
    cli.run(main)
