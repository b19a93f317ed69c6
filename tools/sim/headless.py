"""The handheld without hardware: ``python -m tools.sim``.

Headless (scripted) runs, the harness of the tests and a contract::

    python -m tools.sim --headless --seed 7 --events play.txt --frames-out frames.jsonl
    python -m tools.sim --headless --seed 7 --events play.txt --frames-out f.jsonl \\
        --runtime micropython --until 20000 --state /tmp/device

The events file, one per line (``#`` starts a comment)::

    500 a              # a tap: A pressed at 500 ms, released 60 ms later
    1200 right
    3000 a hold 800    # A held from 3000 ms for 800 ms (a long press)

Buttons: up down left right a b. The firmware polls every 20 ms and debounces: leave
about 100 ms between two taps of one button. Frames out: one JSON line whenever what is written to
the LEDs changes, ``{"t": ms, "mode": "solo", "pixels": [[r, g, b], ... 36]}`` in
row-major grid order, the values actually written (after gamma, brightness and the
power cap). The run ends at ``--until`` (default: 2 s after the last release).
``--state DIR`` is the device's flash (settings.json, solo.json, referee.json,
config.json); without it nothing is saved. A bad events file: one line naming the line,
exit status 2. What the firmware prints on its serial console (the referee's verdicts
and why, a traceback) goes to stderr, one line each. Exit status: 2 for bad input, 1
when the firmware failed (the app stopped, or MicroPython itself did), else 0.

Both runtimes run tools/sim/driver.py, the same driver, around firmware/main.py's real
frame loop: in-process under CPython, in ``micropython -X heapsize=190k`` otherwise;
the same seed and events give the same frames. The interactive terminal front end
(``make play``) builds on the same driver protocol (see tools/sim/driver.py).
"""

import json
import os
import subprocess
import sys
import tempfile

from tools import cli
from tools.cli import ROOT, micropython_main
from tools.sim.events import (BUTTONS, MAX_MS, TAP_MS, EventsError, mask_lines,  # noqa: F401
                              parse_events)

DRIVER = os.path.join(ROOT, "tools", "sim", "driver.py")
TAIL_MS = 2000


def run_driver(lines, seed, until, runtime="cpython", state=None, tones=False, clock=0):
    """Run the driver on input ``lines``; return its output lines (a list of str)."""
    argv = ["--seed", str(seed), "--until", str(until)]
    if clock:
        argv += ["--clock", str(clock)]
    if state:
        argv += ["--state", state]
    if tones:
        argv.append("--tones")
    if runtime == "micropython":
        from tools.sim import soak

        proc = subprocess.run(micropython_main(DRIVER, firmware=soak.staged()) + argv,
                              input="\n".join(lines) + "\n", capture_output=True, text=True,
                              errors="replace",  # (a console line may not be UTF-8)
                              cwd=ROOT)
        out = proc.stdout.splitlines()
        if proc.returncode not in (0, 2):
            out.append("micropython failed (%d): %s" % (proc.returncode, proc.stderr.strip()))
        return out
    import contextlib

    from tools.sim import driver as simdriver

    out = []
    with contextlib.redirect_stdout(_Lines(out)):  # what the firmware prints: its console
        simdriver.run(argv, lines, out.append)
    return out


class _Lines:
    """A stdout whose text goes, line by line, into the list ``out`` (in order with the
    driver's own lines, as MicroPython's stdout gives them)."""

    def __init__(self, out):
        self.out = out
        self.part = ""

    def write(self, text):
        lines = (self.part + text).split("\n")
        self.part = lines.pop()
        self.out.extend(lines)
        return len(text)

    def flush(self):
        pass


def failure(out):
    """The first line saying the firmware failed (the app stopped, or MicroPython itself),
    or None."""
    for line in out:
        if line.startswith(("error: ", "micropython failed")):
            return line
    return None


