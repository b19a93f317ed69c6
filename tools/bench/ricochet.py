"""make bench: the Ricochet Robots solver on fixed deals, beside a straightforward BFS.

For each deal: the optimum, the time (best of three when a solve takes under a second),
the peak memory of the process that solved it, the positions searched, and which search
ran (``auto``: the pure-Python IDA*, handing over to the compiled one when a deal needs
more than ``solver.HANDOVER`` positions). Beside it the pure-Python search alone, and a
breadth-first search over whole states (every robot's cell and ricochet state, no bounds)
limited to BFS_SECONDS and BFS_STATES: it gives the optimum where it finishes.

Every deal runs in a fresh process (``python -m tools.bench.ricochet --deal ID``), so that
its peak memory is its own. All under the ricochet rule. Each deal is a game ID
(``python -m tools.ricochet render --game ID`` shows it); where it came from is given:
``python -m tools.ricochet random --seed N [--clear]``, or a search for long deals (the
hard ones, see HARD).

Wall-clock times depend on the machine and on what else runs on it; positions searched
do not (for a given engine), so compare those first.
"""

import json
import os
import resource
import subprocess
import sys
import time
from collections import deque

from tools import cli
from tools.cli import ROOT
from tools.ricochet import solver

from tools.ricochet import rules as rr

# (game ID, where it came from): four robots, then with the transparent robot.
# 2634*: the four-robot deal of seed 2634 with the transparent robot put on (0,15).
PLAIN = [
    ("1E229HEKP06HDC", "seed 204"), ("0ZQ0NA4S0T61MC", "seed 1336"),
    ("12X3J800T8JBNN", "seed 939"), ("0YX6NSY77XD34J", "seed 1009"),
    ("11FX5KGWN2D3PM", "seed 1024"), ("15729XQZ1K9TX5", "seed 325"),
    ("0F8JMYHTS10HC3", "seed 246"), ("0XS0GJRY231A47", "seed 1250"),
    ("00F7CN8GQR25KW", "seed 1377"), ("16VNYVZ9Z6G54W", "seed 917"),
    ("0M8DWM9833M7H1", "seed 475"), ("06D2GWSDR671DY", "seed 1105"),
    ("10KA7TEDT9EZ9R", "seed 838"), ("1HQDVP4BHS4PJJ", "seed 780"),
    ("149RMBJ35S7KA1", "seed 2455"), ("1BJAWHC584RR8F", "seed 2634"),
]
CLEAR = [
    ("0PESEYXGQZRK65", "seed 572"), ("10GNECX83KNHDK", "seed 918"),
    ("02SX7FVCPAP1F1", "seed 1099"), ("0B7P6ZBDXVGFEG", "seed 25"),
    ("0YX6NSY77XCVNV", "seed 1009"), ("0R34V0DN97SBPB", "seed 1454"),
    ("0S5DAJ75TA0TPC", "seed 1256"), ("06QRY0WR4XDB8E", "seed 146"),
    ("01BD7RMFFJW5FH", "seed 130"), ("05T7BZM3FZ8NQF", "seed 528"),
    ("1DPSHS7G5NHMRV", "seed 1115"), ("075AAMJ2HTBKSF", "seed 188"),
    ("1BJAWHC584RQRY", "seed 2634*"),
]
# The hard deals, four robots: the longest of seeds 0-7604 (seed 2970), then deals made
# longer from it by a search that moved one robot at a time to a random cell and kept the
# move when the optimum did not drop (found 20 and 21 moves; then 22 from the 21-move one,
# 87 tries; no 25-move deal yet).
HARD = [
    ("0BZHQD9MQM5YVC", "seed 2970"),
    ("0BZQB45E4MF8ZP", "search"),
    ("0BZK83KD4JERY8", "search"),
    ("0BZGSDSM3EERY9", "search"),
]
SECTIONS = (("four robots", PLAIN), ("with the transparent robot", CLEAR), ("hard deals", HARD))

BFS_SECONDS = 10.0
BFS_STATES = 1_500_000


