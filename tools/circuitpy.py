"""make flash-circuitpython: the handheld onto a Raspberry Pi Pico running CircuitPython.

    python -m tools.circuitpy --drive /media/$USER/CIRCUITPY   # the board's USB drive
    python -m tools.circuitpy --image build/circuitpy.img      # a drive image (emulated board)
    python -m tools.circuitpy --folder build/circuitpy         # the files, to copy by hand
    python -m tools.circuitpy --dry-run                        # what would be written

What the drive gets (``drive_tree``):

- ``microrobots/`` and ``main.py`` compiled to ``.mpy`` by CircuitPython's own mpy-cross
  (tools/circuitpy_compiler.py finds or builds it), for the CircuitPython the board runs
  (its ``boot_out.txt``): a board compiles nothing at boot, as with Adafruit's bundles.
  Source instead, with one line saying why, when no compiler is to be had, when the board
  runs a CircuitPython whose ``.mpy`` the compiler does not write, or with ``--source``.
  The other form of each file is removed, so a stale ``.py`` never shadows its ``.mpy``.
- ``code.py``: what CircuitPython runs at boot; it starts ``main.py``'s handheld.
- ``boot.py``: gives the firmware the drive for its saves (``storage.remount``: the
  drive is then read-only to the computer), unless button B is held at power-on or reset:
  then the drive stays the computer's, to update the firmware or edit ``config.json``.
- ``lib/neopixel.py`` (``.mpy`` likewise): Adafruit's NeoPixel driver, from the pinned PyPI package
  ``adafruit-circuitpython-neopixel``; its one dependency, ``adafruit_pixelbuf``, is built
  into CircuitPython for the Pico.

Only these files are written: ``config.json``, saved settings and games and anything else
on the drive stay. Every failure is one line on stderr and exit status 1 (2 for bad
arguments).
"""

import os
import shutil
import subprocess
import sys
import tempfile

from tools import circuitpy_compiler, cli
from tools.cli import FIRMWARE, ROOT

NEOPIXEL_PACKAGE = "adafruit-circuitpython-neopixel"
SHARED_DRIVE = os.path.join("shared", "circuitpython", "circuitpy-empty.img.xz")
DRIVE_SECTORS = 2048  # a Pico's CIRCUITPY: 1 MB of FAT12 in 512-byte sectors
EXCLUDE = ("config.json",)  # the board's own: never overwritten
SOURCE_ONLY = ("code.py", "boot.py")  # CircuitPython looks for these two by name

# The button held at power-on that keeps the drive writable to the computer.
WRITABLE_BUTTON = "b"

CODE_PY = '''\
# code.py: CircuitPython runs this at boot. It starts the Micro Robots handheld, which is
# main.py (the same file a MicroPython Pico runs). See docs/circuitpython.md.
import main

main.main()
'''

BOOT_PY = '''\
# boot.py: CircuitPython runs this once at power-on or reset, before USB starts.
# The handheld saves its settings and games on this drive, and code may write to the
# drive only when the computer may not. So the drive is given to the handheld, unless
# button %(upper)s is held while the board powers up or resets: then the drive stays writable
# to the computer (to update the firmware or edit config.json) and nothing is saved.
# The button's pin is config.json's buttons.%(name)s (GP%(default)d by default).
import board
import digitalio
import storage


def _pin():
    try:
        from microrobots.device import config

        return config.load_file("config.json")["buttons"]["%(name)s"]
    except Exception:  # a bad or missing config.json: the default wiring (code.py says why)
        return %(default)d


button = digitalio.DigitalInOut(getattr(board, "GP%%d" %% _pin()))
button.switch_to_input(pull=digitalio.Pull.UP)
if button.value:  # not held (active low): the handheld may save
    storage.remount("/", readonly=False)
    print("boot.py: the drive is the handheld's; hold %(upper)s at reset to edit it")
else:
    print("boot.py: %(upper)s held: the drive stays writable to the computer; no saves")
button.deinit()
'''


class FlashError(Exception):
    """A problem to report as one line (exit status 1)."""


