"""Printable tile films: the eight faces of the game's four boards, at the LED grid's pitch.

    python -m tools.draw.overlay -o films.svg             # A4 sheet, the documented build's pitch
    python -m tools.draw.overlay -o films.pdf             # the same as PDF (A4 pages)
    python -m tools.draw.overlay --pitch 10 -o panel.pdf  # an 8x8 panel with 10 mm between LEDs

Each board (A-D) has a black and a copper side; each side is a 3x3 tile of dice. Every die
is drawn with its pips on a light, lightly tinted face with a rim in its colour, so the LED
beneath shines through in its colour and the film still reads unlit. Each tile carries its
board letter, an arrow and a filled top-left corner: the arrow points up in the orientation
the firmware calls "0 turns"; "turned 1" means the arrow points right (turns are counted
clockwise), and the filled corner is the one the grid blinks when it guides a shuffle. A thin
line around each tile and corner marks show where to cut. A 100 mm bar checks the scale.
"""

import argparse
import math
import os
import sys

from tools import cli
from tools.cli import write_atomically
from tools.draw.colour import FILM_RGB
from tools.draw.dice import PIPS

from microrobots.rules.board import SIDES, TILES, parse_cell

# The documented build (hardware/README.md): a WS2812B strip with 60 LEDs per metre, cut
# into rows of six and laid at the same spacing, so the grid's pitch is 1000/60 mm.
# hardware/enclosure.scad uses the same pitch; host_tests/tools/test_hardware.py checks it.
LEDS_PER_METRE = 60
DEFAULT_PITCH_MM = 1000 / LEDS_PER_METRE

PITCH_RANGE = (5.0, 50.0)  # below 5 mm pips are specks; above 50 mm a tile outgrows A4
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
BOARDS = "ABCD"

SIDE_RGB = {"black": (26, 26, 26), "copper": (184, 115, 51)}
PIP_RGB = (32, 32, 32)
TINT = 0.28  # share of the die colour in the face: light enough for the LED to show through
RIM_FOR_WHITE = (150, 150, 150)  # a white rim would vanish on white paper

# Proportions of one cell (the pitch); see _die() and _tile().
FACE_INSET = 0.08  # gap between the cell edge and the die face
FACE_RADIUS = 0.14  # rounded corners leave room for the marks at the tile's inner crossings
RIM = 0.045
PIP_RADIUS = 0.085  # of the face
BAND = 0.035  # the tile's border in its side's colour
MARK_RADIUS = 0.15  # disc with the board letter / the arrow
CORNER_MARK = 0.2  # legs of the filled top-left corner; < 0.21 keeps it off the die face

MARGIN = 10.0  # mm, page margin
GAP = 9.0  # mm between tiles: room for the corner cut marks
CAPTION = 5.0  # mm above each tile for its caption
CROP = 3.0  # mm, length of a corner cut mark
TITLE = 14.0  # mm at the top of the page for the title
RULER = 14.0  # mm at the bottom of the page for the 100 mm bar


class OverlayError(ValueError):
    """A request the overlay cannot honour; the message is one line."""


# -- what goes where ---------------------------------------------------------------------

def tiles():
    """The eight tiles in print order: ``(side, board letter, 9 die tokens)``."""
    for side in SIDES:
        for b, text in enumerate(TILES[side]):
            yield side, BOARDS[b], text.split()


