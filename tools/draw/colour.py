"""How different two colours look: CIELAB and CIEDE2000 (Sharma, Wu, Dalal 2005).

About 1 is a just-noticeable difference, 10 a clear one, 40 two different colours at a
glance. Two kinds of colour are compared:

- ``screen_lab``: an sRGB colour on a screen (the terminal simulator's cells);
- ``led_lab``: the light an LED emits for a firmware design colour. The design value
  goes through the display's gamma (display.gamma_table) to the value the LED is driven
  with; a WS2812's light is proportional to that value, so ``value / 255`` is linear
  light, taken as linear sRGB (D65) relative to the LED's full white. Brightness scales
  every channel alike and the eye adapts to the grid's white, so LED figures hold at
  every brightness setting.

Used by the terminal's 256-colour fallback and by the tests that measure the handheld's
colours (the robot on every die, the counts' symbols).

The one home of the tools' colours: the terminal simulator (tools/sim/terminal.py), the
PNG renderer (render.py), the films (overlay.py) and the web page (tools/sim/web/, whose
``tables.js`` is generated from this module when the page is built) all draw with these,
so they cannot drift apart::

    screen_rgb((255, 80, 175))   # the screen colour that looks like that LED lit
    lit_film((255, 80, 175))     # a die of the film over that LED, in room light
    pip_ink(screen_rgb(p))       # the film's printed pips over a cell lit at p
    text_ink(lit_film(p))        # legible text (the terminal's pips) on that cell
    rgb_to_256((40, 110, 230))   # the 256-colour terminal entry that looks most like it

LED values are light intensities (a WS2812 emits light in proportion to its value), a
screen's values are not: ``screen_rgb`` turns one into the other as a camera exposed for
the grid would, so dim cells stay visible and hues stay true. A colour too bright for
the exposure is scaled down as a whole, keeping its hue. It is computed from two
tables, ``LEVEL[v]`` and ``KNEE[brightest channel]``: ``round(LEVEL[v] / KNEE[top])``
is exactly the camera formula (checked for every pair in the tests), and lets the web
page compute the same integers from the same numbers.

``HIGH_CONTRAST_EXPOSURE`` (the web page's high-contrast view, on black) exposes the LEDs
2.5 times as long, for a projector in a bright classroom: the faintest lit LED shows, the
bright ones saturate, and a dimmed cell stays darker than a lit one (the classroom's
wave, the robot on its board) - once it exposed every LED to full brightness, and all
of them looked alike.

    python -m tools.draw.colour --js FILE   # the screen tables as a JavaScript module
"""


import functools
import json
import math

from tools import cli


def _lab(r, g, b):
    """CIELAB (D65) of linear sRGB light."""
    x = 0.4124 * r + 0.3576 * g + 0.1805 * b
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = 0.0193 * r + 0.1192 * g + 0.9505 * b

    def f(t):
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x / 0.95047), f(y), f(z / 1.08883)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def screen_lab(rgb):
    """CIELAB of an sRGB screen colour (0..255 per channel)."""
    def linear(v):
        v /= 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    return _lab(*(linear(v) for v in rgb))


_GAMMA = None


def led_lab(rgb):
    """CIELAB of the light an LED emits for design colour ``rgb`` (after the display's
    gamma)."""
    global _GAMMA
    if _GAMMA is None:
        from microrobots.device.display import gamma_table

        _GAMMA = gamma_table()
    return _lab(*(_GAMMA[v] / 255 for v in rgb))


def chroma(lab):
    return math.hypot(lab[1], lab[2])


