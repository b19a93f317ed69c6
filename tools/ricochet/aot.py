"""The compiled search built ahead of time, so that a fresh command need not load numba.

    python -m tools.ricochet.aot            # build it (a few seconds; make bench does it)
    python -m tools.ricochet.aot --check    # say whether it is built and up to date
    python -m tools.ricochet.aot --if-needed  # build it unless it is (make ricochet does)

kernel.py's search, compiled with numba's ahead-of-time compiler (numba.pycc), is an
extension module that needs numpy alone: a fresh process imports it in some 0.05 s and
25 MB, where loading numba costs 0.45 s and 90 MB. kernel.py uses it when it is up to date
(built from the kernel.py there is now, for this Python) and loads numba otherwise, so a
stale or missing build costs time, never a wrong answer. It lives in
``tools/ricochet/__pycache__/`` beside numba's own cache, and is never committed.
``RICOCHET_AOT=off`` ignores it.
"""

# Only what loading needs is imported here: a fresh command that loads the build pays for
# nothing else (building imports subprocess, shutil and tempfile when it runs).
import importlib.machinery
import importlib.util
import os
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
CACHE = os.path.join(HERE, "__pycache__")
NAME = "_kernel_aot"
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]  # e.g. .cpython-311-x86_64-linux-gnu.so

# kernel.py's _dfs and _ray_min as the Kernel class calls them: C-ordered numpy arrays
_A1, _A2, _A3 = "i8[::1]", "i8[:,::1]", "i8[:,:,::1]"
SIGNATURES = {
    "dfs": ("i8(i8, i8, {a1}, {a1}, i8, b1[::1], b1[::1], {a1}, b1, {a3}, {a1}, u1[::1], i8, "
            "b1[:,:,::1], b1[:,:,::1], {a2}, u8[::1], {a2}, {a1}, i8, {a2}, {a3}, u8[:,::1], "
            "u1[::1], u1[::1], {a1}, {a1}, {a3}, {a2}, {a1}, i8, i8, u8[::1])").format(
                a1=_A1, a2=_A2, a3=_A3),
    "ray_min": "void({a2}, {a1}, {a2}, {a3})".format(a1=_A1, a2=_A2, a3=_A3),
}


def fingerprint():
    """What the build depends on: kernel.py's text and this file's (how it is built), as
    two CRC-32s (a stale build is caught by any edit; hashlib's import would cost a fresh
    command more than the check itself)."""
    out = ""
    for name in ("kernel.py", "aot.py"):
        with open(os.path.join(HERE, name), "rb") as f:
            out += "%08x" % zlib.crc32(f.read())
    return out


def path():
    return os.path.join(CACHE, "%s_%s%s" % (NAME, fingerprint(), SUFFIX))


def load():
    """The built module when it is up to date (and not switched off), else None."""
    if os.environ.get("RICOCHET_AOT") == "off":
        return None
    where = path()
    if not os.path.exists(where):
        return None
    loader = importlib.machinery.ExtensionFileLoader(NAME, where)
    spec = importlib.util.spec_from_file_location(NAME, where, loader=loader)
    try:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except ImportError:  # numpy missing, or built against another one: numba instead
        return None
    return module


def build():
    """Build the module (in a child process that loads numba, the build written whole:
    through a temporary folder and a rename); returns its path. RuntimeError in one line
    when it cannot be built."""
    import subprocess
    import tempfile
    target = path()
    os.makedirs(CACHE, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
        code = ("import sys, warnings\n"
                "warnings.simplefilter('ignore')\n"
                "from numba.pycc import CC\n"
                "from tools.ricochet import aot, kernel\n"
                "cc = CC(aot.NAME)\n"
                "cc.output_dir = sys.argv[1]\n"
                "cc.export('dfs', aot.SIGNATURES['dfs'])(kernel._dfs.py_func)\n"
                "cc.export('ray_min', aot.SIGNATURES['ray_min'])(kernel._ray_min.py_func)\n"
                "cc.compile()\n")
        from tools.cli import ROOT as root
        env = dict(os.environ, RICOCHET_AOT="off", PYTHONPATH=os.pathsep.join(
            [root, os.path.join(root, "firmware")]))
        proc = subprocess.run([sys.executable, "-c", code, tmp], capture_output=True,
                              text=True, cwd=root, env=env)
        built = [f for f in os.listdir(tmp) if f.startswith(NAME) and f.endswith(SUFFIX)]
        if proc.returncode or not built:
            lines = (proc.stderr or proc.stdout).strip().splitlines()
            raise RuntimeError("cannot build the compiled search ahead of time: %s"
                               % (lines[-1] if lines else "exit %d" % proc.returncode))
        os.replace(os.path.join(tmp, built[0]), target)
    for old in os.listdir(CACHE):  # earlier builds, of an older kernel.py
        if old.startswith(NAME + "_") and os.path.join(CACHE, old) != target:
            os.unlink(os.path.join(CACHE, old))
    return target


def ready():
    """Whether an up-to-date build exists (without loading it)."""
    return os.environ.get("RICOCHET_AOT") != "off" and os.path.exists(path())


def main(argv=None):
    from tools import cli
    parser = cli.Parser(prog="python -m tools.ricochet.aot",
                        description="Build the Ricochet solver's compiled search ahead of time.")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--check", action="store_true", help="say whether it is built and up to date")
    what.add_argument("--if-needed", action="store_true", help="build it unless it is")
    try:
        args = parser.parse_args(argv)
    except cli.UsageError as e:
        return cli.fail("aot", e)
    if args.check:
        print("built and up to date: %s" % path() if ready() else "not built (or out of date)")
        return 0 if ready() else 1
    if_needed = args.if_needed
    if if_needed and ready():
        return 0
    import shutil
    if importlib.util.find_spec("numba") is None or shutil.which("cc") is None and \
            shutil.which("gcc") is None:
        print("aot: numba and a C compiler are needed to build it; the solver loads numba"
              " (or searches in Python) instead", file=sys.stderr)
        return 0 if if_needed else 2
    try:
        print("built %s" % os.path.relpath(build()))
    except RuntimeError as e:
        print("aot: %s" % e, file=sys.stderr)
        return 0 if if_needed else 2  # not needed for a right answer: numba does it
    return 0


if __name__ == "__main__":
    sys.exit(main())