def peak_mb():
    """This process's peak resident memory, MB. VmHWM where there is /proc: ru_maxrss
    would carry over the parent's peak across fork and exec."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def timed_solve(game, engine):
    """(Solution, first, warm): the first solve in this fresh process, as a user's command
    meets it (numba loaded if the search hands over to it), as (wall seconds, this process's
    CPU seconds); then, when that took under three seconds, the best of up to two more
    solves (numba loaded; the second only while they take under a second), else the first
    again. Each solve on a fresh board, its tables built anew. The CPU time is the steadier
    figure on a machine shared with other work."""
    faces, robots, target = rr.decode_game(game)
    first = warm = None
    for run in range(3):
        used = time.process_time()
        result = solver.solve(rr.Board(faces), robots, target, engine=engine)
        used = time.process_time() - used
        if first is None:
            first = (result.seconds, used)
        else:
            warm = (result.seconds, used) if warm is None else (
                min(warm[0], result.seconds), min(warm[1], used))
        if result.seconds >= (3.0 if run == 0 else 1.0):
            break
    return result, first, warm or first


def bfs(game, seconds=BFS_SECONDS, states=BFS_STATES):
    """The straightforward reference: breadth-first over whole states (cells and ricochet
    states of all robots, every robot distinct, no bound), with the firmware's slide; a
    move through k walls costs 1 + k, so the states wait in one queue per cost.
    Returns (optimum or None, states stored, seconds, finished)."""
    started = time.perf_counter()
    faces, robots, target = rr.decode_game(game)
    board = rr.Board(faces)
    n = rr.ROBOT_COUNT
    start = tuple(robots) + (rr.UNMOVED,) * n
    cost = {start: 0}
    queues = {0: deque([start])}
    pos = rr.new_robots()
    best = None
    g = 0
    while queues:
        if best is not None and best <= g + 1:
            break
        queue = queues.pop(g, None)
        while queue:
            if len(cost) > states or time.perf_counter() - started > seconds:
                return None, len(cost), time.perf_counter() - started, False
            state = queue.popleft()
            if cost[state] != g:
                continue
            for i in range(n):
                pos[i] = state[i]
            for who in range(n):
                if pos[who] == rr.ABSENT:
                    continue
                for d in range(4):
                    turned = rr.after_move(state[n + who], d)
                    for k in range(16 if who == rr.CLEAR else 1):
                        q = board.slide(pos, who, d, k)
                        if q == rr.CANNOT_PASS:
                            break
                        if q < 0:
                            continue
                        c = g + 1 + k
                        if board.completes(who, q, target) and turned == rr.TURNED:
                            best = c if best is None else min(best, c)
                            continue
                        nxt = list(state)
                        nxt[who] = q
                        nxt[n + who] = turned
                        nxt = tuple(nxt)
                        if c < cost.get(nxt, c + 1):
                            cost[nxt] = c
                            queues.setdefault(c, deque()).append(nxt)
        g += 1
    return best, len(cost), time.perf_counter() - started, True


def one_deal(game, engine, with_bfs):
    """Runs in its own process: one engine on one deal, or the BFS."""
    if with_bfs:
        count, states, seconds, finished = bfs(game)
        return {"moves": count, "states": states, "seconds": seconds, "finished": finished,
                "peak_mb": peak_mb()}
    result, first, warm = timed_solve(game, engine)
    return {"moves": result.count, "nodes": result.nodes, "first": first[0],
            "first_cpu": first[1], "seconds": warm[0], "cpu": warm[1],
            "engine": result.engine, "peak_mb": peak_mb()}


def in_subprocess(game, engine="auto", with_bfs=False):
    cmd = [sys.executable, "-m", "tools.bench.ricochet", "--deal", game, "--engine", engine]
    if with_bfs:
        cmd.append("--bfs")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.path.join(ROOT, "firmware")]))
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env)
    if proc.returncode:
        return {"error": (proc.stderr.strip().splitlines() or ["exit %d" % proc.returncode])[-1]}
    return json.loads(proc.stdout)


def first_solves(game, runs=3, engine="auto"):
    """The deal in up to ``runs`` fresh processes (while each takes under two seconds): the
    best first solve's wall and CPU seconds, numba's loading included where it runs, and
    the rest of the last run's figures."""
    out = in_subprocess(game, engine)
    for _ in range(runs - 1):
        if "error" in out or out["first"] >= 2.0:
            break
        again = in_subprocess(game, engine)
        if "error" in again:
            break
        again["first"] = min(again["first"], out["first"])
        again["first_cpu"] = min(again["first_cpu"], out["first_cpu"])
        out = again
    return out


