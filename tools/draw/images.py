"""make images: regenerate the README's pictures from committed event scripts.

    python -m tools.draw.images [--out DIR] [--check]

Each ``docs/images/NAME.events`` is an events file for the headless simulator (see
tools/sim/headless.py) whose first line says how to run it::

    # image: seed=7 until=7200
    500 a
    5000 a hold 800

For each one this runs ``python -m tools.sim --headless --seed SEED --events NAME.events
--until UNTIL --png NAME.png`` (the real firmware, CPython), which draws what the LEDs
show at ``until`` with tools.draw.render. The pictures are byte-for-byte reproducible:
``--check`` rebuilds them in a temporary folder and exits 1 if any differs from the
committed one (the tests do the same).
"""

import os
import re
import tempfile

from tools import cli
from tools.cli import ROOT

IMAGES = os.path.join(ROOT, "docs", "images")
SPEC = re.compile(r"#\s*image:\s*seed=(\d+)\s+until=(\d+)\s*$")


class ImageError(Exception):
    """A bad events script or a failed run: one line."""


def scripts(folder=None):
    """The event scripts, sorted: [(name, path)]."""
    folder = folder or IMAGES
    return [(f[:-len(".events")], os.path.join(folder, f))
            for f in sorted(os.listdir(folder)) if f.endswith(".events")]


def spec(path):
    """(seed, until) from the script's ``# image: seed=N until=MS`` line."""
    for line in cli.read_text(path, "events file").splitlines():
        m = SPEC.match(line.strip())
        if m:
            return int(m.group(1)), int(m.group(2))
    raise ImageError("%s: no '# image: seed=N until=MS' line" % path)


def build(path, png):
    """Run the simulator on one script and draw its last frame into ``png``."""
    from tools.sim import headless as sim

    seed, until = spec(path)
    with tempfile.TemporaryDirectory() as tmp:
        frames = os.path.join(tmp, "frames.jsonl")
        status = sim.main(["--headless", "--seed", str(seed), "--events", path,
                           "--frames-out", frames, "--until", str(until), "--png", png])
    if status != 0:
        raise ImageError("%s: the simulator failed (exit %d)" % (path, status))
    return png


def build_all(out, folder=None):
    cli.make_folder(out, "the pictures")
    made = []
    for name, path in scripts(folder):
        made.append(build(path, os.path.join(out, name + ".png")))
    return made


def differences(folder=None):
    """Names whose committed PNG differs from a fresh build (or is missing)."""
    folder = folder or IMAGES
    changed = []
    with tempfile.TemporaryDirectory() as tmp:
        for png in build_all(tmp, folder):
            name = os.path.basename(png)
            committed = os.path.join(folder, name)
            with open(png, "rb") as a:
                fresh = a.read()
            try:
                with open(committed, "rb") as b:
                    same = b.read() == fresh
            except OSError:
                same = False
            if not same:
                changed.append(name)
    return changed


def main(argv=None):
    p = cli.Parser(prog="python -m tools.draw.images",
                                description="Regenerate docs/images/*.png from *.events.")
    p.add_argument("--out", default=IMAGES, help="where to write (default docs/images)")
    p.add_argument("--check", action="store_true",
                   help="compare fresh builds with the committed pictures; exit 1 if any differ")
    try:
        args = p.parse_args(argv)
        if args.check:
            changed = differences()
            if changed:
                cli.fail("images", "out of date: %s (run make images)" % ", ".join(changed))
                return 1
            print("images: all %d up to date" % len(scripts()))
            return 0
        for png in build_all(args.out):
            print("wrote %s" % os.path.relpath(png, ROOT))
    except (ImageError, cli.UsageError) as e:
        return cli.fail("images", e)
    except OSError as e:
        return cli.fail("images", "%s: %s" % (e.filename or "", e.strerror or e))
    return 0


if __name__ == "__main__":
    cli.run(main)
