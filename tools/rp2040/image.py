"""The Pico's flash filesystem, built from what ``make flash`` writes.

    uf2 = find_firmware()                 # PICO_FIRMWARE, else ../shared/pico/*.uf2; or None
    ours = find_image()                   # the Micro Robots image make firmware built; or None
    tree = flash_tree()                   # {"main.py": b"...", "microrobots/app.mpy": ...}
    image = build_image(tree)             # a littlefs image of the Pico's filesystem region
    files = read_files(image)             # {"settings.json": b"...", ...}: what the board has

``flash_tree`` runs tools/flash.py's own plan and staging for a Pico with MicroPython 1.28
(``.mpy`` v6.3, ``-march=armv6m``): every module compiled by mpy-cross, ``main.py`` as
source. The emulated board therefore runs byte for byte what a real one gets.
"""

import glob
import json
import os
import shutil
import tempfile

from tools import cli
from tools.cli import ROOT
ENV = "PICO_FIRMWARE"
PATTERN = os.path.join("shared", "pico", "micropython-*RPI_PICO.uf2")
LFS_DISK_VERSION = 0x00020000  # littlefs 2.0: mounts on every MicroPython since 1.22


def find_uf2(env, pattern, missing, root=ROOT):
    """``(path, None)`` for an image to boot, or ``(None, why)``: ``$env`` when set; else
    ``pattern`` (under ``shared/``) in a folder beside the checkout or one further up (a
    worktree's or a CI clone's sibling ``shared/``); ``missing`` says what to do without."""
    given = os.environ.get(env)
    if given:
        if os.path.isfile(given):
            return given, None
        return None, "%s=%s: no such file" % (env, given)
    here = os.path.abspath(root)
    for _ in range(3):
        here = os.path.dirname(here)
        found = sorted(glob.glob(os.path.join(here, pattern)))
        if found:
            return found[-1], None
    return None, missing


def find_firmware(root=ROOT):
    """``(path, None)`` for the stock MicroPython image to boot, or ``(None, why)``:
    ``$PICO_FIRMWARE``, else ``shared/pico/micropython-*RPI_PICO.uf2`` (find_uf2)."""
    return find_uf2(ENV, PATTERN, "no MicroPython image for the emulated Pico: download "
                    "MicroPython v1.28.0 for RPI_PICO (a .uf2) from "
                    "https://micropython.org/download/RPI_PICO/ and set %s to it" % ENV, root)


def write_result(path, result):
    """A board run's results (a dict) as JSON at ``path``, written atomically."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    cli.write_atomically(path, json.dumps(result))


IMAGES = ("stock", "ours")  # the stock image with make flash's files; the Micro Robots image


def find_image():
    """``(path, None)`` for the Micro Robots image (``make firmware``), or ``(None, why)``."""
    from tools.picoimage.__main__ import find_archive, image_path, missing_tools

    path = image_path("RPI_PICO")
    if os.path.isfile(path):
        return path, None
    why = "no Micro Robots image for the emulated Pico (make firmware builds %s" % (
        os.path.relpath(path, ROOT))
    archive, no_archive = find_archive()
    if missing_tools():
        why += "; it needs an ARM compiler: apt-get install gcc-arm-none-eabi ..."
    elif archive is None:
        why += "; " + no_archive
    return None, why + ")"


def find(kind):
    """``find_firmware()`` for ``"stock"``, ``find_image()`` for ``"ours"``."""
    return find_firmware() if kind == "stock" else find_image()


def flash_tree(build=None):
    """``{board path: bytes}``: the files ``make flash`` writes onto a Pico with 1.28."""
    from tools import flash

    board = flash.Board(None, (1, 28, 0), flash.encode_mpy(6, 3, "armv6m"),
                        "Raspberry Pi Pico with RP2040", assumed=True)
    plan = flash.make_plan(board)
    parent = os.path.join(ROOT, "build", "rp2040")
    os.makedirs(parent, exist_ok=True)
    staging = build or tempfile.mkdtemp(prefix="flash-", dir=parent)  # one per process
    try:
        flash.stage(plan, build=staging)
        tree = {}
        for step in plan.copies():
            with open(step.built, "rb") as f:
                tree[step.dest] = f.read()
    finally:
        if build is None:
            shutil.rmtree(staging, ignore_errors=True)
    return tree


def _lfs(image=None):
    from littlefs import LittleFS, UserContext

    from .pico import flash_layout

    _, size, count = flash_layout()
    ctx = UserContext(buffsize=size * count)
    if image is not None:
        ctx.buffer[:] = image
    # A new image is written in the 2.0 format; an image the board has written to is read
    # in whatever format it now has (MicroPython 1.28 upgrades it to 2.1 when it writes;
    # forcing 2.0 there shows an empty filesystem).
    version = {} if image is not None else {"disk_version": LFS_DISK_VERSION}
    fs = LittleFS(context=ctx, block_size=size, block_count=count, prog_size=256,
                  mount=image is not None, **version)
    if image is None:
        fs.format()
        fs.mount()
    return fs, ctx


def build_image(files):
    """A littlefs image of the Pico's filesystem holding ``files`` ({path: bytes})."""
    fs, ctx = _lfs()
    made = set()
    for path in sorted(files):
        parts = path.split("/")
        for k in range(1, len(parts)):
            d = "/".join(parts[:k])
            if d not in made:
                fs.mkdir(d)
                made.add(d)
        with fs.open(path, "wb") as f:
            f.write(files[path])
    fs.unmount()
    return bytes(ctx.buffer)


def read_files(image):
    """Every file in a littlefs image: ``{path: bytes}``."""
    fs, _ = _lfs(image)
    out = {}
    for top, _dirs, names in fs.walk("/"):
        for name in names:
            path = (top.rstrip("/") + "/" + name).lstrip("/")
            with fs.open(path, "rb") as f:
                out[path] = f.read()
    fs.unmount()
    return out
