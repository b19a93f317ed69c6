"""Worksheets for the classroom lesson (docs/classroom.md), as PDF (A4) or SVG.

    python -m tools.worksheet -o sheets.pdf                  # seed 1, puzzle 1, all sheets
    python -m tools.worksheet --seed 7 --puzzle 2 -o s.pdf   # the page's ?seed=7, 2nd puzzle
    python -m tools.worksheet --robot Y4 --target R1 -o s.pdf   # a handheld's rolled puzzle
    python -m tools.worksheet --sheets warmup,distances -o s.pdf
    python -m tools.worksheet --seed 7 --lang ko -o s.pdf    # in Korean (en, de, es, ko)

The same seed gives the same puzzle as a handheld whose setting ``lesson`` is N (its
classroom's puzzle k is the sheet's puzzle k), and as the web page opened with
``?seed=N`` and the simulator's ``--seed N --fresh`` when the classroom is the first
game started: the puzzle is rolled by the firmware's own ``classroom.lesson_game`` (the
first new game of a device booted with N, ``rng.game_seed``; puzzle k is the start
after k - 1 rounds, as the classroom goes on).

The sheets, one page each, in this order:

- ``warmup``: the robot alone: "circle every die it can reach in one move";
- ``distances``: robot and target, an empty box in each die's corner for its distance;
- ``challenge``: the same robot and target with a waypoint to visit first;
- ``answers``: the distances filled in, one shortest route, the warm-up's dice, the
  challenge's fewest moves and route, and what depth-first search would have found.

Everything drawn comes from ``puzzle_data`` (the solver's distances and routes, and
tools/lesson.py's searches); the tests check that data against the solver and read the
numbers back from the SVG.
"""

import math
import sys

from tools import cli
from tools.draw.colour import FILM_RGB
from tools.draw.dice import PIPS
from tools.draw.overlay import PdfCanvas, SvgCanvas
from tools import i18n, lesson
from tools.i18n import N_, _, ngettext, usage

from microrobots.modes.classroom import lesson_game
from microrobots.preferences import RANGES
from microrobots.rules.game import GameError
from microrobots.rules.solver import UNREACHABLE, Solver

SHEETS = ("warmup", "distances", "challenge", "answers")
PAGE = (210.0, 297.0)  # A4, mm
MARGIN = 15.0
PITCH = 28.0  # mm per cell: room to write a number in the corner with a pencil
BOARD_TOP = 50.0
MAX_SEED = 0x3FFFFFFF  # the page's ?seed= range
MAX_PUZZLE = 1000

TINT = 0.28  # as the films: a light face, the die's colour in its rim
PIP_RGB = (32, 32, 32)
INK = (0, 0, 0)
GREY = (110, 110, 110)
ROUTE_RGB = (120, 40, 170)
MARKS = {"robot": ("R", (0, 0, 0)), "target": ("T", (200, 30, 30)),
         "waypoint": ("W", (30, 90, 200))}


class WorksheetError(ValueError):
    """A puzzle the sheets cannot show: one line."""


# -- the puzzle ------------------------------------------------------------------------------

def classroom_puzzle(layout, seed, puzzle=1, solver=None):
    """``(start, target, waypoint)`` of the classroom's ``puzzle``-th puzzle (1-based) of
    lesson ``seed`` (a handheld's lesson, the page's fresh ``?seed=``); the waypoint is the
    expert roll of the same game."""
    solver = solver or Solver(layout)
    game = lesson_game(layout, solver, seed, puzzle)
    start, target = game.start, game.target
    expert = lesson_game(layout, solver, seed, puzzle, True)  # same dice, then the waypoint
    waypoint = expert.waypoint
    if expert.start != start or expert.target != target or waypoint is None:
        waypoint = _first_other(solver, start, target)
    return start, target, waypoint


def _first_other(solver, start, target):
    """A waypoint when the expert roll differs: the farthest reachable cell, lowest first."""
    dist = solver.distances(start)
    best, best_d = None, -1
    for c in range(36):
        if c not in (start, target) and dist[c] != UNREACHABLE and dist[c] > best_d:
            best, best_d = c, dist[c]
    return best


