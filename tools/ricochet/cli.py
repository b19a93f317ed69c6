"""Ricochet Robots with the transparent robot: solve, check, render and deal.

    python -m tools.ricochet random --seed 25 --clear
    python -m tools.ricochet solve --faces 1A,4A,3B,2B --target vortex \\
        --robots red=10,9 green=2,3 blue=11,13 yellow=2,15 clear=12,15
    python -m tools.ricochet check --game 1DX0JCNHVN6XY7 --moves "clear N, clear W+1, clear E"
    python -m tools.ricochet render --game 0B7P6ZBDXVGFEG --svg deal.svg
    python -m tools.ricochet serve [--port 8026] [--open]   # the table page (serve.py)

A deal is given either as ``--faces``/``--robots``/``--target`` or as ``--game ID`` (the
short ID ``random`` prints). Faces are for the NW, NE, SE, SW quadrants; x is the column
0-15 from the west, y the row 0-15 from the north. ``--json`` prints machine-readable output:

- solve: ``{"moves": N, "ricochet_rule": true, "solution": [{"robot": "red", "dir": "N",
  "passes": 0}, ...]}``
- check: ``{"ok": true, "moves": N, "reason": "...", "ricochet_rule": true}`` (always JSON)
- random: ``{"game": ID, "faces": ..., "robots": ..., "target": ..., "optimum": N,
  "ricochet_rule": true}``

The ricochet rule (the robot that completes the target must have turned at least once on
its way) is on in solve, check and random; ``--no-ricochet-rule`` drops it, to compare with
solvers that ignore it. Every output says which.

The transparent robot never ends a move on a coloured target (the rulebook: "the only
target space on which it can land is the colored vortex"); ``--clear-may-stop-on-targets``
plays the other reading, where it may stop there to no effect.

Exit codes: 0 success (solved, claim correct); 1 no solution within --max-moves, or a claim
that does not reach the target; 2 bad input, with one line naming the problem.
"""

import argparse
import json
import os
import sys

from tools import cli
from tools.cli import UsageError
from tools.ricochet.solver import solve

from tools.ricochet import rules as rr

ROBOT_LETTERS = "RGBYSC"


# -- deals ----------------------------------------------------------------------------------
class XorShift32:
    """Marsaglia's xorshift32: the same numbers on every Python, forever."""

    def __init__(self, seed):
        x = (int(seed) * 2654435761 + 0x9E3779B9) & 0xFFFFFFFF
        self.state = x or 1
        for _ in range(8):
            self.next()

    def next(self):
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return x

    def below(self, n):
        return self.next() % n


def deal(seed, silver=False, clear=False):
    """A reproducible deal: (faces, robots, target). Robots never start on a target."""
    rng = XorShift32(seed)
    boards = ["1", "2", "3", "4"]
    for i in range(3, 0, -1):
        j = rng.below(i + 1)
        boards[i], boards[j] = boards[j], boards[i]
    faces = tuple(b + "AB"[rng.below(2)] for b in boards)
    board = rr.Board(faces)
    target = rng.below(rr.TARGET_COUNT)
    free = [c for c in range(rr.CELLS) if c not in rr.CENTRE and c not in board.targets]
    robots = rr.new_robots()
    wanted = [0, 1, 2, 3] + ([rr.SILVER] if silver else []) + ([rr.CLEAR] if clear else [])
    for who in wanted:
        robots[who] = free.pop(rng.below(len(free)))
    return faces, robots, target


def load_deal(args):
    """(Board, robots, target) from --game or --faces/--robots/--target."""
    parts = (args.faces, args.robots, args.target)
    if args.game:
        if any(parts):
            raise rr.RicochetError("give --game or --faces/--robots/--target, not both")
        faces, robots, target = rr.decode_game(args.game)
    else:
        for value, flag in zip(parts, ("--faces", "--robots", "--target")):
            if not value:
                raise rr.RicochetError("%s is missing (or give --game ID)" % flag)
        faces = rr.parse_faces(args.faces)
        robots = rr.parse_robots(" ".join(args.robots))
        target = rr.parse_target(" ".join(args.target))
    return rr.Board(faces), robots, target


# -- output ---------------------------------------------------------------------------------
def rule_name(ricochet):
    return "ricochet rule" if ricochet else "no ricochet rule"


def solution_json(result):
    return {"moves": result.count, "ricochet_rule": result.ricochet,
            "solution": [{"robot": rr.ROBOT_NAMES[w], "dir": rr.DIRECTIONS[d], "passes": k}
                         for w, d, k in result.moves]}


