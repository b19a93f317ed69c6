"""The table page, served on this machine: ``python -m tools.ricochet serve``.

One server holds the page (tools/ricochet/web/: index.html, table.js, table.css) and the
solver: the page asks it over HTTP on 127.0.0.1 (``--host`` to let a tablet on the same
network in). Requests, all JSON (table.py has their fields):

    GET  /api/faces          the eight quadrant faces, for their pictures
    POST /api/board          {"faces"}                      walls and targets
    POST /api/solve          {"faces","robots","target","ricochet"}   the optimum
    POST /api/demonstrate    {... "bid", "moves"}            a demonstration judged so far

A bad request gets status 400 and ``{"error": "one line"}``; nothing a client sends makes
the server print a traceback, and no message quotes more than a few dozen characters of
what was sent.

Fit for a table's network, where any tablet (or anyone on it) may connect:

- HTTP is waitress (a maintained server, not the standard library's http.server, which its
  own documentation calls unfit for this): it reads every request whole in one loop before
  a thread handles it, so a slow or idle client holds no thread. A connection idle for
  IDLE_SECONDS, or taking over REQUEST_SECONDS to send one request, is closed; headers are
  held to MAX_HEADERS bytes, a body to MAX_BODY, JSON to MAX_DEPTH levels and strings in it
  to MAX_TEXT characters; the listen backlog is BACKLOG; at most CONNECTIONS connections
  are open at once (fewer when the process may open fewer files).
- Every solve runs in a worker process (workers.py) under a time and a node budget,
  killed when its client leaves; the page, the faces, boards and demonstrations are
  answered in the server at once (a millisecond or so), whatever is being solved. Too many
  solves waiting, or a budget spent: status 503 and one line.
"""

import json
import logging
import os
import re
import resource
import sys
import threading
import webbrowser

from waitress.adjustments import Adjustments
from waitress.server import TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

from tools import cli
from tools.ricochet import table, workers

WEB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "web")
STATIC = {"/": ("index.html", "text/html; charset=utf-8"),
          "/index.html": ("index.html", "text/html; charset=utf-8"),
          "/table.js": ("table.js", "text/javascript; charset=utf-8"),
          "/table.css": ("table.css", "text/css; charset=utf-8")}
MAX_BODY = 64 * 1024  # a demonstration of 40 moves is some 1.5 KB
MAX_HEADERS = 16 * 1024  # a browser's request headers are under 2 KB
MAX_DEPTH = 8  # the deepest request (moves: a list of lists) nests 3 levels
MAX_TEXT = 40  # the longest text a request holds ("1A,2A,3A,4A", a target's name) is ~20
QUOTE = 32  # characters of what was sent that a message quotes at most
IDLE_SECONDS = 15  # a connection with no request for this long is closed
REQUEST_SECONDS = 10  # the longest one request may take to arrive, headers and body
BACKLOG = 128  # a table's dozen tablets reconnecting at once fit many times over
CONNECTIONS = 200  # open at once at most (fewer when the file limit is lower)
THREADS = 8  # for the quick requests, beside one per solve the lanes hold


class _TableServer(TcpWSGIServer):
    """waitress's server, closing a connection that sends a request too slowly too
    (waitress closes idle ones only: a client sending a byte every few seconds would
    hold its connection for ever)."""

    request_seconds = REQUEST_SECONDS

    def maintenance(self, now):
        super().maintenance(now)
        for channel in list(self.active_channels.values()):
            arriving = channel.request  # a request begun and not yet whole
            if arriving is None:
                continue
            began = getattr(arriving, "began", None)
            if began is None:
                arriving.began = now
            elif now - began > self.request_seconds:
                channel.will_close = True


class _OneLine(logging.Handler):
    """waitress's own complaints, one line each on stderr (never a traceback)."""

    def emit(self, record):
        line = record.getMessage().splitlines()[0] if record.getMessage() else ""
        print("ricochet serve: %s" % line[:200], file=sys.stderr, flush=True)


