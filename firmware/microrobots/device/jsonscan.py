"""What store.parse needs only for an odd or a bad file: the limits a file is held to, the
byte-by-byte check of them and the line saying what is wrong (no file the firmware
writes needs the check: store.py clears those at a glance)."""

from ..compat import const

MAX_DEPTH = const(16)  # levels of nesting a JSON file may have
MAX_STRING = const(2048)  # bytes a string in it may have


def scan(data):
    """None when JSON ``data`` (bytes) is nested at most MAX_DEPTH deep and has no string
    over MAX_STRING bytes, else the problem: byte by byte, strings and escapes followed as
    JSON has them."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in data[:2]:  # (no BOM: "{\0")
        return _UTF16
    depth = 0
    inside = False  # within a string
    escaped = False
    length = 0
    for b in data:
        if inside:
            if escaped:
                escaped = False
            elif b == 0x5C:  # backslash
                escaped = True
                continue
            elif b == 0x22:  # the closing quote
                inside = False
                continue
            length += 1
            if length > MAX_STRING:
                return "a string over %d bytes" % MAX_STRING
        elif b == 0x22:
            inside = True
            length = 0
        elif b == 0x5B or b == 0x7B:  # [ {
            depth += 1
            if depth > MAX_DEPTH:
                return "nested deeper than %d levels" % MAX_DEPTH
        elif b == 0x5D or b == 0x7D:  # ] }
            depth -= 1
    return None


_UTF16 = "not UTF-8 text (saved as UTF-16? save as UTF-8)"


def explain(data, error, where):
    """The one line for ``error``, raised while ``data`` (bytes) was decoded or parsed.
    ``where``: a JSON syntax error's position, when the parser gives it (CPython)."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in data[:2]:
        return _UTF16
    if isinstance(error, UnicodeError):
        at = getattr(error, "start", None)  # (MicroPython's says nothing more)
        return "not UTF-8 text (%ssaved as Latin-1? save as UTF-8)" % (
            "" if at is None else "byte 0x%02x at offset %d; " % (data[at], at))
    if not isinstance(error, ValueError):  # MemoryError, RecursionError
        text = str(error)
        return "cannot be read (%s%s)" % (type(error).__name__, " " + text if text else "")
    if not where:
        return "corrupt or cut short (not valid JSON)"
    line = getattr(error, "lineno", None)
    if line is None:  # MicroPython's json names no position
        return "not valid JSON (%s)" % error
    return "not valid JSON at line %d column %d: %s" % (line, error.colno, error.msg)


def short(value):
    """``value`` for a one-line message, cut to 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