def neopixel_source():
    """The NeoPixel driver's source, from the installed pinned package."""
    from importlib import metadata

    try:
        dist = metadata.distribution(NEOPIXEL_PACKAGE)
    except metadata.PackageNotFoundError:
        raise FlashError("%s is missing: run `make venv` (requirements.txt pins it)"
                         % NEOPIXEL_PACKAGE)
    for f in dist.files or ():
        if str(f) == "neopixel.py":
            return f.read_text().encode()
    raise FlashError("%s has no neopixel.py" % NEOPIXEL_PACKAGE)


def boot_py():
    from microrobots.device import config

    name = WRITABLE_BUTTON
    return (BOOT_PY % {"name": name, "upper": name.upper(),
                       "default": config.defaults()["buttons"][name]}).encode()


def drive_tree(compiler=None):
    """``{drive path: bytes}``: every file the drive gets; with ``compiler`` (a
    circuitpy_compiler.Compiler) every module but code.py and boot.py as ``.mpy``."""
    from tools.cli import firmware_files

    tree = {}
    for rel in firmware_files():
        if rel in EXCLUDE:
            continue
        with open(os.path.join(FIRMWARE, rel), "rb") as f:
            tree[rel] = f.read()
    tree["lib/neopixel.py"] = neopixel_source()
    if compiler is not None:
        tree = compiled(tree, compiler)
    tree["code.py"] = CODE_PY.encode()
    tree["boot.py"] = boot_py()
    return tree


def compiled(tree, compiler):
    """``tree`` with each ``.py`` module as the ``.mpy`` ``compiler`` writes. A module of
    native code (``NAME_viper.py``, which CircuitPython's compiler refuses: it has no
    native emitter) is left off: on CircuitPython the firmware imports its plain twin
    (compat.NATIVE is False there)."""
    out = {}
    for path, data in tree.items():
        if path.endswith(".py") and path not in SOURCE_ONLY:
            try:
                out[path[:-3] + ".mpy"] = compiler.compile(data, path)
            except circuitpy_compiler.CompileError as e:
                if not str(e).endswith("invalid arch"):
                    raise FlashError(str(e))
        else:
            out[path] = data
    return out


def stale(tree):
    """The drive paths ``tree`` makes stale: the ``.py`` of each ``.mpy`` it writes (a
    ``.py`` shadows its ``.mpy`` on import) and the ``.mpy`` of each ``.py``."""
    other = {".py": ".mpy", ".mpy": ".py"}
    out = []
    for path in tree:
        base, ext = os.path.splitext(path)
        if ext in other and base + other[ext] not in tree:
            out.append(base + other[ext])
    return sorted(out)


def choose_compiler(boot_out, source=False, log=None):
    """``(compiler or None, line)``: how the firmware goes onto a board whose
    ``boot_out.txt`` is ``boot_out`` (None: no board to ask, e.g. --folder), and the one
    line that says so."""
    if source:
        return None, "the firmware as source (--source)"
    compiler, why = circuitpy_compiler.find(log=log)
    if compiler is None:
        return None, "the firmware as source: %s" % why
    board = circuitpy_compiler.board_version(boot_out) if boot_out is not None else None
    if boot_out is not None and not compiler.compatible(board):
        return None, ("the firmware as source: the board runs %s, and the compiler writes "
                      "CircuitPython %d.x's .mpy" % (
                          "CircuitPython " + board if board else "an unknown CircuitPython "
                          "(boot_out.txt names none)", compiler.major))
    return compiler, "the firmware as .mpy for CircuitPython %d.x (mpy-cross %s%s)" % (
        compiler.major, compiler.version, ", for the board's %s" % board if board else "")


# -- where the files go ------------------------------------------------------------------

def write_folder(tree, folder):
    """Write ``tree`` under ``folder`` (the mounted CIRCUITPY drive or any folder)."""
    for path in sorted(tree):
        dest = os.path.join(folder, *path.split("/"))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        temp = dest + ".new"
        with open(temp, "wb") as f:
            f.write(tree[path])
        os.replace(temp, dest)
    for path in stale(tree):
        dest = os.path.join(folder, *path.split("/"))
        if os.path.isfile(dest):
            os.remove(dest)