def describe_deal(board, robots, target):
    return "faces %s; robots %s; target %s at %s; game %s" % (
        ",".join(board.faces), rr.format_robots(robots), rr.target_name(target),
        rr.cell_name(board.targets[target]), rr.encode_game(board.faces, robots, target))


def render_text(board, robots, target):
    """The board as text: walls, robots (R G B Y S C), the deal's target (*),
    the other targets (o) and the central barrier (#)."""
    walls = board.walls
    goal = board.targets[target]
    lines = ["    " + "".join("%-4d" % x for x in range(rr.SIZE)).rstrip()]
    for y in range(rr.SIZE):
        top = "   +"
        row = "%2d |" % y
        for x in range(rr.SIZE):
            c = y * rr.SIZE + x
            top += ("---" if walls[c] & 1 else "   ") + _corner(walls, x, y)
            who = -1
            for w in range(rr.ROBOT_COUNT):
                if robots[w] == c:
                    who = w
            mark = " "
            if c == goal:
                mark = "*"
            elif board.target_at(c) >= 0:
                mark = "o"
            if c in rr.CENTRE:
                body = "###"
            elif who >= 0:
                body = (mark if mark == "*" else " ") + ROBOT_LETTERS[who] + " "
            else:
                body = " %s " % mark
            row += body + ("|" if walls[c] & 2 else " ")
        lines.append(top)
        lines.append(row)
    lines.append("   +" + "---+" * rr.SIZE)
    return "\n".join(lines)


def _corner(walls, x, y):
    """The character at the north-east corner of cell (x, y): + where walls meet it."""
    c = y * rr.SIZE + x
    touching = walls[c] & 3  # its own north and east walls
    if x + 1 < rr.SIZE:
        touching |= walls[c + 1] & 1  # the north wall of the cell to the east
    if y > 0:
        touching |= walls[c - rr.SIZE] & 2  # the east wall of the cell to the north
    return "+" if touching or x == rr.SIZE - 1 or y == 0 else "."


SVG_COLOURS = {"red": "#d62828", "green": "#2a9d3f", "blue": "#1d4ed8", "yellow": "#e9b200",
               "silver": "#9ca3af", "clear": "#e5f3ff"}


def render_svg(board, robots, target, unit=32):
    """The board as an SVG document (a string)."""
    size = unit * rr.SIZE
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="-4 -4 %d %d">'
           % (size + 8, size + 8, size + 8, size + 8),
           '<rect x="0" y="0" width="%d" height="%d" fill="#f7f3e8" stroke="#ccc"/>' % (size, size)]
    for i in range(1, rr.SIZE):
        out.append('<line x1="%d" y1="0" x2="%d" y2="%d" stroke="#ddd"/>' % (i * unit, i * unit, size))
        out.append('<line x1="0" y1="%d" x2="%d" y2="%d" stroke="#ddd"/>' % (i * unit, size, i * unit))
    half = unit // 2
    for t in range(rr.TARGET_COUNT):
        x, y = rr.xy(board.targets[t])
        cx, cy = x * unit + half, y * unit + half
        r = unit * 0.28
        colour = "url(#vortex)" if t == rr.VORTEX else SVG_COLOURS[rr.COLOURS[t >> 2]]
        shape = "vortex" if t == rr.VORTEX else rr.SHAPES[t & 3]
        if t == target:
            out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="black" '
                       'stroke-width="3"/>' % (x * unit + 2, y * unit + 2, unit - 4, unit - 4))
        if shape == "circle":
            out.append('<circle cx="%d" cy="%d" r="%.1f" fill="%s"/>' % (cx, cy, r, colour))
        elif shape == "square":
            out.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>'
                       % (cx - r, cy - r, 2 * r, 2 * r, colour))
        else:
            corners = {"triangle": 3, "hexagon": 6, "vortex": 8}[shape]
            pts = _polygon(cx, cy, r * 1.15, corners)
            fill = colour if shape != "vortex" else "#b05cd6"
            out.append('<polygon points="%s" fill="%s"/>' % (pts, fill))
    for c in rr.CENTRE:
        x, y = rr.xy(c)
        out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="#555"/>'
                   % (x * unit, y * unit, unit, unit))
    walls = board.walls
    for c in range(rr.CELLS):
        x, y = rr.xy(c)
        x0, y0, x1, y1 = x * unit, y * unit, (x + 1) * unit, (y + 1) * unit
        for d, (ax, ay, bx, by) in enumerate(((x0, y0, x1, y0), (x1, y0, x1, y1),
                                              (x0, y1, x1, y1), (x0, y0, x0, y1))):
            if walls[c] & (1 << d):
                out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#222" stroke-width="4" '
                           'stroke-linecap="square"/>' % (ax, ay, bx, by))
    for w in range(rr.ROBOT_COUNT):
        if robots[w] == rr.ABSENT:
            continue
        x, y = rr.xy(robots[w])
        out.append('<circle cx="%d" cy="%d" r="%.1f" fill="%s" stroke="#111" stroke-width="2" '
                   'fill-opacity="%s"><title>%s</title></circle>'
                   % (x * unit + half, y * unit + half, unit * 0.38, SVG_COLOURS[rr.ROBOT_NAMES[w]],
                      "0.55" if w == rr.CLEAR else "1", rr.ROBOT_NAMES[w]))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _polygon(cx, cy, r, corners):
    import math
    return " ".join("%.1f,%.1f" % (cx + r * math.sin(2 * math.pi * i / corners),
                                   cy - r * math.cos(2 * math.pi * i / corners))
                    for i in range(corners))


