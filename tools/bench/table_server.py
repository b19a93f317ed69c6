"""The Ricochet table's server under load (tools/ricochet/serve.py), as a busy table or a
clumsy or hostile tablet on its network would load it: long deals being solved, slow
clients holding connections, and meanwhile the page's small requests, timed.

    python -m tools.bench.table_server [--seconds 20] [--long 5] [--slow 50]

The server runs as ``python -m tools.ricochet serve`` in its own process (its workers its
children), on 127.0.0.1 only. While ``long`` of the longest deals known are being solved
and ``slow`` clients send a request a byte at a time (each reconnecting when the server
drops it), one client asks for ``GET /`` and a 10-move solve in turn, each on a new
connection, for ``seconds``: their latencies (median, 99th percentile, worst), the
connections reset, the server's tracebacks, and the memory of the server and its workers
(peak, summed). The tests (host_tests/tools/test_table_server_load.py) run the same with
smaller numbers; the figures come from here.
"""

import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time

from tools import cli
from tools.cli import ROOT

# the longest deals the bench knows (docs/ricochet.md): 22, 17, 15, 13 and 12 moves
LONG_DEALS = ["0BZGSDSM3EERY9", "0BZHQD9MQM5YVC", "1BJAWHC584RR8F", "075AAMJ2HTBKSF",
              "0BZGSDSM3EERY9"]
TEN_MOVES = "00F7CN8GQR25KW"  # 10 moves, some 16,000 positions


def request_of(game, max_moves=40):
    from tools.ricochet.table import rr
    faces, robots, target = rr.decode_game(game)
    named = {rr.ROBOT_NAMES[w]: robots[w] for w in range(rr.ROBOT_COUNT) if robots[w] != rr.ABSENT}
    return {"faces": ",".join(faces), "robots": named, "target": target, "ricochet": True,
            "max_moves": max_moves}


def start_server():
    """``python -m tools.ricochet serve --port 0`` in a process of its own: (process, port)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.path.join(ROOT, "firmware")]))
    proc = subprocess.Popen([sys.executable, "-m", "tools.ricochet", "serve", "--port", "0"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    if "http://" not in line:
        proc.kill()
        raise RuntimeError("the server did not start: %s %s" % (line, proc.stderr.read()[-500:]))
    port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
    return proc, port


def ask(port, method, path, body=None, timeout=60):
    """(status, answer, seconds) of one request on a new connection; status None and the
    error's name when the connection failed (reset, refused, timed out)."""
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = json.dumps(body) if body is not None else None
        conn.request(method, path, body=data, headers={"Content-Type": "application/json"})
        res = conn.getresponse()
        payload = res.read()
        return res.status, payload, time.perf_counter() - started
    except OSError as e:
        return None, type(e).__name__, time.perf_counter() - started
    finally:
        conn.close()