def setup_figure(count=200):
    """Milliseconds of set-up per solve on one board whose tables are built: solves
    stopped after their first position, of random positions and targets."""
    import random
    faces, _, _ = rr.decode_game(CLEAR[3][0])
    board = rr.Board(faces)
    rng = random.Random(1)
    free = [c for c in range(rr.CELLS) if c not in rr.CENTRE]
    cases = [(rr.new_robots(rng.sample(free, 5) + [rr.ABSENT]), rng.randrange(rr.TARGET_COUNT))
             for _ in range(count)]
    for robots, target in cases:  # build the board's tables
        solver.solve(board, robots, target, node_limit=1, engine="python")
    best = None
    for _ in range(3):
        t = time.perf_counter()
        for robots, target in cases:
            solver.solve(board, robots, target, node_limit=1, engine="python")
        took = (time.perf_counter() - t) / count * 1000
        best = took if best is None else min(best, took)
    return best


def fmt(v, spec):
    return "-" if v is None else spec % v


def report(out=None, bfs_limit=True):
    out = out or sys.stdout
    try:  # without importing it: this process's memory is not what is measured, but stays small
        from importlib.metadata import version
        compiled = "numba %s" % version("numba")
    except Exception:
        compiled = "not installed"
    print("Ricochet Robots solver (tools/ricochet/solver.py; compiled search: %s)" % compiled,
          file=out)
    print("ricochet rule on; each deal in fresh processes. first: the first solve in a fresh", file=out)
    print("process, as a command meets it (loading the compiled search included where it hands over), best", file=out)
    print("of 3 processes under 2 s, wall clock and that process's CPU; warm: the same deal", file=out)
    print("solved again in that process (the compiled search loaded; best of 2 under 1 s); python: the", file=out)
    print("pure-Python search alone (the same positions searched unless noted; warm times;", file=out)
    print("not run on the hard deals);", file=out)
    print("BFS: breadth-first over whole states, stopped after %g s or %d states"
          % (BFS_SECONDS, BFS_STATES), file=out)
    print("set-up per solve on a board already used: %.3f ms" % setup_figure(), file=out)
    from tools.ricochet import aot
    if compiled != "not installed" and not aot.ready():  # as make ricochet does
        try:
            aot.build()
        except RuntimeError as e:
            print(e, file=out)
    loading = ("built ahead of time: numpy, no numba" if aot.ready() else "loading numba")
    print("the compiled search in a fresh process: %s (python -m tools.ricochet.aot)" % loading,
          file=out)
    if compiled != "not installed":  # compile the kernel now if needed, not in a deal's figure
        game = PLAIN[0][0]
        ready = in_subprocess(game, "numba")
        if "error" in ready:
            print("compiled search: %s" % ready["error"], file=out)
        else:
            load = first_solves(game, engine="numba")
            print("compiled search: %.1f s to compile or load it; then %.3f s (%.3f s CPU) for"
                  " a %d-move deal's first solve in a fresh process (%s)"
                  % (ready["first"], load["first"], load["first_cpu"], load["moves"],
                     loading), file=out)
    for title, deals in SECTIONS:
        print("\n  %s" % title, file=out)
        print("  %-15s %-11s %-15s %5s %9s %7s %7s %7s %7s %-8s | %7s %7s | %5s %6s %7s" % (
            "game", "from", "target", "moves", "positions", "first s", "CPU s", "warm s",
            "peak MB", "engine", "python", "CPU s", "BFS", "s", "peak MB"), file=out)
        for game, origin in deals:
            _, _, target = rr.decode_game(game)
            auto = first_solves(game)
            hard = deals is HARD
            py = {} if hard else in_subprocess(game, "python")
            ref = in_subprocess(game, with_bfs=True)
            if "error" in auto:
                print("  %-15s %s" % (game, auto["error"]), file=out)
                continue
            note = "" if ref.get("finished") else "  BFS stopped at %d states" % ref.get("states", 0)
            if py and py.get("nodes") != auto["nodes"]:
                note += "  (python alone: %d positions)" % py.get("nodes", 0)
            print("  %-15s %-11s %-15s %5s %9d %7.3f %7.3f %7.3f %7.0f %-8s | %7s %7s | %5s %6.1f %7.0f%s"
                  % (game, origin, rr.target_name(target), auto["moves"], auto["nodes"],
                     auto["first"], auto["first_cpu"], auto["seconds"], auto["peak_mb"],
                     "py+numba" if "then" in auto["engine"] else auto["engine"],
                     fmt(py.get("seconds"), "%.3f"), fmt(py.get("cpu"), "%.3f"),
                     ref["moves"] if ref.get("finished") else "-",
                     ref.get("seconds", 0), ref.get("peak_mb", 0), note), file=out)
            out.flush()
    where_people_wait(out)
    issue_table(out)


