"""make firmware: MicroPython with Micro Robots frozen in, one .uf2 a player drags onto a Pico.

    python -m tools.picoimage [--board RPI_PICO|RPI_PICO2|all] [--if-possible] [-j N]

Builds ``build/firmware/microrobots-<board>.uf2`` from pinned sources, with no network when
``../shared/pico-src/`` lies beside the checkout (or ``PICO_SRC`` names that folder or its
``pico-src.tar.xz``); otherwise from clones of the same pinned versions (internet needed).
See docs/flashing.md for why the package is frozen rather than put in a ROMFS partition.

Steps, each kept in the cache (``$MICROROBOTS_CACHE``, else ``~/.cache/microrobots-pico``):
the sources unpacked once per archive, picotool built once (the rp2 build finishes a
``.uf2`` with it), MicroPython's mpy-cross built once, the board's C objects built once;
after a change to firmware/ only the frozen modules are compiled again and the image
linked (seconds). A finished image is kept by the hash of everything it is made
of (sources, board, the firmware's files, this tool): an unchanged tree is copied from
the cache, not built (``make test`` calls this every time).

``--if-possible`` (what ``make test`` uses): without a compiler or without the offline
sources, one line and exit status 0 (it clones nothing; the tests that boot the image then
skip, saying so). Otherwise a build that cannot be done is one line and exit status 1.
Bad arguments: exit status 2.
"""

import hashlib
import os
import shutil
import subprocess
import sys
import tarfile

try:
    import fcntl
except ImportError:  # not on Windows: builds there are not serialised
    fcntl = None

from tools import cli
from tools.cli import FIRMWARE, ROOT, cache_dir

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(ROOT, "build", "firmware")
BOARDS = ("RPI_PICO", "RPI_PICO2")
ARCHIVE = "pico-src.tar.xz"
ARCHIVE_SHA256 = "dfc0f554b22c0c844d0c380b8f6db5bc8280dd80346ce92eb545e8022722d5af"
# The versions the archive holds, for a builder with internet and no archive.
MICROPYTHON_TAG = "v1.28.0"
PICOTOOL_TAG = "2.2.0"
GITHUB = "https://github.com/"
TOOLS = ("arm-none-eabi-gcc", "arm-none-eabi-g++", "cmake", "make")
DEBIAN = ("gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib cmake "
          "build-essential libusb-1.0-0-dev pkg-config")


class BuildError(Exception):
    """One line to report (exit status 1). ``missing``: a tool or the sources are absent,
    rather than a build having failed."""

    def __init__(self, line, missing=False):
        super().__init__(line)
        self.missing = missing




def image_path(board="RPI_PICO"):
    """Where ``make firmware`` leaves the image for ``board``."""
    return os.path.join(OUT, "microrobots-%s.uf2" % board.lower())


def find_archive(root=ROOT):
    """The offline sources: ``(path, None)``, or ``(None, why not)``.

    ``$PICO_SRC`` (the folder, or the archive itself), else ``shared/pico-src/`` in a
    folder beside the checkout or one further up (a worktree's or CI clone's).
    """
    env = os.environ.get("PICO_SRC")
    if env:
        path = os.path.join(env, ARCHIVE) if os.path.isdir(env) else env
        if os.path.isfile(path):
            return path, None
        return None, "PICO_SRC=%s: no %s there" % (env, ARCHIVE)
    here = os.path.abspath(root)
    for _ in range(3):
        here = os.path.dirname(here)
        path = os.path.join(here, "shared", "pico-src", ARCHIVE)
        if os.path.isfile(path):
            return path, None
    return None, "no ../shared/pico-src/%s beside the checkout and no PICO_SRC" % ARCHIVE


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def run(cmd, cwd=None, env=None, log=None, what=None):
    """Run a build step, its output into ``log``; a failure is one line naming the log."""
    with open(log, "ab") as out:
        out.write(("\n$ %s\n" % " ".join(cmd)).encode())
        out.flush()
        proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, check=False)
    if proc.returncode:
        raise BuildError("%s failed (exit %d); its output: %s"
                         % (what or cmd[0], proc.returncode, log))


