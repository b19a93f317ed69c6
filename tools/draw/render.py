"""Draw the handheld as a PNG: the 6x6 grid under its printed film, lit as the LEDs are.

    python -m tools.draw.render --frames FRAMES.jsonl [--at MS] [--tiles CODE] --png OUT.png

A frame is what the simulator writes (``python -m tools.sim --headless --frames-out``):
36 ``[r, g, b]`` values as sent to the LEDs, after gamma and brightness. Each cell is
drawn as a die of the printed film (its pips, from tools/dice.py) glowing in the colour
its LED shows; ``--robot`` and ``--target`` add an outline around those cells. Around
the grid: the device's bezel with the D-pad and the A and B buttons.

LED values are light intensities, a screen's values are not: the colours come from
tools/draw/colour.py (``screen_rgb``, ``lit_film``, ``pip_ink``), which the terminal
simulator and the web page use too.

The output is deterministic: the same frame and options give the same bytes
(no timestamps; fixed supersampling), which ``make images`` relies on.
"""

import json

from tools import cli
from tools.draw.colour import EXPOSURE, FILM_OFF, lit_film, pip_ink, screen_rgb  
from tools.draw.dice import PIPS

GRID = 6
CELLS = 36
SUPERSAMPLE = 3  # draw large, then shrink: smooth circles without antialiasing support

# Geometry of the picture in output pixels (before ``scale``).
CELL = 72
GAP = 10
MARGIN = 36
BUTTONS = 150  # height of the button area under the grid

BODY = (28, 30, 36)
BODY_EDGE = (70, 74, 84)
BUTTON = (58, 62, 72)
BUTTON_EDGE = (110, 116, 128)
LABEL = (170, 176, 188)


def validate_pixels(pixels, where="frame"):
    """Raise ValueError (one line) unless ``pixels`` is 36 triples of 0..255."""
    if not isinstance(pixels, list) or len(pixels) != CELLS:
        raise ValueError(f"{where}: expected 36 pixels, got "
                         f"{len(pixels) if isinstance(pixels, list) else type(pixels).__name__}")
    for i, p in enumerate(pixels):
        if (not isinstance(p, (list, tuple)) or len(p) != 3
                or not all(isinstance(v, int) and 0 <= v <= 255 for v in p)):
            raise ValueError(f"{where}: pixel {i} is {p!r}, expected [r, g, b] with 0..255")


