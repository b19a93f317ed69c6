"""Atomic JSON files on the device's flash: a power cut never loses the last good state.

``save`` writes ``name.tmp``, closes it, then renames it over ``name.json``. Until the
rename the old file is untouched; the rename itself is atomic on MicroPython's LittleFS.
FAT cannot rename over an existing file: CircuitPython's VFS removes the old file and
then renames (checked on the emulated board, docs/circuitpython.md), and where a FAT
refuses instead, ``_replace`` does the same; a cut between the remove and the rename
leaves a complete ``.tmp``, which the next ``load`` finishes renaming. A ``.tmp`` left by a cut during its own writing is incomplete
and is deleted, the old file winning::

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

The file holds ``{"format": 1, "data": ...}``; a file of another format counts as foreign.
The filesystem is injectable (``fs``: ``open``, ``rename``, ``remove``) so that tests can
cut the power at every step of a save.
"""

import json
import os

from ..compat import const

# errno "no such file": 2 on MicroPython's ports and CPython; 44 in the WebAssembly port,
# whose files are Emscripten's (its errno.ENOENT still says 2).
_MISSING = const((2, 44))

FORMAT = 1


class PosixFs:
    """The real filesystem: the builtin ``open`` and ``os``."""

    def open(self, path, mode):
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

        A missing file is not a problem: ``(None, None)``.
        """
        if name in self._hidden:
            return None, None
        target = self.path(name)
        temp = self.root + name + ".tmp"
        self.loaded = name
        try:
            text = self._read(target)
            leftover = self._read(temp)
            if leftover is not None:
                text = self._settle(target, temp, text, leftover)
        except Exception as error:  # noqa: BLE001 - a load must never stop the device
            return None, "%s: cannot be read (%s); using defaults" % (target, _why(error))
        if text is None:
            return None, None
        data, problem = _decode(text)
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
            if self._read(target) is None:
                return None
            self._replace(target, bad)
        except Exception as error:  # noqa: BLE001 - never stop here: hide the name instead
            if name not in self._hidden:
                self._hidden = self._hidden + (name,)
            self.error = "%s: not set aside (%s); not loaded until the next boot" % (
                target, _why(error))
            return target
        return bad

    def _read(self, path):
        """The file's text, or None if it does not exist."""
        try:
            f = self.fs.open(path, "rb")
        except OSError as error:
            if error.args and error.args[0] in _MISSING:
                return None
            raise
        try:
            return f.read()
        finally:
            f.close()

    def _replace(self, temp, target):
        try:
            self.fs.rename(temp, target)
        except OSError:  # FAT will not rename over a file. The .tmp is complete, so a
            self.fs.remove(target)  # cut from here on is finished by the next load.
            self.fs.rename(temp, target)

    def _settle(self, target, temp, text, leftover):
        """A ``.tmp`` survived a power cut: finish its rename or drop it; return the text."""
        if _decode(leftover)[1] is None and (text is None or _decode(text)[1] is not None):
            self._replace(temp, target)  # complete, and nothing better: the cut came
            return leftover  # between closing it and the rename
        self.fs.remove(temp)  # cut short, or the old file is still there: the old file wins
        return text


def _decode(text):
    """``(data, None)`` or ``(None, problem)`` for a file's text."""
    try:
        whole = json.loads(text)
    except ValueError:
        return None, "corrupt or cut short (not valid JSON)"
    if not isinstance(whole, dict) or "format" not in whole or "data" not in whole:
        return None, "not a saved file of this device"
    if whole["format"] != FORMAT:
        return None, "saved in format %r, this firmware reads %d" % (whole["format"], FORMAT)
    return whole["data"], None


def _why(error):
    return "%s %s" % (type(error).__name__, error) if str(error) else type(error).__name__
