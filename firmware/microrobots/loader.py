"""Imports that leave the frames on time: a module's code read in small pieces, with a
pause between two pieces in which the frame loop may run a frame.

On a Pico, importing a mode's ``.mpy`` takes 20-40 ms: finding the file in littlefs,
then turning its bytes into code objects, one interned name at a time. That is one
to two frames' time in a single call, so the picture and the buttons would stall while
a mode is entered. ``stream`` mounts a small filesystem over the package's own folder
that passes every lookup and read on to the real filesystem, calling ``pause()``
before each (the importer reads 64 bytes at a time), with the most the next piece takes
on a Pico (emulated): a littlefs lookup 3 ms, a chunk 2 ms, the module's own top level,
run once its code is read, 6 ms. ``pause`` (main.py's ``Device.pause``) runs the next
frame first when the piece would not fit in this frame's period.

Only for MicroPython with a filesystem of its own (a Pico): CPython and the web page
import as usual, and so does a port that cannot list or mount filesystems from Python,
and so does the Micro Robots image, whose package is frozen (its code runs from flash and
imports at once).
"""

import io
import os
import sys

from .compat import const

try:
    import vfs  # MicroPython 1.23 and later
except ImportError:  # 1.22: mount is in os, and cannot list the mounts: no streaming
    vfs = os

_CHUNK = const(64)  # bytes a read gives the importer: about 1 ms of its work on a Pico


class _File(io.IOBase):  # IOBase: the importer can read a Python object as a stream
    """A file of the real filesystem, read through ``readinto`` with a pause first."""

    def __init__(self, file, pause):
        self.file = file
        self.pause = pause

    def readinto(self, buf):
        self.pause(2)  # a chunk read and what the importer makes of it: 1.5 ms at most
        return self.file.readinto(buf)

    def ioctl(self, key, arg):  # key: the stream request (MicroPython's py/stream.h)
        if key == 4:  # MP_STREAM_CLOSE: all read; the module's top level runs next
            self.pause(6)
            self.file.close()
            return 0
        if key == 11:  # MP_STREAM_GET_BUFFER_SIZE: the importer's chunk
            return _CHUNK
        return -1


class _Streamed:
    """Mounted over the folder ``root``: a path under it is looked up and opened on
    ``fs``, the filesystem that holds that folder, after a pause."""

    def __init__(self, fs, root, pause):
        self.fs = fs
        self.root = root
        self.pause = pause

    def mount(self, readonly, mkfs):
        pass

    def umount(self):
        pass

    def stat(self, path):
        self.pause(3)  # a littlefs lookup
        return self.fs.stat(self.root + path if len(path) > 1 else self.root)

    def open(self, path, mode):
        self.pause(3)
        return _File(self.fs.open(self.root + path, mode), self.pause)


def stream(root, pause):
    """Import the modules of package ``root`` (a module; its subpackages too) through
    pauses from now on: True when done, False where the port cannot (imports stay as
    they were)."""
    try:
        folder = root.__path__
        if folder.startswith(".frozen"):
            return False
        if folder[:1] != "/":
            folder = os.getcwd().rstrip("/") + "/" + folder
        fs = None
        for mounted, point in vfs.mount():  # the filesystem the folder lies on: the one
            if point == "/":  # at the root (a Pico's flash, the unix port's host files)
                fs = mounted
        if fs is None:
            return False
        seen = []
        streamed = _Streamed(fs, folder, seen.append)  # (a pause that notes its call)
        vfs.mount(streamed, folder)
    except (AttributeError, OSError, TypeError):
        return False
    try:
        os.stat(root.__path__)
    except OSError:
        pass
    streamed.pause = pause
    if seen:  # the package's own path leads here (a Pico: the current folder is "/")
        return True
    # Else a relative path goes straight to the filesystem of the current folder, past
    # the mount table (MicroPython's extmod/vfs.c): absolute paths from now on.
    cut = len(root.__path__)
    for name in sys.modules:
        module = sys.modules[name]
        if name.startswith(root.__name__) and hasattr(module, "__path__"):
            module.__path__ = folder + module.__path__[cut:]
    return True

