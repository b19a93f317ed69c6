"""Board analysis: how hard is each side of the game, over every arrangement?

    python -m tools.boards analyse [--json] [--side black|copper]

For every arrangement of the four boards (4! orders x 4^4 turns = 6144 per side) it
counts the ordered (start, target) pairs with start != target by their optimal distance,
the unreachable pairs, the longest and the mean optimal distance.

Fast because of two facts:
- turning the whole 6x6 board a quarter turn gives another arrangement (every tile moves
  one quadrant clockwise and turns once), with the same distances. Each such orbit has
  exactly one member with board A in the top-left quadrant: analyse those 1536 and
  count each four times;
- a breadth-first search on 36 cells is a handful of integer OR operations on bitsets.
"""

import itertools
import json

from tools import cli

from microrobots.rules.board import SIDES, Layout


def neighbour_masks(colours, numbers):
    """One 36-bit mask per cell: the cells one move away."""
    by_row_colour = {}
    by_row_number = {}
    by_col_colour = {}
    by_col_number = {}
    for i in range(36):
        r, c = divmod(i, 6)
        bit = 1 << i
        for table, key in ((by_row_colour, (r, colours[i])), (by_row_number, (r, numbers[i])),
                           (by_col_colour, (c, colours[i])), (by_col_number, (c, numbers[i]))):
            table[key] = table.get(key, 0) | bit
    masks = []
    for i in range(36):
        r, c = divmod(i, 6)
        m = (by_row_colour[r, colours[i]] | by_row_number[r, numbers[i]]
             | by_col_colour[c, colours[i]] | by_col_number[c, numbers[i]])
        masks.append(m & ~(1 << i))
    return masks


def all_pairs(masks, histogram):
    """Add every ordered pair's distance to ``histogram`` (a list indexed by distance);
    return the number of unreachable ordered pairs."""
    unreachable = 0
    for s in range(36):
        seen = frontier = 1 << s
        d = 0
        while frontier:
            d += 1
            nxt = 0
            f = frontier
            while f:
                low = f & -f
                nxt |= masks[low.bit_length() - 1]
                f ^= low
            nxt &= ~seen
            if nxt:
                histogram[d] += nxt.bit_count()
                seen |= nxt
            frontier = nxt
        unreachable += 36 - seen.bit_count()
    return unreachable


def representatives():
    """Arrangement codes with board A top-left: one per whole-board rotation orbit."""
    for rest in itertools.permutations("BCD"):
        for turns in itertools.product("0123", repeat=4):
            yield "A" + "".join(rest) + "".join(turns)


def analyse_side(side):
    """Statistics of one side over all 6144 arrangements."""
    histogram = [0] * 37
    unreachable = 0
    for code in representatives():
        layout = Layout.from_tiles(side, code)
        unreachable += all_pairs(neighbour_masks(layout.colours, layout.numbers), histogram)
    histogram = [h * 4 for h in histogram]  # each orbit has four arrangements
    pairs = sum(histogram)
    longest = max(d for d in range(37) if histogram[d]) if pairs else 0
    return {
        "arrangements": 6144,
        "unreachable": unreachable * 4,
        "longest": longest,
        "mean": round(sum(d * h for d, h in enumerate(histogram)) / pairs, 4) if pairs else None,
        "histogram": {str(d): h for d, h in enumerate(histogram) if h},
    }


def analyse_naive(side):
    """The straightforward reference: every arrangement, the firmware solver, 36 BFS each.
    Used by the tests (on a sample) and by make bench for comparison."""
    from microrobots.rules.solver import UNREACHABLE, Solver
    histogram = [0] * 37
    unreachable = 0
    for order in itertools.permutations("ABCD"):
        for turns in itertools.product("0123", repeat=4):
            solver = Solver(Layout.from_tiles(side, "".join(order) + "".join(turns)))
            for s in range(36):
                dist = solver.distances(s)
                for t in range(36):
                    if t != s:
                        if dist[t] == UNREACHABLE:
                            unreachable += 1
                        else:
                            histogram[dist[t]] += 1
    return histogram, unreachable


def print_text(results):
    for side, r in results.items():
        print("%s side: %d arrangements, %d unreachable ordered pairs, longest optimal route "
              "%s, mean %.2f" % (side, r["arrangements"], r["unreachable"],
                                 cli.plural(r["longest"], "move"), r["mean"]))
        total = sum(r["histogram"].values())
        for d, n in r["histogram"].items():
            bar = "#" * round(60 * n / total)
            print("  %2s %-5s %9d  %5.2f%%  %s" % (d, "move" if d == "1" else "moves", n,
                                                  100 * n / total, bar))


def main(argv=None):
    parser = cli.Parser(prog="python -m tools.boards", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True, parser_class=cli.Parser)
    an = sub.add_parser("analyse", help="distance statistics over every arrangement")
    an.add_argument("--json", action="store_true", help="one JSON object")
    an.add_argument("--side", choices=SIDES, help="only this side")
    try:
        args = parser.parse_args(argv)
    except cli.UsageError as e:
        return cli.fail("boards", e)
    sides = [args.side] if args.side else list(SIDES)
    results = {side: analyse_side(side) for side in sides}
    if args.json:
        print(json.dumps(results))
    else:
        print_text(results)
    return 0


if __name__ == "__main__":
    cli.run(main)
