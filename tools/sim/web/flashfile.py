"""The web page's flash as one file: export it, and import one checked as the device would.

The page keeps the device's flash (its settings and saved games) in the browser's storage;
a player changing phones or browsers takes it along as one file::

    text = export({"settings.json": b"...", "solo.json": b"..."})   # the file's bytes
    files, problem = check(text)     # ({name: bytes}, None) or (None, "one line")

The file is plain text, each of the device's files whole inside it, byte for byte::

    Micro Robots flash 1
    settings.json 187
    {"format": 1, "data": {...}}
    solo.json 1203
    {"format": 1, "data": {...}}
    end

a header line, then for each file a line ``NAME SIZE`` and exactly SIZE bytes and a newline,
then ``end``. ``check`` reads it as the device reads each file (device/store.py's limits:
every file at most ``store.MAX_BYTES``, its JSON through ``store.parse``), and more: the
settings must be valid settings (not merely repaired with defaults), each saved game must
replay on the settings' layout (notation.loading, as the modes' resume does), config.json
must pass config.load. Any problem refuses the whole file, in one line naming the file;
the page replaces its flash only with a file that passed, in one write (page.js).

Runs in MicroPython's WebAssembly port (bundled into the page by build.py) and CPython.
"""

from microrobots.device import config, store
from microrobots.preferences import check_settings
from microrobots.rules import notation
from microrobots.rules.board import Layout
from microrobots.rules.game import GameError
from microrobots.rules.solver import Solver

HEADER = b"Micro Robots flash 1"
END = b"end"
# The files of the device's flash, in the order they are written: what the device reads.
NAMES = ("config.json", "settings.json", "solo.json", "referee.json")
GAMES = {"solo.json": "solo", "referee.json": "referee"}
# Nothing longer can be a valid file: each file within MAX_BYTES, a line of at most 40
# bytes before it. The page refuses a bigger file by its size before reading any of it.
MAX_TOTAL = len(HEADER) + 8 + len(NAMES) * (store.MAX_BYTES + 41)


class FlashFileError(Exception):
    """What is wrong with the file: one line."""


def export(files):
    """The file for ``files`` ({name: bytes or str}); only the device's files (NAMES),
    in NAMES' order (a .tmp or a .bad.json kept aside is not part of it)."""
    out = [HEADER + b"\n"]
    for name in NAMES:
        if name in files:
            data = files[name]
            if isinstance(data, str):
                data = data.encode()
            out.append(b"%s %d\n" % (name.encode(), len(data)))
            out.append(data + b"\n")
    out.append(END + b"\n")
    return b"".join(out)


def check(text):
    """``({name: bytes}, None)`` for a whole, valid file, or ``(None, problem)``."""
    try:
        return _check(text), None
    except FlashFileError as e:
        return None, str(e)
    except MemoryError:
        return None, "too big for this device's memory"


def _check(data):
    if isinstance(data, str):
        data = data.encode()
    if len(data) > MAX_TOTAL:
        raise FlashFileError("over %d KB: not a Micro Robots flash file" % (MAX_TOTAL // 1024))
    if data[:3] == b"\xef\xbb\xbf":
        data = data[3:]
    line, at = _line(data, 0)
    if line.rstrip(b"\r") != HEADER:
        raise FlashFileError("not a Micro Robots flash file (its first line is not %r)"
                             % HEADER.decode())
    files = {}
    while True:
        if at >= len(data):
            raise FlashFileError("cut short: no %r line at its end" % END.decode())
        line, at = _line(data, at)
        line = line.rstrip(b"\r")
        if line == END:
            break
        name, size = _entry(line)
        if name in files:
            raise FlashFileError("%s: twice in the file" % name)
        if at + size + 1 > len(data):
            raise FlashFileError("%s: cut short (%d bytes announced)" % (name, size))
        if data[at + size:at + size + 1] != b"\n":
            raise FlashFileError("%s: not %d bytes long as announced" % (name, size))
        files[name] = data[at:at + size]
        at += size + 1
    if data[at:].strip():
        raise FlashFileError("something after its %r line" % END.decode())
    _check_files(files)
    return files


def _line(data, at):
    end = data.find(b"\n", at)
    if end < 0:
        end = len(data)
    return data[at:end], end + 1


def _entry(line):
    parts = line.split(b" ")
    try:
        name = parts[0].decode()
    except UnicodeError:
        name = "?"
    if len(parts) != 2 or name not in NAMES:
        raise FlashFileError("%s: not a file of the device (it has %s)"
                             % (_short(line), ", ".join(NAMES)))
    size = parts[1]
    if not size.isdigit() or len(size) > 6:
        raise FlashFileError("%s: its size %s is not a number of bytes" % (name, _short(size)))
    size = int(size)
    if size > store.MAX_BYTES:
        raise FlashFileError("%s: over %d KB, more than the device reads"
                             % (name, store.MAX_BYTES // 1024))
    return name, size


def _short(raw):
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
    return repr(text if len(text) <= 24 else text[:24] + "...")


def _check_files(files):
    """Each file as the device reads it; any problem refuses the whole file."""
    if "config.json" in files:
        try:
            config.load(files["config.json"])
        except config.ConfigError as e:
            raise FlashFileError(str(e))
    settings = {}
    if "settings.json" in files:
        data, problem = store._decode(files["settings.json"])
        if problem is None:
            settings, problem = check_settings(data)
        if problem is not None:
            raise FlashFileError("settings.json: %s" % problem)
    else:
        settings, _ = check_settings({})
    layout = Layout.from_tiles(settings["side"], settings["tiles"])
    solver = None
    for name, mode in GAMES.items():
        if name not in files:
            continue
        saved, problem = store._decode(files[name])
        if problem is None and (not isinstance(saved, dict) or saved.get("mode") != mode):
            problem = "not a saved %s game" % mode
        if problem is None:
            solver = solver or Solver(layout)
            problem = _replays(saved, mode, layout, solver)
        if problem is not None:
            raise FlashFileError("%s: %s" % (name, problem))


def _replays(saved, mode, layout, solver):
    """None when the saved game replays on ``layout`` as the mode's resume requires."""
    try:
        game = notation.finish(notation.loading(saved.get("game"), solver))
    except GameError as e:
        return str(e)
    solo = mode == "solo"
    if game is None or game.layout != layout or (game.players == 1) != solo:
        return "not a %s game on the settings' layout" % ("solo" if solo else "refereed")
    return None
