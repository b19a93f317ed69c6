"""Optimal Micro Robots routes, for teachers and referees.

    python -m tools.solve [--layout FILE | --tiles CODE] [--side SIDE] FROM TO [--via CELL]
                          [--claim N] [--json]
    python -m tools.solve [...] --jsonl        # queries on stdin: FROM TO [VIA] [CLAIM]
    python -m tools.solve [...] --stats        # all-pairs distance histogram of the layout

Cells are dice: G3, 3-green or green-3. The layout defaults to black:ABCD0000.
Uses the firmware's own solver (firmware/microrobots/rules/solver.py), so its answers are the
handheld's. Bad input: exit code 2 and one line on stderr.
"""

import json
import sys

from tools import cli, i18n
from tools.i18n import _, ngettext, usage
from tools.cli import UsageError, cell, plural

from microrobots.rules.solver import UNREACHABLE, Solver

PROG = "tools.solve"


def build_parser():
    """The command line, its help in the language installed."""
    p = cli.Parser(prog="python -m tools.solve",
                   description=_("Optimal Micro Robots routes, for teachers and referees."))
    cli.add_layout_options(p)
    p.add_argument("cells", nargs="*", metavar="FROM TO", help=_("start and target dice"))
    p.add_argument("--via", metavar="CELL", help=_("a waypoint to visit first (expert play)"))
    p.add_argument("--claim", metavar="N", help=_("also say whether exactly N moves can do it"))
    p.add_argument("--json", action="store_true", help=_("one JSON object"))
    p.add_argument("--jsonl", action="store_true", help=_("queries from stdin, JSON lines out"))
    p.add_argument("--stats", action="store_true", help=_("distance histogram of the layout"))
    i18n.add_lang_option(p)
    return p


def parse_claim(text):
    try:
        n = int(text)
    except ValueError:
        raise UsageError(_("claim %r is not a whole number") % text)
    if n < 0:
        raise UsageError(_("claim %d is negative") % n)
    return n


def query(layout, solver, start, target, via=None, claim=None):
    """The answer object of one query (the --json contract)."""
    path = solver.path(start, target, via)
    return {
        "from": layout.token(start),
        "to": layout.token(target),
        "via": None if via is None else layout.token(via),
        "distance": None if path is None else len(path) - 1,
        "path": None if path is None else [layout.token(i) for i in path],
        "claim": claim,
        "claim_possible": None if claim is None else solver.walk_exists(start, target, claim, via),
    }


def describe(answer):
    """The human-readable form of a query's answer."""
    if answer["via"]:
        head = _("%s -> %s via %s") % (answer["from"], answer["to"], answer["via"])
    else:
        head = "%s -> %s" % (answer["from"], answer["to"])
    lines = []
    d = answer["distance"]
    if d is None:
        lines.append(_("%s: unreachable") % head)
    else:
        lines.append(ngettext("%s: %d move", "%s: %d moves", d) % (head, d))
        lines.append(_("route: %s") % " ".join(answer["path"]))
    n = answer["claim"]
    if n is not None:
        lines.append(ngettext("claim %d: possible — a route of exactly %d move exists",
                              "claim %d: possible — a route of exactly %d moves exists", n)
                     % (n, n) if answer["claim_possible"] else _("claim %d: impossible") % n)
    return "\n".join(lines)


def run_jsonl(layout, solver, lines, out):
    """Answer one query per input line; a bad line gets an error object. Returns the
    number of bad lines."""
    bad = 0
    for lineno, line in enumerate(lines, 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        try:
            if not 2 <= len(words) <= 4:
                raise UsageError("expected FROM TO [VIA] [CLAIM], got %s" % plural(len(words), "word"))
            start = cell(layout, words[0], "FROM")
            target = cell(layout, words[1], "TO")
            via = claim = None
            rest = words[2:]
            if rest and not rest[0].lstrip("-").isdigit():
                via = cell(layout, rest.pop(0), "VIA")
            if rest:
                claim = parse_claim(rest.pop(0))
            if rest:
                raise UsageError("unexpected %r" % rest[0])
            answer = query(layout, solver, start, target, via, claim)
        except UsageError as e:
            bad += 1
            answer = {"line": lineno, "error": str(e)}
        out.write(json.dumps(answer) + "\n")
        out.flush()
    return bad


def stats(layout, solver):
    histogram = {}
    unreachable = []
    for s in range(36):
        dist = solver.distances(s)
        for t in range(36):
            if t == s:
                continue
            if dist[t] == UNREACHABLE:
                unreachable.append([layout.token(s), layout.token(t)])
            else:
                histogram[dist[t]] = histogram.get(dist[t], 0) + 1
    pairs = sum(histogram.values())
    return {
        "layout": layout.name or str(layout).strip().split("\n"),
        "histogram": {str(d): histogram[d] for d in sorted(histogram)},
        "longest": max(histogram) if histogram else None,
        "mean": round(sum(d * n for d, n in histogram.items()) / pairs, 4) if pairs else None,
        "unreachable": unreachable,
    }


def main(argv=None, stdin=None, stdout=None):
    stdin = stdin or sys.stdin
    out = stdout or sys.stdout
    usage.install_from(argv, PROG)
    try:
        args = build_parser().parse_args(argv)
        layout = cli.layout_from_args(args)
        solver = Solver(layout)
        if args.jsonl:
            if args.cells:
                raise UsageError(_("--jsonl reads its queries from stdin; give no FROM TO"))
            return 2 if run_jsonl(layout, solver, stdin, out) else 0
        if args.stats:
            result = stats(layout, solver)
            if args.json:
                out.write(json.dumps(result) + "\n")
            else:
                out.write("%s\n" % (layout.name or _("custom layout")))
                for d, n in result["histogram"].items():
                    out.write("  %2s %-6s %s\n" % (
                        d, ngettext("move:", "moves:", int(d)),
                        ngettext("%d pair", "%d pairs", n) % n))
                out.write(_("unreachable pairs: %d%s\n") % (
                    len(result["unreachable"]),
                    "".join("\n  %s -> %s" % tuple(p) for p in result["unreachable"])))
            return 0
        if not args.cells:
            raise UsageError(_("give FROM and TO cells, e.g. G3 W5 (or --jsonl / --stats)"))
        if len(args.cells) == 1:
            raise UsageError(_("give TO as well as FROM %s, e.g. %s W5") % ((args.cells[0],) * 2))
        if len(args.cells) > 2:
            more = len(args.cells) - 2
            raise UsageError(ngettext("FROM and TO are two cells, but %d more word follows them: %s",
                                      "FROM and TO are two cells, but %d more words follow them: %s",
                                      more) % (more, " ".join(args.cells[2:])))
        start = cell(layout, args.cells[0], "FROM")
        target = cell(layout, args.cells[1], "TO")
        via = cell(layout, args.via, "--via") if args.via else None
        claim = parse_claim(args.claim) if args.claim is not None else None
        answer = query(layout, solver, start, target, via, claim)
        out.write((json.dumps(answer) if args.json else describe(answer)) + "\n")
        return 0
    except cli.Errors as e:
        return cli.fail(_("%s: error") % PROG, e)


if __name__ == "__main__":
    cli.run(main)
