"""The device configuration: which pins, which LEDs, in which order.

An optional ``config.json`` at the root of the device's filesystem overrides the
defaults below, key by key; without the file the defaults apply. ``load_file`` reads it,
``load`` validates text, and both return a plain dict with every key of ``DEFAULTS``::

    {"matrix": "panel8x8", "window": [1, 1], "rotation": 90}

A bad file raises ``ConfigError`` with one line naming the key and the problem, e.g.
``config.json: buttons.left: pin 31 is out of range 0-29``. ``main.py`` shows it on the
serial console and a red X on the grid. The wiring diagram and the pin table in the
hardware docs are generated from ``DEFAULTS``: change a default here, not there.

The checking is in config_check.py, imported only when there is a file to check (most
boards have none) and dropped again on the device: a Pico keeps every name a module
interns for good, so a board without a config.json should not pay for the checker's.
"""

import sys

from .compat import const

# (``_X = const(...)``: no global and no interned name on a Pico, where the names of a
# module stay in RAM after it is dropped.)
BUTTON_NAMES = ("up", "down", "left", "right", "a", "b")  # the order of input.BUTTON_NAMES
# The LEDs' power budget from USB: 500 mA, of which each WS2812B takes 1 mA idle; a
# channel at full value (255) draws about 20 mA more.
_USB_MA = const(500)
_IDLE_MA = const(1)
_CHANNEL_MA = const(20)

_CHECKER = const("microrobots.config_check")

DEFAULTS = {
    "led_pin": 2,  # GP2: NeoPixel data
    "matrix": "strip",  # "strip": 36 LEDs in six rows of six; "panel8x8": a 6x6 window on an 8x8 panel
    "led_count": 36,  # 36 for strip, 64 for panel8x8 (validated against matrix)
    "order": "serpentine",  # "serpentine" or "progressive" (row by row, same direction)
    "origin": "top-left",  # corner of the first LED: top-left top-right bottom-left bottom-right
    "rotation": 0,  # 0 90 180 270, clockwise, applied to the grid
    "window": [1, 1],  # panel8x8 only: column, row of the window's top-left LED
    "color_order": "GRB",  # WS2812B byte order
    "buttons": {"up": 10, "down": 11, "left": 12, "right": 13, "a": 14, "b": 15},  # GP pins, active low, pull-ups
    "buzzer_pin": 16,  # GP16 piezo (PWM); null = no buzzer
    "brightness_cap": 5900,  # max sum of all channel values written in one frame (power budget)
}


def power_budget(led_count):
    """The largest sum of channel values within USB's 500 mA, rounded down to 50.

    36 LEDs: (500 - 36) mA / 20 mA * 255 = 5916 -> 5900 (the default brightness_cap);
    64 LEDs: (500 - 64) / 20 * 255 = 5559 -> 5550 (the panel8x8 default).
    """
    return (_USB_MA - led_count * _IDLE_MA) * 255 // _CHANNEL_MA // 50 * 50


class ConfigError(ValueError):
    """A configuration problem; ``str(error)`` is one line naming the key."""


def defaults():
    """A fresh copy of ``DEFAULTS`` (the nested dict and list are copied too)."""
    config = dict(DEFAULTS)
    config["buttons"] = dict(DEFAULTS["buttons"])
    config["window"] = list(DEFAULTS["window"])
    return config


def load_file(path="config.json"):
    """Read and validate ``path``; a missing file gives the defaults. Whatever the file
    holds (not UTF-8, nested too deep, too big), the problem is a ConfigError."""
    from .store import missing, read_all

    try:
        with open(path, "rb") as f:
            data = read_all(f)  # None: too big, unread
        if data is None:
            data = False  # (store.parse: too big)
    except OSError as error:
        if missing(error):
            return defaults()
        raise ConfigError("%s: cannot be read (%s)" % (path, error))
    return load(data, path)


def load(text, source="config.json"):
    """Validate JSON ``text`` (str or bytes, UTF-8: a JSON object overriding some
    defaults); return the config.

    Raises ``ConfigError`` whose message starts with ``source``, and nothing else.
    """
    # By its full name: a string this long is a constant, not a name the Pico interns
    # (``from . import config_check`` would intern it at boot, file or not).
    checker = __import__(_CHECKER, None, None, ("check",))
    try:
        return checker.check(text, source)
    finally:
        if sys.implementation.name != "cpython":  # the device: the checker's code goes
            sys.modules.pop(_CHECKER, None)
            package = sys.modules.get("microrobots")
            if package is not None and hasattr(package, _CHECKER[12:]):
                delattr(package, _CHECKER[12:])
