"""The device configuration: which pins, which LEDs, in which order.

An optional ``config.json`` at the root of the device's filesystem overrides the
defaults below, key by key; without the file the defaults apply. ``load_file`` reads it,
``load`` validates text, and both return a plain dict with every key of ``defaults()``::

    {"matrix": "panel8x8", "window": [1, 1], "rotation": 90}

A bad file raises ``ConfigError`` with one line naming the key and the problem, e.g.
``config.json: buttons.left: pin 31 is out of range 0-29``. ``main.py`` shows it on the
serial console and a red X on the grid. The wiring diagram and the pin table in the
hardware docs are generated from ``defaults()``: change a default here, not there.

The defaults and the tables below are built when called, not kept in the module: the
device reads its configuration once, at boot, and a module's dicts would stay in the
heap for good (0.5 KB, issue 23's heap goal; emulated RP2040).
"""

import json

from ..compat import const
from .power import power_budget
from .store import missing, parse, read_all

BUTTON_NAMES = ("up", "down", "left", "right", "a", "b")  # the order of input.BUTTON_NAMES
_PIN_MAX = const(29)  # RP2040: GP0..GP29
_ADC_PINS = const((26, 27, 28, 29))  # ADC0..ADC3: the pins battery_pin may name
_MATRICES = const(("strip", "panel8x8"))  # and their LEDs: 36, 64
_ORDERS = const(("serpentine", "progressive"))
_ORIGINS = const(("top-left", "top-right", "bottom-left", "bottom-right"))
_ROTATIONS = const((0, 90, 180, 270))
_PANEL_SIZE = const(8)
_GRID_SIZE = const(6)


class ConfigError(ValueError):
    """A configuration problem; ``str(error)`` is one line naming the key."""


def defaults():
    """The configuration without a config.json: a new dict each call."""
    return {
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
        "battery_pin": 29,  # ADC pin reading a third of VSYS (the Pico's own GP29); null = no gauge
        "usb_pin": 24,  # high while USB powers the board (the Pico's GP24); null = not known
        "led_power_pin": None,  # the LED supply's switch (MOSFET gate, high = on); null = none
        "battery_ma": 1000,  # the most the battery gives the LEDs: their cap on battery
    }


