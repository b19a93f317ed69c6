"""The table page, served on this machine: ``python -m tools.ricochet serve``.

One process holds the page (tools/ricochet/web/: index.html, table.js, table.css) and the
solver: the page asks it over HTTP on 127.0.0.1 (``--host`` to let a tablet on the same
network in). Requests, all JSON (table.py has their fields):

    GET  /api/faces          the eight quadrant faces, for their pictures
    POST /api/board          {"faces"}                      walls and targets
    POST /api/solve          {"faces","robots","target","ricochet"}   the optimum
    POST /api/demonstrate    {... "bid", "moves"}            a demonstration judged so far

A bad request gets status 400 and ``{"error": "one line"}``; nothing a client sends makes
the server print a traceback. Solving in this process is what makes it fast where people
wait: the compiled search is loaded while the table sets up its board (``warm``), and a
board's tables stay built between rounds.
"""

import http.server
import json
import os
import sys
import threading
import webbrowser

from tools import cli
from tools.ricochet import solver, table

WEB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "web")
STATIC = {"/": ("index.html", "text/html; charset=utf-8"),
          "/index.html": ("index.html", "text/html; charset=utf-8"),
          "/table.js": ("table.js", "text/javascript; charset=utf-8"),
          "/table.css": ("table.css", "text/css; charset=utf-8"),
          "/lang.js": (os.path.join("..", "..", "i18n", "lang.js"), "text/javascript; charset=utf-8")}
MAX_BODY = 64 * 1024


class Handler(http.server.BaseHTTPRequestHandler):
    server_version = "ricochet-table"
    protocol_version = "HTTP/1.1"  # the page's requests share one connection

    def log_message(self, *args):  # quiet: the terminal shows errors only
        pass

    def _send(self, status, body, kind="application/json"):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path in STATIC:
            name, kind = STATIC[path]
            with open(os.path.join(WEB, name), "rb") as f:
                return self._send(200, f.read(), kind)
        if path == "/catalogs.js":  # the page's words (tools/i18n), compiled from locale/
            from tools.i18n import web as i18n_web

            return self._send(200, i18n_web.catalogs_js().encode(), "text/javascript; charset=utf-8")
        if path == "/api/faces":
            return self._send(200, table.faces())
        self._send(404, {"error": "no such page: %s" % path[:80]})

    def do_POST(self):
        route = self.path.split("?", 1)[0]
        name = route[len("/api/"):] if route.startswith("/api/") else None
        if name not in table.ROUTES:
            self.close_connection = True  # its body is left unread
            return self._send(404, {"error": "no such request: %s" % route[:80]})
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if not 0 <= length <= MAX_BODY:
            self.close_connection = True
            return self._send(400, {"error": "the request body must be 0-%d bytes" % MAX_BODY})
        try:
            request = json.loads(self.rfile.read(length).decode("utf-8") or "{}")
        except (UnicodeDecodeError, ValueError) as e:
            return self._send(400, {"error": "the request is not JSON (%s)" % e})
        try:
            return self._send(200, table.ROUTES[name](request))
        except table.BadRequest as e:
            return self._send(400, {"error": str(e)})
        except Exception as e:  # a bug: one line for the page and the terminal, no traceback
            line = "%s failed: %s: %s" % (route, type(e).__name__, e)
            print("ricochet serve: " + line, file=sys.stderr, flush=True)
            return self._send(500, {"error": line})


def server(host="127.0.0.1", port=0):
    """The table's server (port 0: any free one); ``serve_forever`` runs it."""
    return http.server.ThreadingHTTPServer((host, port), Handler)


def warm_up():
    """Load the compiled search in the background, so that the first long deal does not
    wait for it (about 0.5 s of CPU; the first time after a clone it compiles, some 6 s)."""
    thread = threading.Thread(target=solver.load_kernel, daemon=True)
    thread.start()
    return thread


def run(args, out):
    """``python -m tools.ricochet serve``: see cli.py."""
    try:
        httpd = server(args.host, args.port)
    except OSError as e:
        raise cli.UsageError("cannot serve on %s:%d (%s)" % (args.host, args.port,
                                                              e.strerror or e))
    url = "http://%s:%d/" % ("127.0.0.1" if args.host in ("0.0.0.0", "") else args.host,
                             httpd.server_port)
    if not args.cold:
        warm_up()
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
