"""The table server's solves, each in a worker process under a budget (serve.py uses it).

Why processes: the compiled search (numba) never releases Python's GIL, so a solve run in
the server's own process stops every other request until it ends (a 22-move deal: some
10 s). A worker process searches while the server goes on answering; when the time budget
is spent, or the client that asked has gone, the worker is killed (the compiled search
cannot be interrupted any other way) and a fresh one is started in its place.

Two lanes, so that a short deal never waits behind a long one:

    quick   two workers; every solve starts here with a small node budget (QUICK_NODES,
            some 0.1 s of search), enough for most deals of up to 12-15 moves;
    long    a deal that spends it goes on here: os.cpu_count() - 1 workers (at least
            one), run at a lower priority (nice), under LONG_NODES and LONG_SECONDS.

Each lane holds at most a few requests waiting (``waiting``); one more is refused at once
with ``Busy`` ("try again in a moment") rather than queued for minutes.

    pool = Pool()                       # starts the workers (they load the search)
    answer = pool.solve(request, gone)  # table.solve's answer; gone(): the client left
    pool.close()

``solve`` raises table.BadRequest (a bad request), ``Busy``, ``OutOfBudget``, ``Gone``
or ``Failed`` (a worker that died: a bug), each with one line.
"""

import multiprocessing
import os
import queue
import signal
import threading
import time

from tools.ricochet import table

QUICK_NODES = 100_000  # a 10-move deal needs some 16,000 positions, a 12-move one 25,000
QUICK_WORKERS = 2  # two, so that a long deal spending its quick budget blocks no one
QUICK_SECONDS = 5.0  # (a quick solve takes well under a second even on a busy machine)
LONG_NODES = 200_000_000  # the longest deals known (22 moves) need some 8.4 million
LONG_SECONDS = 60.0  # the 22-move deal takes 10-23 s on a busy 2-core machine
LONG_NICE = 10  # the long lane yields the processor to the server and the quick lane
POLL = 0.05  # how often a waiting request looks whether its client is still there


class Busy(Exception):
    """Too many solves are waiting: the request is refused at once (HTTP 503)."""


class OutOfBudget(Exception):
    """The search spent its time or node budget without an answer (HTTP 503)."""


class Gone(Exception):
    """The client went away while its solve waited or ran (no answer is sent)."""


class Failed(Exception):
    """A worker died or broke (a bug, or the machine out of memory): one line (HTTP 500)."""


