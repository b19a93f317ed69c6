"""Soak: hours of random button mashing on the real firmware loop, on both runtimes.

A random player (taps, holds, long presses, chords, bursts faster than the debounce,
idle spells short and long, dives into a random mode) plays the firmware's own
``handheld.Device`` on fake pins, with power cycles on the saved state now and then (a new
Device on the same flash folder, its clock restarting at 0 or just before the ticks
wrap). Any exception in the app, any orange X, any file set aside as ``*.bad.json``,
any broken invariant (tokens, bounded logs) ends the run as a failure; under
MicroPython the heap in use is sampled every simulated minute::

    python -m tools.sim.soak --hours 2 --seeds 1,2,3 --runtime both
    make soak                                  # the long run (see the Makefile)

The engine (``--run``) is this very file, MicroPython-clean: the orchestrator starts it
as ``python tools/sim/soak.py --run ...`` or ``micropython -X heapsize=190k
tools/sim/soak.py --run ...`` and reads its last line, one JSON object::

    {"runtime": "micropython", "seed": 3, "simulated_ms": 7200000, "frames": 360000,
     "boots": 9, "modes": {"menu": 81234, ...}, "heap": [min, max, first, last],
     "failures": [], ...}

Exit code 1 if any run failed, 2 on bad options.
"""

import sys

FRAME_MS = 20
CHECK_FRAMES = 1000  # invariants every 20 s of play
HEAP_FRAMES = 3000  # a heap sample every minute (MicroPython)
MODE_FRAMES = 10  # which mode is on, every 200 ms


def _firmware_path():
    here = __file__.replace("\\", "/")
    cut = here.rfind("/")
    return (here[:cut] if cut >= 0 else ".") + "/../../firmware"


if "--firmware" in sys.argv:  # the firmware as staged for a board (see stage_flashed)
    sys.path.insert(0, sys.argv[sys.argv.index("--firmware") + 1])
else:
    try:
        import microrobots  # noqa: F401  - already importable (tests, tools)
    except ImportError:
        sys.path.insert(0, _firmware_path())

from microrobots import handheld  # noqa: E402
from microrobots.rules.game import POOL  # noqa: E402
from microrobots.device.hw.fake import Hardware as _FakeHardware  # noqa: E402
from microrobots.modes import step_cursor  # noqa: E402
from microrobots.rules.rng import XorShift32  # noqa: E402

try:  # (the soak also runs older firmware, to show what it finds there)
    from microrobots.compat import TICKS_MAX
    from microrobots.rules.game import KEEP
    from microrobots.rules.walk import UNDO
except ImportError:
    TICKS_MAX, KEEP, UNDO = 0x3FFFFFFF, 10**9, 10**9

MODES = ("menu", "solo", "referee", "classroom", "settings")


class SoakHardware(_FakeHardware):
    """Fake pins that keep nothing per frame (the soak runs for hours)."""

    soak_seed = 1

    def show(self, buf):
        self.writes += 1

    def tone(self, freq):
        pass

    def quiet(self):
        pass

    def seed(self):
        return self.soak_seed


class SoakDevice(handheld.Device):
    """The firmware's Device, its console quiet, its failures recorded."""

    failures = []
    worked = 0  # frames that stepped long work (app.App.work: a saved game replayed)

    def step(self):
        if self.app is not None and self.app.work is not None:
            SoakDevice.worked += 1
        super().step()

    def console(self, line):
        pass

    def fail(self, error):
        SoakDevice.failures.append("%s: %s" % (type(error).__name__, error))
        handheld.log_exception(error)
        super().fail(error)


def cursor_keys(robot, cursor, cell):
    """The D-pad keys that bring the cursor from ``cursor`` to ``cell`` (on the robot's
    row or column), as the modes move it (modes.step_cursor)."""
    keys = []
    cur = cursor
    while cur != cell and len(keys) < 12:
        if cell // 6 == robot // 6:
            col = cur % 6 if cur // 6 == robot // 6 else robot % 6
            key = 3 if cell % 6 > col else 2  # right, left
        else:
            row = cur // 6 if cur % 6 == robot % 6 else robot // 6
            key = 1 if cell // 6 > row else 0  # down, up
        cur = step_cursor(robot, cur, key)
        keys.append(key)
    return keys


