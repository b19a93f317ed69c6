"""What every command in tools/ does alike, in one place: paths, one-line errors, reading a
user's file, the layout options and dice names.

    from tools import cli

    parser = cli.Parser(prog="python -m tools.x")   # a bad option raises cli.UsageError
    cli.add_layout_options(parser)                  # --layout FILE | --tiles CODE, --side
    try:
        args = parser.parse_args(argv)
        layout = cli.layout_from_args(args)         # the default arrangement if none given
        start = cli.cell(layout, "G3", "FROM")      # G3, 3-green or green-3 -> 0..35
        text = cli.read_text(args.events, "events file")
    except cli.Errors as e:                         # UsageError, LayoutError
        return cli.fail("x", e)                     # "x: <one line>" on stderr; 2

Paths: ``ROOT`` (the checkout), ``FIRMWARE`` (its firmware/ folder). Importing this module
changes nothing: ``microrobots`` is importable because the project's Python configuration
puts firmware/ on the path, once (docs/tools.md, "How the tools find the firmware").

Errors: ``UsageError`` is bad input from the user (an option, an argument, a file): the
command reports it in one line and exits with status 2, never with a traceback.
``Parser`` is an ``argparse.ArgumentParser`` whose ``error`` raises UsageError instead
of printing the whole usage and exiting. ``fail(prog, error)`` prints ``prog: error``
and returns 2. ``Errors`` is the tuple of the one-line errors to catch. ``run(main)``
ends a ``python -m`` command with ``main()``'s status, without a traceback when the
output's reader goes away (``| head``) or on Ctrl-C.

Files: ``read_text(path, what)`` and ``read_json(path, what)`` read a file the user
named (``-``: standard input) or raise UsageError naming the path and why: missing, a
folder, a FIFO or a device (``open_regular``: never blocks on one), not readable, not UTF-8 text, over ``MAX_BYTES``, not JSON (read_json: as the
device reads its files, store.parse, within its limits).
``write_atomically(path, data)`` writes a file through a temporary one and a rename (a
device, a FIFO or ``-`` in place, a link's target through it; nothing else replaced);
``make_folder(path, what)`` makes a folder the user named, or says why it cannot.

Layouts and cells: ``add_layout_options`` adds ``--layout FILE`` / ``--tiles CODE``
(exclusive) and ``--side``; ``layout_from_args`` turns them into a board.Layout
(``black:ABCD0000`` when none is given); ``cell`` reads a die name on a layout.

Words: ``plural(n, "move")`` is "1 move" or "2 moves".

Programs: ``micropython_binary()`` finds the ``micropython`` command (the venv's first);
``micropython_command()`` is it with a Pico-sized heap (``PICO_HEAP``);
``micropython_main(path)`` runs a module's ``main()`` in it. Run them with the working
directory at the checkout (``cwd=ROOT``) and name files relative to it (``MP_FIRMWARE``,
``mp_path(path)``): MicroPython keeps every imported module's path on its heap for good
(``__file__``, interned), so absolute paths would make what fits in 190 KB depend on
where the checkout lies (and one over 255 characters cannot be interned at all).
"""

import argparse
import errno
import os
import re
import stat
import sys

# shutil and tempfile are imported where they are used: a fresh command that neither writes a
# file nor looks for a program (a solve) does not pay for them (some 5-10 ms)

try:
    from microrobots.rules.board import DEFAULT_LAYOUT, SIDES, Layout, LayoutError
except ModuleNotFoundError as e:  # a Python without the project's configuration
    if e.name != "microrobots":
        raise
    raise SystemExit("tools: the firmware is not on Python's path: use .venv/bin/python "
                     "(make venv), or PYTHONPATH=firmware python3 -m tools...") from None

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")