def render(pixels, layout, robot=None, target=None, scale=1.0, exposure=EXPOSURE,
           buttons=True):
    """The device as a PIL image, showing ``pixels`` (36 RGB triples) on ``layout``."""
    from PIL import Image, ImageDraw

    validate_pixels(pixels)
    s = SUPERSAMPLE
    cell, gap, margin = CELL * s, GAP * s, MARGIN * s
    grid = GRID * cell + (GRID - 1) * gap
    width = grid + 2 * margin
    height = grid + 2 * margin + (BUTTONS * s if buttons else 0)
    # transparent around the rounded body (its colour, so that shrinking leaves no fringe)
    image = Image.new("RGBA", (width, height), BODY + (0,))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=margin, fill=BODY,
                           outline=BODY_EDGE, width=2 * s)
    # the window the film sits in
    inset = gap
    draw.rounded_rectangle((margin - inset, margin - inset, margin + grid + inset,
                            margin + grid + inset), radius=gap, fill=(12, 12, 14))
    glow = _glow_mask(cell)
    for i in range(CELLS):
        r, c = divmod(i, GRID)
        x, y = margin + c * (cell + gap), margin + r * (cell + gap)
        _draw_cell(image, draw, x, y, cell, pixels[i], layout.number(i), glow, exposure)
    for cell_index, colour in ((target, (255, 255, 255)), (robot, (255, 255, 255))):
        if cell_index is None:
            continue
        r, c = divmod(cell_index, GRID)
        x, y = margin + c * (cell + gap), margin + r * (cell + gap)
        wide = 3 * s if cell_index == robot else 2 * s
        pad = gap // 2
        box = (x - pad, y - pad, x + cell + pad, y + cell + pad)
        if cell_index == robot:
            draw.rounded_rectangle(box, radius=gap, outline=colour, width=wide)
        else:
            _corner_marks(draw, box, cell // 4, colour, wide)
    if buttons:
        _draw_buttons(draw, margin, margin + grid + margin, width, BUTTONS * s, s)
    size = (max(1, round(width / s * scale)), max(1, round(height / s * scale)))
    return image.resize(size, Image.LANCZOS)


def _glow_mask(size):
    """Brightest in the middle of a cell, falling off towards its edges (as under a film)."""
    from PIL import Image

    gradient = Image.radial_gradient("L").resize((size, size), Image.BILINEAR)
    # radial_gradient: 0 in the middle, 255 at radius 128 of 256 (the edge midpoints)
    return gradient.point(lambda v: 255 - min(255, v) * 110 // 255)


def _draw_cell(image, draw, x, y, size, pixel, number, glow, exposure):
    from PIL import Image, ImageDraw

    lit = screen_rgb(pixel, exposure)
    base = Image.new("RGB", (size, size), FILM_OFF)
    bright = Image.new("RGB", (size, size), lit_film(pixel, exposure))
    face = Image.composite(bright, base, glow)
    mask = Image.new("L", (size, size), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, size - 1, size - 1), radius=size // 8,
                                           fill=255)
    image.paste(face, (x, y), mask)
    # the printed pips: dark ink on the film, darker than whatever glows beneath
    ink = pip_ink(lit)
    radius = size * 0.07
    inner = size * 0.72  # pips sit within the middle 72 % of the face
    off = (size - inner) / 2
    for px, py in PIPS[number]:
        cx, cy = x + off + px * inner, y + off + py * inner
        draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=ink)


def _corner_marks(draw, box, length, colour, width):
    x0, y0, x1, y1 = box
    for cx, cy, dx, dy in ((x0, y0, 1, 1), (x1, y0, -1, 1), (x0, y1, 1, -1), (x1, y1, -1, -1)):
        draw.line((cx, cy, cx + dx * length, cy), fill=colour, width=width)
        draw.line((cx, cy, cx, cy + dy * length), fill=colour, width=width)