def delta_e00(lab1, lab2):
    """CIEDE2000 difference of two CIELAB colours."""
    L1, a1, b1 = lab1
    L2, a2, b2 = lab2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar ** 7 / (c_bar ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = L2 - L1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    else:
        dh = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    dH = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_bar, cp_bar = (L1 + L2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    else:
        h_bar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_bar - 30)) + 0.24 * math.cos(math.radians(2 * h_bar))
         + 0.32 * math.cos(math.radians(3 * h_bar + 6)) - 0.20 * math.cos(math.radians(4 * h_bar - 63)))
    d_theta = 30 * math.exp(-(((h_bar - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cp_bar ** 7 / (cp_bar ** 7 + 25 ** 7))
    sl = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    sc = 1 + 0.045 * cp_bar
    sh = 1 + 0.015 * cp_bar * t
    rt = -math.sin(math.radians(2 * d_theta)) * rc
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dH / sh) ** 2 + rt * (dc / sc) * (dH / sh))


def led_difference(rgb1, rgb2):
    """CIEDE2000 between the light of two design colours on the LEDs."""
    return delta_e00(led_lab(rgb1), led_lab(rgb2))


# -- LED to screen ------------------------------------------------------------------------



EXPOSURE = 4.0  # how a camera would expose for LEDs running at a comfortable brightness
HIGH_CONTRAST_EXPOSURE = 10.0  # 2.5 times the normal exposure: dim and bright LEDs stay apart
SCREEN_GAMMA = 2.2

FILM_OFF = (52, 53, 58)  # an unlit cell: the film over a dark LED, in room light
INK_ON_DARK = (22, 22, 26)  # printed pips over an unlit (or nearly unlit) cell
TEXT_DARK = (10, 10, 12)  # text on a bright cell
TEXT_LIGHT = (150, 150, 156)  # text on a dark cell

# The six die colours as printed on the films and shown on screens (not on LEDs: see
# firmware/microrobots/palette.py for those), in the firmware's order B Y G R P W.
FILM_RGB = (
    (40, 110, 230),   # blue
    (245, 205, 30),   # yellow
    (40, 170, 70),    # green
    (215, 40, 40),    # red
    (240, 120, 190),  # pink
    (240, 240, 240),  # white
)

_TABLES = {}


def tables(exposure=EXPOSURE):
    """``(LEVEL, KNEE)`` for ``exposure``: 256 floats each (see the module docstring)."""
    t = _TABLES.get(exposure)
    if t is None:
        level = tuple(255 * (v * exposure / 255.0) ** (1 / SCREEN_GAMMA) for v in range(256))
        knee = tuple(max(1.0, m * exposure / 255.0) ** (1 / SCREEN_GAMMA) for m in range(256))
        t = _TABLES[exposure] = (level, knee)
    return t


def screen_rgb(pixel, exposure=EXPOSURE):
    """The screen colour (sRGB-ish 0..255) that looks like an LED lit at ``pixel``."""
    level, knee = tables(exposure)
    values = [min(255, max(0, int(v))) for v in pixel]
    top = knee[max(values)]
    return tuple(int(level[v] / top + 0.5) for v in values)


def lit_film(pixel, exposure=EXPOSURE):
    """A cell of the film over an LED lit at ``pixel``: the LED's light over the film's own
    grey ("screen" blend: never clips, keeps the hue)."""
    return tuple(b + v * (255 - b) // 255 for b, v in zip(FILM_OFF, screen_rgb(pixel, exposure)))


def pip_ink(lit):
    """The printed pips over a cell whose LED shows ``lit`` (a screen colour): dark ink,
    darker than whatever glows beneath."""
    return tuple(v // 5 for v in lit) if max(lit) > 60 else INK_ON_DARK


def text_ink(background):
    """Text that reads on ``background``: dark on bright cells, light on dark ones."""
    luminance = 0.3 * background[0] + 0.59 * background[1] + 0.11 * background[2]
    return TEXT_DARK if luminance > 100 else TEXT_LIGHT


def js_module():
    """The colours of the web page's ``tables.js``: these tables and constants, and the same formulas."""
    def floats(values):
        return "[" + ",".join(repr(v) for v in values) + "]"

    normal, contrast = tables(EXPOSURE), tables(HIGH_CONTRAST_EXPOSURE)
    return "\n".join([
        "// Generated by `python -m tools.draw.colour --js` from tools/draw/colour.py:",
        "// do not edit; the page is built with it (make web-build).",
        "export const FILM_OFF = %s;" % json.dumps(list(FILM_OFF)),
        "export const INK_ON_DARK = %s;" % json.dumps(list(INK_ON_DARK)),
        "export const FILM_RGB = %s;" % json.dumps([list(c) for c in FILM_RGB]),
        "const TABLES = {",
        "  normal: [%s, %s]," % (floats(normal[0]), floats(normal[1])),
        "  contrast: [%s, %s]," % (floats(contrast[0]), floats(contrast[1])),
        "};",
        "// screen_rgb: the screen colour that looks like an LED lit at [r, g, b].",
        "export function screenRgb(pixel, exposure = \"normal\") {",
        "  const [level, knee] = TABLES[exposure];",
        "  const top = knee[Math.max(pixel[0], pixel[1], pixel[2])];",
        "  return pixel.map((v) => Math.floor(level[v] / top + 0.5));",
        "}",
        "// lit_film: a die of the film over that LED, in room light.",
        "export function litFilm(pixel, exposure = \"normal\") {",
        "  const lit = screenRgb(pixel, exposure);",
        "  return FILM_OFF.map((b, i) => b + Math.floor(lit[i] * (255 - b) / 255));",
        "}",
        "// pip_ink: the printed pips over a cell whose LED shows `lit` (a screen colour).",
        "export function pipInk(lit) {",
        "  return Math.max(...lit) > 60 ? lit.map((v) => Math.floor(v / 5)) : INK_ON_DARK;",
        "}",
        "",
    ])


# -- 256-colour terminals ---------------------------------------------------------------------

_LEVELS = (0, 95, 135, 175, 215, 255)
XTERM_256 = {16 + 36 * r + 6 * g + b: (_LEVELS[r], _LEVELS[g], _LEVELS[b])
             for r in range(6) for g in range(6) for b in range(6)}
XTERM_256.update({232 + k: (8 + 10 * k,) * 3 for k in range(24)})


_PALETTE_LAB = {code: screen_lab(rgb) for code, rgb in XTERM_256.items()}
_PALETTE_CHROMA = {code: chroma(lab) for code, lab in _PALETTE_LAB.items()}
_PALETTE_HUE = {code: math.degrees(math.atan2(lab[2], lab[1])) for code, lab in _PALETTE_LAB.items()}
GREY_CHROMA = 6  # CIELAB chroma below which a colour counts as grey
HUE_SPAN = 40  # degrees of CIELAB hue a coloured cell may turn
MIN_CHROMA = 0.85  # the share of its chroma a coloured cell keeps (red must not turn pink)


@functools.lru_cache(maxsize=8192)
def rgb_to_256(rgb):
    """The xterm-256 colour (16..255) that looks most like ``rgb``.

    Not the nearest in RGB: a dim coloured cell (the menu's quadrants behind the film)
    is nearest to a grey, and a terminal without true colour (tmux without COLORTERM)
    showed a grey menu. The nearest by CIEDE2000 among the entries that keep a colour
    that colour: an input with some chroma only takes an entry with at least half its
    chroma and a hue within HUE_SPAN degrees (a little more vivid, never grey).
    """
    lab = screen_lab(rgb)
    c = chroma(lab)
    hue = math.degrees(math.atan2(lab[2], lab[1]))
    best, best_code = None, 16
    for coloured in (c >= GREY_CHROMA, False):  # the entries that keep the colour, or any
        for code, entry in _PALETTE_LAB.items():
            if coloured:
                turn = abs(_PALETTE_HUE[code] - hue) % 360
                if _PALETTE_CHROMA[code] < c * MIN_CHROMA or min(turn, 360 - turn) > HUE_SPAN:
                    continue
            d = delta_e00(lab, entry)
            if best is None or d < best:
                best, best_code = d, code
        if best is not None:
            return best_code
    return best_code


def main(argv=None):
    p = cli.Parser(prog="python -m tools.draw.colour",
                   description="Write the screen-colour tables for the web page.")
    p.add_argument("--js", required=True, metavar="FILE", help="the JavaScript module to write")
    try:
        args = p.parse_args(argv)
        cli.write_atomically(args.js, js_module())
    except cli.UsageError as e:
        return cli.fail("colours", e)
    except OSError as e:
        return cli.fail("colours", "%s: cannot write (%s)" % (args.js, e.strerror or e))
    return 0


if __name__ == "__main__":
    cli.run(main)
