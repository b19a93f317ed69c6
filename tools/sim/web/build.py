"""Build the web page into a self-contained static site, and serve it on this machine.

    python -m tools.sim.web.build [--out build/web]          # make web-build
    python -m tools.sim.web.build --serve [--port 8000]      # make web: build, then serve

The site (no CDN, no network at run time, no server code; any static host will do)::

    index.html, page.css, page.js   the page (copied from tools/sim/web/)
    tables.js                       colours and pips, generated from tools/draw/, and
                                    the on-screen help (tools/sim/help.py)
    micropython.mjs, .wasm          MicroPython's WebAssembly port (npm, pinned in
                                    tools/sim/web/package-lock.json; `npm ci` fetches it)
    firmware.bin                    firmware/ compiled with mpy-cross (as make flash does
                                    for a Pico), plus events.py, page.py, flashfile.py
                                    (export and import) and lesson.py (the projector's
                                    searches): one fetch
    manifest.webmanifest, icon-*.png   the page as an app a phone puts on its home screen
    sw.js                           the service worker: after one visit every file above
                                    comes from the browser's cache, so the page opens with
                                    no network (its cache is named by a hash of the files)
    README.txt                      how to put the folder on a web space or a USB stick

A browser runs the page only from a web server (http:// or https://; a file:// URL
cannot load its module script, its WebAssembly or a service worker): a USB stick needs
``python3 -m http.server`` (or any static server) started in the folder (README.txt).

firmware.bin: a little-endian uint32 N, N bytes of JSON ``[[path, size], ...]``, then
the files' bytes in that order. A bad or missing piece: one line, exit status 2.
"""

import http.server
import json
import os
import shutil
import struct
import subprocess
import tempfile

from tools import cli, flash
from tools.cli import ROOT
from tools.draw import colour, dice
from tools.sim import help as onscreen

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(ROOT, "build", "web")
PACKAGE = "@micropython/micropython-webassembly-pyscript"
PORT_FILES = ("micropython.mjs", "micropython.wasm")
PAGE_FILES = ("index.html", "page.css", "page.js")
EXTRA = (("tools/sim/events.py", "page/events.py"), ("tools/sim/web/page.py", "page/page.py"),
         ("tools/sim/web/flashfile.py", "page/flashfile.py"), ("tools/lesson.py", "page/lesson.py"))
APP_FILES = ("manifest.webmanifest", "README.txt")
ICON_SIZES = (192, 512)


class BuildError(Exception):
    """Something the build needs is missing or broken: one line."""


def port_dir():
    """Where npm put the port; installs it from the lockfile (`npm ci`) when missing."""
    where = os.path.join(HERE, "node_modules", *PACKAGE.split("/"))
    if not all(os.path.exists(os.path.join(where, f)) for f in PORT_FILES):
        npm = shutil.which("npm")
        if npm is None:
            raise BuildError("npm is missing: install Node.js 18 or newer (it brings npm)")
        proc = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                              cwd=HERE, capture_output=True, text=True)
        if proc.returncode != 0:
            raise BuildError("npm ci in tools/sim/web failed: %s"
                             % flash.last_line(proc.stderr or proc.stdout))
    return where


def tables_js():
    """The colours from tools/draw/colour.py, the pips of tools/draw/dice.py, and the
    on-screen help of tools/sim/help.py (the terminal's too)."""
    pips = {str(n): [list(p) for p in spots] for n, spots in dice.PIPS.items()}
    return (colour.js_module() + "export const PIPS = %s;\n" % json.dumps(pips)
            + onscreen.js_module())


def firmware_bundle():
    """firmware.bin's bytes: the firmware compiled, events.py and page.py beside it."""
    files = []
    with tempfile.TemporaryDirectory() as tmp:
        for rel in cli.firmware_files():
            if rel.endswith("_viper.py"):  # machine code for a Pico: the page (no native
                continue  # code in WebAssembly) imports each one's plain twin instead
            src = os.path.join(flash.FIRMWARE, rel)
            if rel.endswith(".py"):
                out = os.path.join(tmp, "out.mpy")
                flash.compile_module(None, src, rel, out)
                files.append(("firmware/" + rel[:-3] + ".mpy", _read(out)))
            else:
                files.append(("firmware/" + rel, _read(src)))
        for src, dest in EXTRA:
            out = os.path.join(tmp, "out.mpy")
            flash.compile_module(None, os.path.join(ROOT, src), os.path.basename(src), out)
            files.append((dest[:-3] + ".mpy", _read(out)))
    index = json.dumps([[path, len(data)] for path, data in files]).encode()
    return struct.pack("<I", len(index)) + index + b"".join(data for _, data in files)