MP_FIRMWARE = "firmware"  # firmware/ as micropython_command() sees it, from cwd=ROOT
PICO_HEAP = "190k"  # what a Pico's MicroPython leaves free for Python objects, roughly
# The simulator's MicroPython runtime (the driver, the soak) runs the firmware as the stock
# image does (.mpy bytecode in the heap), but on the 64-bit unix port, whose objects (every
# pointer, every bytecode's constant table) take up to twice a Pico's room. A Pico's
# MicroPython v1.28 has 240 KB of heap (emulated RP2040; its figures and the stock image's
# use with every mode's code kept, 102 KB at most: docs/performance.md), so 190 KB here
# would model a smaller Pico than there is: the simulator gets 256 KB, and the soak's limit
# (tools/sim/soak.py, 180 KB in use) still catches a leak.
SIM_HEAP = "256k"
MAX_BYTES = 64 * 1024 * 1024  # no file a tool reads is near this; /dev/zero would be


class UsageError(Exception):
    """Bad input from the user: reported in one line, exit status 2."""


Errors = (UsageError, LayoutError)


class Parser(argparse.ArgumentParser):
    """argparse, but a bad command line raises UsageError (one line) instead of exiting."""

    def error(self, message):
        raise UsageError(message)


QUOTE = 32  # characters of a quoted value the user gave that a message repeats at most
_QUOTED = re.compile("'([^'\\n]{%d,})'|\"([^\"\\n]{%d,})\"" % (QUOTE + 9, QUOTE + 9))


def short(message):
    """``message`` with every quoted value over a few dozen characters cut to QUOTE
    (``'xxxx...' (10000 characters)``): an error line repeats what the user typed, not
    all of it."""
    def cut(m):
        quote = "'" if m.group(1) is not None else '"'
        text = m.group(1) if m.group(1) is not None else m.group(2)
        return "%s%s...%s (%d characters)" % (quote, text[:QUOTE], quote, len(text))
    return _QUOTED.sub(cut, str(message))


# The reader's language for the one-line errors and the layout options' help:
# tools.i18n.usage.install sets them (this module cannot import tools.i18n, which imports it),
# each a function of the English.
translate_error = None
translate = None


def _say(text):
    return translate(text) if translate is not None else text


def fail(prog, error, stream=None):
    """Report ``error`` as the one line ``prog: error`` on stderr (in the reader's
    language, quoted values cut short); return exit status 2."""
    text = str(error)
    if translate_error is not None:
        text = translate_error(text)
    print("%s: %s" % (prog, short(text)), file=stream or sys.stderr)
    return 2


def run(main):
    """``sys.exit(main())`` for ``python -m``, quiet when the reader of the output goes
    away (``... | head``) or the user presses Ctrl-C: no traceback then either. An error
    writing the output (a full disk or a full standard output: /dev/full) is one line on
    stderr and exit status 1."""
    try:
        status = main()
        sys.stdout.flush()
    except BrokenPipeError:
        _forget_stdout()
        status = 1
    except KeyboardInterrupt:
        status = 130
    except OSError as e:
        _forget_stdout()
        prog = getattr(main.__globals__.get("__spec__"), "name", None) if hasattr(
            main, "__globals__") else None
        prog = prog or os.path.basename(sys.argv[0] or "python")
        if e.filename:
            print("%s: %s: %s" % (prog, e.filename, e.strerror or e), file=sys.stderr)
        else:
            print("%s: cannot write the output (%s)" % (prog, e.strerror or e), file=sys.stderr)
        status = 1
    sys.exit(status)


def _forget_stdout():
    """Point stdout at nothing: Python would complain again while flushing at exit."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def make_folder(path, what="files"):
    """Make sure the folder ``path`` exists (with its parents); UsageError in one line when
    it cannot be, e.g. because a file of that name is in the way."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise UsageError("%s: cannot hold %s (%s)" % (path, what, e.strerror or e))