def headless(args):
    text = cli.read_text(args.events, "events file")
    edges = parse_events(text, args.events)
    until = args.until
    if until is None:
        until = (edges[-1][0] if edges else 0) + TAIL_MS
    if args.fresh or ((args.tiles or args.side) and not args.state):
        # a new device's flash, thrown away at the end (--tiles/--side are written there)
        with tempfile.TemporaryDirectory(prefix="microrobots-sim-") as flash:
            return _run(args, edges, until, os.path.join(flash, ""))
    if args.state:  # the device's flash: made if need be, as make play does
        cli.make_folder(args.state, "the device's flash")
    return _run(args, edges, until, args.state)


def _run(args, edges, until, state):
    if args.tiles or args.side:
        from tools.sim import terminal
        terminal.prepare_state(os.path.join(state, ""), args.side, args.tiles)
    out = run_driver(mask_lines(edges), args.seed, until, args.runtime, state,
                     clock=args.clock)
    frames = []
    for line in out:
        if line.startswith('{"error"'):
            raise EventsError(line[11:-2])
        if line.startswith('{"t"') and '"pixels"' in line:
            frames.append(line)
        elif not line.startswith("{"):
            print(line, file=sys.stderr)  # the firmware's console
        elif '"console"' in line:
            print(json.loads(line)["console"], file=sys.stderr)  # the app's console lines
    try:
        with open(args.frames_out, "w") as f:
            f.write("\n".join(frames) + ("\n" if frames else ""))
    except OSError as e:
        raise EventsError("%s: cannot write frames (%s)" % (args.frames_out, e.strerror or e))
    if args.png:  # tools.draw.render draws the device (issue 5)
        from tools.draw import render
        try:
            render.write_png(frames, args.png, state=state)
        except ValueError as e:
            raise EventsError(str(e))
    failed = failure(out)
    if failed is not None:  # the frames are written; the status says it went wrong
        print("sim: the firmware failed: %s" % failed, file=sys.stderr)
        return 1
    return 0


def parser():
    p = cli.Parser(prog="python -m tools.sim", description="The Micro Robots handheld, simulated.")
    p.add_argument("--headless", action="store_true", help="run scripted events, write frames")
    p.add_argument("--seed", type=int, default=1234, help="the seed new games start from")
    p.add_argument("--events", help="events file (headless)")
    p.add_argument("--frames-out", help="where to write the frames, JSON lines (headless)")
    p.add_argument("--runtime", choices=("cpython", "micropython"), default="cpython")
    p.add_argument("--until", type=int, help="stop at this time in ms (at most 6 hours)")
    flash = p.add_mutually_exclusive_group()
    flash.add_argument("--state", help="folder standing in for the device's flash")
    flash.add_argument("--fresh", action="store_true",
                       help="a new device (the default without --state; with --tiles/--side"
                            ", its flash is a folder thrown away at the end)")
    cli.add_layout_options(p, files=False)
    p.add_argument("--clock", type=int, default=0,
                   help="the tick the device's clock starts from (a Pico's wraps after 12.4 days)")
    p.add_argument("--png", help="also draw the last frame as a picture of the device (headless)")
    return p


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if "--headless" not in argv:  # make play: the terminal front end has its own options
        from tools.sim import terminal
        return terminal.main(argv)
    try:
        args = parser().parse_args(argv)
    except cli.UsageError as e:
        return cli.fail("sim", "%s (see --help)" % e)
    if not args.events or not args.frames_out:
        return cli.fail("sim", "--headless needs --events FILE and --frames-out FILE")
    if not 0 <= args.seed <= 0x3FFFFFFF:
        return cli.fail("sim", "--seed must be 0..%d, not %s" % (0x3FFFFFFF, str(args.seed)[:12]))
    if args.until is not None and not 0 <= args.until <= MAX_MS:
        return cli.fail("sim", "--until must be a time in ms 0..%d (6 hours), not %s"
                        % (MAX_MS, str(args.until)[:12]))
    if not 0 <= args.clock <= 0x3FFFFFFF:
        return cli.fail("sim", "--clock must be 0..%d, not %s" % (0x3FFFFFFF, str(args.clock)[:12]))
    try:
        if args.tiles or args.side:
            cli.layout_from_args(args)
        return headless(args)
    except (EventsError,) + cli.Errors as e:
        return cli.fail("sim", e)


if __name__ == "__main__":
    cli.run(main)