def wait_ready(port, seconds=120):
    """Wait until a 10-move solve is answered (the workers have loaded the search)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status, _, _ = ask(port, "POST", "/api/solve", request_of(TEN_MOVES), timeout=30)
        if status == 200:
            return
        time.sleep(0.2)
    raise RuntimeError("the server's workers did not get ready in %d s" % seconds)


class SlowClients:
    """``count`` connections each sending a request a byte every ``pace`` seconds, for ever
    (until ``stop``); one the server closes is opened again (``dropped`` counts them)."""

    PREFIX = b"POST /api/solve HTTP/1.1\r\nHost: table\r\nContent-Length: 100\r\nX-Slow: "

    def __init__(self, port, count, pace=0.5):
        self.port, self.count, self.pace = port, count, pace
        self.dropped = self.opened = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self):
        self._thread.start()
        return self

    def _open(self):
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        sock.setblocking(False)
        self.opened += 1
        return [sock, 0]

    def _run(self):
        socks = []
        try:
            while len(socks) < self.count and not self._stop.is_set():
                socks.append(self._open())
            while not self._stop.wait(self.pace):
                for entry in socks:
                    sock, sent = entry
                    try:
                        sock.send(self.PREFIX[sent:sent + 1] or b"x")
                        entry[1] = sent + 1
                        try:  # closed by the server?
                            if sock.recv(1, socket.MSG_PEEK) == b"":
                                raise ConnectionResetError
                        except BlockingIOError:
                            pass
                    except OSError:
                        sock.close()
                        self.dropped += 1
                        entry[:] = self._open()
        finally:
            for sock, _ in socks:
                sock.close()

    def stop(self):
        self._stop.set()
        self._thread.join(10)


def tree_rss_mb(pid):
    """The resident memory of process ``pid`` and its children, summed, in MB."""
    total = 0
    pids = [pid]
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            pids += [int(p) for p in f.read().split()]
    except OSError:
        pass
    for p in pids:
        try:
            with open("/proc/%d/status" % p) as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024.0


def percentile(values, p):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(round(p / 100.0 * (len(ordered) - 1))))]


def load(seconds=20.0, long=5, slow=50, pace=0.1, port=None):
    """Run the load (module docstring) on a fresh server in a process of its own, or on
    the one at ``port`` (the tests'); a dict of what was measured."""
    proc = None
    if port is None:
        proc, port = start_server()
    pid = proc.pid if proc else os.getpid()
    err = ""
    try:
        wait_ready(port)
        idle_mb = tree_rss_mb(pid)
        slowpoke = SlowClients(port, slow).start()
        long_answers = []

        def solve_long(game):
            long_answers.append(ask(port, "POST", "/api/solve", request_of(game), timeout=300))
        solvers = [threading.Thread(target=solve_long, args=(LONG_DEALS[i % len(LONG_DEALS)],),
                                    daemon=True) for i in range(long)]
        for t in solvers:
            t.start()
        time.sleep(2.0)  # the long deals have left the quick lane (see the report)
        page, solves, failures, peak_mb = [], [], [], idle_mb
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for method, path, body, into in (("GET", "/", None, page),
                                             ("POST", "/api/solve", request_of(TEN_MOVES), solves)):
                status, answer, took = ask(port, method, path, body, timeout=30)
                if status == 200:
                    into.append(took)
                else:
                    failures.append("%s %s: %s" % (method, path, status or answer))
            peak_mb = max(peak_mb, tree_rss_mb(pid))
            time.sleep(pace)
        slowpoke.stop()
        still_long = sum(1 for t in solvers if t.is_alive())
    finally:
        if proc is not None:
            proc.terminate()
            try:
                _, err = proc.communicate(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                _, err = proc.communicate()
    return {"page": page, "solves": solves, "failures": failures,
            "resets": sum(1 for f in failures if "Reset" in f or "Broken" in f),
            "tracebacks": err.count("Traceback"), "stderr": err, "idle_mb": idle_mb,
            "peak_mb": peak_mb, "slow_opened": slowpoke.opened, "slow_dropped": slowpoke.dropped,
            "long_answered": [a[0] for a in long_answers], "long_running_at_end": still_long}


def summary(figures):
    lines = []
    for name, values in (("GET /", figures["page"]), ("10-move solve", figures["solves"])):
        lines.append("  %-14s %4d answered: median %6.1f ms, p99 %6.1f ms, worst %6.1f ms"
                     % (name, len(values), 1000 * percentile(values, 50),
                        1000 * percentile(values, 99), 1000 * max(values or [float("nan")])))
    lines.append("  failures %d (resets %d), tracebacks %d; long deals answered meanwhile %s, "
                 "still being solved at the end %d"
                 % (len(figures["failures"]), figures["resets"], figures["tracebacks"],
                    figures["long_answered"], figures["long_running_at_end"]))
    lines.append("  slow clients: %d connections opened, %d dropped by the server (a request "
                 "must arrive within serve.REQUEST_SECONDS)"
                 % (figures["slow_opened"], figures["slow_dropped"]))
    lines.append("  memory (server + workers, resident): %.0f MB ready, %.0f MB peak"
                 % (figures["idle_mb"], figures["peak_mb"]))
    return "\n".join(lines)


def report(seconds=20.0, long=5, slow=50):
    print("Ricochet table server under load (this machine, %d cores; loopback): %d long deals "
          "being solved, %d slow clients, GET / and a 10-move solve in turn for %g s"
          % (os.cpu_count() or 0, long, slow, seconds))
    print(summary(load(seconds, long, slow)))


def main(argv=None):
    parser = cli.Parser(prog="python -m tools.bench.table_server")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--long", type=int, default=5)
    parser.add_argument("--slow", type=int, default=50)
    try:
        args = parser.parse_args(argv)
    except cli.UsageError as e:
        return cli.fail("table_server", e)
    report(args.seconds, args.long, args.slow)
    return 0


if __name__ == "__main__":
    cli.run(main)