class Player:
    """Random buttons, and now and then a player who knows the rules (long solo walks,
    claims that end refereed games): ``mask(elapsed, device)`` gives the buttons held."""

    def __init__(self, rng):
        self.rng = rng
        self.steps = []  # (until elapsed ms, mask), oldest first
        self.k = 0
        self.wander = 0  # solo: legal moves still to make before heading for the target
        self.want = "menu"  # the mode played for a while, until stay_until
        self.stay_until = 0
        self.focus = False  # a marathon: long, nearly all moves of one who knows the rules

    def mask(self, elapsed, device):
        while self.k >= len(self.steps) or elapsed >= self.steps[self.k][0]:
            if self.k >= len(self.steps):
                self._plan(elapsed, device)
            else:
                self.k += 1
        return self.steps[self.k][1]

    def _plan(self, t, device):
        """The next action, as steps from ``t``."""
        r = self.rng.below
        steps = []

        def hold(mask, ms):
            steps.append((t + ms if not steps else steps[-1][0] + ms, mask))

        def tap(button):
            hold(1 << button, 60)
            hold(0, 80)

        app = device.app
        mode = app.current if app is not None else None
        if app is not None and t >= self.stay_until:  # time for another mode
            self.want = MODES[(0, 1, 1, 1, 2, 2, 2, 3, 3, 4)[r(10)]]
            self.focus = self.want != "menu" and self.want != "settings" and r(4) == 0
            # a marathon makes long games: their history folds (game.KEEP), saved so
            self.stay_until = t + (30 + r(60)) * 60000 if self.focus else \
                t + 60000 + r(15 * 60000)
        if app is not None and app.mode != self.want and r(4) == 0:
            self._go(app, tap, hold)
        elif self.focus and app is not None and app.mode == "classroom" and r(10):
            hold(0, 2000 + r(8000))  # the demo steps by itself
        elif mode is not None and r(100) < (97 if self.focus else 75) and self._knows(
                app, mode, tap, hold):
            pass
        else:
            self._random(hold, app is not None and app.mode == self.want)
        if not steps:
            hold(0, 100)
        self.steps = steps
        self.k = 0

    def _go(self, app, tap, hold):
        """To the mode wanted: back to the menu, its quadrant, A."""
        if app.mode != "menu":
            hold(1 << 5, 700 + self.rng.below(300))
            hold(0, 200)
            return
        want = ("solo", "referee", "classroom", "settings").index(self.want) \
            if self.want != "menu" else -1
        if want < 0:
            return
        if app.switching:  # the menu is still coming (a switch takes a few frames)
            return
        choice = app.current.choice
        if (choice ^ want) & 1:
            tap(3 if want & 1 else 2)
        if (choice ^ want) & 2:
            tap(1 if want & 2 else 0)
        tap(4)

    def _knows(self, app, mode, tap, hold):
        """A move a player who knows the rules would make here; False if none."""
        r = self.rng.below
        screen = type(mode.screen).__name__ if mode.screen is not None else None
        if app.mode == "solo" and screen in ("Rolling", "Solved", "Score", "Review") or \
                app.mode == "referee" and screen in (
                    "Rolling", "Result", "Reveal", "Scores", "Over", "Why"):
            tap(4)  # dice, celebrations, verdicts, replays: on with A
            return True
        if app.mode == "solo" and screen in ("Play", "Stats"):  # a legal move (any key
            # closes the score shown for a moment and plays on)
            robot = mode.robot
            game = mode.game
            if self.wander == 0 and r(60 if self.focus else 12) == 0:
                self.wander = 1 + r(20) if r(5) else 100 + r(300)  # sometimes a long walk
            if self.wander > 0:
                self.wander -= 1
                moves = [c for c in app.solver.moves(robot) if c != game.target]
                if not moves:
                    return False
                cell = moves[r(len(moves))]
            else:
                seen = mode.walk.seen if hasattr(mode, "walk") else mode.seen
                via = None if seen else game.waypoint
                path = app.solver.path(robot, game.target, via)
                if not path or len(path) < 2:
                    return False
                cell = path[1]
            for key in cursor_keys(robot, mode.cursor, cell):
                tap(key)
            tap(4)
            return True
        if app.mode == "referee" and screen == "Board" and r(3) == 0:  # nobody finds one
            hold(1 << 4, 800)
            hold(0, 200)
            return True
        if app.mode == "referee" and screen == "Board" and r(2) == 0:  # a claim
            game = mode.game
            route = game.route()
            player = r(game.players)
            count = len(route) - 1 + (r(3) - 1 if r(2) == 0 else 0)  # right, or one off
            tap(4)  # claim: nobody chosen yet
            for _ in range(player + 1):
                tap(1)
            tap(4)
            for _ in range(max(count, 1) - 1):  # the count starts at 1
                tap(0)
            tap(4)
            robot = route[0]
            cursor = robot
            for cell in route[1:count + 1]:
                for key in cursor_keys(robot, cursor, cell):
                    tap(key)
                tap(4)
                robot = cursor = cell
            return True
        return False

    def _random(self, hold, staying):
        """Anything at all; while ``staying`` in a mode, B is never held long enough to
        leave it (the rest of the time it is)."""
        r = self.rng.below
        kind = r(100)
        if kind < 35:  # a tap
            hold(1 << r(6), 40 + r(100))
            hold(0, 30 + r(400))
        elif kind < 50:  # a hold: a long press, the D-pad repeating
            b = r(6)
            hold(1 << b, 400 + r(150 if b == 5 and staying else 1200))
            hold(0, 60 + r(300))
        elif kind < 55 and staying:  # B tapped: back a step
            hold(1 << 5, 60 + r(200))
            hold(0, 100 + r(300))
        elif kind < 55:  # back to the menu
            hold(1 << 5, 700 + r(900))
            hold(0, 100 + r(300))
        elif kind < 60:  # a chord
            hold((1 << r(6)) | (1 << r(6)) | (r(2) << r(6)), 50 + r(800))
            hold(0, 60 + r(200))
        elif kind < 70:  # a burst of taps, some faster than the debounce
            for _ in range(5 + r(16)):
                hold(1 << r(6), 10 + r(60))
                hold(0, 10 + r(60))
        elif kind < 90:  # a pause
            hold(0, 200 + r(3000))
        elif kind < 95:  # a long pause: animations run out, the classroom steps alone
            hold(0, 10000 + r(80000))
        else:  # a dive: menu, a quadrant, in
            hold(1 << 5, 800)
            hold(0, 150)
            for _ in range(r(4)):
                hold(1 << r(4), 60)
                hold(0, 100)
            hold(1 << 4, 60)
            hold(0, 300)


