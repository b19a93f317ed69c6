"""Checking a config.json (config.py's ``load``): every key, with one line on what is wrong.

Imported by ``config.load`` only when there is a file to check, and dropped again on the
device (see config.py).
"""

import json

from .compat import const
from .config import BUTTON_NAMES, DEFAULTS, ConfigError, defaults, power_budget
from .store import parse

_PIN_MAX = const(29)  # RP2040: GP0..GP29
# GPIOs the Pico uses on the board itself (on a Pico W: the radio): not on its header.
INTERNAL_PINS = {23: "power supply mode", 24: "VBUS sensing", 25: "the on-board LED",
                 29: "VSYS measurement"}
MATRIX_LEDS = {"strip": 36, "panel8x8": 64}
_ORDERS = const(("serpentine", "progressive"))
_ORIGINS = const(("top-left", "top-right", "bottom-left", "bottom-right"))
_ROTATIONS = const((0, 90, 180, 270))
_PANEL_SIZE = const(8)
_GRID_SIZE = const(6)


def check(text, source):
    """The config in JSON ``text``, checked (see config.load); ConfigError names ``source``.
    The text is read by store.parse (its limits, UTF-8 only); nothing else is raised."""
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
        if key not in DEFAULTS:
            raise ConfigError("unknown key %s%s" % (_named(key), _suggest(key, DEFAULTS)))
    for key in given:
        value = given[key]
        if key == "buttons":
            _merge_buttons(config["buttons"], value)
        else:
            config[key] = value

    _pin(config["led_pin"], "led_pin")
    _choice(config["matrix"], "matrix", tuple(MATRIX_LEDS))
    leds = MATRIX_LEDS[config["matrix"]]
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


def _int(value, key):
    # JSON true/false are bools, and bool is an int in Python: refuse them explicitly.
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError("%s: must be a whole number, not %s" % (key, _shown(value)))
    return value


def _pin(value, key):
    _int(value, key)
    if not 0 <= value <= _PIN_MAX:
        raise ConfigError("%s: pin %d is out of range 0-%d" % (key, value, _PIN_MAX))
    if value in INTERNAL_PINS:
        raise ConfigError("%s: pin %d is not on the Pico's header (it is used for %s)"
                          % (key, value, INTERNAL_PINS[value]))
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
    if config["buzzer_pin"] is not None:
        uses.append(("buzzer_pin", config["buzzer_pin"]))
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