def read_boot_out(folder=None, image=None):
    """The drive's ``boot_out.txt`` (bytes; a folder or a FAT image), or None."""
    if folder is not None:
        path = os.path.join(folder, "boot_out.txt")
        if not os.path.isfile(path):
            return None
        with open(path, "rb") as f:
            return f.read(4096)
    if image is not None and os.path.exists(image):
        try:
            return _mtools(["mtype", "-i", image, "::boot_out.txt"], image).encode()
        except FlashError:
            return None
    return None


def find_drive():
    """The one mounted CIRCUITPY drive (Linux, macOS), or a FlashError saying why not."""
    import glob

    found = sorted(set(glob.glob("/media/*/CIRCUITPY*") + glob.glob("/run/media/*/CIRCUITPY*")
                       + glob.glob("/media/CIRCUITPY*") + glob.glob("/Volumes/CIRCUITPY*")))
    found = [d for d in found if os.path.isfile(os.path.join(d, "boot_out.txt"))]
    if not found:
        raise FlashError("no CIRCUITPY drive is mounted: plug the Pico in (CircuitPython on "
                         "it, circuitpython.org) or name its folder with --drive")
    if len(found) > 1:
        raise FlashError("%d CIRCUITPY drives are mounted (%s): name one with --drive"
                         % (len(found), ", ".join(found)))
    return found[0]


def find_base_image(root=ROOT):
    """The drive as CircuitPython formats it (../shared/circuitpython/), or None."""
    here = os.path.abspath(root)
    for _ in range(3):
        here = os.path.dirname(here)
        path = os.path.join(here, SHARED_DRIVE)
        if os.path.isfile(path):
            return path
    return None


def _mtools(args, what):
    exe = shutil.which(args[0])
    if exe is None:
        raise FlashError("%s is missing: install mtools (`make system-deps` or "
                         "`apt-get install mtools`)" % args[0])
    proc = subprocess.run([exe] + args[1:], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, check=False)
    if proc.returncode:
        lines = (proc.stderr or proc.stdout).strip().splitlines() or ["no output"]
        raise FlashError("%s: %s" % (what, lines[-1]))
    return proc.stdout


def blank_image(path, base=None):
    """A fresh CIRCUITPY drive image at ``path``: ``base`` (an ``.img`` or ``.img.xz``)
    unpacked, else a FAT12 drive formatted as CircuitPython formats a Pico's."""
    if base is not None:
        if base.endswith(".xz"):
            import lzma

            with lzma.open(base) as f:
                data = f.read()
        else:
            with open(base, "rb") as f:
                data = f.read()
        with open(path, "wb") as f:
            f.write(data)
        return
    with open(path, "wb") as f:
        f.truncate(DRIVE_SECTORS * 512)
    _mtools(["mformat", "-i", path, "-T", str(DRIVE_SECTORS), "-h", "1", "-s", "1",
             "-c", "1", "-v", "CIRCUITPY", "::"], path)


def write_image(tree, path, base=None):
    """Put ``tree`` onto the FAT drive image ``path`` (made from ``base`` when missing)."""
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        blank_image(path, base)
    stage = tempfile.mkdtemp(prefix="circuitpy-")
    try:
        write_folder(tree, stage)
        names = [os.path.join(stage, n) for n in sorted(os.listdir(stage))]
        _mtools(["mcopy", "-s", "-o", "-Q", "-i", path] + names + ["::"], path)
        on_drive = set(read_image_names(path))
        gone = [p for p in stale(tree) if p in on_drive]
        if gone:
            _mtools(["mdel", "-i", path] + ["::" + p for p in gone], path)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def read_image_names(path):
    """Every file's path on the FAT drive image ``path``."""
    listing = _mtools(["mdir", "-/", "-b", "-i", path, "::"], path)
    return [line[3:] if line.startswith("::/") else line.lstrip(":/")
            for line in listing.splitlines() if line and not line.endswith("/")]