def load_file(path="config.json"):
    """Read and validate ``path``; a missing file gives the defaults. Whatever the file
    holds (not UTF-8, nested too deep, too big), the problem is a ConfigError."""
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
    defaults); return the config. The text is read by store.parse (its limits, UTF-8
    only).

    Raises ``ConfigError`` whose message starts with ``source``, and nothing else.
    """
    given, problem = parse(text, True)
    if problem is not None:
        raise ConfigError("%s: %s" % (source, problem))
    if not isinstance(given, dict):
        raise ConfigError("%s: must be a JSON object like {\"led_pin\": 2}" % source)
    try:
        return _validate(given)
    except ConfigError as error:
        raise ConfigError("%s: %s" % (source, error)) from None
    except Exception as error:  # noqa: BLE001 - MemoryError: a red X, not a dead boot
        raise ConfigError("%s: cannot be checked (%s)" % (source, type(error).__name__)) from None


def _validate(given):
    config = defaults()
    for key in given:
        if key not in config:
            raise ConfigError("unknown key %s%s" % (_named(key), _suggest(key, config)))
    for key in given:
        value = given[key]
        if key == "buttons":
            _merge_buttons(config["buttons"], value)
        else:
            config[key] = value

    _pin(config["led_pin"], "led_pin")
    _choice(config["matrix"], "matrix", _MATRICES)
    leds = 36 if config["matrix"] == "strip" else 64
    if "led_count" not in given:  # follow the matrix unless told otherwise
        config["led_count"] = leds
    count = _int(config["led_count"], "led_count")
    if count != leds:
        raise ConfigError("led_count: %s has %d LEDs, not %d" % (config["matrix"], leds, count))
    _choice(config["order"], "order", _ORDERS)
    _choice(config["origin"], "origin", _ORIGINS)
    rotation = _int(config["rotation"], "rotation")
    if rotation not in _ROTATIONS:
        raise ConfigError("rotation: must be 0, 90, 180 or 270, not %d" % rotation)
    _window(config["window"], config["matrix"] == "panel8x8")
    _color_order(config["color_order"])
    if "brightness_cap" not in given:  # more LEDs idle: less light within the budget
        config["brightness_cap"] = power_budget(leds)
    if config["buzzer_pin"] is not None:
        _pin(config["buzzer_pin"], "buzzer_pin")
    cap = _int(config["brightness_cap"], "brightness_cap")
    if not 1 <= cap <= 65535:
        raise ConfigError("brightness_cap: must be 1..65535, not %d" % cap)
    _power_pins(config)
    _no_shared_pins(config)
    return config


def _merge_buttons(buttons, value):
    if not isinstance(value, dict):
        raise ConfigError("buttons: must be an object like {\"a\": 14}")
    for name in value:
        if name not in buttons:
            raise ConfigError("buttons: unknown button %s (known: %s)"
                              % (_named(name), " ".join(BUTTON_NAMES)))
        buttons[name] = _pin(value[name], "buttons." + name)


def _power_pins(config):
    """The battery gauge's pins and the LED supply's switch: each a pin, or null."""
    pin = config["battery_pin"]
    if pin is not None and _int(pin, "battery_pin") not in _ADC_PINS:
        raise ConfigError("battery_pin: must be an ADC pin (26, 27, 28 or 29) or null, not %d"
                          % pin)
    pin = config["usb_pin"]
    if pin is not None and pin != 24:  # GP24: the Pico's own VBUS sensing
        _pin(pin, "usb_pin")
    if config["led_power_pin"] is not None:
        _pin(config["led_power_pin"], "led_power_pin")
    ma = _int(config["battery_ma"], "battery_ma")
    if not 100 <= ma <= 5000:
        raise ConfigError("battery_ma: must be 100..5000 (mA), not %d" % ma)


def internal_use(pin):
    """What a GPIO the Pico uses on the board itself is for (on a Pico W: the radio), or
    None for a pin on its header."""
    if pin == 23:
        return "power supply mode"
    if pin == 24:
        return "VBUS sensing"
    if pin == 25:
        return "the on-board LED"
    if pin == 29:
        return "VSYS measurement"
    return None


def _int(value, key):
    # JSON true/false are bools, and bool is an int in Python: refuse them explicitly.
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError("%s: must be a whole number, not %s" % (key, _shown(value)))
    return value


def _pin(value, key):
    _int(value, key)
    if not 0 <= value <= _PIN_MAX:
        raise ConfigError("%s: pin %d is out of range 0-%d" % (key, value, _PIN_MAX))
    use = internal_use(value)
    if use is not None:
        raise ConfigError("%s: pin %d is not on the Pico's header (it is used for %s)"
                          % (key, value, use))
    return value


def _choice(value, key, choices):
    if value not in choices:
        raise ConfigError("%s: must be one of %s, not %s" % (key, ", ".join(choices), _shown(value)))


def _window(value, used):
    if not isinstance(value, list) or len(value) != 2:
        raise ConfigError("window: must be [column, row], not %s" % _shown(value))
    col = _int(value[0], "window")
    row = _int(value[1], "window")
    limit = _PANEL_SIZE - _GRID_SIZE
    if used and not (0 <= col <= limit and 0 <= row <= limit):
        raise ConfigError("window: [%d, %d] puts the 6x6 grid outside the 8x8 panel "
                          "(column and row must be 0-%d)" % (col, row, limit))


def _color_order(value):
    if not isinstance(value, str) or len(value) != 3 or sorted(value) != ["B", "G", "R"]:
        raise ConfigError("color_order: must be the letters R, G, B in some order, e.g. GRB, not %s"
                          % _shown(value))


def _no_shared_pins(config):
    users = {config["led_pin"]: "led_pin"}
    uses = [("buttons." + name, config["buttons"][name]) for name in BUTTON_NAMES]
    for key in ("buzzer_pin", "battery_pin", "usb_pin", "led_power_pin"):
        if config[key] is not None:
            uses.append((key, config[key]))
    for key, pin in uses:
        if pin in users:
            raise ConfigError("%s: pin %d is already used by %s" % (key, pin, users[pin]))
        users[pin] = key


def _shown(value):
    """``value`` as JSON, cut to 40 characters: one line however big the value."""
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _named(key):
    """``repr(key)``, cut to 40 characters."""
    text = repr(key)
    return text if len(text) <= 40 else text[:37] + "..."


def _suggest(word, known):
    """`` (did you mean 'x'?)`` for the closest known key within two edits, else ``""``."""
    best = None
    best_cost = 3
    for candidate in known:
        cost = _edits(word, candidate)
        if cost < best_cost:
            best, best_cost = candidate, cost
    return "" if best is None else " (did you mean %r?)" % best


def _edits(a, b):
    """Levenshtein distance, in one row of integers."""
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        diagonal, row[0] = row[0], i
        for j in range(1, len(b) + 1):
            cost = diagonal if a[i - 1] == b[j - 1] else diagonal + 1
            diagonal = row[j]
            row[j] = min(cost, row[j] + 1, row[j - 1] + 1)
    return row[len(b)]