# -- commands ---------------------------------------------------------------------------------
def cmd_solve(args, out):
    board, robots, target = load_deal(args)
    result = solve(board, robots, target, max_moves=args.max_moves, ricochet=args.ricochet,
                   clear_stops_on_targets=args.clear_stops_on_targets)
    if args.json:
        print(json.dumps(solution_json(result)), file=out)
        return 0 if result.count is not None else 1
    if result.count is None:
        print("no solution within %s, %s (%d positions searched)"
              % (rr.plural(args.max_moves, "move"), rule_name(args.ricochet), result.nodes),
              file=out)
        return 1
    print("%s: %s, %s (%d positions searched in %.2f s)"
          % (rr.target_name(target), rr.plural(result.count, "move"), rule_name(args.ricochet),
             result.nodes,
             result.seconds), file=out)
    pos = rr.new_robots(robots)
    for n, (w, d, k) in enumerate(result.moves, 1):
        pos[w] = board.slide(pos, w, d, k, args.clear_stops_on_targets)
        print("%3d. %-10s -> %s" % (n, rr.format_move(w, d, k), rr.cell_name(pos[w])), file=out)
    return 0


def cmd_check(args, out):
    board, robots, target = load_deal(args)
    moves = rr.parse_moves(args.moves)
    if not moves:
        raise rr.RicochetError("--moves: no moves given")
    verdict = rr.check(board, robots, target, moves, ricochet=args.ricochet,
                       clear_stops_on_targets=args.clear_stops_on_targets)
    if verdict.code == rr.ILLEGAL_MOVE:
        raise rr.RicochetError("--moves: " + verdict.reason)
    print(json.dumps({"ok": verdict.ok, "moves": verdict.moves, "reason": verdict.reason,
                      "ricochet_rule": args.ricochet}), file=out)
    return 0 if verdict.ok else 1


def cmd_render(args, out):
    board, robots, target = load_deal(args)
    if args.svg:  # first, so that a bad path fails before any output
        try:
            cli.write_atomically(args.svg, render_svg(board, robots, target))
        except OSError as e:
            raise rr.RicochetError("--svg %s: %s" % (args.svg, e.strerror))
    print(render_text(board, robots, target), file=out)
    print(describe_deal(board, robots, target), file=out)
    return 0


def cmd_random(args, out):
    faces, robots, target = deal(args.seed, silver=args.silver, clear=args.clear)
    game = rr.encode_game(faces, robots, target)
    best = solve(rr.Board(faces), robots, target, ricochet=args.ricochet,
                 clear_stops_on_targets=args.clear_stops_on_targets).count
    if args.json:
        print(json.dumps({"game": game, "faces": ",".join(faces),
                          "robots": rr.format_robots(robots), "target": rr.target_name(target),
                          "optimum": best, "ricochet_rule": args.ricochet}), file=out)
        return 0
    print("game %s" % game, file=out)
    print("--faces %s --robots %s --target \"%s\""
          % (",".join(faces), rr.format_robots(robots), rr.target_name(target)), file=out)
    print("optimum %s, %s" % (rr.plural(best, "move") if best is not None else "beyond 30 moves",
                              rule_name(args.ricochet)), file=out)
    return 0