def read_image(path):
    """Every file on the FAT drive image ``path``: ``{path: bytes}``."""
    out_dir = tempfile.mkdtemp(prefix="circuitpy-read-")
    try:
        _mtools(["mcopy", "-s", "-n", "-Q", "-i", path, "::*", out_dir], path)
        files = {}
        for top, _dirs, names in os.walk(out_dir):
            for name in names:
                full = os.path.join(top, name)
                rel = os.path.relpath(full, out_dir).replace(os.sep, "/")
                with open(full, "rb") as f:
                    files[rel] = f.read()
        return files
    finally:
        shutil.rmtree(out_dir, ignore_errors=True)


def build_parser():
    parser = cli.Parser(description=__doc__.split("\n")[0])
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--drive", help="the board's CIRCUITPY drive, mounted (a folder; "
                       "default: the one mounted CIRCUITPY drive)")
    where.add_argument("--image", help="a FAT drive image to write (made if missing)")
    where.add_argument("--folder", help="a folder to write the drive's files into")
    where.add_argument("--dry-run", action="store_true", help="list the files; write nothing")
    parser.add_argument("--base", help="the blank drive image --image starts from "
                        "(default: ../shared/circuitpython/circuitpy-empty.img.xz, else a "
                        "freshly formatted FAT12 drive)")
    parser.add_argument("--source", action="store_true", help="write the firmware as source, "
                        "not compiled (the board then compiles it at every boot)")
    return parser


def _boot_out(args):
    """The target's boot_out.txt (None: no board to ask, for --folder and --dry-run)."""
    if args.drive:
        return read_boot_out(folder=args.drive) or b""
    if args.image:
        if os.path.exists(args.image):
            return read_boot_out(image=args.image) or b""
        base = args.base or find_base_image()
        if base is None:
            return b""
        stage = tempfile.mkdtemp(prefix="circuitpy-base-")
        try:
            blank_image(os.path.join(stage, "base.img"), base)
            return read_boot_out(image=os.path.join(stage, "base.img")) or b""
        finally:
            shutil.rmtree(stage, ignore_errors=True)
    return None


def main(argv=None, out=None):
    out = out or sys.stdout
    args = build_parser().parse_args(argv)
    try:
        if not (args.image or args.folder or args.dry_run):
            args.drive = args.drive or find_drive()
            if not os.path.isdir(args.drive):
                raise FlashError("%s: no such folder (is the board plugged in and its "
                                 "CIRCUITPY drive mounted?)" % args.drive)
            if not os.path.exists(os.path.join(args.drive, "boot_out.txt")):
                raise FlashError("%s: not a CircuitPython drive (no boot_out.txt)" % args.drive)
        compiler, line = choose_compiler(_boot_out(args), args.source,
                                         log=lambda m: print(m, file=out))
        print(line, file=out)
        tree = drive_tree(compiler)
        if args.dry_run:
            for path in sorted(tree):
                print("%-36s %6d bytes" % (path, len(tree[path])), file=out)
            print("%d files; config.json and saved games on the drive are kept" % len(tree),
                  file=out)
            return 0
        if args.drive:
            try:
                write_folder(tree, args.drive)
            except OSError as e:
                if e.errno == 30:  # EROFS: boot.py gave the drive to the handheld
                    raise FlashError("%s is read-only: the handheld has the drive; hold %s "
                                     "while pressing reset, then retry" % (
                                         args.drive, WRITABLE_BUTTON.upper()))
                raise FlashError("%s: %s" % (args.drive, e.strerror or e))
            where = args.drive
        else:
            where = args.image or args.folder
            try:
                if args.image:
                    write_image(tree, args.image, args.base or find_base_image())
                else:
                    write_folder(tree, args.folder)
            except OSError as e:
                raise FlashError("%s: %s" % (e.filename or where, e.strerror or e))
    except FlashError as e:
        print("error: %s" % e, file=sys.stderr)
        return 1
    print("wrote %d files to %s: the handheld starts at the next reset" % (len(tree), where),
          file=out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
