"""make dist: everything a person downloads, in one folder (what a release attaches).

    python -m tools.dist [--out dist] [--jobs N] [--clone]

Offline, from the pinned sources: the Micro Robots image (tools.picoimage, cached) for the
Pico and the Pico 2, the web page as a static site (a folder and a .zip), the classroom's
worksheets, the tile films and the enclosure's STL files, and SHA256SUMS over the files
(the folder is the .zip unpacked, for copying onto a web space)::

    dist/microrobots-rpi_pico.uf2     drag onto a Pico (RP2040) held in BOOTSEL mode
    dist/microrobots-rpi_pico2.uf2    the same for a Pico 2 (RP2350)
    dist/microrobots-web.zip          the page: unpack onto any static web host
    dist/microrobots-web/             the same, unpacked
    dist/worksheets.pdf               the classroom lesson's sheets (seed 1, puzzle 1)
    dist/films.pdf, dist/films.svg    the tile films to print for the LED grid
    dist/enclosure-PART.stl           the enclosure's printable parts
    dist/SHA256SUMS                   sha256sum -c SHA256SUMS checks the download

An image that cannot be built here (no ARM compiler, no ../shared/pico-src/) is one note
and left out (``--clone``: without the archive, clone the pinned versions instead, as the
release workflow does on a forge's machine with internet); every other piece must be made or the command fails (exit status 1, one
line naming the piece). The folder is replaced whole: built beside it, then renamed.
The .zip holds its files in a fixed order with a fixed date, so the same tree gives the
same bytes (and the same checksum).

Time: 42 s on the 2-core x86_64 development machine (shared with other builds) with both
images in the cache, most of it openscad's renders, which are kept in the same cache
(``~/.cache/microrobots-pico/stl/``, by the .scad's bytes and openscad's version); an image not cached adds its build
(seconds after a change to firmware/ only, minutes from scratch: tools/picoimage).
"""

import concurrent.futures
import hashlib
import os
import shutil
import subprocess
import sys
import zipfile

from tools import cli
from tools.cli import ROOT

OUT = os.path.join(ROOT, "dist")
WEB = "microrobots-web"
STL_PARTS = ("base", "grid", "lid", "plug")
SCAD = os.path.join(ROOT, "hardware", "enclosure.scad")
ZIP_DATE = (2024, 1, 1, 0, 0, 0)  # every entry's date: the same tree, the same .zip


class DistError(Exception):
    """A piece could not be made: one line."""


def images(out, jobs, log, clone=False):
    """The Micro Robots image for each board that can be built here, copied into ``out``
    (``clone``: the sources may be cloned when ../shared/pico-src/ is not there)."""
    from tools.picoimage import __main__ as picoimage

    made = []
    for board in picoimage.BOARDS:
        try:
            (path,) = picoimage.build((board,), jobs=jobs, log=log, offline_only=not clone)
        except picoimage.BuildError as e:
            if not e.missing:
                raise DistError("the %s image: %s" % (board, e))
            log("note: no %s image in dist/ (%s)" % (board, e))
            continue
        dest = os.path.join(out, os.path.basename(path))
        shutil.copyfile(path, dest)
        made.append(dest)
    return made


def web(out):
    """The page as a static site (a folder) and the same as a .zip."""
    from tools.sim.web import build

    try:
        folder = build.build(os.path.join(out, WEB))
    except build.BuildError as e:
        raise DistError("the web page: %s" % e)
    archive = os.path.join(out, WEB + ".zip")
    write_zip(folder, archive, WEB)
    return archive