def _draw_buttons(draw, left, top, width, height, s):
    """The D-pad on the left, B and A on the right, as on the documented build."""
    from PIL import ImageFont

    font = ImageFont.load_default(size=16 * s)
    key = 30 * s
    mid_y = top + height // 2 - 12 * s
    pad_x = left + 2 * key
    for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0)):
        cx, cy = pad_x + dx * key, mid_y + dy * key
        draw.rounded_rectangle((cx - key // 2, cy - key // 2, cx + key // 2, cy + key // 2),
                               radius=6 * s, fill=BUTTON, outline=BUTTON_EDGE, width=s)
    draw.rectangle((pad_x - key // 2, mid_y - key // 2, pad_x + key // 2, mid_y + key // 2),
                   fill=BUTTON)
    for label, cx in (("B", width - left - 4 * key), ("A", width - left - key - key // 2)):
        cy = mid_y + (key // 2 if label == "B" else -key // 3)
        r = int(key * 0.75)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=BUTTON, outline=BUTTON_EDGE,
                     width=s)
        draw.text((cx, cy), label, fill=LABEL, font=font, anchor="mm")
    draw.text((width // 2, top + height - 30 * s), "MICRO ROBOTS", fill=LABEL, font=font,
              anchor="mm")


def save_png(image, path):
    """Write ``image`` as PNG, with no metadata, so the bytes depend on the pixels only."""
    image.save(path, format="PNG", optimize=False, compress_level=9)


# -- frames files ------------------------------------------------------------------------

def read_frames(path):
    """The frames of a frames-out file (JSON lines), checked. ValueError names the line."""
    from microrobots.device.store import parse

    frames = []
    for n, line in enumerate(cli.read_text(path, "frames file").splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}, line {n}"
        frame, problem = parse(line)  # as the device reads JSON: nesting, strings bounded
        if problem is not None:
            raise ValueError(f"{where}: not a JSON object ({problem})")
        if not isinstance(frame, dict) or "pixels" not in frame or "t" not in frame:
            raise ValueError(f"{where}: expected an object with \"t\" and \"pixels\"")
        validate_pixels(frame["pixels"], where)
        frames.append(frame)
    if not frames:
        raise ValueError(f"{path}: no frames")
    return frames


def frame_at(frames, at=None):
    """What the LEDs show at ``at`` ms: the last frame written at or before it."""
    if at is None:
        return frames[-1]
    shown = None
    for frame in frames:
        if frame["t"] <= at:
            shown = frame
    if shown is None:
        raise ValueError(f"no frame at or before {at} ms (the first is at {frames[0]['t']} ms)")
    return shown


def layout_of_state(state=None):
    """The arrangement in a simulated device's settings (``--state DIR``), else the default.

    The app keeps its arrangement in settings.json; the renderer needs it for the pips.
    """
    from microrobots.rules.board import Layout, LayoutError
    from microrobots.device.store import Store

    if state:
        data, _ = Store(state if state.endswith("/") else state + "/").load("settings")
        if isinstance(data, dict):
            try:
                return Layout.from_tiles(data.get("side", "black"), data.get("tiles", "ABCD0000"))
            except (LayoutError, AttributeError, TypeError):
                pass
    return Layout.named("black")


def write_png(frame_lines, path, at=None, state=None):
    """The ``tools.sim --headless --png`` hook: draw the frame shown at ``at`` (default:
    the last one) from frames-out JSON lines. Raises ValueError with one line."""
    frames = []
    for n, line in enumerate(frame_lines, 1):
        frame = json.loads(line)
        validate_pixels(frame["pixels"], f"frame {n}")
        frames.append(frame)
    if not frames:
        raise ValueError(f"{path}: no frame to draw (nothing was shown)")
    image = render(frame_at(frames, at)["pixels"], layout_of_state(state))
    try:
        save_png(image, path)
    except OSError as e:
        raise ValueError(f"{path}: cannot write the PNG ({e.strerror})")


def build_parser():
    p = cli.Parser(
        prog="python -m tools.draw.render",
        description="Draw a frame of the handheld (from the simulator's frames-out) as a PNG.")
    p.add_argument("--frames", required=True, metavar="FILE",
                   help="frames-out JSON lines from tools.sim --headless ('-': stdin)")
    p.add_argument("--at", type=int, metavar="MS",
                   help="show the LEDs at this time (default: the last frame)")
    p.add_argument("--png", required=True, metavar="OUT", help="PNG file to write")
    cli.add_layout_options(p)
    p.add_argument("--robot", type=int, metavar="CELL", help="outline this cell (0-35)")
    p.add_argument("--target", type=int, metavar="CELL", help="mark this cell's corners")
    p.add_argument("--scale", type=float, default=1.0, help="size factor (default 1)")
    return p


def main(argv=None):
    args = None
    try:
        args = build_parser().parse_args(argv)
        for name in ("robot", "target"):
            value = getattr(args, name)
            if value is not None and not 0 <= value < CELLS:
                raise ValueError(f"--{name} {value}: a cell is 0..35")
        if not 0.1 <= args.scale <= 8:
            raise ValueError(f"--scale {args.scale}: use 0.1..8")
        layout = cli.layout_from_args(args)
        frame = frame_at(read_frames(args.frames), args.at)
        image = render(frame["pixels"], layout, robot=args.robot, target=args.target,
                       scale=args.scale)
        save_png(image, args.png)
    except (ValueError, *cli.Errors) as e:
        return cli.fail("render", e)
    except OSError as e:
        return cli.fail("render", f"{args.png}: cannot write ({e.strerror or e})")
    return 0


if __name__ == "__main__":
    cli.run(main)