def icon_png(size):
    """The app's icon: the 6x6 grid of dice in the films' colours, as a PNG (zlib only)."""
    import zlib

    gap = size // 40
    cell = (size - 7 * gap) // 6
    margin = (size - 6 * cell - 5 * gap) // 2
    back = (16, 17, 20)
    rows = []
    for y in range(size):
        row = bytearray([0])  # PNG filter: none
        cy, oy = divmod(y - margin, cell + gap)
        for x in range(size):
            cx, ox = divmod(x - margin, cell + gap)
            inside = 0 <= cx < 6 and 0 <= cy < 6 and ox < cell and oy < cell and x >= margin \
                and y >= margin
            row += bytes(colour.FILM_RGB[(cx + 2 * cy) % 6] if inside else back)
        rows.append(bytes(row))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


def service_worker(staging):
    """sw.js for the files in ``staging``: their list, and a version from their bytes."""
    import hashlib

    names = sorted(os.listdir(staging))
    digest = hashlib.sha256()
    for name in names:
        digest.update(name.encode() + b"\0" + _read(os.path.join(staging, name)) + b"\0")
    with open(os.path.join(HERE, "sw.js")) as f:
        text = f.read()
    return (text.replace('"__VERSION__"', json.dumps(digest.hexdigest()[:16]))
            .replace('["__FILES__"]', json.dumps(["./"] + names)))


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def build(out=OUT):
    """Write the site into ``out`` (replaced whole); returns ``out``."""
    port = port_dir()
    try:
        bundle = firmware_bundle()
    except flash.FlashError as e:
        raise BuildError(str(e))
    staging = out + ".tmp"
    shutil.rmtree(staging, ignore_errors=True)
    os.makedirs(staging)
    for name in PAGE_FILES:
        shutil.copyfile(os.path.join(HERE, name), os.path.join(staging, name))
    for name in PORT_FILES:
        shutil.copyfile(os.path.join(port, name), os.path.join(staging, name))
    with open(os.path.join(staging, "tables.js"), "w") as f:
        f.write(tables_js())
    with open(os.path.join(staging, "firmware.bin"), "wb") as f:
        f.write(bundle)
    for name in APP_FILES:
        shutil.copyfile(os.path.join(HERE, name), os.path.join(staging, name))
    for size in ICON_SIZES:
        with open(os.path.join(staging, "icon-%d.png" % size), "wb") as f:
            f.write(icon_png(size))
    worker = service_worker(staging)  # (last: it lists every other file)
    with open(os.path.join(staging, "sw.js"), "w") as f:
        f.write(worker)
    shutil.rmtree(out, ignore_errors=True)
    os.replace(staging, out)
    return out


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with the types a browser insists on for modules and WebAssembly."""

    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map,
                          **{".js": "text/javascript", ".mjs": "text/javascript",
                             ".webmanifest": "application/manifest+json",
                             ".wasm": "application/wasm", ".bin": "application/octet-stream"})

    def log_message(self, *args):
        pass


def server(directory, port=0):
    """A static server for ``directory`` on 127.0.0.1 (port 0: any free one)."""
    def handler(*args, **kwargs):
        return Handler(*args, directory=directory, **kwargs)

    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


def main(argv=None):
    p = cli.Parser(prog="python -m tools.sim.web.build",
                   description="Build the web page (and serve it).")
    p.add_argument("--out", default=OUT, help="where the site goes (default build/web)")
    p.add_argument("--serve", action="store_true", help="then serve it on 127.0.0.1")
    p.add_argument("--port", type=int, default=8000, help="port to serve on (default 8000)")
    try:
        args = p.parse_args(argv)
        out = build(os.path.abspath(args.out))
    except (BuildError, cli.UsageError) as e:
        return cli.fail("web", e)
    size = sum(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out))
    print("built %s (%d KB)" % (os.path.relpath(out, ROOT), size // 1024))
    if not args.serve:
        return 0
    try:
        httpd = server(out, args.port)
    except OSError as e:
        return cli.fail("web", "cannot serve on 127.0.0.1:%d (%s)" % (args.port, e.strerror or e))
    print("serving the page at http://127.0.0.1:%d/  (Ctrl-C stops)" % httpd.server_port,
          flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()
    return 0


if __name__ == "__main__":
    cli.run(main)