# -- the sources -----------------------------------------------------------------------

def unpack(archive, cache):
    """The archive unpacked once into the cache: the folder holding micropython/, picotool/."""
    digest = sha256_file(archive)
    if digest != ARCHIVE_SHA256:
        raise BuildError("%s: sha256 %s..., not the pinned %s..." % (archive, digest[:12],
                                                                     ARCHIVE_SHA256[:12]))
    src = os.path.join(cache, "src-" + digest[:12])
    done = os.path.join(src, ".unpacked")
    if not os.path.exists(done):
        shutil.rmtree(src, ignore_errors=True)
        os.makedirs(src)
        with tarfile.open(archive) as tar:
            tar.extractall(src, filter="data")
        open(done, "w").close()
    return src, digest


def clone(cache, log):
    """Clones of the pinned versions (a builder with internet and no archive)."""
    src = os.path.join(cache, "src-git-" + MICROPYTHON_TAG)
    done = os.path.join(src, ".cloned")
    if not os.path.exists(done):
        shutil.rmtree(src, ignore_errors=True)
        os.makedirs(src)
        for repo, tag, name in (("micropython/micropython", MICROPYTHON_TAG, "micropython"),
                                ("raspberrypi/picotool", PICOTOOL_TAG, "picotool")):
            run(["git", "clone", "-q", "--depth", "1", "-b", tag, GITHUB + repo, name],
                cwd=src, log=log, what="cloning " + repo)
        run(["make", "-C", "ports/rp2", "BOARD=RPI_PICO2", "submodules"],
            cwd=os.path.join(src, "micropython"), log=log, what="fetching submodules")
        open(done, "w").close()
    return src, "git-" + MICROPYTHON_TAG + "-" + PICOTOOL_TAG


# -- the builds ------------------------------------------------------------------------

def build_picotool(src, jobs, log):
    """picotool installed into ``src``; returns the folder of its cmake package."""
    prefix = os.path.join(src, "picotool-install")
    package = os.path.join(prefix, "picotool")
    if os.path.exists(os.path.join(package, "picotoolConfig.cmake")):
        return package
    build = os.path.join(src, "picotool-build")
    sdk = os.path.join(src, "micropython", "lib", "pico-sdk")
    run(["cmake", "-S", os.path.join(src, "picotool"), "-B", build, "-DPICO_SDK_PATH=" + sdk,
         "-DPICOTOOL_FLAT_INSTALL=1", "-DCMAKE_INSTALL_PREFIX=" + prefix], log=log,
        what="configuring picotool")
    run(["make", "-C", build, "-j%d" % jobs, "install"], log=log, what="building picotool")
    return package


def build_mpy_cross(src, jobs, log):
    binary = os.path.join(src, "micropython", "mpy-cross", "build", "mpy-cross")
    if not os.path.exists(binary):
        run(["make", "-C", os.path.join(src, "micropython", "mpy-cross"), "-j%d" % jobs],
            log=log, what="building mpy-cross")
    return binary


def firmware_sources():
    """``{staged path: bytes}``: what the image freezes, from firmware/ and this folder."""
    files = {}
    for rel in cli.firmware_files():
        if rel.startswith("microrobots/") and rel.endswith(".py"):
            with open(os.path.join(FIRMWARE, rel), "rb") as f:
                files[rel] = f.read()
    for name, staged in (("launcher.py", "main.py"), ("manifest.py", "manifest.py")):
        with open(os.path.join(HERE, name), "rb") as f:
            files[staged] = f.read()
    return files


def image_key(source_id, board, files):
    """The hash of everything an image is made of."""
    h = hashlib.sha256()
    with open(os.path.abspath(__file__), "rb") as f:
        h.update(f.read())
    h.update(("%s\0%s\0" % (source_id, board)).encode())
    for path in sorted(files):
        h.update(path.encode() + b"\0" + files[path] + b"\0")
    return h.hexdigest()[:16]