def write_zip(folder, archive, top):
    """``folder`` as ``archive``, its files under ``top/``, in name order, dated ZIP_DATE."""
    names = []
    for d, dirs, files in os.walk(folder):
        dirs.sort()
        for name in files:
            names.append(os.path.relpath(os.path.join(d, name), folder))
    with zipfile.ZipFile(archive + ".tmp", "w", zipfile.ZIP_DEFLATED) as z:
        for rel in sorted(names):
            info = zipfile.ZipInfo(top + "/" + rel.replace(os.sep, "/"), ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            with open(os.path.join(folder, rel), "rb") as f:
                z.writestr(info, f.read())
    os.replace(archive + ".tmp", archive)


def run_tool(module, args, what):
    """``python -m module args`` in this checkout; a failure is DistError with its last line."""
    proc = subprocess.run([sys.executable, "-m", module] + args, cwd=ROOT, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL)
    if proc.returncode:
        lines = (proc.stderr or proc.stdout).strip().splitlines() or ["exit %d" % proc.returncode]
        raise DistError("%s: %s" % (what, lines[-1]))


def stl(out, part):
    """One part of the enclosure rendered by openscad, or the same render kept from before
    (``stl_cache``: the same .scad, part and openscad give the same file)."""
    binary = shutil.which("openscad")
    if binary is None:
        raise DistError("the enclosure: openscad is missing (apt-get install openscad)")
    dest = os.path.join(out, "enclosure-%s.stl" % part)
    argv = [binary, "-o", dest, "-D", 'part="%s"' % part, SCAD]
    kept = stl_cache(binary, argv[3:])
    if os.path.exists(kept):
        shutil.copyfile(kept, dest)
        return dest
    proc = subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if proc.returncode or not os.path.exists(dest):
        lines = proc.stderr.strip().splitlines() or ["exit %d" % proc.returncode]
        raise DistError("the enclosure's %s: openscad: %s" % (part, lines[-1]))
    os.makedirs(os.path.dirname(kept), exist_ok=True)
    shutil.copyfile(dest, kept + ".tmp%d" % os.getpid())
    os.replace(kept + ".tmp%d" % os.getpid(), kept)
    return dest


def stl_cache(binary, args):
    """Where a render is kept (the tools' cache, cli.cache_dir): named by a hash of the
    .scad's bytes (it includes no other file), openscad's version and its arguments. The
    base alone is some 15 s of openscad's CPU (dev machine, 2-core x86_64, idle)."""
    version = subprocess.run([binary, "--version"], capture_output=True, text=True,
                             stdin=subprocess.DEVNULL)
    h = hashlib.sha256()
    with open(SCAD, "rb") as f:
        h.update(f.read())
    h.update(("\0".join([version.stdout + version.stderr] + args[:-1])).encode())
    return os.path.join(cli.cache_dir(), "stl", "%s.stl" % h.hexdigest()[:24])


def checksums(out):
    """SHA256SUMS over the files in ``out`` (not the folder: the .zip holds it), in the
    format ``sha256sum -c`` reads."""
    lines = []
    for name in sorted(os.listdir(out)):
        path = os.path.join(out, name)
        if os.path.isfile(path) and name != "SHA256SUMS":
            h = hashlib.sha256()
            with open(path, "rb") as f:
                h.update(f.read())
            lines.append("%s  %s\n" % (h.hexdigest(), name))
    with open(os.path.join(out, "SHA256SUMS"), "w") as f:
        f.writelines(lines)
    return lines


def build(out=OUT, jobs=2, log=print, clone=False):
    """Make every piece into ``out`` (replaced whole); returns ``out``."""
    staging = out + ".tmp"
    shutil.rmtree(staging, ignore_errors=True)
    os.makedirs(staging)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        # openscad renders take the longest: they start first, each its own process
        renders = [pool.submit(stl, staging, part) for part in STL_PARTS]
        images(staging, jobs, log, clone)
        web(staging)
        run_tool("tools.worksheet", ["-o", os.path.join(staging, "worksheets.pdf")],
                 "the worksheets")
        for ext in ("pdf", "svg"):
            run_tool("tools.draw.overlay", ["-o", os.path.join(staging, "films." + ext)],
                     "the tile films")
        for render in renders:
            render.result()
    checksums(staging)
    shutil.rmtree(out, ignore_errors=True)
    os.replace(staging, out)
    return out


def main(argv=None):
    p = cli.Parser(prog="python -m tools.dist", description=__doc__.split("\n")[0])
    p.add_argument("--out", default=OUT, help="the folder to fill (default dist/)")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2,
                   help="parallel jobs (default: the cores)")
    p.add_argument("--clone", action="store_true",
                   help="without ../shared/pico-src/, clone the image's pinned sources")
    try:
        args = p.parse_args(argv)
    except cli.UsageError as e:
        return cli.fail("dist", e)
    out = os.path.abspath(args.out)
    try:
        build(out, max(1, args.jobs), clone=args.clone)
    except DistError as e:
        shutil.rmtree(out + ".tmp", ignore_errors=True)
        print("dist: %s" % e, file=sys.stderr)
        return 1
    for name in sorted(os.listdir(out)):
        path = os.path.join(out, name)
        if os.path.isfile(path):
            print("%-32s %8d KB" % (os.path.relpath(path, ROOT), (os.path.getsize(path) + 1023) // 1024))
    return 0


if __name__ == "__main__":
    cli.run(main)
