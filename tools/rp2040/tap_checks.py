"""Taps against saves, judged: no tap lost, nothing saved lost (test_rp2040_taps.py, bench).

    result = taps_run(firmware, frozen=True)           # checks --part taps
    result["typical"]["lost"], result["worst"]["saved_equal"] ...

For each flash timing (typical, worst: flash_timing.py) one tap session (taps.py: random
taps of 40-80 ms on every button in solo, saves among them, a tap inside every erase; in
a 400 ms one, taps.PLANNED's four: two taps of one button inside it, two of another, the
last let go after it);
then the board's saved files are compared with what the host firmware saves when it is
fed the same frames (each frame's now and buttons, as the board read them: the host's
reference run of the session), and again after the RUN pin is pulsed and the board has
booted from its flash. With no tap lost (the taps' check) and the same buttons giving the
same files, the saved game is the one the keys played.
"""

import base64
import json
import os
import shutil
import tempfile

from . import probe

TEST_TAPS = 40  # per timing: some 13 s emulated, a few minutes of the emulator's CPU each
TIMINGS = ("typical", "worst")


def saved(files):
    """The files a session saved: not the firmware's or the probe's modules."""
    return {k: v for k, v in files.items() if not k.endswith((".py", ".mpy"))}


def reference_files(records, seed, config, state=None):
    """What the host firmware (CPython, fake pins) has saved after ``records`` (one boot's
    frames: its now and buttons), from ``state`` ({name: bytes} on flash at its start)."""
    from .session import host_device

    root = tempfile.mkdtemp(prefix="mr-taps-") + "/"
    try:
        dev = host_device(root, seed, config, state)
        for rec in records:
            dev.hw.now = rec["now"]
            dev.hw.pressed = rec["mask"]
            dev.step()
        out = {}
        for name in sorted(os.listdir(root)):
            if os.path.isfile(root + name):
                with open(root + name, "rb") as f:
                    out[name] = f.read()
        return saved(out)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _differ(board, host):
    """The names whose contents differ (or that only one side has): a JSON file by what
    it says (MicroPython's dicts keep another order of keys than CPython's)."""
    return sorted(n for n in set(board) | set(host) if not _same(board.get(n), host.get(n)))


def _same(a, b):
    if a is None or b is None or a == b:
        return a == b
    try:
        return json.loads(a) == json.loads(b)
    except ValueError:
        return False


def judged_session(firmware, frozen, flash_times, taps, seed=1, inside_erases=True):
    """One tap session and its saved files judged (JSON-able)."""
    from .taps import tap_session

    t = tap_session(firmware, taps=taps, seed=seed, flash_times=flash_times, frozen=frozen,
                    inside_erases=inside_erases, keep=True)
    s = t.pop("session")
    records = t.pop("boot_records")
    board = saved(s.files())
    host = reference_files(records, s.boots[0][2][probe.H_SEED], s.config)
    s.reset()
    resumed = s.boot()
    s.run_to(s.now + 300)
    after = saved(s.files())
    t.update({
        "saved_names": sorted(board), "saved_bytes": sum(len(v) for v in board.values()),
        "saved_differ": _differ(board, host), "after_reset_differ": _differ(after, host),
        "resumed": resumed, "after_reset_as_before": after == board,
        "board_files": {k: base64.b64encode(v).decode() for k, v in board.items()},
        "host_files": {k: base64.b64encode(v).decode() for k, v in host.items()},
    })
    t["seen"] = [list(x) for x in t["seen"]]
    t["script"] = [list(x) for x in t["script"]]
    return t


def taps_run(firmware, frozen, taps=TEST_TAPS, timings=TIMINGS):
    """checks --part taps: one judged session per flash timing, with taps.PLANNED's four
    taps in every long erase (worst-case times: issue 31's lost taps)."""
    return {times: judged_session(firmware, frozen, times, taps, inside_erases="planned")
            for times in timings}


def row(times, t):
    """The bench's line for session ``t``: flash times | taps | lost | slowest frame with
    a save | frames late | frames without a save over 10 ms (emulated RP2040, our image)."""
    return "| %s | %d (%d inside erases) | %d | %.1f ms | %d of %d | %d (slowest %.1f ms) |" % (
        times, t["taps"], t["inside_erases"], len(t["lost"]), t["slowest_saving_us"] / 1000,
        t["late"], t["frames"], t["plain_over_10ms"], t["slowest_plain_us"] / 1000)


def main(argv=None):
    import sys

    from tools import cli

    from . import image

    parser = cli.Parser(description="a long tap session against saves, judged (make bench)")
    parser.add_argument("--taps", type=int, default=300)
    parser.add_argument("--times", choices=TIMINGS, default="typical")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--image", choices=image.IMAGES, default="ours")
    parser.add_argument("--json", help="where to write the results")
    args = parser.parse_args(argv)
    firmware, why = image.find(args.image)
    if firmware is None:
        print(why, file=sys.stderr)
        return 2
    t = judged_session(firmware, args.image == "ours", args.times, args.taps, args.seed)
    print(row(args.times, t))
    print("lost: %s; saved files differ: %s, after a reset: %s; emulator %.0f CPU-s per "
          "emulated s; state machines %s" % (t["lost"], t["saved_differ"],
                                             t["after_reset_differ"], t["cpu_per_emulated_s"],
                                             t["pio"]))
    if args.json:
        image.write_result(args.json, t)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