def source_id():
    """What the sources are: the archive's hash, or the pinned tags cloned."""
    archive, _ = find_archive()
    return ARCHIVE_SHA256 if archive else "git-" + MICROPYTHON_TAG + "-" + PICOTOOL_TAG


def tree_key(board="RPI_PICO"):
    """The build id an image of this tree for ``board`` gets (``microrobots_image.BUILD``)."""
    return image_key(source_id(), board, firmware_sources())


def stage(folder, files):
    """Write ``files`` under ``folder``, touching only what changed (make stays incremental)."""
    wanted = set()
    for path, data in files.items():
        dest = os.path.join(folder, path)
        wanted.add(os.path.normpath(dest))
        try:
            with open(dest, "rb") as f:
                if f.read() == data:
                    continue
        except OSError:
            os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "wb") as f:
            f.write(data)
    for d, _dirs, names in os.walk(folder):
        for name in names:
            path = os.path.normpath(os.path.join(d, name))
            if path not in wanted:
                os.remove(path)


def build_board(src, board, files, key, picotool, mpy_cross, jobs, log):
    """Build ``board``'s image with ``files`` frozen in; returns the .uf2's path."""
    mpy = os.path.join(src, "micropython")
    staging = os.path.join(src, "stage-" + board)
    files = dict(files)
    files["microrobots_image.py"] = (
        '"""The Micro Robots image\'s build (tools.picoimage): the hash of its sources."""\n'
        "BUILD = %r\nBOARD = %r\n" % (key, board)).encode()
    stage(staging, files)
    build = os.path.join(src, "build-" + board)
    # The folder is trusted only if the last make in it ran to its end (passed or failed):
    # one killed midway, or raced by another build before the lock, can leave generated C
    # that no longer matches the sources (the next build fails or links stale modules).
    finished = build + ".finished"
    if os.path.isdir(build) and not os.path.exists(finished):
        print("%s: the last build in %s was cut short; building from a clean folder"
              % (board, build))
        shutil.rmtree(build)
    if os.path.exists(finished):
        os.remove(finished)
    env = dict(os.environ)
    # In the environment, not on make's command line: there it would replace the rp2
    # Makefile's own CMAKE_ARGS (board, frozen manifest) and quietly build the stock image.
    env["CMAKE_ARGS"] = "-Dpicotool_DIR=%s -DMICROPY_MPYCROSS=%s" % (picotool, mpy_cross)
    try:
        run(["make", "-C", os.path.join(mpy, "ports", "rp2"), "BOARD=" + board,
             "BUILD=" + build, "FROZEN_MANIFEST=" + os.path.join(staging, "manifest.py"),
             "-j%d" % jobs], env=env, log=log, what="building MicroPython for " + board)
    finally:
        if sys.exc_info()[0] in (None, BuildError):
            open(finished, "w").close()
    return os.path.join(build, "firmware.uf2")


def uf2_payload(data):
    """The bytes a .uf2 writes to flash, in block order (each 512-byte block carries 256)."""
    return b"".join(data[k + 32:k + 32 + 256] for k in range(0, len(data), 512))


def check_frozen(uf2, key):
    """The image must hold this build's id: proof that the frozen modules were rebuilt."""
    with open(uf2, "rb") as f:
        if key.encode() not in uf2_payload(f.read()):
            raise BuildError("%s does not hold build %s: the frozen modules were not rebuilt "
                             "(remove %s and build again)" % (uf2, key, os.path.dirname(uf2)))


def missing_tools():
    return [t for t in TOOLS if shutil.which(t) is None]