# -- where people wait: the table's server (warm) and a fresh command (cold) -------------------
# The peers' figures as the issue quotes them (fogleman/Ricochet b571f46 in C,
# smack42/DriftingDroids ec5e956 in Java; CPU time of a fresh process, one interleaved run on
# a shared 2-core machine, without the ricochet rule): not measured here.
PEERS = (("3-10 moves", "fogleman about 0.001 s (its whole process)"),
         ("11-15 moves", "fogleman 0.003-1.2 s"),
         ("17-22 moves", "ours (cold) / fastest peer: 0.92 (median of 4 deals)"))
# A few deals of each length (game IDs from the lists above), solved once each.
WHERE_PEOPLE_WAIT = [
    ("1E229HEKP06HDC", "seed 204"), ("0F8JMYHTS10HC3", "seed 246"),
    ("0B7P6ZBDXVGFEG", "seed 25"), ("00F7CN8GQR25KW", "seed 1377"),
    ("16VNYVZ9Z6G54W", "seed 917"), ("0M8DWM9833M7H1", "seed 475"),
    ("075AAMJ2HTBKSF", "seed 188"), ("1BJAWHC584RR8F", "seed 2634"),
    ("0BZHQD9MQM5YVC", "seed 2970"), ("0BZGSDSM3EERY9", "search"),
]
COLD_AIM = (15, 0.5, 60)  # deals up to 15 moves: under 0.5 s of CPU and 60 MB


def _request(game, ricochet):
    faces, robots, target = rr.decode_game(game)
    named = {rr.ROBOT_NAMES[w]: robots[w] for w in range(rr.ROBOT_COUNT) if robots[w] != rr.ABSENT}
    return {"faces": ",".join(faces), "robots": named, "target": target, "ricochet": ricochet}


def warm_server(games, ricochet=True):
    """Runs in its own process: the table's server as ``python -m tools.ricochet serve``
    starts it (the compiled search loaded ahead), then, per deal, the page's requests over
    HTTP: the board (when the table sets it up), then the solve, timed (wall clock, and
    this process's CPU time while it ran). One JSON object per deal, then the peak."""
    import http.client
    import threading

    from tools.ricochet import serve
    # one worker a lane (the solves run there: their CPU time and memory are counted)
    httpd = serve.server(quick_workers=1, long_workers=1)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    httpd.pool.wait_ready()  # the solver's worker processes have loaded the search
    loaded = _workers_cpu(httpd.pool)

    def post(route, body):
        conn = http.client.HTTPConnection("127.0.0.1", httpd.server_port, timeout=600)
        conn.request("POST", "/api/" + route, json.dumps(body), {"Content-Type": "application/json"})
        answer = json.loads(conn.getresponse().read())
        conn.close()
        return answer

    out = [{"loaded_cpu": loaded}]
    for game in games:
        request = _request(game, ricochet)
        post("board", {"faces": request["faces"]})
        httpd.pool.prepare(request["faces"], wait=True)  # a table places its robots meanwhile
        wall, cpu = time.perf_counter(), time.process_time() + _workers_cpu(httpd.pool)
        answer = post("solve", request)
        out.append({"game": game, "moves": answer.get("count"), "nodes": answer.get("nodes"),
                    "solve": answer.get("seconds"),
                    "engine": answer.get("engine"), "wall": time.perf_counter() - wall,
                    "cpu": time.process_time() + _workers_cpu(httpd.pool) - cpu,
                    "error": answer.get("error")})
    out.append({"peak_mb": peak_mb() + sum(_peak_mb(pid) for pid in httpd.pool.pids())})
    httpd.shutdown()
    return out


