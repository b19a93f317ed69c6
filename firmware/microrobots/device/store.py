"""Atomic JSON files on the device's flash: a power cut never loses the last good state.

``save`` writes ``name.tmp``, closes it, then renames it over ``name.json``. Until the
rename the old file is untouched; the rename itself is atomic on MicroPython's LittleFS.
FAT cannot rename over an existing file: CircuitPython's VFS removes the old file and
then renames (checked on the emulated board, docs/circuitpython.md), and where a FAT
refuses instead, ``_replace`` does the same; a cut between the remove and the rename
leaves a complete ``.tmp``, which the next ``load`` finishes renaming (keeping a damaged
file it replaces as ``name.bad.json``). A ``.tmp`` is only ever a candidate: one left by
a cut during its own writing, or damaged or unreadable in any way, is deleted and a good
file always wins, unreported::

    store = Store()                         # files at the filesystem root
    data, problem = store.load("settings")  # (None, None) when there is no file yet
    store.save("settings", {"brightness": 5})   # or in two steps:
    store.write("settings", Store.encode({"brightness": 5}))
    store.remove("game")
    store.set_aside("solo")                 # solo.json -> solo.bad.json: kept, not loaded

``load`` never raises: a corrupt, truncated, unreadable or foreign file gives
``(None, "settings.json: ...")``, one line for the app to show while it uses defaults.
``save`` returns False (and sets ``error``) instead of raising when the flash refuses,
e.g. when full or, on CircuitPython, read-only to code (see docs/firmware.md).

The file holds ``{"format": 1, "data": ...}``; a file of another format counts as foreign,
and so does one whose data is null (nothing saves null: it would read as "no file").
The filesystem is injectable (``fs``: ``open``, ``rename``, ``remove``; its files read,
write and seek) so that tests can cut the power at every step of a save.

``parse(data)`` is the one way the device and the tools read JSON (these files,
config.json, the tools' inputs): ``(value, None)`` or ``(None, problem)``, never an
exception. Limits a real file never reaches are checked on the bytes before the parser
runs, so that no file can make it run out of stack or heap (a Pico's MemoryError, CPython's
RecursionError): ``MAX_BYTES``, ``MAX_DEPTH`` levels of nesting, ``MAX_STRING`` bytes in a
string. The text must be UTF-8 (a byte-order mark is allowed); UTF-16, as Windows Notepad
may save, or Latin-1 gets a line saying so.
"""

import json
import os

from ..compat import const

# errno "no such file": 2 on MicroPython's ports and CPython; 44 in the WebAssembly port,
# whose files are Emscripten's (its errno.ENOENT still says 2).
_MISSING = const((2, 44))

FORMAT = 1

# Limits no file the firmware writes comes near (solo.json with a long walk: about 2 KB,
# 4 levels, its longest string under 1 KB) and that keep reading and json.loads within a
# Pico's heap: a bigger file is refused by its size, before any of it is read.
MAX_BYTES = const(8192)
MAX_DEPTH = const(16)  # levels of nesting a JSON file may have
MAX_STRING = const(2048)  # bytes a string in it may have


def _scan(data):
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


def _explain(data, error, where):
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


