"""CircuitPython's own mpy-cross: found or built, and the firmware compiled with it.

CircuitPython's ``.mpy`` files are its own (they begin with ``C``; MicroPython's with
``M``) and only CircuitPython's ``mpy-cross`` writes them. PyPI has none, so it is looked
for, in this order (``find``):

1. ``$CIRCUITPY_MPY_CROSS``, a compiler you name;
2. ``../shared/circuitpython/mpy-cross-circuitpython-<version>-linux-x86_64`` beside the
   checkout (a static Linux build of 10.2.1);
3. built once from ``../shared/circuitpython/circuitpython-<version>-mpy-cross-src.tar.xz``
   into the build cache (``$MICROROBOTS_CACHE``, else ``~/.cache/microrobots-pico``),
   about 80 s on two cores; it needs ``make``, a C compiler and PyPI's ``huffman``
   (requirements/circuitpython.txt);
4. none: the caller installs source, saying so in one line.

A compiled file runs only on a CircuitPython that reads its ``.mpy`` version. Adafruit
ships one library bundle per major version (``10.x-mpy``) for that reason, and so does
this: ``compatible`` accepts a board whose major version is the compiler's.

    compiler, why = find()              # (Compiler, None) or (None, "one line: why not")
    compiler.version                    # "10.2.1"
    compiler.compile(source, "microrobots/app.py")   # the .mpy bytes
"""

import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

from tools.cli import ROOT, cache_dir

ENV = "CIRCUITPY_MPY_CROSS"
SHARED = os.path.join("shared", "circuitpython")
BINARY = "mpy-cross-circuitpython-*-linux-x86_64"
SOURCES = "circuitpython-*-mpy-cross-src.tar.xz"
_VERSION = re.compile(r"CircuitPython (\d+)\.(\d+)\.(\d+)")


class Compiler:
    """One CircuitPython mpy-cross executable and the version it reports."""

    def __init__(self, path, version, origin):
        self.path = path
        self.version = version  # "10.2.1"
        self.origin = origin  # where it came from, for the one line the installer prints

    @property
    def major(self):
        return int(self.version.split(".")[0])

    def compatible(self, board_version):
        """Whether a board running CircuitPython ``board_version`` ("10.1.0") imports
        what this compiler writes: the same major version, as Adafruit's bundles."""
        match = _VERSION.search("CircuitPython " + (board_version or ""))
        return bool(match) and int(match.group(1)) == self.major

    def compile(self, source, name):
        """The ``.mpy`` of ``source`` (bytes), its tracebacks naming ``name``."""
        work = tempfile.mkdtemp(prefix="circuitpy-mpy-")
        try:
            src = os.path.join(work, "module.py")
            out = os.path.join(work, "module.mpy")
            with open(src, "wb") as f:
                f.write(source)
            proc = subprocess.run([self.path, "-s", name, "-o", out, src], capture_output=True,
                                  text=True, stdin=subprocess.DEVNULL, check=False)
            if proc.returncode:
                lines = (proc.stderr or proc.stdout).strip().splitlines() or ["no output"]
                raise CompileError("%s: %s" % (name, lines[-1]))
            with open(out, "rb") as f:
                return f.read()
        finally:
            shutil.rmtree(work, ignore_errors=True)


class CompileError(Exception):
    """A module CircuitPython's compiler refused (one line)."""