def puzzle_data(layout, start, target, waypoint=None, solver=None):
    """Everything the sheets show, from the solver: a dict (see the keys below)."""
    solver = solver or Solver(layout)
    dist = [d if d != UNREACHABLE else -1 for d in solver.distances(start)]
    if dist[target] < 0:
        raise WorksheetError(_("target %s cannot be reached from the robot on %s")
                             % (layout.token(target), layout.token(start)))
    data = {
        "layout": layout.name or "custom", "start": start, "target": target,
        "tokens": [layout.token(i) for i in range(36)],
        "colours": list(layout.colours), "numbers": [layout.number(i) for i in range(36)],
        "distances": dist,
        "one_move": solver.moves(start),
        "optimum": dist[target],
        "route": solver.path(start, target),
        "waypoint": waypoint,
    }
    bfs = lesson.Search(solver, start, target, lesson.BREADTH_FIRST)
    dfs = lesson.Search(solver, start, target, lesson.DEPTH_FIRST)
    data["bfs"] = {"visited": bfs.found, "length": len(bfs.route()) - 1}
    data["dfs"] = {"visited": dfs.found, "length": len(dfs.route()) - 1, "route": dfs.route()}
    if waypoint is not None:
        first = solver.distance(start, waypoint)
        second = solver.distance(waypoint, target)
        if first is None or second is None:
            raise WorksheetError(_("waypoint %s cannot be visited on the way from %s to %s")
                                 % (layout.token(waypoint), layout.token(start),
                                    layout.token(target)))
        data["challenge"] = {"first": first, "second": second, "optimum": first + second,
                             "route": solver.path(start, target, waypoint)}
    return data


# -- drawing ---------------------------------------------------------------------------------