def write_atomically(path, data):
    """Write ``data`` (bytes, or text as UTF-8) where the user meant by ``path``, or OSError
    in one line (the caller reports it):

    - a regular file (or a new name): through a temporary file in the same folder and a
      rename, so that it is never half-written (an existing file keeps its permissions);
    - a symbolic link: followed to the file it names, which is written so (the link stays);
    - a device, a FIFO (``/dev/stdout``, ``>(gzip)``), or ``-``: written in place, as a
      shell's ``>`` would (a rename would replace the node itself: ``-o /dev/null`` run as
      root must not turn /dev/null into a file);
    - anything else (a folder, a socket): refused."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    if path == "-":
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    try:
        mode = os.stat(path).st_mode  # (follows links, /proc/self/fd's too)
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        if not (stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISFIFO(mode)):
            raise OSError(errno.EINVAL, "not a file, a device or a FIFO", path)
        with open(path, "wb", buffering=0) as f:  # in place: the node stays what it is
            view = memoryview(data)
            while view:
                view = view[f.write(view):]
        return
    target = os.path.realpath(path)  # a link's file, written through the rename
    folder = os.path.dirname(target)
    import tempfile
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(target)[:64] + ".", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; what the tools write is no secret
        else:
            os.chmod(tmp, stat.S_IMODE(mode))
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def micropython_binary():
    """The ``micropython`` command beside this Python (the venv's), else on PATH; or None."""
    here = os.path.join(os.path.dirname(sys.executable), "micropython")
    import shutil
    return here if os.path.exists(here) else shutil.which("micropython")


def micropython_command(heap=PICO_HEAP):
    """``[micropython, "-X", "heapsize=190k"]``: the real MicroPython interpreter with a
    Pico-sized heap, to which a script or ``-c CODE`` is added; UsageError if it is missing.
    Run it with ``cwd=ROOT`` and paths from ``mp_path`` (see the module docstring)."""
    exe = micropython_binary()
    if exe is None:
        raise UsageError("the micropython command is missing: run `make venv`")
    return [exe, "-X", "heapsize=" + heap]


def mp_path(path):
    """``path`` as the micropython command should be given it when run from ``cwd=ROOT``:
    relative to the checkout when inside it (short and the same wherever the checkout
    lies; see the module docstring), else unchanged."""
    rel = os.path.relpath(os.path.abspath(path), ROOT)
    return path if rel == ".." or rel.startswith(".." + os.sep) else rel


def micropython_main(path, heap=SIM_HEAP, firmware=None):
    """``micropython_command(heap)`` that runs ``main()`` of the module file ``path`` (inside
    the checkout), its arguments to be added; run with ``cwd=ROOT``. Imported through
    ``-c`` from its folder relative to the checkout rather than run as a script: the unix
    port keeps a script's absolute folder as an interned string (sys.path[0]), and one
    over 255 characters stops it dead. ``firmware``: a folder (relative to the checkout)
    put first on the path, e.g. the firmware as flashed (tools.sim.soak.staged)."""
    folder, name = os.path.split(mp_path(path))
    name = name[:-3]
    first = "sys.path.insert(0, %r)\n" % firmware if firmware else ""
    code = "import sys\n%ssys.path.insert(0, %r)\nimport %s\nsys.exit(%s.main())" % (
        first, folder, name, name)
    return micropython_command(heap) + ["-c", code]


def cache_dir():
    """Where tools keep what they built once (``$MICROROBOTS_CACHE``, else the user's cache):
    the Pico image and its sources, CircuitPython's compiler."""
    return os.environ.get("MICROROBOTS_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "microrobots-pico")


def plural(n, word, words=None):
    """``"1 move"``, ``"2 moves"`` (``words``: the plural when it is not word + s)."""
    return "%d %s" % (n, word if n == 1 else words or word + "s")


# -- files -----------------------------------------------------------------------------------

def firmware_files(root=None):
    """Every file the firmware consists of, relative to firmware/, sorted.

    Skips caches, compiled output, hidden files and test folders: what a board needs.
    """
    root = root or FIRMWARE
    found = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs
                         if not x.startswith(".") and x != "__pycache__" and x != "tests")
        for f in files:
            if f.startswith(".") or f.endswith((".pyc", ".mpy")):
                continue
            found.append(os.path.relpath(os.path.join(d, f), root).replace(os.sep, "/"))
    return sorted(found)


def open_regular(path):
    """``open(path, "rb")`` for a regular file only: opened without blocking (a FIFO's
    open would wait for a writer for ever) and checked before a byte is read; OSError
    otherwise, naming what it is (a folder, a FIFO, a device)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        if not stat.S_ISREG(mode):
            kind = ("a FIFO" if stat.S_ISFIFO(mode)
                    else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                    else "a socket" if stat.S_ISSOCK(mode) else "not a file")
            raise OSError(errno.EINVAL, "%s, not a regular file" % kind, path)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _read_bytes(path, what, limit):
    """The bytes of the file at ``path`` (``-``: standard input), up to ``limit`` + 1."""
    try:
        if path == "-":
            return sys.stdin.buffer.read(limit + 1)
        with open_regular(path) as f:
            return f.read(limit + 1)
    except OSError as e:
        raise UsageError("%s: cannot read %s (%s)" % (path, what, e.strerror or e))


def read_text(path, what="file", limit=MAX_BYTES):
    """The text of the file at ``path`` (``-``: standard input), or UsageError in one line.

    UTF-8, with or without a byte-order mark. ``what`` names the file in the message:
    ``layout.txt: cannot read layout file (No such file or directory)``.
    """
    data = _read_bytes(path, what, limit)
    if len(data) > limit:
        raise UsageError("%s: %s is over %d MiB" % (path, what, limit >> 20))
    return _text(data, path, what)


def _text(data, path, what):
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise UsageError("%s: %s is not text (byte 0x%02x at offset %d is not UTF-8)"
                         % (path, what, data[e.start], e.start))


def read_json(path, what="JSON file"):
    """The parsed JSON of the file at ``path``, or UsageError in one line. Read as the
    device reads its files (microrobots.device.store.parse): UTF-8, within its limits of size,
    nesting and string length, so that no file can stop a tool with a traceback."""
    from microrobots.device.store import MAX_BYTES, parse

    data = _read_bytes(path, what, MAX_BYTES)
    if len(data) <= MAX_BYTES and data[:2] not in (b"\xff\xfe", b"\xfe\xff") \
            and b"\x00" not in data[:2]:  # (parse names UTF-16 itself)
        _text(data, path, what)  # the tools' line for a file that is not text
    value, problem = parse(data, True)
    if problem is not None:
        raise UsageError("%s: %s: %s" % (path, what, problem))
    return value


# -- layouts and cells -----------------------------------------------------------------------

def add_layout_options(parser, files=True):
    """``--layout FILE`` (unless ``files`` is False) or ``--tiles CODE``, and ``--side``."""
    where = parser.add_mutually_exclusive_group()
    if files:
        where.add_argument("--layout", metavar="FILE", help=_say(
            "a layout file: six lines of six dice (or a name, black:CADB0312)"))
    where.add_argument("--tiles", metavar="CODE", help=_say(
        "an arrangement: black:CADB0312, or CADB0312 with --side"))
    parser.add_argument("--side", choices=SIDES, help=_say(
        "board side for --tiles CODE (default black)"))


def layout_from_args(args):
    """The layout named by ``--layout`` / ``--tiles`` / ``--side`` (``black:ABCD0000`` when
    none is given). Raises UsageError or LayoutError (one line)."""
    spec = getattr(args, "layout", None)
    tiles = getattr(args, "tiles", None)
    side = getattr(args, "side", None)
    if spec:
        if ":" in spec or spec.strip().lower() in SIDES:  # a name, as --tiles takes it
            return Layout.named(spec)
        try:
            return Layout.parse(read_text(spec, "layout file"))
        except LayoutError as e:
            raise LayoutError("%s: %s" % (spec, e))
    if tiles:
        if ":" in tiles:
            if side:
                raise UsageError("--side conflicts with the side in --tiles %s" % tiles)
            return Layout.named(tiles)
        return Layout.from_tiles(side or "black", tiles)
    if side:
        return Layout.from_tiles(side, "ABCD0000")
    return Layout.named(DEFAULT_LAYOUT)


def cell(layout, text, what="cell"):
    """The cell index (0..35) of the die ``text`` (G3, 3-green, green-3) on ``layout``;
    UsageError names ``what`` it was for."""
    try:
        return layout.index(text)
    except LayoutError as e:
        raise UsageError("%s: %s" % (what, e))