def check(d, root, listdir, seen):
    """The invariants a healthy device keeps; a sentence for the first one broken.
    ``seen`` gathers the largest walk, round and folded history met."""
    app = d.app
    if app is None:
        return "the app is stopped (orange X)"
    if app.mode not in MODES:
        return "mode %r" % app.mode
    mode = app.current
    game = getattr(mode, "game", None)
    if game is not None:
        if game.players > 1 and game.pool + sum(game.tokens) != POOL:
            return "tokens %r and pool %d" % (game.tokens, game.pool)
        if len(game.decisions()) > 2 * KEEP:
            return "%d decisions kept" % len(game.decisions())
        _most(seen, app.mode + " round", game.round)
        _most(seen, app.mode + " folded", getattr(game, "folded", 0))
        if game.over:
            _most(seen, "games over", 1)
    walk = getattr(mode, "walk", None)
    if walk is not None:
        if walk.kept > UNDO:
            return "a walk keeps %d moves" % walk.kept
        _most(seen, "solo walk", walk.count)
    elif app.mode == "solo":
        _most(seen, "solo walk", len(getattr(mode, "moves", ())))
    if listdir is not None:
        for name in listdir(root):
            if name.endswith(".bad.json"):
                return "a saved file was set aside: %s" % name
    return None