def _short(value):
    """``value`` for a one-line message, cut to 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class PosixFs:
    """The real filesystem: the builtin ``open`` and ``os``."""

    def open(self, path, mode):
        # Only a regular file is read: a FIFO (or a device) put there on a host would
        # block open() for ever, or never end. (Flash holds regular files only.)
        if "r" in mode and os.stat(path)[0] & 0xF000 != 0x8000:
            raise OSError(22, "not a regular file")
        return open(path, mode)

    def rename(self, src, dest):
        os.rename(src, dest)

    def remove(self, path):
        os.remove(path)


class Store:
    """JSON files named ``root + name + ".json"``."""

    def __init__(self, root="", fs=None):
        self.root = root
        self.fs = fs if fs is not None else PosixFs()
        self.error = None  # why the last save failed, one line
        self.loaded = None  # the name of the file load() read last (data or not)
        self._hidden = ()  # names set aside whose file could not be renamed (until reboot)

    def path(self, name):
        return self.root + name + ".json"

    def load(self, name):
        """``(data, problem)``: the saved data and None, or None and one line on why not.

        A missing file is not a problem: ``(None, None)``. Never raises, whatever the file
        holds (MemoryError included).
        """
        if name in self._hidden:
            return None, None
        target = self.path(name)
        self.loaded = name
        try:
            return self._load(name, target)
        except Exception as error:  # noqa: BLE001 - a load must never stop the device
            return None, "%s: cannot be read (%s); using defaults" % (target, _why(error))

    def _load(self, name, target):
        temp = self.root + name + ".tmp"
        raw = self._read(target)
        try:  # a leftover .tmp is only a candidate: unreadable, it counts as cut short
            leftover = self._read(temp)
        except Exception:  # noqa: BLE001
            leftover = b""
        data = problem = None
        if raw is not None:
            data, problem = _decode(raw)
        if leftover is not None:
            data, problem = self._settle(name, raw is None or problem is not None,
                                         leftover, data, problem)
        if problem is not None:
            return None, "%s: %s; using defaults" % (target, problem)
        return data, None

    def save(self, name, data):
        """Write ``data`` as JSON, atomically; True when it is safely on flash."""
        try:
            text = self.encode(data)
        except (TypeError, ValueError) as error:
            self.error = "%s: not saved (%s)" % (self.path(name), _why(error))
            return False
        return self.write(name, text)

    @staticmethod
    def encode(data):
        """The text ``save`` writes for ``data`` (raises TypeError or ValueError)."""
        return json.dumps({"format": FORMAT, "data": data})

    def write(self, name, text):
        """Write ``text`` from ``encode`` atomically; True when it is safely on flash.
        (The app encodes in one frame and writes in a later one: app.App.flush.)"""
        target = self.path(name)
        temp = self.root + name + ".tmp"
        fs = self.fs
        if name in self._hidden:  # a new file replaces the one that could not be set aside
            self._hidden = tuple(n for n in self._hidden if n != name)
        try:
            f = fs.open(temp, "w")
            try:
                f.write(text)
            finally:
                f.close()
            self._replace(temp, target)
        except (OSError, TypeError, ValueError) as error:
            self.error = "%s: not saved (%s)" % (target, _why(error))
            try:
                fs.remove(temp)
            except OSError:
                pass
            return False
        self.error = None
        return True

    def remove(self, name):
        """Delete the file (and any leftover ``.tmp``); missing files are fine."""
        for path in (self.path(name), self.root + name + ".tmp"):
            try:
                self.fs.remove(path)
            except OSError:
                pass

    def set_aside(self, name):
        """Keep the file ``name`` as ``name.bad.json`` (replacing an older one there), so
        that it is never loaded again but not lost; the path it is kept under, or None
        when there is no such file.

        For a saved state that stopped the app (handheld.Device) or that the app refused.
        When the flash refuses the rename the file keeps its path (returned; ``error``
        says why), but load() finds nothing under that name until the next boot or
        save: the app never loops on it.
        """
        target = self.path(name)
        bad = self.path(name + ".bad")
        fs = self.fs
        try:
            fs.remove(self.root + name + ".tmp")  # a newer copy of the same state, if any
        except OSError:
            pass
        try:
            try:
                fs.open(target, "rb").close()  # (not read: it may be huge)
            except OSError as error:
                if missing(error):
                    return None
                raise
            self._replace(target, bad)
        except Exception as error:  # noqa: BLE001 - never stop here: hide the name instead
            if name not in self._hidden:
                self._hidden = self._hidden + (name,)
            self.error = "%s: not set aside (%s); not loaded until the next boot" % (
                target, _why(error))
            return target
        return bad

    def _read(self, path):
        """The file's bytes, None if it does not exist, or False when it is over MAX_BYTES
        (then unread: parse refuses False as too big)."""
        try:
            f = self.fs.open(path, "rb")
        except OSError as error:
            if missing(error):
                return None
            raise
        try:
            data = read_all(f)
        finally:
            f.close()
        return False if data is None else data

    def _replace(self, temp, target):
        try:
            self.fs.rename(temp, target)
        except OSError:  # FAT will not rename over a file. The .tmp is complete, so a
            self.fs.remove(target)  # cut from here on is finished by the next load.
            self.fs.rename(temp, target)

    def _settle(self, name, replace, leftover, data, problem):
        """A ``.tmp`` survived a power cut: finish its rename or drop it; return the
        ``(data, problem)`` to load. ``replace``: the file itself is missing or bad."""
        target = self.path(name)
        temp = self.root + name + ".tmp"
        if replace:
            new, bad = _decode(leftover)
            if bad is None:  # complete, and nothing better: the cut came between closing
                if problem is not None:  # it and the rename; a damaged file is kept aside
                    self._replace(target, self.path(name + ".bad"))
                self._replace(temp, target)
                return new, None
        try:  # cut short, or the file itself is good: the file wins, the .tmp goes
            self.fs.remove(temp)
        except OSError:
            pass
        return data, problem


def read_all(f):
    """The bytes of the open file ``f``, or None when it is over MAX_BYTES (then not
    read): its size from seek, then one read of that size (MicroPython's read(n) takes
    n bytes of heap at once, and a read to the end grows its buffer by doubling)."""
    size = f.seek(0, 2)
    if size is None:  # (a port whose seek returns nothing)
        size = f.tell()
    f.seek(0)
    return f.read(size) if size <= MAX_BYTES else None


def missing(error):
    """True when the OSError ``error`` says there is no such file."""
    return bool(error.args) and error.args[0] in _MISSING


def _decode(raw):
    """``(data, None)`` or ``(None, problem)`` for a saved file's bytes."""
    whole, problem = parse(raw)
    if problem is not None:
        return None, problem
    if not isinstance(whole, dict) or "format" not in whole or "data" not in whole:
        return None, "not a saved file of this device"
    if whole["format"] != FORMAT:
        return None, "saved in format %s, this firmware reads %d" % (
            _short(whole["format"]), FORMAT)
    if whole["data"] is None:
        return None, "not a saved file of this device (its data is null)"
    return whole["data"], None