def build(boards, jobs=2, log=print, offline_only=False):
    """Build (or take from the cache) each board's image; returns their paths.
    ``offline_only``: without the archive, raise rather than clone."""
    cache = cache_dir()
    os.makedirs(cache, exist_ok=True)
    os.makedirs(OUT, exist_ok=True)
    files = firmware_sources()
    archive, why = find_archive()
    made = []
    todo = []
    for board in boards:
        key = image_key(source_id(), board, files)
        cached = os.path.join(cache, "images", key, "firmware.uf2")
        if os.path.exists(cached):
            shutil.copyfile(cached, image_path(board))
            log("%s: %s (cached build %s)" % (board, os.path.relpath(image_path(board)), key))
            made.append(image_path(board))
        else:
            todo.append((board, key, cached))
    if not todo:
        return made
    with build_lock(cache, log):
        made += _build(todo, files, archive, why, cache, jobs, log, offline_only)
    return made


class build_lock:
    """One build at a time in the cache: two checkouts (a worktree and a CI clone, say)
    building different firmware trees share its staging and build folders, and two makes
    in one folder interleave the frozen modules' generated C into a broken build."""

    def __init__(self, cache, log):
        self.path = os.path.join(cache, "build.lock")
        self.log = log

    def __enter__(self):
        self.file = open(self.path, "w")
        if fcntl is None:
            return self
        try:
            fcntl.flock(self.file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.log("waiting for another build of the image (%s)" % self.path)
            fcntl.flock(self.file, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        self.file.close()  # (the lock goes with it)


def _build(todo, files, archive, why, cache, jobs, log, offline_only):
    made = []
    for board, key, cached in list(todo):  # another build may have made it meanwhile
        if os.path.exists(cached):
            shutil.copyfile(cached, image_path(board))
            log("%s: %s (cached build %s)" % (board, os.path.relpath(image_path(board)), key))
            made.append(image_path(board))
            todo.remove((board, key, cached))
    if not todo:
        return made
    missing = missing_tools()
    if missing:
        raise BuildError("cannot build the image: %s missing (Debian: apt-get install %s)"
                         % (", ".join(missing), DEBIAN), missing=True)
    if archive is None and offline_only:
        raise BuildError("cannot build the image offline: " + why, missing=True)
    build_log = os.path.join(OUT, "build.log")
    open(build_log, "w").close()
    if archive:
        log("sources: %s" % archive)
        src, _ = unpack(archive, cache)
    else:
        log("sources: %s; cloning MicroPython %s and picotool %s" % (why, MICROPYTHON_TAG,
                                                                     PICOTOOL_TAG))
        src, _ = clone(cache, build_log)
    picotool = build_picotool(src, jobs, build_log)
    mpy_cross = build_mpy_cross(src, jobs, build_log)
    for board, key, cached in todo:
        log("%s: building (log: %s)" % (board, os.path.relpath(build_log)))
        uf2 = build_board(src, board, files, key, picotool, mpy_cross, jobs, build_log)
        check_frozen(uf2, key)
        os.makedirs(os.path.dirname(cached), exist_ok=True)
        shutil.copyfile(uf2, cached + ".tmp")
        os.replace(cached + ".tmp", cached)
        shutil.copyfile(cached, image_path(board))
        log("%s: %s (%d KB, build %s)" % (board, os.path.relpath(image_path(board)),
                                          os.path.getsize(cached) // 1024, key))
        made.append(image_path(board))
    return made


def main(argv=None):
    parser = cli.Parser(prog="python -m tools.picoimage", description=__doc__.split("\n")[0])
    parser.add_argument("--board", default="all", choices=BOARDS + ("all",),
                        help="the board to build for (default: all)")
    parser.add_argument("--if-possible", action="store_true",
                        help="without a compiler, say so and exit 0")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    try:
        args = parser.parse_args(argv)
    except cli.Errors as e:
        return cli.fail("picoimage", e)
    boards = BOARDS if args.board == "all" else (args.board,)
    try:
        build(boards, jobs=max(1, args.jobs), offline_only=args.if_possible)
    except BuildError as e:
        if args.if_possible and e.missing:
            print("picoimage: note: %s; the tests that boot it will be skipped" % e)
            return 0
        print("picoimage: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    cli.run(main)
