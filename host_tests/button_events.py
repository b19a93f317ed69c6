"""Button events as words, for the tests' logs (input.py's events are ints: ``kind << 3 |
button``; the firmware keeps no names for them, a Pico's heap being small)."""

from microrobots.device.input import BUTTON_NAMES

KIND_NAMES = ("", "press", "release", "long", "repeat", "tap")


def event(kind, button):
    """The event int for ``kind`` (PRESS...) of ``button`` (UP...)."""
    return kind << 3 | button


def event_name(e):
    """``"press a"``, ``"repeat left"``..."""
    return "%s %s" % (KIND_NAMES[e >> 3], BUTTON_NAMES[e & 7])