def _cell_xy(i):
    x0 = (PAGE[0] - 6 * PITCH) / 2
    return x0 + (i % 6) * PITCH, BOARD_TOP + (i // 6) * PITCH


def _board(canvas, data, marks, numbers=None, circled=(), route=None):
    """The 6x6 board: every die with an empty (or, with ``numbers``, filled) corner box;
    ``marks`` maps cell -> "robot" / "target" / "waypoint"; ``route`` a list of cells."""
    canvas.begin("board")
    for i in range(36):
        x, y = _cell_xy(i)
        _die(canvas, x, y, data["colours"][i], data["numbers"][i], data["tokens"][i], i)
        box = 0.3 * PITCH
        canvas.rect(x + 0.06 * PITCH, y + 0.06 * PITCH, box, box, fill=(255, 255, 255),
                    stroke=GREY, width=0.25, radius=0.8, cls="corner")
        if numbers is not None:
            d = numbers[i]
            canvas.begin("distance", cell=i, value=d)
            canvas.text(x + 0.06 * PITCH + box / 2, y + 0.06 * PITCH + box * 0.78,
                        str(d) if d >= 0 else "-", box * 0.75, bold=True, anchor="middle",
                        cls="distance")
            canvas.end()
        if i in circled:
            canvas.begin("circled", cell=i)
            r = 0.47 * PITCH
            cx, cy = x + PITCH / 2, y + PITCH / 2
            for k in range(24):  # a ring of short strokes: drawn as a pencil would
                a0, a1 = k * 2 * math.pi / 24, (k + 0.7) * 2 * math.pi / 24
                canvas.line(cx + r * math.cos(a0), cy + r * math.sin(a0), cx + r * math.cos(a1),
                            cy + r * math.sin(a1), (20, 140, 60), 0.7)
            canvas.end()
    for i, what in sorted(marks.items()):
        x, y = _cell_xy(i)
        letter, rgb = MARKS[what]
        canvas.begin(what, cell=i)
        canvas.rect(x + 0.6, y + 0.6, PITCH - 1.2, PITCH - 1.2, stroke=rgb, width=1.2,
                    radius=2.5, cls="mark-border")
        r = 0.14 * PITCH
        canvas.circle(x + PITCH - r - 1.6, y + r + 1.6, r, fill=rgb, cls="mark-disc")
        canvas.text(x + PITCH - r - 1.6, y + r + 1.6 + 0.55 * r, letter, 1.5 * r,
                    fill=(255, 255, 255), bold=True, anchor="middle", cls="mark")
        canvas.end()
    if route:
        canvas.begin("route", cells=" ".join(str(c) for c in route))
        for a, b in zip(route, route[1:]):
            (ax, ay), (bx, by) = _cell_xy(a), _cell_xy(b)
            h = PITCH / 2
            canvas.line(ax + h, ay + h, bx + h, by + h, ROUTE_RGB, 1.4)
            canvas.circle(bx + h, by + h, 1.8, fill=ROUTE_RGB)
        canvas.end()
    canvas.end()


def _die(canvas, x, y, colour, number, token, i):
    rgb = FILM_RGB[colour]
    face = [round(255 - TINT * (255 - c)) for c in rgb]
    rim = (150, 150, 150) if colour == 5 else rgb
    inset = 0.05 * PITCH
    side = PITCH - 2 * inset
    canvas.begin("die", token=token, cell=i)
    canvas.rect(x + inset, y + inset, side, side, fill=face, stroke=rim, width=0.05 * PITCH,
                radius=0.12 * PITCH, cls="face")
    # the pips in the lower right, clear of the corner box and the mark
    px0, py0, span = x + 0.36 * PITCH, y + 0.36 * PITCH, 0.56 * PITCH
    for px, py in PIPS[number]:
        canvas.circle(px0 + px * span, py0 + py * span, 0.055 * PITCH, fill=PIP_RGB, cls="pip")
    # the colour's name for a black-and-white printer
    canvas.text(x + 0.09 * PITCH, y + 0.9 * PITCH, _(COLOUR_WORDS[colour]), 2.3, fill=GREY,
                cls="colour")
    canvas.end()


def _width(text, size, bold, fonts):
    """The printed width of ``text`` in mm at ``size`` (reportlab's metrics of the font
    the PDF uses; the SVG is laid out the same)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return stringWidth(text, fonts[1] if bold else fonts[0], size) * 25.4 / 72


def wrap(text, size, width, bold=False, fonts=("Helvetica", "Helvetica-Bold")):
    """``text`` broken at spaces into lines no wider than ``width`` mm (a word wider than
    the line stays whole on its own line)."""
    lines, line = [], ""
    for word in text.split(" "):
        trial = word if not line else line + " " + word
        if line and _width(trial, size, bold, fonts) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines


def _lines(canvas, y, paragraphs, size=4.0, bold_first=False, fill=INK):
    """Each paragraph wrapped to the page's width, one after the other; the y below."""
    fonts = getattr(canvas, "fonts", ("Helvetica", "Helvetica-Bold"))
    for k, paragraph in enumerate(paragraphs):
        for line in wrap(paragraph, size, PAGE[0] - 2 * MARGIN, bold_first and k == 0, fonts):
            canvas.text(MARGIN, y, line, size, fill=fill, bold=bold_first and k == 0)
            y += size * 1.45
    return y


NAME_FIELD = 58.0  # mm at the top right for the pupil's name


def _header(canvas, title, data, info):
    """The sheet's title (smaller when a language's words are longer: it never runs into
    the name field), the name field and the puzzle's line."""
    fonts = getattr(canvas, "fonts", ("Helvetica", "Helvetica-Bold"))
    size = 7.0
    while size > 4.0 and _width(title, size, True, fonts) > PAGE[0] - 2 * MARGIN - NAME_FIELD - 3:
        size -= 0.25
    canvas.text(MARGIN, MARGIN + 4, title, size, bold=True)
    canvas.text(PAGE[0] - MARGIN - NAME_FIELD, MARGIN + 4, _("name: ____________________"), 4.0)
    _lines(canvas, MARGIN + 11, [info], 3.0, fill=GREY)


def _footer(canvas, data, info):
    _lines(canvas, PAGE[1] - MARGIN - 2, [
        _("R robot, T target, W waypoint. A move: along the row or the column, any distance, "
          "onto a die of the same colour or the same number. (Micro Robots, python -m "
          "tools.worksheet)")], 2.8)


# The dice's colours as the sheets print them (beside each die, for a black-and-white
# printer), in board.COLOUR_NAMES' order.
COLOUR_WORDS = (N_("blue"), N_("yellow"), N_("green"), N_("red"), N_("pink"), N_("white"))


def _colour(data, i):
    word = COLOUR_WORDS[data["colours"][i]]
    return _(word)


def _name(data, i):
    """A die as the sheets name it: colour and number ("yellow 4", "gelb 4")."""
    return _("%s %d") % (_colour(data, i), data["numbers"][i])


def _route_text(data, route):
    return " > ".join(_name(data, c) for c in route)


def draw_sheet(canvas, sheet, data, info):
    """One page: ``sheet`` is one of SHEETS."""
    s, t, w = data["start"], data["target"], data["waypoint"]
    below = BOARD_TOP + 6 * PITCH + 9
    canvas.begin("sheet", name=sheet)
    if sheet == "warmup":
        _header(canvas, _("Warm-up: one move"), data, info)
        _lines(canvas, MARGIN + 22, [
            _("The robot (R) moves along its row or its column, as far as it likes, and must "
              "land on a die of the same colour or the same number as the die it stands on."),
            _("Circle every die the robot can reach in ONE move.")], 4.2)
        _board(canvas, data, {s: "robot"})
        _lines(canvas, below, [
            _("How many dice did you circle? ______"),
            _("Which dice in the robot's own row or column can it NOT reach? Why not?"),
            "_" * 69,
            _("Pick one circled die. Where could the robot go from there in one more move?")],
            4.2)
    elif sheet == "distances":
        _header(canvas, _("How far is every die?"), data, info)
        _lines(canvas, MARGIN + 22, [
            _("Write 0 in the robot's corner box. Then 1 in the box of every die it reaches in "
              "one move. Then, from each die marked 1, write 2 in every EMPTY box one move "
              "away - and so on, layer by layer, until nothing new gets a number.")], 4.2)
        _board(canvas, data, {s: "robot", t: "target"})
        _lines(canvas, below, [
            _("Fewest moves from R to T: ______      Dice that never got a number: ______"),
            _("Write one shortest route (start at R): ______________________________"),
            _("Why can no route be shorter than the number in T's box?"),
            "_" * 69], 4.2)
    elif sheet == "challenge":
        _header(canvas, _("Challenge: visit the waypoint"), data, info)
        _lines(canvas, MARGIN + 22, [
            _("The robot must first stop on the waypoint (W), then reach the target (T)."),
            _("Find the fewest moves. Hint: how far is W from R? And how far is T from W?")],
            4.2)
        _board(canvas, data, {s: "robot", t: "target", w: "waypoint"})
        _lines(canvas, below, [
            _("R to W: ______ moves     W to T: ______ moves     in all: ______ moves"),
            _("Your route: ____________________________________________________"),
            _("Is the fewest via W ever fewer than straight from R to T? Why not?")], 4.2)
    elif sheet == "answers":
        _header(canvas, _("Answers (for the teacher)"), data, info)
        bfs, dfs = data["bfs"], data["dfs"]
        _lines(canvas, MARGIN + 20, [
            _("Distances from the robot in the boxes ('-': never reached); a shortest route "
              "drawn."),
            _("Fewest moves R to T: %d.   Route: %s") % (data["optimum"],
                                                         _route_text(data, data["route"])),
        ], 3.6)
        _board(canvas, data, {s: "robot", t: "target"}, numbers=data["distances"],
               circled=data["one_move"], route=data["route"])
        never = sum(1 for d in data["distances"] if d < 0)
        lines = [
            ngettext("Warm-up: %d die in one move (circled): %s.",
                     "Warm-up: %d dice in one move (circled): %s.", len(data["one_move"]))
            % (len(data["one_move"]), ", ".join(_name(data, c) for c in data["one_move"])),
            ngettext("Never reached: %d die.", "Never reached: %d dice.", never) % never,
            _("Breadth-first search (a queue) saw T after visiting %d dice: %d moves, the "
              "fewest.") % (bfs["visited"], bfs["length"]),
            _("Depth-first search (a stack) saw T after visiting %d dice: a route of %d "
              "moves.") % (dfs["visited"], dfs["length"]),
        ]
        if "challenge" in data:
            c = data["challenge"]
            lines += [_("Challenge via W (%s): %d + %d = %d moves: %s.") % (
                _name(data, w), c["first"], c["second"], c["optimum"],
                _route_text(data, c["route"]))]
        _lines(canvas, below - 2, lines, 3.4)
    else:
        raise WorksheetError("unknown sheet %r (use %s)" % (sheet, ", ".join(SHEETS)))
    _footer(canvas, data, info)
    canvas.end()


def _info(data, seed, puzzle):
    where = _("layout %s") % data["layout"]
    if seed is None:
        return _("%s - robot %s, target %s") % (where, _name(data, data["start"]),
                                                _name(data, data["target"]))
    if not 1 <= seed <= RANGES["lesson"][1]:  # no handheld's lesson (0: none)
        return (_("%s - seed %d, puzzle %d: the web page with ?seed=%d, classroom, puzzle %d")
                % (where, seed, puzzle, seed, puzzle))
    return (_("%s - seed %d, classroom puzzle %d (handheld: lesson %d; web page: ?seed=%d)")
            % (where, seed, puzzle, seed, seed))


# Fonts beyond Latin: Korean's Hangul from Debian's fonts-nanum (Makefile: system-deps),
# embedded in the PDF as a subset (reportlab keeps only the glyphs used).
CJK_FONTS = ("/usr/share/fonts/truetype/nanum/NanumGothic.ttf",
             "/usr/share/fonts/truetype/nanum/NanumGothicBold.ttf")


def pdf_fonts(lang):
    """``(regular, bold)`` font names for ``lang``'s sheets, registered with reportlab."""
    if lang != "ko":
        return ("Helvetica", "Helvetica-Bold")
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    names = ("NanumGothic", "NanumGothicBold")
    for name, path in zip(names, CJK_FONTS):
        if name in pdfmetrics.getRegisteredFontNames():
            continue
        try:
            pdfmetrics.registerFont(TTFont(name, path))
        except Exception as e:  # noqa: BLE001 - reportlab raises its own kinds for a bad TTF
            raise WorksheetError(_("Korean sheets need the font %s (Debian: apt-get install "
                                   "fonts-nanum): %s") % (path, e))
    return names


def render_pdf(data, sheets=SHEETS, seed=None, puzzle=1):
    """The sheets as PDF bytes (A4, one page each; deterministic, no timestamps), in the
    language installed (tools.i18n.install)."""
    import io

    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas

    fonts = pdf_fonts(i18n.current())
    out = io.BytesIO()
    pdf = Canvas(out, pagesize=(PAGE[0] * mm, PAGE[1] * mm), invariant=1)
    pdf.setTitle(_("Micro Robots classroom worksheets"))
    info = _info(data, seed, puzzle)
    for sheet in sheets:
        draw_sheet(PdfCanvas(pdf, PAGE, fonts), sheet, data, info)
        pdf.showPage()
    pdf.save()
    return out.getvalue()


def render_svg(data, sheet, seed=None, puzzle=1):
    """One sheet as SVG text (what the tests read the drawn numbers from)."""
    canvas = SvgCanvas(PAGE, PITCH)
    draw_sheet(canvas, sheet, data, _info(data, seed, puzzle))
    return canvas.document()


# -- the command -----------------------------------------------------------------------------

def _int(text, what, low, high):
    try:
        value = int(text)
    except (TypeError, ValueError):
        raise cli.UsageError(_("%s %r: not a whole number") % (what, text))
    if not low <= value <= high:
        raise cli.UsageError(_("%s %d: outside %d..%d") % (what, value, low, high))
    return value


def main(argv=None):
    usage.install_from(argv, "worksheet")
    p = cli.Parser(prog="python -m tools.worksheet", description=_(
        "Classroom worksheets (PDF): warm-up, distances, challenge, answers."))
    cli.add_layout_options(p)
    p.add_argument("--seed", help=_("the handheld's lesson N, the web page's ?seed=N (default 1)"))
    p.add_argument("--puzzle", default="1",
                   help=_("which classroom puzzle of that seed, 1 = the first (default 1)"))
    p.add_argument("--robot", metavar="DIE", help=_("the robot's die instead of the seed's (G3)"))
    p.add_argument("--target", metavar="DIE", help=_("the target's die (with --robot)"))
    p.add_argument("--waypoint", metavar="DIE", help=_("the challenge's waypoint (with --robot)"))
    p.add_argument("--sheets", default=",".join(SHEETS),
                   help=_("which sheets, comma-separated (default: %s)") % ",".join(SHEETS))
    p.add_argument("--format", choices=("pdf", "svg"), default="pdf",
                   help=_("pdf (every sheet) or svg (one sheet; default pdf)"))
    p.add_argument("-o", "--output", metavar="FILE", required=True, help=_("where to write"))
    i18n.add_lang_option(p)
    try:
        args = p.parse_args(argv)
        layout = cli.layout_from_args(args)
        solver = Solver(layout)
        sheets = [s.strip() for s in args.sheets.split(",") if s.strip()]
        for s in sheets:
            if s not in SHEETS:
                raise cli.UsageError(_("--sheets: unknown sheet %r (use %s)")
                                     % (s, ", ".join(SHEETS)))
        if not sheets:
            raise cli.UsageError(_("--sheets: name at least one of %s") % ", ".join(SHEETS))
        if args.format == "svg" and len(sheets) != 1:
            raise cli.UsageError(_("--format svg: one sheet per file (use --sheets NAME)"))
        seed = puzzle = None
        if args.robot or args.target or args.waypoint:
            if args.seed is not None:
                raise cli.UsageError(_("--robot/--target: give them or --seed, not both"))
            if not (args.robot and args.target):
                raise cli.UsageError(_("--robot and --target go together"))
            start = cli.cell(layout, args.robot, "--robot")
            target = cli.cell(layout, args.target, "--target")
            if start == target:
                raise cli.UsageError(_("--target: the robot already stands on %s") % args.target)
            waypoint = cli.cell(layout, args.waypoint, "--waypoint") if args.waypoint else None
            if waypoint in (start, target):
                raise cli.UsageError(_("--waypoint: must differ from the robot and the target"))
            if waypoint is None:
                waypoint = _first_other(solver, start, target)
        else:
            seed = _int(args.seed if args.seed is not None else "1", "--seed", 0, MAX_SEED)
            puzzle = _int(args.puzzle, "--puzzle", 1, MAX_PUZZLE)
            if not 1 <= seed <= RANGES["lesson"][1]:  # the page's seeds: no handheld's lesson
                print(_("worksheet: note: seed %d is no handheld's lesson (1-%d): the sheets are "
                        "the web page's ?seed=%d") % (seed, RANGES["lesson"][1], seed),
                      file=sys.stderr)
            start, target, waypoint = classroom_puzzle(layout, seed, puzzle, solver)
        data = puzzle_data(layout, start, target, waypoint, solver)
        if args.format == "svg":
            out = render_svg(data, sheets[0], seed, puzzle or 1).encode()
        else:
            out = render_pdf(data, sheets, seed, puzzle or 1)
        cli.write_atomically(args.output, out)
    except (cli.UsageError, WorksheetError, GameError) + cli.Errors as e:
        return cli.fail("worksheet", e)
    except OSError as e:
        return cli.fail("worksheet", _("%s: cannot write (%s)") % (args.output, e.strerror or e))
    print(_("%s: %s - robot %s, target %s, fewest moves %d")
          % (args.output, ", ".join(sheets), _name(data, start), _name(data, target),
             data["optimum"]))
    return 0


if __name__ == "__main__":
    cli.run(main)