def version_of(path):
    """The CircuitPython version an mpy-cross executable reports, or None."""
    try:
        proc = subprocess.run([path, "--version"], capture_output=True, text=True,
                              stdin=subprocess.DEVNULL, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = _VERSION.search(proc.stdout + proc.stderr)
    return "%s.%s.%s" % match.groups() if match else None


def _shared_dirs(root=ROOT):
    here = os.path.abspath(root)
    for _ in range(3):
        here = os.path.dirname(here)
        folder = os.path.join(here, SHARED)
        if os.path.isdir(folder):
            yield folder


def _runnable(path):
    """``path`` itself when it may be executed, else a copy in the cache that may (a
    shared folder laid out without its execute bits)."""
    if os.access(path, os.X_OK):
        return path
    copy = os.path.join(cache_dir(), "bin", os.path.basename(path))
    if not os.path.exists(copy):
        os.makedirs(os.path.dirname(copy), exist_ok=True)
        shutil.copyfile(path, copy + ".new")
        os.chmod(copy + ".new", 0o755)
        os.replace(copy + ".new", copy)
    return copy


def build(archive, log=None):
    """mpy-cross built from the source bundle ``archive`` into the cache (once per
    bundle); its path, or CompileError saying why not."""
    with open(archive, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:12]
    match = re.search(r"circuitpython-(\d+\.\d+\.\d+)-", os.path.basename(archive))
    if not match:
        raise CompileError("%s: no version in the file name" % archive)
    folder = os.path.join(cache_dir(), "circuitpython-mpy-cross-" + digest)
    exe = os.path.join(folder, "mpy-cross", "build", "mpy-cross")
    if os.path.exists(exe):
        return exe
    for tool in ("make", "cc"):
        if shutil.which(tool) is None:
            raise CompileError("%s is missing: cannot build CircuitPython's mpy-cross" % tool)
    try:
        import huffman  # noqa: F401 - the build compresses its messages with it
    except ImportError:
        raise CompileError("PyPI's huffman is missing: cannot build CircuitPython's "
                           "mpy-cross (make venv installs it)")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    with tarfile.open(archive) as tar:
        tar.extractall(folder, filter="data")
    # The build runs python3 for its scripts: the one that has huffman.
    env = dict(os.environ, CP_VERSION=match.group(1),
               PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    logfile = os.path.join(folder, "build.log")
    if log:
        log("building CircuitPython %s's mpy-cross (about 80 s; log: %s)"
            % (match.group(1), logfile))
    with open(logfile, "w") as out:
        proc = subprocess.run(["make", "-C", os.path.join(folder, "mpy-cross"),
                               "STATIC_BUILD=1", "-j%d" % (os.cpu_count() or 1)],
                              env=env, stdout=out, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, check=False)
    if proc.returncode or not os.path.exists(exe):
        raise CompileError("building CircuitPython's mpy-cross failed (exit %d); its output: %s"
                           % (proc.returncode, logfile))
    return exe


def find(root=ROOT, log=None, allow_build=True):
    """``(Compiler, None)``, or ``(None, why)`` in one line (see the module docstring)."""
    named = os.environ.get(ENV)
    if named:
        version = version_of(named)
        if version is None:
            return None, "%s=%s: not a CircuitPython mpy-cross" % (ENV, named)
        return Compiler(named, version, ENV), None
    bundles = []
    for folder in _shared_dirs(root):
        for path in sorted(glob.glob(os.path.join(folder, BINARY)), reverse=True):
            exe = _runnable(path)
            version = version_of(exe)
            if version is not None:
                return Compiler(exe, version, path), None
        bundles += sorted(glob.glob(os.path.join(folder, SOURCES)), reverse=True)
    if bundles and allow_build:
        try:
            exe = build(bundles[0], log)
        except CompileError as e:
            return None, str(e)
        version = version_of(exe)
        if version is not None:
            return Compiler(exe, version, bundles[0]), None
        return None, "the mpy-cross built from %s does not run" % bundles[0]
    return None, ("no CircuitPython mpy-cross (set %s, or put ../shared/circuitpython/ beside "
                  "the checkout)" % ENV)


def board_version(boot_out):
    """The CircuitPython version a drive's ``boot_out.txt`` (bytes or text) names, or
    None: ``Adafruit CircuitPython 10.2.1 on 2026-12-01; Raspberry Pi Pico with rp2040``."""
    if isinstance(boot_out, bytes):
        boot_out = boot_out.decode("utf-8", "replace")
    match = _VERSION.search(boot_out or "")
    return "%s.%s.%s" % match.groups() if match else None