def layout(pitch, paper):
    """Place the eight tiles on pages.

    ``paper`` is ``(width, height)`` in mm, or None for one sheet just big enough (two
    columns: black and copper). Returns ``(sheet_size, pages)``; each page is a list of
    ``(x, y, side, letter, tokens)`` with (x, y) the tile's top-left corner in mm.
    """
    size = 3 * pitch
    items = list(tiles())
    if paper is None:
        cols, rows = 2, 4
        width = 2 * MARGIN + cols * size + (cols - 1) * GAP
        height = TITLE + 2 * MARGIN + rows * (CAPTION + size) + (rows - 1) * GAP + RULER
        paper = (width, height)
        order = [items[r + 4 * c] for r in range(rows) for c in range(cols)]
        return paper, [_place(order, cols, size)]
    width, height = paper
    cols = int((width - 2 * MARGIN + GAP) // (size + GAP))
    rows = int((height - 2 * MARGIN - TITLE - RULER + GAP) // (CAPTION + size + GAP))
    if cols < 1 or rows < 1:
        raise OverlayError("pitch %.2f mm: a %.0f mm tile does not fit on %.0f x %.0f mm paper"
                           % (pitch, size, width, height))
    if cols >= 2 and rows >= 4:  # the natural sheet: black and copper side by side
        cols = 2
        items = [items[r + 4 * c] for r in range(4) for c in range(2)]
    per_page = cols * rows
    pages = [_place(items[i:i + per_page], cols, size) for i in range(0, len(items), per_page)]
    return paper, pages


def _place(items, cols, size):
    placed = []
    for k, (side, letter, tokens) in enumerate(items):
        x = MARGIN + (k % cols) * (size + GAP)
        y = MARGIN + TITLE + (k // cols) * (CAPTION + size + GAP) + CAPTION
        placed.append((x, y, side, letter, tokens))
    return placed


def fits(pitch, paper):
    """True when all eight tiles fit on one page of ``paper``."""
    try:
        return len(layout(pitch, paper)[1]) == 1
    except OverlayError:
        return False


# -- drawing, for any canvas (SVG or PDF) -------------------------------------------------

def draw_page(canvas, pitch, placed, page, pages):
    """Draw one page of tiles (from ``layout``) with title, captions and scale bar."""
    width, height = canvas.size
    title = "Micro Robots tile films - pitch %.3f mm" % pitch
    if pages > 1:
        title += " - page %d of %d" % (page, pages)
    canvas.text(MARGIN, MARGIN + 5, title, 4.2, bold=True)
    canvas.text(MARGIN, MARGIN + 10,
                "Print at 100 % (actual size), cut on the lines. Arrow up = 0 turns; "
                "turns go clockwise.", 2.8)
    for x, y, side, letter, tokens in placed:
        _tile(canvas, x, y, pitch, side, letter, tokens)
    _ruler(canvas, MARGIN, height - MARGIN - 4)


def _tile(canvas, x, y, pitch, side, letter, tokens):
    size = 3 * pitch
    ink = SIDE_RGB[side]
    canvas.begin("tile", side=side, board=letter)
    canvas.text(x + 2, y - 1.5, "board %s - %s side" % (letter, side), 3.0, fill=ink, cls="caption")
    for k, token in enumerate(tokens):
        _die(canvas, x + (k % 3) * pitch, y + (k // 3) * pitch, pitch, token, k)
    # The border in the side's colour, then the marks at the two top inner crossings:
    # the board letter (top-left) and the orientation arrow (top-right).
    band = BAND * pitch
    canvas.rect(x + band / 2, y + band / 2, size - band, size - band,
                stroke=ink, width=band, cls="band")
    r = MARK_RADIUS * pitch
    canvas.circle(x + pitch, y + pitch, r, fill=ink, cls="letter-disc")
    canvas.text(x + pitch, y + pitch + 0.58 * r, letter, 2 * r * 0.8,
                fill=(255, 255, 255), bold=True, anchor="middle", cls="board-letter")
    canvas.circle(x + 2 * pitch, y + pitch, r, fill=ink, cls="arrow-disc")
    cx, cy = x + 2 * pitch, y + pitch
    canvas.polygon([(cx, cy - 0.72 * r), (cx + 0.6 * r, cy + 0.5 * r), (cx - 0.6 * r, cy + 0.5 * r)],
                   fill=(255, 255, 255), cls="orientation")
    # The printed top-left corner, filled: the corner the grid blinks white when it guides
    # a shuffle. It stays clear of the die's rounded corner (see CORNER_MARK).
    leg = CORNER_MARK * pitch
    canvas.polygon([(x, y), (x + leg, y), (x, y + leg)], fill=ink, cls="corner-mark")
    # Cut line on the tile's edge, and corner marks outside it (they survive the cut).
    canvas.rect(x, y, size, size, stroke=(120, 120, 120), width=0.1, cls="cut")
    for cx, cy, dx, dy in ((x, y, -1, -1), (x + size, y, 1, -1),
                           (x, y + size, -1, 1), (x + size, y + size, 1, 1)):
        canvas.line(cx + dx * 1, cy, cx + dx * (1 + CROP), cy, (0, 0, 0), 0.2, cls="crop")
        canvas.line(cx, cy + dy * 1, cx, cy + dy * (1 + CROP), (0, 0, 0), 0.2, cls="crop")
    canvas.end()


def _die(canvas, x, y, pitch, token, k):
    colour, number = parse_cell(token)
    rgb = FILM_RGB[colour]
    face = [round(255 - TINT * (255 - c)) for c in rgb]
    rim = RIM_FOR_WHITE if colour == 5 else rgb
    inset = FACE_INSET * pitch
    side = pitch - 2 * inset
    fx, fy = x + inset, y + inset
    canvas.begin("die", token=token, cell=k)
    canvas.rect(fx, fy, side, side, fill=face, stroke=rim, width=RIM * pitch,
                radius=FACE_RADIUS * pitch, cls="face")
    for px, py in PIPS[number]:
        canvas.circle(fx + px * side, fy + py * side, PIP_RADIUS * side, fill=PIP_RGB, cls="pip")
    canvas.end()


def _ruler(canvas, x, y):
    canvas.begin("ruler")
    canvas.line(x, y, x + 100, y, (0, 0, 0), 0.3)
    for mm in range(0, 101, 10):
        canvas.line(x + mm, y, x + mm, y - (3 if mm % 50 == 0 else 1.8), (0, 0, 0), 0.3)
    canvas.text(x + 103, y, "this bar is 100 mm long when printed at actual size", 2.6)
    canvas.end()


# -- canvases ------------------------------------------------------------------------------

def _num(v):
    s = "%.3f" % v
    s = s.rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def _hex(rgb):
    return "#%02x%02x%02x" % tuple(rgb)


def _esc(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class SvgCanvas:
    """Collects SVG elements; units are millimetres (the viewBox), so it prints to scale."""

    def __init__(self, size, pitch):
        self.size = size
        self.pitch = pitch
        self.parts = []
        self.depth = 1

    def _add(self, text):
        self.parts.append("  " * self.depth + text)

    def begin(self, cls, **data):
        attrs = "".join(' data-%s="%s"' % (k, _esc(str(v))) for k, v in sorted(data.items()))
        self._add('<g class="%s"%s>' % (cls, attrs))
        self.depth += 1

    def end(self):
        self.depth -= 1
        self._add("</g>")

    @staticmethod
    def _paint(fill, stroke, width, cls):
        s = ' class="%s"' % cls if cls else ""
        s += ' fill="%s"' % (_hex(fill) if fill else "none")
        if stroke:
            s += ' stroke="%s" stroke-width="%s"' % (_hex(stroke), _num(width))
        return s

    def rect(self, x, y, w, h, fill=None, stroke=None, width=0, radius=0, cls=None):
        r = ' rx="%s"' % _num(radius) if radius else ""
        self._add('<rect%s x="%s" y="%s" width="%s" height="%s"%s/>'
                  % (self._paint(fill, stroke, width, cls), _num(x), _num(y), _num(w), _num(h), r))

    def circle(self, cx, cy, r, fill=None, cls=None):
        self._add('<circle%s cx="%s" cy="%s" r="%s"/>'
                  % (self._paint(fill, None, 0, cls), _num(cx), _num(cy), _num(r)))

    def line(self, x1, y1, x2, y2, stroke, width, cls=None):
        self._add('<line%s x1="%s" y1="%s" x2="%s" y2="%s"/>'
                  % (self._paint(None, stroke, width, cls), _num(x1), _num(y1), _num(x2), _num(y2)))

    def polygon(self, points, fill, cls=None):
        pts = " ".join("%s,%s" % (_num(px), _num(py)) for px, py in points)
        self._add('<polygon%s points="%s"/>' % (self._paint(fill, None, 0, cls), pts))

    def text(self, x, y, text, size, fill=(0, 0, 0), bold=False, anchor="start", cls=None):
        weight = ' font-weight="bold"' if bold else ""
        self._add('<text%s x="%s" y="%s" font-size="%s" font-family="DejaVu Sans, Helvetica, NanumGothic, '
                  'Noto Sans CJK KR, Arial, sans-serif"%s text-anchor="%s">%s</text>'
                  % (self._paint(fill, None, 0, cls), _num(x), _num(y), _num(size), weight,
                     anchor, _esc(text)))

    def document(self):
        w, h = self.size
        head = ('<svg xmlns="http://www.w3.org/2000/svg" width="%smm" height="%smm" '
                'viewBox="0 0 %s %s" data-pitch="%s">'
                % (_num(w), _num(h), _num(w), _num(h), _num(self.pitch)))
        body = '  <rect x="0" y="0" width="%s" height="%s" fill="#ffffff"/>' % (_num(w), _num(h))
        return "\n".join(['<?xml version="1.0" encoding="UTF-8"?>', head, body]
                         + self.parts + ["</svg>", ""])


class PdfCanvas:
    """Draws the same calls with reportlab; y grows downwards as in SVG, units mm."""

    def __init__(self, pdf, size, fonts=("Helvetica", "Helvetica-Bold")):
        from reportlab.lib.units import mm

        self.pdf = pdf
        self.size = size
        self.mm = mm
        self.fonts = fonts  # (regular, bold): registered TTF names for scripts beyond Latin

    def _xy(self, x, y):
        return x * self.mm, (self.size[1] - y) * self.mm

    def _colours(self, fill, stroke, width):
        if fill:
            self.pdf.setFillColorRGB(*[c / 255 for c in fill])
        if stroke:
            self.pdf.setStrokeColorRGB(*[c / 255 for c in stroke])
            self.pdf.setLineWidth(width * self.mm)
        return (1 if fill else 0), (1 if stroke else 0)

    def begin(self, cls, **data):
        pass

    def end(self):
        pass

    def rect(self, x, y, w, h, fill=None, stroke=None, width=0, radius=0, cls=None):
        f, s = self._colours(fill, stroke, width)
        px, py = self._xy(x, y + h)
        if radius:
            self.pdf.roundRect(px, py, w * self.mm, h * self.mm, radius * self.mm, stroke=s, fill=f)
        else:
            self.pdf.rect(px, py, w * self.mm, h * self.mm, stroke=s, fill=f)

    def circle(self, cx, cy, r, fill=None, cls=None):
        self._colours(fill, None, 0)
        px, py = self._xy(cx, cy)
        self.pdf.circle(px, py, r * self.mm, stroke=0, fill=1)

    def line(self, x1, y1, x2, y2, stroke, width, cls=None):
        self._colours(None, stroke, width)
        self.pdf.line(*self._xy(x1, y1), *self._xy(x2, y2))

    def polygon(self, points, fill, cls=None):
        self._colours(fill, None, 0)
        path = self.pdf.beginPath()
        path.moveTo(*self._xy(*points[0]))
        for p in points[1:]:
            path.lineTo(*self._xy(*p))
        path.close()
        self.pdf.drawPath(path, stroke=0, fill=1)

    def text(self, x, y, text, size, fill=(0, 0, 0), bold=False, anchor="start", cls=None):
        self._colours(fill, None, 0)
        # SVG font-size is the em size; 1 mm = 72/25.4 pt
        self.pdf.setFont(self.fonts[1] if bold else self.fonts[0], size * self.mm)
        px, py = self._xy(x, y)
        if anchor == "middle":
            self.pdf.drawCentredString(px, py, text)
        else:
            self.pdf.drawString(px, py, text)


# -- output --------------------------------------------------------------------------------

def render_svg(pitch=DEFAULT_PITCH_MM, paper="a4"):
    """The films as SVG text: one sheet of ``paper`` if all eight tiles fit, else a sheet
    just big enough."""
    sheet = PAPERS[paper] if fits(pitch, PAPERS[paper]) else None
    size, pages = layout(pitch, sheet)
    canvas = SvgCanvas(size, pitch)
    draw_page(canvas, pitch, pages[0], 1, 1)
    return canvas.document()


def render_pdf(pitch=DEFAULT_PITCH_MM, paper="a4"):
    """The films as PDF bytes on pages of ``paper`` (more than one if the pitch is large)."""
    import io

    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas

    size, pages = layout(pitch, PAPERS[paper])
    out = io.BytesIO()
    pdf = Canvas(out, pagesize=(size[0] * mm, size[1] * mm), invariant=1)
    pdf.setTitle("Micro Robots tile films, pitch %.3f mm" % pitch)
    for n, placed in enumerate(pages, 1):
        draw_page(PdfCanvas(pdf, size), pitch, placed, n, len(pages))
        pdf.showPage()
    pdf.save()
    return out.getvalue()


def _pitch(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a number of millimetres" % text)
    if not (math.isfinite(value) and PITCH_RANGE[0] <= value <= PITCH_RANGE[1]):
        raise argparse.ArgumentTypeError("%s mm is outside %g-%g mm"
                                         % (text, PITCH_RANGE[0], PITCH_RANGE[1]))
    return value


def main(argv=None):
    parser = cli.Parser(prog="python -m tools.draw.overlay",
                     description="Printable tile films for the LED grid (SVG or PDF).")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write FILE (.svg or .pdf); default: SVG on standard output")
    parser.add_argument("--pitch", type=_pitch, default=DEFAULT_PITCH_MM, metavar="MM",
                        help="distance between LED centres in mm (default %.3f: a 60 LED/m strip)"
                        % DEFAULT_PITCH_MM)
    parser.add_argument("--paper", choices=sorted(PAPERS), default="a4",
                        help="paper size (default a4)")
    parser.add_argument("--format", choices=("svg", "pdf"),
                        help="output format (default: from the file name, else svg)")
    try:
        args = parser.parse_args(argv)
        fmt = args.format
        if fmt is None:
            ext = os.path.splitext(args.output or "")[1].lower()
            if args.output and ext not in (".svg", ".pdf"):
                raise OverlayError("%s: cannot tell the format from the name; use .svg or .pdf "
                                   "or --format" % args.output)
            fmt = "pdf" if ext == ".pdf" else "svg"
        if fmt == "pdf" and not args.output:
            raise OverlayError("PDF output needs -o FILE")
        if fmt == "pdf":
            data = render_pdf(args.pitch, args.paper)
        else:
            if not fits(args.pitch, PAPERS[args.paper]):
                print("note: at %.2f mm the eight tiles do not fit one %s page; the SVG is one "
                      "larger sheet (the PDF spreads them over pages)" % (args.pitch, args.paper),
                      file=sys.stderr)
            data = render_svg(args.pitch, args.paper).encode()
        if args.output:
            write_atomically(args.output, data)
        else:
            sys.stdout.write(data.decode())
    except (OverlayError, cli.UsageError) as e:
        return cli.fail("overlay", e)
    except OSError as e:
        return cli.fail("overlay", "%s: cannot write (%s)" % (args.output, e.strerror or e))
    return 0


if __name__ == "__main__":
    cli.run(main)
