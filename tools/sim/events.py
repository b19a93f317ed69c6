"""The events file of scripted runs: its parser, and the button masks it gives the driver.

Pure Python that also runs inside MicroPython: ``tools.sim --headless`` parses events
files with it, and so does the web page (tools/sim/web/), in the browser, to replay one.
The format (one event a line, ``#`` starts a comment)::

    500 a              # a tap: A pressed at 500 ms, released 60 ms later
    3000 a hold 800    # A held from 3000 ms for 800 ms (a long press)
"""

BUTTONS = ("up", "down", "left", "right", "a", "b")
TAP_MS = 60
# The latest time an events file may name, a hold included: 6 hours of play, which the
# simulator runs in some 15 minutes of CPython. No script needs more; a larger one (a
# typo, 99999999999999999999) would keep the run going for ever.
MAX_MS = 6 * 3600 * 1000


class EventsError(ValueError):
    """A bad events file: one line naming the file and line."""


def parse_events(text, source="events"):
    """Button edges from an events file: a sorted list of ``(ms, button, down)``."""
    edges = []
    presses = {}  # button -> [(press, release, line)]
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = "%s:%d" % (source, lineno)
        f = line.split()
        if len(f) not in (2, 4) or (len(f) == 4 and f[2].lower() != "hold"):
            raise EventsError("%s: expected '<ms> <button>' or '<ms> <button> hold <ms>', got %r"
                              % (where, line[:40]))
        if not _digits(f[0]):
            raise EventsError("%s: time %r is not a whole number of ms" % (where, f[0][:12]))
        button = f[1].lower()
        if button not in BUTTONS:
            raise EventsError("%s: unknown button %r (use %s)" % (where, f[1][:12], " ".join(BUTTONS)))
        if len(f[0]) > 10 or int(f[0]) > MAX_MS:
            raise EventsError("%s: time %s is past %d ms (6 hours)" % (where, f[0][:12], MAX_MS))
        t = int(f[0])
        length = TAP_MS
        if len(f) == 4:
            if not _digits(f[3]) or int(f[3]) < 1:
                raise EventsError("%s: hold time %r is not a positive number of ms"
                                  % (where, f[3][:12]))
            if len(f[3]) > 10 or t + int(f[3]) > MAX_MS:
                raise EventsError("%s: hold time %s ends past %d ms (6 hours)"
                                  % (where, f[3][:12], MAX_MS))
            length = int(f[3])
        b = BUTTONS.index(button)
        presses.setdefault(b, []).append((t, t + length, lineno))
        edges.append((t, b, True))
        edges.append((t + length, b, False))
    for b, spans in presses.items():
        spans.sort()
        for (_, end, first), (start, _, line) in zip(spans, spans[1:]):
            if start <= end:
                raise EventsError("%s:%d: %s is pressed again while still held (line %d)"
                                  % (source, line, BUTTONS[b], first))
    edges.sort(key=lambda e: (e[0], e[2]))  # at the same ms: releases first
    return edges


def _digits(text):
    """ASCII digits only (str.isdigit takes "²" too, which int() refuses)."""
    return bool(text) and all("0" <= c <= "9" for c in text)


def mask_lines(edges):
    """The driver's input: ``<ms> <mask>`` whenever the held buttons change."""
    mask = 0
    out = []
    for t, b, down in edges:
        mask = mask | 1 << b if down else mask & ~(1 << b)
        if out and out[-1][0] == t:
            out[-1] = (t, mask)
        else:
            out.append((t, mask))
    return ["%d %d" % (t, m) for t, m in out]