def _most(seen, key, value):
    if value > seen.get(key, 0):
        seen[key] = value


def run(seed, minutes, state, clock=-1, restart_minutes=20, heap_limit=0):
    """Play ``minutes`` of simulated time; the summary dict."""
    import gc
    import time

    try:
        from os import listdir
    except ImportError:
        listdir = None
    rng = XorShift32(seed)
    root = state if state.endswith("/") else state + "/"
    SoakHardware.soak_seed = seed & 0x3FFFFFFF
    SoakDevice.failures = []
    SoakDevice.worked = 0
    total_ms = minutes * 60000
    elapsed = 0
    frames = 0
    boots = 0
    modes = {}
    heap = []
    seen = {}
    broken = None
    player = Player(rng)
    started = time.time()
    d = None
    next_boot = 0
    while elapsed < total_ms and broken is None:
        if elapsed >= next_boot:  # power on (again): the clock restarts, maybe near the wrap
            start = 0 if rng.below(2) else TICKS_MAX - rng.below(120000)
            SoakHardware.start = clock if clock >= 0 and boots == 0 else start
            d = None
            gc.collect()
            d = SoakDevice(SoakHardware, root + "config.json", root)
            boots += 1
            next_boot = elapsed + (restart_minutes * 30000 + rng.below(restart_minutes * 60000)
                                   if restart_minutes > 0 else total_ms)
            if SoakDevice.failures:
                broken = "boot: " + SoakDevice.failures[0]
                break
        d.hw.pressed = player.mask(elapsed, d)
        d.run(1)
        elapsed += FRAME_MS
        frames += 1
        if SoakDevice.failures:
            broken = SoakDevice.failures[0]
            break
        if frames % MODE_FRAMES == 0:
            m = d.app.mode
            modes[m] = modes.get(m, 0) + 1
        if frames % CHECK_FRAMES == 0:
            broken = check(d, root, listdir, seen)
        if frames % HEAP_FRAMES == 0 and hasattr(gc, "mem_alloc"):
            gc.collect()
            used = gc.mem_alloc()
            heap.append(used)
            if heap_limit and used > heap_limit:
                broken = "heap in use %d bytes, over %d" % (used, heap_limit)
    if broken is None:
        broken = check(d, root, listdir, seen)
    for name in modes:
        modes[name] *= MODE_FRAMES
    return {
        "runtime": sys.implementation.name, "seed": seed, "simulated_ms": elapsed,
        "frames": frames, "boots": boots, "modes": modes, "largest": seen,
        "worked": SoakDevice.worked,
        "heap": [min(heap), max(heap), heap[0], heap[-1]] if heap else [],
        "wall_s": time.time() - started, "failures": [] if broken is None else [broken],
        "elapsed_at_failure": elapsed if broken is not None else None,
    }


def _quote(x):
    """JSON for the summary (MicroPython's json would do, but key order helps a reader)."""
    import json

    return json.dumps(x)


def engine(argv):
    """``--run SEED MINUTES STATE [CLOCK] [RESTART_MINUTES] [HEAP_LIMIT]
    [--firmware DIR]``: one run."""
    seed, minutes, state = int(argv[0]), int(argv[1]), argv[2]
    clock = int(argv[3]) if len(argv) > 3 else -1
    restart = int(argv[4]) if len(argv) > 4 else 20
    limit = int(argv[5]) if len(argv) > 5 else 0
    print(_quote(run(seed, minutes, state, clock, restart, limit)))


# -- the orchestrator (CPython) ------------------------------------------------------------
# MicroPython (64-bit unix port, cli.SIM_HEAP): a run using more fails. 190 KB: every mode
# made of screens, solo's and the referee's in modules of their own (issue 30), ended
# host_tests' long session at 182 KB (179 KB before; source code: its bytecode in the heap).
HEAP_LIMIT = 190 * 1024