def _quiet_waitress():
    log = logging.getLogger("waitress")
    if not any(isinstance(h, _OneLine) for h in log.handlers):
        log.addHandler(_OneLine())
    log.propagate = False
    log.setLevel(logging.ERROR)  # ("task queue depth" and the like: the load is bounded)


def quote(text):
    """At most QUOTE characters of ``text`` a client sent, for a message."""
    text = "".join(c if c.isprintable() else "?" for c in str(text)[:QUOTE + 1])
    return text[:QUOTE] + "..." if len(text) > QUOTE else text


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(rb"[\[\]{}]")


def parse_body(data):
    """The JSON object of a request body (bytes), checked before and after parsing; a
    table.BadRequest otherwise. The nesting is counted before the parser runs (it recurses:
    '[' * 20000 would stop it with a RecursionError)."""
    depth = 0
    for bracket in _BRACKET.findall(_STRING.sub(b'""', data)):
        depth += 1 if bracket in b"[{" else -1
        if depth > MAX_DEPTH:
            raise table.BadRequest("the request is nested deeper than %d levels" % MAX_DEPTH)
    try:
        text = data.decode("utf-8")
        request = json.loads(text) if text.strip() else {}
    except UnicodeDecodeError as e:
        raise table.BadRequest("the request is not JSON (not UTF-8 at byte %d)" % e.start)
    except ValueError as e:  # json.JSONDecodeError: "Expecting value: line 1 column 2"
        raise table.BadRequest("the request is not JSON (%s)" % str(e).split("(")[0].strip())
    _check_texts(request)
    return request


def _check_texts(value):
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise table.BadRequest("the request holds a text of %d characters (%s): at most %d"
                                   % (len(value), quote(value), MAX_TEXT))
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_texts(key)
            _check_texts(item)
    elif isinstance(value, list):
        for item in value:
            _check_texts(item)


class App:
    """The WSGI application: the page's files, the quick requests here, solves in ``pool``."""

    def __init__(self, pool):
        self.pool = pool

    def __call__(self, environ, start_response):
        method = environ.get("REQUEST_METHOD", "")
        path = environ.get("PATH_INFO", "")
        try:
            if method in ("GET", "HEAD"):
                status, body, kind = self._get(path)
            elif method == "POST":
                status, body, kind = self._post(path, environ)
            else:
                status, body, kind = 405, {"error": "method %s: use GET or POST" % quote(method)}, None
        except workers.Gone:
            status, body, kind = 499, {"error": "the client went away"}, None
        except Exception as e:  # noqa: BLE001 - a bug: one line for the page and the terminal
            line = "%s failed: %s: %s" % (quote(path), type(e).__name__, str(e)[:200])
            print("ricochet serve: " + line, file=sys.stderr, flush=True)
            status, body, kind = 500, {"error": line}, None
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        headers = [("Content-Type", kind or "application/json"),
                   ("Content-Length", str(len(data))), ("Cache-Control", "no-store")]
        start_response("%d %s" % (status, _REASONS.get(status, "Error")), headers)
        return [b""] if method == "HEAD" else [data]

    def _get(self, path):
        if path in STATIC:
            name, kind = STATIC[path]
            with open(os.path.join(WEB, name), "rb") as f:
                return 200, f.read(), kind
        if path == "/api/faces":
            return 200, table.faces(), None
        return 404, {"error": "no such page: %s" % quote(path)}, None

    def _post(self, path, environ):
        name = path[len("/api/"):] if path.startswith("/api/") else None
        if name not in table.ROUTES:
            return 404, {"error": "no such request: %s" % quote(path)}, None
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = -1
        if not 0 <= length <= MAX_BODY:
            return 400, {"error": "the request body must be 0-%d bytes" % MAX_BODY}, None
        try:
            request = parse_body(environ["wsgi.input"].read(length))
            if name == "solve":
                gone = environ.get("waitress.client_disconnected", lambda: False)
                return 200, self.pool.solve(request, gone), None
            if name == "board":
                answer = table.ROUTES[name](request, prepare=False)
                self.pool.prepare(answer["faces"])
                return 200, answer, None
            return 200, table.ROUTES[name](request), None
        except table.BadRequest as e:
            return 400, {"error": str(e)}, None
        except (workers.Busy, workers.OutOfBudget) as e:
            return 503, {"error": str(e)}, None
        except workers.Failed as e:
            print("ricochet serve: %s: %s" % (path, e), file=sys.stderr, flush=True)
            return 500, {"error": str(e)}, None


_REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed",
            499: "Client Closed Request", 500: "Internal Server Error",
            503: "Service Unavailable"}


def _connection_limit():
    """CONNECTIONS, or fewer so that the server never runs out of file descriptors (its
    workers' pipes, the page's files and a margin beside them)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return CONNECTIONS
    return max(4, min(CONNECTIONS, soft - 40))


class Server:
    """The table's server on ``host``:``port`` (0: any free one): ``serve_forever`` runs
    it (in any thread), ``shutdown`` stops that, ``server_close`` frees the port and the
    workers. ``server_port`` is the port it listens on."""

    def __init__(self, host="127.0.0.1", port=0, pool=None, idle_seconds=IDLE_SECONDS,
                 request_seconds=REQUEST_SECONDS, **limits):
        _quiet_waitress()
        self.pool = pool or workers.Pool(**limits)  # (its workers start once bound)
        threads = (THREADS + self.pool.quick.size + self.pool.quick.waiting
                   + self.pool.long.size + self.pool.long.waiting)
        adj = Adjustments(host=host, port=port, threads=threads, backlog=BACKLOG,
                          connection_limit=_connection_limit(), channel_timeout=idle_seconds,
                          cleanup_interval=1, max_request_header_size=MAX_HEADERS,
                          max_request_body_size=4 * MAX_BODY,  # (MAX_BODY: ours)
                           channel_request_lookahead=4,
                          log_socket_errors=False, expose_tracebacks=False,
                          ident="ricochet-table", clear_untrusted_proxy_headers=True)
        self._map = {}
        self._dispatcher = ThreadedTaskDispatcher()
        self._dispatcher.set_thread_count(threads)
        try:
            self._server = _TableServer(App(self.pool), map=self._map,
                                        dispatcher=self._dispatcher, adj=adj)
        except BaseException:
            self._dispatcher.shutdown()
            raise
        self.pool.start()
        self._server.request_seconds = request_seconds
        self.server_port = int(self._server.effective_port)
        self._stop = threading.Event()
        self._stopped = threading.Event()

    def serve_forever(self):
        from waitress import wasyncore
        self._stopped.clear()
        try:
            while not self._stop.is_set():
                wasyncore.loop(timeout=0.2, map=self._map, count=1)
        finally:
            self._stopped.set()

    def shutdown(self):
        self._stop.set()
        self._stopped.wait(5)

    def server_close(self):
        from waitress import wasyncore
        self._stop.set()
        self._dispatcher.shutdown(timeout=2)
        wasyncore.close_all(self._map)
        self.pool.close()


def server(host="127.0.0.1", port=0, **options):
    """The table's server (port 0: any free one); ``serve_forever`` runs it. ``options``:
    Server's and workers.Pool's (the tests' shorter timeouts and budgets)."""
    return Server(host, port, **options)


def run(args, out):
    """``python -m tools.ricochet serve``: see cli.py. (The workers load the compiled
    search as they start, unless ``--cold``: then each loads it on its first solve.)"""
    try:
        httpd = server(args.host, args.port, warm=not args.cold)
    except OSError as e:
        raise cli.UsageError("cannot serve on %s:%d (%s)" % (args.host, args.port,
                                                              e.strerror or e))
    url = "http://%s:%d/" % ("127.0.0.1" if args.host in ("0.0.0.0", "") else args.host,
                             httpd.server_port)
    print("Ricochet table at %s  (Ctrl-C stops)" % url, file=out, flush=True)
    if args.open:
        webbrowser.open(url)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()
    return 0