def parse(data, where=False):
    """``(value, None)`` for JSON ``data`` (bytes or str; False: a file read_all found too
    big), or ``(None, problem)``: one line, never an exception. The limits (see the
    module docstring) are checked before the parser runs. ``where``: a bad JSON's problem
    says where (CPython knows; MicroPython does not), else it is "corrupt or cut short".

    A file like the device's own is cleared quickly here; an odd one (escapes, many
    brackets) and every bad one are scanned byte by byte (_scan)."""
    try:
        if isinstance(data, str):
            data = data.encode()
        if data is False or len(data) > MAX_BYTES:  # (False: read_all found it too big)
            return None, "over %d KB: not a file of this device" % (MAX_BYTES // 1024)
        if data[:3] == b"\xef\xbb\xbf":  # UTF-8's byte-order mark (Notepad's "UTF-8 BOM")
            data = data[3:]
        if not _plain(data):
            problem = _scan(data)
            if problem is not None:
                return None, problem
        value = json.loads(data.decode())
        if not _tame(value):
            return None, "a number out of range"
        return value, None
    except Exception as error:  # noqa: BLE001 - MemoryError, RecursionError: refused too
        try:
            return None, _explain(data, error, where)
        except Exception:  # noqa: BLE001 - (no room even to explain)
            return None, "cannot be read (%s)" % type(error).__name__


def _plain(data):
    """True for text within the limits by a quick look: no escapes, fewer brackets than
    MAX_DEPTH (the nesting is at most their count), no span between two quotes over
    MAX_STRING, no NUL near the start (UTF-16)."""
    if b"\\" in data or data.count(b"[") + data.count(b"{") > MAX_DEPTH or b"\x00" in data[:2]:
        return False
    i = data.find(b'"')
    while i >= 0:
        j = data.find(b'"', i + 1)
        if j < 0:
            return True  # an unterminated string: the parser says so
        if j - i - 1 > MAX_STRING:
            return False
        i = data.find(b'"', j + 1)
    return True


def _tame(value):
    """True when every number in ``value`` is within +-1e18 (none the firmware writes is
    near; printing a number of thousands of digits in a message would take a Pico's heap)."""
    if isinstance(value, (int, float)):
        return -1e18 < value < 1e18  # (False for NaN too)
    if isinstance(value, dict):
        value = value.values()
    elif not isinstance(value, list):
        return True
    for item in value:
        if not _tame(item):
            return False
    return True


def _why(error):
    return "%s %s" % (type(error).__name__, error) if str(error) else type(error).__name__