def _workers_cpu(pool):
    """The CPU seconds the server's solver workers have used (the solves run there)."""
    total = 0.0
    for pid in pool.pids():
        try:
            with open("/proc/%d/stat" % pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            pass
    return total


def _peak_mb(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return 0.0


def cold_command(game, ricochet=True):
    """``python -m tools.ricochet solve --game ID --json`` in a fresh process, as a user
    types it: (answer, CPU seconds of that process, its peak MB)."""
    code = ("import atexit, sys\n"
            "def peak():\n"
            "    for line in open('/proc/self/status'):\n"
            "        if line.startswith('VmHWM:'): sys.stderr.write('peak ' + line.split()[1] + chr(10))\n"
            "atexit.register(peak)\n"
            "sys.argv = ['ricochet', 'solve', '--game', %r, '--json']%s\n"
            "import runpy\n"
            "runpy.run_module('tools.ricochet', run_name='__main__')\n"
            % (game, "" if ricochet else " + ['--no-ricochet-rule']"))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.path.join(ROOT, "firmware")]))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    peak = [line for line in proc.stderr.splitlines() if line.startswith("peak ")]
    if proc.returncode not in (0, 1) or not peak:
        return {"error": (proc.stderr.strip().splitlines() or ["exit %d" % proc.returncode])[-1]}, cpu, 0
    return json.loads(proc.stdout), cpu, int(peak[-1].split()[1]) / 1024.0


