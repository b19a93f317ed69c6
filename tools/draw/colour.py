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
"""

import math
import os
import sys

FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__)))), "firmware")


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
        if FIRMWARE not in sys.path:
            sys.path.insert(0, FIRMWARE)
        from microrobots.display import gamma_table

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