def stage_flashed(folder):
    """The firmware as ``make flash`` puts it on a board, for the unix port: modules
    compiled by mpy-cross for its .mpy version, main.py as source. The folder's path."""
    import os
    import subprocess

    from tools import cli, flash

    probe = subprocess.run(cli.micropython_command() + ["-c", (
        "import sys; print(sys.implementation._mpy, '%d.%d.%d' % sys.implementation.version[:3])")],
        capture_output=True, text=True, check=True).stdout.split()
    board = flash.Board(None, tuple(int(x) for x in probe[1].split(".")), int(probe[0]))
    flash.stage(flash.make_plan(board), build=folder)
    return os.path.abspath(folder)


STAGED = "build/mpy-unix"  # relative to the checkout: see tools/cli.py on MicroPython's paths
_staged = []


def staged():
    """``STAGED``, the firmware as flashed for the unix port (stage_flashed): what the
    simulator's MicroPython runtime runs, as a Pico with the stock image does (compiling
    the whole app from source would need more room than a Pico-sized heap gives the
    64-bit port). Staged again only when the firmware or the tools that compile it
    changed, under a lock: processes side by side (make test's workers) share one folder,
    and none of them empties it while another runs from it."""
    import fcntl
    import os

    from tools.cli import ROOT

    if not _staged:
        folder = os.path.join(ROOT, STAGED)
        os.makedirs(os.path.dirname(folder), exist_ok=True)
        with open(folder + ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            mark, stamp = os.path.join(folder, ".staged"), _stamp()
            if not os.path.exists(mark) or open(mark).read() != stamp:
                stage_flashed(folder)
                with open(mark, "w") as f:
                    f.write(stamp)
        _staged.append(STAGED)
    return STAGED


def _stamp():
    """What a staged folder is made from: every firmware file, mpy-cross, micropython."""
    import hashlib
    import os

    from tools import cli, flash

    h = hashlib.sha256(repr((flash.mpy_cross_version(), cli.micropython_binary())).encode())
    binary = cli.micropython_binary()
    if binary and os.path.exists(binary):
        h.update(repr(os.stat(binary)[6:9:2]).encode())  # its size and mtime
    for folder, dirs, files in sorted(os.walk(cli.FIRMWARE)):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith(".pyc"):
                path = os.path.join(folder, name)
                with open(path, "rb") as f:
                    h.update(path.encode() + b"\0" + hashlib.sha256(f.read()).digest())
    return h.hexdigest()


def start(runtime, seed, minutes, state, clock=-1, restart=20, heap_limit=HEAP_LIMIT,
          firmware=None):
    """Start one engine run as a subprocess: a Popen whose stdout ends with the summary.
    ``firmware``: a folder from stage_flashed (MicroPython), else the source."""
    import os
    import subprocess

    here = os.path.abspath(__file__)
    args = ["--run", str(seed), str(minutes), state, str(clock), str(restart),
            str(heap_limit if runtime == "micropython" else 0)]
    if firmware and runtime == "micropython":
        args += ["--firmware", firmware]
    if runtime == "micropython":
        from tools import cli

        cmd = cli.micropython_command(cli.SIM_HEAP) + [here] + args
    else:
        cmd = [sys.executable, here] + args
    if os.path.isdir(state):  # a fresh flash: the same seed, the same run
        import shutil

        shutil.rmtree(state)
    os.makedirs(state)
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def finish(proc):
    """The summary dict of a started run (with its console tail when it failed)."""
    import json

    out, _ = proc.communicate()
    lines = out.splitlines()
    for line in reversed(lines):
        if line.startswith("{"):
            got = json.loads(line)
            if got["failures"]:
                got["console"] = lines[-25:]
            return got
    return {"failures": ["the run stopped: exit %s" % proc.returncode], "console": lines[-25:]}


def soak(runtimes, seeds, minutes, folder, jobs=1, clock=-1, restart=20, out=print,
         source=False):
    """Every (runtime, seed) run, ``jobs`` at a time; the list of summaries. MicroPython
    runs the firmware as flashed (compiled), or from ``source``."""
    import os

    firmware = None
    if "micropython" in runtimes and not source:
        firmware = stage_flashed(os.path.join(folder, "flashed"))
    todo = [(r, s) for r in runtimes for s in seeds]
    running = []
    results = []
    while todo or running:
        while todo and len(running) < jobs:
            r, s = todo.pop(0)
            state = os.path.join(folder, "%s-%d" % (r, s))
            running.append(((r, s), start(r, s, minutes, state, clock, restart,
                                          firmware=firmware)))
        (r, s), proc = running.pop(0)
        got = finish(proc)
        got.setdefault("runtime", r)
        got.setdefault("seed", s)
        results.append(got)
        out(describe(got))
    return results


def describe(got):
    if "simulated_ms" not in got:
        return "%s seed %s: FAILED %s" % (got["runtime"], got["seed"], got["failures"])
    hours = got["simulated_ms"] / 3600000
    heap = got.get("heap") or []
    text = "%s seed %d: %.2f h simulated (%d frames, %d boots) in %.0f s; modes %s%s; %s" % (
        got["runtime"], got["seed"], hours, got["frames"], got["boots"], got["wall_s"],
        " ".join("%s %.0f%%" % (m, 100 * n / max(got["frames"], 1))
                 for m, n in sorted(got["modes"].items())),
        "; heap %d-%d KB" % (heap[0] // 1024, heap[1] // 1024) if heap else "",
        ", ".join("%s %d" % kv for kv in sorted(got.get("largest", {}).items())))
    if got["failures"]:
        text += "\n  FAILED after %.2f h: %s\n    %s" % (
            (got.get("elapsed_at_failure") or 0) / 3600000, got["failures"][0],
            "\n    ".join(got.get("console", [])))
    return text


def main(argv=None):
    import tempfile

    from tools import cli

    try:
        return _main(cli, tempfile, argv)
    except cli.UsageError as e:
        return cli.fail("tools.sim.soak", e)


def _main(cli, tempfile, argv):
    p = cli.Parser(prog="python -m tools.sim.soak", description=__doc__.split("\n")[0])
    p.add_argument("--hours", type=float, default=1.0, help="simulated hours per run (1)")
    p.add_argument("--seeds", default="1,2,3", help="comma-separated seeds (1,2,3)")
    p.add_argument("--runtime", choices=("cpython", "micropython", "both"), default="both")
    p.add_argument("--jobs", type=int, default=1, help="runs at a time (1)")
    p.add_argument("--restart", type=int, default=20,
                   help="a power cycle every RESTART to 2*RESTART simulated minutes (20)")
    p.add_argument("--state", help="the folder for the runs' flash (a temporary one)")
    p.add_argument("--source", action="store_true",
                   help="MicroPython compiles the firmware from source (default: as flashed)")
    args = p.parse_args(argv)
    try:
        seeds = [int(s) for s in args.seeds.split(",")]
    except ValueError:
        raise cli.UsageError("--seeds: whole numbers separated by commas, not %r" % args.seeds)
    runtimes = ("cpython", "micropython") if args.runtime == "both" else (args.runtime,)
    folder = args.state or tempfile.mkdtemp(prefix="soak-")
    results = soak(runtimes, seeds, int(args.hours * 60), folder, args.jobs, -1, args.restart,
                   source=args.source)
    failed = [g for g in results if g["failures"]]
    total = {}
    for g in results:
        total[g["runtime"]] = total.get(g["runtime"], 0) + g.get("simulated_ms", 0)
    print("total: " + ", ".join("%s %.1f h" % (r, ms / 3600000) for r, ms in total.items())
          + ("; %d FAILED" % len(failed) if failed else "; no failure"))
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--run":
        engine(sys.argv[2:])
    else:
        sys.path.insert(0, _firmware_path() + "/..")
        sys.exit(main())
