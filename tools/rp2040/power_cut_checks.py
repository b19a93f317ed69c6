"""The emulated-board sessions behind host_tests/device/test_power_cut_rp2040.py, as one run.

    python -m tools.rp2040.power_cut_checks --boots 2 --json build/board-runs/power_cut.json

On the stock image with the files ``make flash`` writes and old settings (brightness 3):

1. A session that saves: boot, A enters solo (a new game: the settings' game count and
   solo.json are saved a second later), 6 s of it. The flash region is recorded before the
   first and after every erase and page program (each a power-cut point), with the files
   before and after.
2. ``--boots`` of those cut points (``all``: every one): a board powered up on that flash
   boots, runs 200 ms, is reset, boots again and runs 200 ms.

The images are written as the first one whole and each later one as the blocks it changed,
for the tests to rebuild (``images``). As checks.py's runs, done once per change of its
inputs (host_tests/board_runs.py), beside the rest of the suite.
"""

import base64
import sys

from tools import cli

from . import image

BLOCK = 4096  # a flash sector: an erase's unit, a page program's container


def _b64(data):
    return base64.b64encode(data).decode()


def old_settings():
    """The settings the board starts with (brightness 3), as the store writes them."""
    from microrobots.device.store import Store
    from microrobots.preferences import SETTINGS

    return Store.encode(dict(SETTINGS, brightness=3)).encode()


def cut_points(count, boots):
    """The cut points the board boots from: ``boots`` of ``count``, evenly spread, or every
    one (``"all"``)."""
    if boots == "all":
        return list(range(count))
    return sorted({count * (k + 1) // (int(boots) + 1) for k in range(int(boots))})


def record_cuts(firmware):
    """``(flash images, files before, files after, the last records' modes)`` of the
    session that saves (see the docstring)."""
    from rp2040py.peripherals import ssi

    from tools.sim.events import parse_events

    from .pico import flash_layout
    from .session import BoardSession

    start, size, count = flash_layout()
    s = BoardSession(firmware, files={"settings.json": old_settings()})
    images = []
    plain = ssi.RPSSI._apply_command

    def recorded(self):
        opcode = self._tx_buffer[0] if self._tx_buffer else 0
        plain(self)
        if opcode in (ssi.CMD_PAGE_PROGRAM, ssi.CMD_SECTOR_ERASE, ssi.CMD_BLOCK_ERASE):
            images.append(bytes(s.pico.mcu.flash[start:start + size * count]))

    before = s.files()
    ssi.RPSSI._apply_command = recorded  # (flash_timing.py looks the class's up at each call)
    try:
        if not s.boot():
            return None, "the probed firmware did not start: " + s.pico.console[-400:]
        images.insert(0, s.pico.flash_image())  # (the probe's boot writes nothing)
        s.play(parse_events("200 a\n"), s.now)
        s.run_to(s.now + 6000)
    finally:
        ssi.RPSSI._apply_command = plain
    after = s.files()
    return (images, before, after, [r.get("mode") for r in s.records[-3:]]), None


def boot_from(firmware, flash):
    """A board powered up on ``flash``: booted, 200 ms, reset, booted, 200 ms."""
    from .session import BoardSession

    s = BoardSession(firmware, files={"settings.json": old_settings()})
    s.pico.load_flash_image(flash)  # the power came back on this flash
    booted = [s.boot()]
    if booted[0]:
        s.run_to(s.now + 200)
        s.reset()
        booted.append(s.boot())  # and once more
        if booted[1]:
            s.run_to(s.now + 200)
    files = s.files()
    return {"booted": booted, "console": s.pico.console,
            "settings": _b64(files["settings.json"]) if "settings.json" in files else None,
            "solo": _b64(files["solo.json"]) if "solo.json" in files else None}


def changed_blocks(old, new):
    """``[(offset, base64 of the block)]``: the BLOCK-sized blocks of ``new`` that differ
    from ``old``."""
    return [(k, _b64(new[k:k + BLOCK])) for k in range(0, len(new), BLOCK)
            if old[k:k + BLOCK] != new[k:k + BLOCK]]


def images(results):
    """The flash images a run recorded, rebuilt from its results (bytes each)."""
    first = base64.b64decode(results["first_image"])
    out = [first]
    for blocks in results["changes"]:
        flash = bytearray(out[-1])
        for offset, data in blocks:
            flash[offset:offset + BLOCK] = base64.b64decode(data)
        out.append(bytes(flash))
    return out


def power_cut_run(firmware, boots):
    recorded, why = record_cuts(firmware)
    if recorded is None:
        return {"error": why}
    flashes, before, after, modes = recorded
    points = cut_points(len(flashes), boots)
    return {
        "first_image": _b64(flashes[0]),
        "changes": [changed_blocks(a, b) for a, b in zip(flashes, flashes[1:])],
        "before": {k: _b64(v) for k, v in before.items()},
        "after": {k: _b64(v) for k, v in after.items()},
        "modes": modes,
        "boots": {str(k): boot_from(firmware, flashes[k]) for k in points},
    }


def main(argv=None):
    parser = cli.Parser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", required=True, help="where to write the results")
    parser.add_argument("--boots", default="2",
                        help="how many cut points the board boots from, or all")
    args = parser.parse_args(argv)
    if args.boots != "all" and not args.boots.isdigit():
        parser.error("--boots %s: a number or all" % args.boots)
    firmware, why = image.find("stock")
    if firmware is None:
        print(why, file=sys.stderr)
        return 2
    result = power_cut_run(firmware, args.boots)
    result["firmware"] = firmware
    image.write_result(args.json, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
