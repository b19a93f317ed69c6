"""make bench section: CircuitPython beside MicroPython on the emulated RP2040.

The same scripted session (tools/bench/rp2040.py's ``script``: solo to the celebration,
a refereed claim checked and demonstrated, the classroom's wave, solo resumed, settings),
closed-loop on each board's own seed, on three installs:

- MicroPython v1.28.0 with what ``make flash`` writes (MicroPython's .mpy);
- CircuitPython 10.2.1 with what ``make flash-circuitpython`` writes: the firmware as
  CircuitPython's own .mpy (its mpy-cross, tools/circuitpy_compiler.py);
- CircuitPython 10.2.1 with the firmware as source (``--source``: what a board gets with
  no compiler to be had), compiled on the board at every import.

CircuitPython has no viper: its kernels run as plain Python either way.

Per install: power-on to the first LED frame (emulated ms), at the first boot on the drive
as written and, after the session, at a reset (the RUN pin, as every later power-on);
each mode's frame work (the probe's ``step_us``: a frame's period minus its sleep) median
and worst, the worst
frame of a mode switch, the claim check (``Game.claim``), the heap free after a
collection in each mode's quiet stretch. CircuitPython's probe times with
``time.monotonic_ns`` (about 30 us steps; a long per reading, so it collects its own
garbage every COLLECT_EVERY frames between them), MicroPython's with ``time.ticks_us``.
Emulated time is the model's, believed about 2x slower than a real RP2040 at 125 MHz.

    python -m tools.bench circuitpython
"""

import statistics
import time

# CircuitPython's probe collects its own garbage (its clock's longs) between frames this
# often, outside their timing: tools/rp2040/circuitpython.probe_source says why.
COLLECT_EVERY = 4
MODES = ("menu", "solo", "referee", "classroom", "settings")
FRAME_US = 20000


def measure(session):
    """Boot ``session`` (a BoardSession), play the tour; the figures as a dict."""
    from tools.bench.rp2040 import script
    from tools.rp2040 import probe

    t0 = time.time()
    if not session.boot(limit_ms=12000):
        raise RuntimeError("the firmware did not start: %s" % session.pico.console[-300:])
    first_frame = session.pico.leds[0][0] if session.pico.leds else None
    edges, length, quiet = script(session.seed)
    start = session.now + 100
    session.play(edges, start)
    free = [(mode, session.command(start + a, probe.CMD_FREE)) for mode, a, _ in quiet]
    session.run_to(start + length)
    records = session.boot_data(0)[0]  # read before the reset clears the board's RAM
    answers = [(mode, session.answer(box)) for mode, box in free]
    return {"records": records, "first_frame_ms": first_frame,
            "again_ms": first_frame_after_reset(session),
            "free": answers, "length": length, "wall": time.time() - t0}


def first_frame_after_reset(session):
    """The RUN pin pulsed after the session, the drive as it left it: ms to the first LED
    frame of the next boot, or None. On CircuitPython the first power-on after an install
    also rewrites ``boot_out.txt`` (it does when that file's text changed: some 1.3 s on
    the emulated board, docs/circuitpython.md); every later power-on is this one."""
    pico = session.pico
    session.reset()  # (between two frames; the strip latches what it had as it begins)
    seen, reset_ms = len(pico.leds), pico.ms
    if not session.boot(limit_ms=12000):
        return None
    pico.run_for_ms(200)  # the first frame's LED line latched
    return pico.leds[seen][0] - reset_ms if len(pico.leds) > seen else None


def figures(data):
    """``{name: text}`` for one board's column."""
    recs = data["records"]
    out = {"boot": "%.0f ms" % data["first_frame_ms"]}
    if data.get("again_ms") is not None:
        out["boot again"] = "%.0f ms" % data["again_ms"]
    for k, mode in enumerate(MODES):
        plain = [r["step_us"] for r in recs if r["mode"] == k and not r["app"] & 2
                 and not r["saves"] and r["step_us"]]
        switch = [r["step_us"] for r in recs if r["mode"] == k and r["app"] & 2]
        if plain:
            out[mode] = "%.1f / %.1f ms" % (statistics.median(plain) / 1000, max(plain) / 1000)
        if switch:
            out[mode + " switch"] = "%.1f ms" % (max(switch) / 1000)
    saving = [r["step_us"] for r in recs if r["saves"]]
    if saving:
        out["saving"] = "%.1f ms" % (max(saving) / 1000)
    claims = [r["claim_us"] for r in recs if r["claim_us"]]
    out["claim"] = ", ".join("%.1f ms" % (c / 1000) for c in claims) or "-"
    frees = [v for _, v in data["free"] if v is not None]
    if frees:
        out["heap free"] = "%.1f-%.1f KB" % (min(frees) / 1024, max(frees) / 1024)
    over = sum(1 for r in recs if r["step_us"] > FRAME_US)
    out["over 20 ms"] = "%d of %d" % (over, len(recs))
    return out


ROWS = (("boot", "power-on to the first frame"),
        ("boot again", "a later power-on (RUN): first frame"),
        ("menu", "menu: frame work median / worst"),
        ("solo", "solo"), ("referee", "referee"), ("classroom", "classroom"),
        ("settings", "settings"),
        ("solo switch", "entering solo: worst frame"),
        ("referee switch", "entering the referee: worst frame"),
        ("classroom switch", "entering the classroom: worst frame"),
        ("settings switch", "entering settings: worst frame"),
        ("menu switch", "back to the menu: worst frame"),
        ("saving", "a frame writing a file: worst"),
        ("claim", "a claim checked (Game.claim)"),
        ("heap free", "heap free in the modes (after gc)"),
        ("over 20 ms", "frames with over 20 ms of work"))


def table(columns):
    """``columns``: [(title, figures)]: the report's lines."""
    lines = ["%-38s" % "" + "".join("%20s" % t for t, _ in columns)]
    for key, label in ROWS:
        lines.append("%-38s" % label + "".join("%20s" % f.get(key, "-") for _, f in columns))
    return lines


def report():
    print("== Emulated RP2040: CircuitPython 10.2.1 beside MicroPython v1.28.0 "
          "(rp2040py cycle model) ==")
    from tools.rp2040 import circuitpython, image
    from tools.rp2040.session import BoardSession

    columns = []
    mp, why = image.find_firmware()
    if mp is None:
        print(why)
    else:
        data = measure(BoardSession(mp))
        columns.append(("MicroPython 1.28", figures(data)))
        print("MicroPython: the session, %.0f s emulated, %.0f s wall" % (
            data["length"] / 1000, data["wall"]))
    cp, why = circuitpython.find_firmware()
    if cp is None:
        print(why)
    else:
        compiler, no_mpy = circuitpython.compiler()
        installs = [("CP 10.2 .mpy", compiler), ("CP 10.2 source", None)]
        if compiler is None:
            print("CircuitPython's .mpy install: %s" % no_mpy)
            installs = installs[1:]
        for title, compiled in installs:
            data = measure(circuitpython.CircuitSession(cp, compiled=compiled,
                                                        collect_every=COLLECT_EVERY))
            columns.append((title, figures(data)))
            print("%s: the session, %.0f s emulated, %.0f s wall" % (
                title, data["length"] / 1000, data["wall"]))
    if not columns:
        return
    for line in table(columns):
        print(line)
    print("(frame work: frames that neither switch mode nor write a file; a switch's frames"
          " and a file's are the rows below. Emulated time: about 2x slower than a real"
          " RP2040.)")


if __name__ == "__main__":
    report()