def _warm_run(games, ricochet=True):
    """warm_server in its own process (its memory its own)."""
    proc = subprocess.run([sys.executable, "-m", "tools.bench.ricochet", "--warm"] + games
                          + ([] if ricochet else ["--no-ricochet-rule"]), capture_output=True,
                          text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=os.pathsep.join(
                              [ROOT, os.path.join(ROOT, "firmware")])))
    if proc.returncode:
        return {"error": (proc.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(proc.stdout)


def where_people_wait(out=None, first=None):
    """The table's figures: warm (the page's own process) and cold (a fresh command);
    ``first``: only the first that many deals (a quick look: the docs' example runs it)."""
    out = out or sys.stdout
    deals = WHERE_PEOPLE_WAIT[:first] if first else WHERE_PEOPLE_WAIT
    print("\n  where people wait (ricochet rule on; each deal once)", file=out)
    print("  warm: solved in the table's server (python -m tools.ricochet serve), its compiled", file=out)
    print("  search loaded ahead, the board set up first as the page does (and its tables built);", file=out)
    print("  solve: the search's wall clock in the server; request: the page's request over HTTP,", file=out)
    print("  wall clock; CPU: the process's (server and client) during it. cold: `python -m tools.ricochet", file=out)
    print("  solve --game ID --json` in a fresh process, its CPU time and peak memory (aim: deals", file=out)
    print("  up to %d moves under %.1f s and %d MB)." % COLD_AIM, file=out)
    print("  peers, as the issue quotes them: " + "; ".join("%s: %s" % p for p in PEERS), file=out)
    from tools.ricochet import aot
    if not aot.ready() and solver.kernel_available():
        try:
            aot.build()
        except RuntimeError as e:
            print("  %s" % e, file=out)
    print("  the compiled search built ahead of time (python -m tools.ricochet.aot): %s"
          % ("yes: a fresh command loads it without numba" if aot.ready()
             else "no: a fresh command loads numba"), file=out)
    warm = _warm_run([g for g, _ in deals])
    if "error" in warm:
        print("  warm: %s" % warm["error"], file=out)
        return
    print("  the server loads the compiled search in %.2f s of CPU (in the background, while the"
          " table sets up); its peak after these deals: %.0f MB" % (warm[0]["loaded_cpu"],
                                                                   warm[-1]["peak_mb"]), file=out)
    print("  %-15s %-10s %5s %9s | %8s %8s %8s %-8s | %8s %7s %-8s %s" % (
        "game", "from", "moves", "positions", "solve s", "request", "CPU s", "engine",
        "cold CPU", "peak MB", "engine", "aim"), file=out)
    for (game, origin), w in zip(deals, warm[1:-1]):
        answer, cpu, peak = cold_command(game)
        if "error" in answer or w.get("error"):
            print("  %-15s %s" % (game, answer.get("error") or w["error"]), file=out)
            continue
        moves = answer["moves"]
        numba = "numba" in w["engine"]
        # which search the command ran, from its memory: numba loaded, the build ahead of
        # time (numpy), or Python alone
        # which search the command ran: the one in C when it is built here (this process
        # loaded it, so the command did too), else from its memory: numba loaded, the build
        # ahead of time (numpy), or Python alone
        cold_engine = "c" if solver.c_available() else (
            "py+numba" if peak > 100 else "py+aot" if peak > 35 else "python")
        aim = "-"
        if moves <= COLD_AIM[0]:
            aim = "met" if cpu < COLD_AIM[1] and peak < COLD_AIM[2] else "NOT met"
        print("  %-15s %-10s %5d %9d | %8.4f %8.4f %8.4f %-8s | %8.3f %7.0f %-8s %s" % (
            game, origin, moves, w["nodes"], w["solve"], w["wall"], w["cpu"],
            "py+numba" if numba and "then" in w["engine"] else w["engine"], cpu, peak,
            cold_engine, aim), file=out)
        out.flush()


# -- the issue's table (issue 35): a fixed deal set, warm and cold, beside the peers ----------
DEALS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ricochet_deals.txt")
BUCKETS = ((3, 6), (7, 10), (11, 14), (15, 18), (19, 22))
# The peers as the issue measured them once (fogleman/Ricochet b571f46 in C, gcc -O3;
# smack42/DriftingDroids ec5e956 in Java; the same 2-core machine, one interleaved run,
# medians of three; they play without the ricochet rule, on deals where the optimum is the
# same): per bucket, the fastest peer's warm seconds per solve and its cold process's
# seconds; and the project's figures then (warm, cold), for the record. Not measured here:
# neither peer is in this repository (docs/ricochet.md).
PEERS_MEASURED = {
    (3, 6): (0.00005, "C", 0.011, "C", 0.0069, 0.16),
    (7, 10): (0.0010, "C", 0.010, "C", 0.019, 0.31),
    (11, 14): (0.24, "C", 0.21, "C", 0.16, 0.52),
    (15, 18): (2.1, "Java", 1.6, "C", 1.7, 1.2),
    (19, 22): (19.4, "Java", 16.0, "Java", 9.6, 10.7),
}
COLD_GOAL = 0.060  # a fresh process to the first answer, deals up to 10 moves
MEMORY_GOAL = 64   # MB, every length


def read_deals(path=DEALS_FILE):
    """The fixed deal set: (game, optimum, moves, origin) per line; RicochetError naming
    the line when one cannot be read or its solution is not correct."""
    deals = []
    for n, line in enumerate(cli.read_text(path).splitlines(), 1):
        text, _, origin = line.partition("#")
        if not text.strip():
            continue
        parts = text.split(None, 2)
        where = "%s line %d" % (os.path.basename(path), n)
        if len(parts) != 3 or not parts[1].isdigit():
            raise rr.RicochetError("%s: write GAME OPTIMUM MOVES  # ORIGIN" % where)
        try:
            faces, robots, target = rr.decode_game(parts[0])
            moves = rr.parse_moves(parts[2])
        except rr.RicochetError as e:
            raise rr.RicochetError("%s: %s" % (where, e))
        verdict = rr.check(rr.Board(faces), robots, target, moves)
        if not verdict.ok or verdict.moves != int(parts[1]):
            raise rr.RicochetError("%s: the solution given is not %s moves: %s"
                                   % (where, parts[1], verdict.reason))
        deals.append((parts[0], int(parts[1]), moves, origin.strip()))
    return deals


def _median(values):
    values = sorted(values)
    n = len(values)
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2


def warm_set(games, runs=3):
    """Runs in its own process: the compiled search loaded, then each deal solved on its
    board ``runs`` more times after a first solve that builds the board's tables (a warm
    process, as the table's server: kept tables, kept search table). Per deal: the optimum,
    positions, the median CPU and wall seconds per solve; then this process's peak MB."""
    solver.load_kernel()
    out = []
    for game in games:
        faces, robots, target = rr.decode_game(game)
        board = rr.Board(faces)
        cpu, wall = [], []
        first = solver.solve(board, robots, target)
        repeat = runs if first.seconds < 2.0 else max(1, runs - 2)
        for _ in range(repeat):
            c, w = time.process_time(), time.perf_counter()
            result = solver.solve(board, robots, target)
            cpu.append(time.process_time() - c)
            wall.append(time.perf_counter() - w)
        out.append({"game": game, "moves": result.count, "nodes": result.nodes,
                    "cpu": _median(cpu), "wall": _median(wall), "engine": result.engine})
    out.append({"peak_mb": peak_mb()})
    return out


def _fresh(argv):
    """A fresh process: (stdout, wall seconds, CPU seconds, peak MB)."""
    code = ("import atexit, sys\n"
            "def peak():\n"
            "    for line in open('/proc/self/status'):\n"
            "        if line.startswith('VmHWM:'): sys.stderr.write('peak ' + line.split()[1] + chr(10))\n"
            "atexit.register(peak)\n"
            "sys.argv = %r\n"
            "import runpy\n"
            "runpy.run_module(sys.argv[0], run_name='__main__', alter_sys=True)\n" % (argv,))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.path.join(ROOT, "firmware")]))
    # Python's own default: a module's bytecode is cached beside it (__pycache__) after its
    # first import. A shell that turns that off makes every fresh process compile the
    # command's modules from source again (some 35 ms): not what a user's command meets.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env=env)
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    peak = [line for line in proc.stderr.splitlines() if line.startswith("peak ")]
    return proc.stdout, wall, cpu, int(peak[-1].split()[1]) / 1024.0 if peak else 0.0