def _work(conn, nice, warm):
    """A worker process: load the compiled search (``warm``), then solve what the pipe
    brings: ("solve", request, nodes) for table.solve, or ("prepare", faces, None) to build
    a board's tables ahead, while the table places its robots."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C on the terminal stops the server
    if nice:
        try:
            os.nice(nice)
        except OSError:
            pass
    from tools.ricochet import solver
    if warm:
        solver.load_kernel()
    try:
        conn.send(("ready", None))
    except OSError:
        return
    while True:
        try:
            kind, request, nodes = conn.recv()
        except (EOFError, OSError):
            return
        try:
            if kind == "prepare":  # request: the faces
                table.wait_prepared(request)
                answer = ("ok", {})
            else:
                answer = ("ok", table.solve(request, node_limit=nodes))
        except table.OutOfNodes as e:
            answer = ("budget", str(e))
        except table.BadRequest as e:
            answer = ("bad", str(e))
        except Exception as e:  # noqa: BLE001 - a bug: one line to the server
            answer = ("bug", "%s: %s" % (type(e).__name__, e))
        try:
            conn.send(answer)
        except OSError:  # the server went away (stopped, or killed this worker's job)
            return


class _Worker:
    def __init__(self, context, nice, warm):
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_work, args=(child, nice, warm), daemon=True,
                                       name="ricochet-solver")
        self.process.start()
        child.close()
        self.ready = False

    def kill(self):
        self.conn.close()
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)


class Lane:
    """``size`` workers and at most ``waiting`` more requests waiting for one."""

    def __init__(self, name, size, waiting, nodes, seconds, nice, context, warm=True):
        self.name, self.nodes, self.seconds, self.nice = name, nodes, seconds, nice
        self.warm = warm
        self.size, self.waiting = size, waiting
        self._context = context
        self._slots = threading.BoundedSemaphore(size + waiting)
        self._idle = queue.Queue()
        self._all = set()
        self._lock = threading.Lock()
        self._closed = False

    def start(self):
        """Start the workers (each loads the compiled search, some 0.5-2 s)."""
        for _ in range(self.size):
            self._start()

    def wait_ready(self):
        """Wait until every worker has loaded the compiled search."""
        for worker in [self._take(lambda: False) for _ in range(self.size)]:
            self._idle.put(worker)

    def _start(self):
        with self._lock:
            if self._closed:
                return
            worker = _Worker(self._context, self.nice, self.warm)
            self._all.add(worker)
        self._idle.put(worker)

    def _replace(self, worker):
        with self._lock:
            self._all.discard(worker)
        worker.kill()
        self._start()

    def run(self, request, gone, nodes=None, kind="solve"):
        """The worker's answer ``(kind, value)`` to ``request``; Busy, Gone, OutOfBudget."""
        if not self._slots.acquire(blocking=False):
            raise Busy("the %s solver has %d requests waiting already: try again in a moment"
                       % (self.name, self.waiting))
        try:
            worker = self._take(gone)
            try:
                return self._ask(worker, (kind, request, nodes or self.nodes), gone)
            except BaseException:
                self._replace(worker)
                raise
        finally:
            self._slots.release()

    def _take(self, gone):
        while True:
            if self._closed:
                raise Failed("the server is stopping")
            try:
                worker = self._idle.get(timeout=POLL)
            except queue.Empty:
                if gone():
                    raise Gone()
                continue
            try:
                while not worker.ready:  # a fresh worker loads the search first
                    if worker.conn.poll(POLL):
                        worker.conn.recv()
                        worker.ready = True
                    elif gone():
                        self._idle.put(worker)
                        raise Gone()
                    elif not worker.process.is_alive():
                        raise EOFError
            except (EOFError, OSError):
                self._replace(worker)
                continue
            return worker

    def _ask(self, worker, job, gone):
        deadline = time.monotonic() + self.seconds
        try:
            worker.conn.send(job)
            while not worker.conn.poll(POLL):
                if gone():
                    raise Gone()
                if time.monotonic() > deadline:
                    raise OutOfBudget("the search took over %g s without an answer (the "
                                      "server's budget)" % self.seconds)
                if not worker.process.is_alive():
                    raise EOFError
            answer = worker.conn.recv()
        except (EOFError, OSError):
            raise Failed("the solver process stopped (exit status %s)"
                         % worker.process.exitcode)
        self._idle.put(worker)
        return answer

    def close(self):
        with self._lock:
            self._closed = True
            workers = list(self._all)
            self._all.clear()
        for worker in workers:
            worker.kill()


class Pool:
    """The quick lane and the long lane (see the module docstring)."""

    def pids(self):
        """The worker processes' ids (make bench reads their CPU time and memory)."""
        return [w.process.pid for lane in (self.quick, self.long) for w in list(lane._all)]

    def __init__(self, long_workers=None, waiting=8, quick_nodes=QUICK_NODES,
                 long_nodes=LONG_NODES, long_seconds=LONG_SECONDS, warm=True,
                 quick_workers=QUICK_WORKERS):
        # spawn, not fork: the server has threads, and a worker needs none of its state
        context = multiprocessing.get_context("spawn")
        long_workers = long_workers or max(1, (os.cpu_count() or 2) - 1)
        self.quick = Lane("quick", quick_workers, 2 * waiting, quick_nodes, QUICK_SECONDS, 0,
                          context, warm)
        self.long = Lane("long", long_workers, waiting, long_nodes, long_seconds, LONG_NICE,
                         context, warm)

    def start(self):
        self.quick.start()
        self.long.start()

    def wait_ready(self):
        """Wait until every worker has loaded the compiled search (make bench)."""
        self.quick.wait_ready()
        self.long.wait_ready()

    def prepare(self, faces, wait=False):
        """Have the quick workers build the tables of the board of ``faces`` ahead (the
        server asks when the table sets up its board); in the background unless ``wait``.
        Skipped when the quick lane is busy: the solve builds them then."""
        def ask():
            try:
                self.quick.run(faces, lambda: False, kind="prepare")
            except (Busy, Failed, OutOfBudget):
                pass
        if wait:
            ask()
        else:  # one job per quick worker: each idle one takes one (a busy one, later)
            for _ in range(self.quick.size):
                threading.Thread(target=ask, daemon=True).start()

    def solve(self, request, gone=lambda: False):
        """table.solve(request) in a worker: its answer, or an exception (module docstring)."""
        kind, value = self.quick.run(request, gone)
        if kind == "budget":
            kind, value = self.long.run(request, gone)
        if kind == "ok":
            return value
        if kind == "bad":
            raise table.BadRequest(value)
        if kind == "budget":
            raise OutOfBudget(value)
        raise Failed(value)

    def close(self):
        self.quick.close()
        self.long.close()