class _Formatter(argparse.HelpFormatter):
    """argparse's help layout with the terminal's width read without shutil: argparse
    imports it (with bz2, lzma, fnmatch) for every parser it makes, a cost in each fresh
    command for help that is rarely asked for."""

    def __init__(self, prog, indent_increment=2, max_help_position=24, width=None):
        if width is None:
            width = _columns() - 2
        argparse.HelpFormatter.__init__(self, prog, indent_increment, max_help_position, width)


def _columns():
    """The terminal's width as shutil.get_terminal_size gives it: $COLUMNS, the terminal's,
    else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", 0))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


def _deal_args(p):
    p.add_argument("--game", help="a game ID printed by `random`")
    p.add_argument("--faces", help="faces for NW,NE,SE,SW, e.g. 1A,2B,3A,4B")
    p.add_argument("--robots", nargs="+", metavar="NAME=X,Y",
                   help="red green blue yellow, optionally silver and clear")
    p.add_argument("--target", nargs="+", help='"red circle" ... or vortex')
    p.add_argument("--json", action="store_true", help="machine-readable output")


def _rule_arg(p):
    p.add_argument("--no-ricochet-rule", dest="ricochet", action="store_false",
                   help="drop the rule that the completing robot must have turned at least once")
    p.add_argument("--clear-may-stop-on-targets", dest="clear_stops_on_targets",
                   action="store_true",
                   help="the other reading: the clear robot may end a move on a coloured"
                        " target (the rulebook: only on the vortex)")


def _solve_args(p):
    _deal_args(p)
    p.add_argument("--max-moves", type=int, default=30, help="give up beyond this (30)")
    _rule_arg(p)
    p.set_defaults(run=cmd_solve)


def _check_args(p):
    _deal_args(p)
    p.add_argument("--moves", required=True, help='e.g. "red N, clear E+1, green S"')
    _rule_arg(p)
    p.set_defaults(run=cmd_check)


def _render_args(p):
    _deal_args(p)
    p.add_argument("--svg", metavar="FILE", help="also write an SVG drawing")
    p.set_defaults(run=cmd_render)


def _random_args(p):
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--silver", action="store_true", help="add the silver robot")
    p.add_argument("--clear", action="store_true", help="add the transparent robot")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    _rule_arg(p)
    p.set_defaults(run=cmd_random)


def _serve_args(p):
    p.add_argument("--port", type=int, default=8026, help="port (default 8026; 0: any free one)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1; 0.0.0.0 for a tablet too)")
    p.add_argument("--open", action="store_true", help="open the page in a browser")
    p.add_argument("--cold", action="store_true",
                   help="do not load the compiled search ahead (for measuring)")
    p.set_defaults(run=cmd_serve)


COMMANDS = (
    ("solve", "an optimal solution", _solve_args),
    ("check", "check a claimed solution (prints JSON)", _check_args),
    ("render", "draw the deal as text (and SVG)", _render_args),
    ("random", "a reproducible random deal, its game ID and optimum", _random_args),
    ("serve", "the table page: set up the board, solve, referee bids", _serve_args),
)


def build_parser(command=None):
    """The command line's parser; given the ``command`` a command line names (its first
    word), only that command's: a fresh solve does not build the other four (a few ms of
    argparse). Any other first word (-h, a mistake) gets them all, for the help and the
    error that list them."""
    parser = cli.Parser(prog="python -m tools.ricochet", formatter_class=_Formatter,
                        description="Ricochet Robots with the transparent robot.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=cli.Parser)
    named = [c for c in COMMANDS if c[0] == command]
    for name, text, add_args in named or COMMANDS:
        add_args(sub.add_parser(name, help=text, formatter_class=_Formatter))
    return parser


def cmd_serve(args, out):
    if not 0 <= args.port <= 65535:
        raise UsageError("--port %d: use 0-65535" % args.port)
    from tools.ricochet import serve
    return serve.run(args, out)


def main(argv=None, out=None, err=None):
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        words = sys.argv[1:] if argv is None else argv
        args = build_parser(words[0] if words else None).parse_args(argv)
        if getattr(args, "max_moves", 1) < 1:
            raise UsageError("--max-moves must be at least 1")
        return args.run(args, out)
    except (UsageError, rr.RicochetError) as e:
        print("ricochet: error: %s" % cli.short(e), file=err)
        return 2
    except BrokenPipeError:
        raise  # the reader went away (| head): cli.run ends quietly
    except OSError as e:
        print("ricochet: error: %s: %s" % (getattr(e, "filename", "") or "file", e.strerror), file=err)
        return 2


if __name__ == "__main__":
    cli.run(main)