def floor(runs=5):
    """``python -c pass`` on this machine: median wall and CPU seconds."""
    wall, cpu = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        w = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        wall.append(time.perf_counter() - w)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return _median(wall), _median(cpu)


def cold(game, runs=3):
    """``python -m tools.ricochet solve --game ID --json`` in fresh processes, as a user
    types it: the optimum and median wall, CPU and peak (fewer runs for long deals)."""
    samples = []
    for _ in range(runs):
        stdout, wall, cpu, peak = _fresh(["tools.ricochet", "solve", "--game", game, "--json"])
        try:
            moves = json.loads(stdout)["moves"]
        except (ValueError, KeyError):
            return {"error": "no answer from the command"}
        samples.append((wall, cpu, peak, moves))
        if wall > 5.0:  # a long deal: its time is the search's, one sample tells
            break
    return {"moves": samples[-1][3], "wall": _median([s[0] for s in samples]),
            "cpu": _median([s[1] for s in samples]), "peak_mb": max(s[2] for s in samples)}


def _load():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "unknown"


def _ms(seconds):
    return "%.3f ms" % (seconds * 1000) if seconds < 0.1 else "%.3f s" % seconds


def issue_table(out=None, runs=3, longest=22):
    """The issue's table: the fixed deal set, warm and cold, peak memory, by length (the
    deals up to ``longest`` moves)."""
    out = out or sys.stdout
    deals = [d for d in read_deals() if d[1] <= longest]
    from tools.ricochet import aot
    if solver.kernel_available() and not aot.ready():
        try:
            aot.build()
        except RuntimeError as e:
            print("  %s" % e, file=out)
    print("\n  the issue's table (issue 35): %d standard deals from %s, no transparent robot,"
          " ricochet rule on" % (len(deals), os.path.relpath(DEALS_FILE, ROOT)), file=out)
    print("  load average before: %s (the machine is shared: medians; CPU times are the steadier"
          " figure)" % _load(), file=out)
    # one unmeasured run first: it writes what every later command reads (the modules'
    # bytecode, the compiled search when it is not built yet)
    _, primed, _, _ = _fresh(["tools.ricochet", "solve", "--game", deals[0][0], "--json"])
    print("  caches written first (bytecode, the compiled search): %s, not counted" % _ms(primed),
          file=out)
    pass_wall, pass_cpu = floor()
    print("  floor: python -c pass, median of 5: %.3f s wall, %.3f s CPU" % (pass_wall, pass_cpu),
          file=out)
    rows = []
    for lo, hi in BUCKETS:
        group = [d for d in deals if lo <= d[1] <= hi]
        if not group:
            continue
        stdout, _, _, _ = _fresh(["tools.bench.ricochet", "--runs", str(runs), "--warm-set"]
                                 + [d[0] for d in group])
        try:
            warm = json.loads(stdout)
        except ValueError:
            print("  %d-%d moves: the warm run failed" % (lo, hi), file=out)
            continue
        for (game, optimum, _, origin), w in zip(group, warm[:-1]):
            c = cold(game, runs)
            bad = "" if w["moves"] == optimum == c.get("moves") else "  OPTIMUM DIFFERS"
            print("  %-14s %2d moves %9d positions | warm %s CPU, %s wall | cold %s wall,"
                  " %s CPU, %.0f MB | %s%s" % (
                      game, optimum, w["nodes"], _ms(w["cpu"]), _ms(w["wall"]),
                      _ms(c.get("wall", 0)), _ms(c.get("cpu", 0)), c.get("peak_mb", 0),
                      origin.split(" (")[0], bad), file=out)
            rows.append((lo, hi, w, c))
            out.flush()
        rows.append((lo, hi, {"peak_mb": warm[-1]["peak_mb"]}, None))
    print("\n  | moves | warm, project (CPU) | warm, fastest peer | ratio | cold, project (wall; CPU)"
          " | cold, fastest peer | ratio | peak MB (warm; cold) |", file=out)
    print("  |---|---|---|---|---|---|---|---|", file=out)
    for lo, hi in BUCKETS:
        mine = [r for r in rows if r[0] == lo and r[3] is not None]
        if not mine:
            continue
        peer_warm, wlang, peer_cold, clang, _, _ = PEERS_MEASURED[(lo, hi)]
        warm_cpu = _median([r[2]["cpu"] for r in mine])
        cold_wall = _median([r[3]["wall"] for r in mine])
        cold_cpu = _median([r[3]["cpu"] for r in mine])
        warm_peak = [r[2]["peak_mb"] for r in rows if r[0] == lo and r[3] is None]
        cold_peak = max(r[3]["peak_mb"] for r in mine)
        print("  | %d-%d | %s | %s (%s) | %.2fx | %s; %s | %s (%s) | %.2fx | %.0f; %.0f |" % (
            lo, hi, _ms(warm_cpu), _ms(peer_warm), wlang, warm_cpu / peer_warm,
            _ms(cold_wall), _ms(cold_cpu), _ms(peer_cold), clang, cold_cpu / peer_cold,
            warm_peak[0] if warm_peak else 0, cold_peak), file=out)
    print("  goals: warm under the fastest peer at every length; cold under %.0f ms up to 10 moves"
          " and under both peers from 11; under %d MB everywhere" % (COLD_GOAL * 1000, MEMORY_GOAL),
          file=out)
    print("  load average after: %s" % _load(), file=out)


def main(argv=None):
    parser = cli.Parser(prog="python -m tools.bench.ricochet")
    parser.add_argument("--deal", help="one game ID, in this process, as JSON")
    parser.add_argument("--engine", default="auto", choices=("auto", "python", "numba", "c"))
    parser.add_argument("--bfs", action="store_true", help="the BFS reference instead")
    parser.add_argument("--warm", nargs="+", metavar="ID",
                        help="these deals in the table's server, in this process, as JSON")
    parser.add_argument("--no-ricochet-rule", dest="ricochet", action="store_false",
                        help="with --warm: solve without the ricochet rule")
    parser.add_argument("--table", action="store_true",
                        help="only the table's figures: warm and cold")
    parser.add_argument("--first", type=int, metavar="N",
                        help="with --table: only its first N deals (a quick look)")
    parser.add_argument("--issue-table", action="store_true",
                        help="only the issue's table: the fixed deal set, warm and cold")
    parser.add_argument("--warm-set", nargs="+", metavar="ID",
                        help="these deals solved warm in this process, as JSON")
    parser.add_argument("--runs", type=int, default=3, help="solves per deal (3)")
    parser.add_argument("--longest", type=int, default=22,
                        help="with --issue-table: only the deals up to this many moves")
    try:
        args = parser.parse_args(argv)
    except cli.UsageError as e:
        return cli.fail("bench ricochet", e)
    if args.warm_set:
        print(json.dumps(warm_set(args.warm_set, runs=args.runs)))
    elif args.issue_table:
        issue_table(runs=args.runs, longest=args.longest)
    elif args.warm:
        print(json.dumps(warm_server(args.warm, ricochet=args.ricochet)))
    elif args.table:
        where_people_wait(first=args.first)
    elif args.deal:
        print(json.dumps(one_deal(args.deal, args.engine, args.bfs)))
    else:
        report()
    return 0


if __name__ == "__main__":
    cli.run(main)
