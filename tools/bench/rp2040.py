"""make bench section: the firmware on the emulated RP2040 (rp2040py's cycle model).

What ``make flash`` writes, booted from the MicroPython v1.28.0 image with the probe
(tools/rp2040/probe.py), plays a scripted session through every mode and animation: solo
rounds to the celebration, score and replay; a refereed claim demonstrated, a failed one,
a route revealed; the classroom's wave and route; solo again, its game resumed from flash;
settings with a shuffle. Each frame of a mode switch (app.App.go) is reported by its
stage. Every frame's
work (``Device.step``: buttons, app, ``display.show`` with the WS2812 bitstream, sound) is
timed on the board with ``time.ticks_us``, in emulated time.

Emulated time is the model's: it is believed to run about 2x slower than a real RP2040
at 125 MHz. The flash takes the W25Q16JV's typical erase and program times
(tools/rp2040/flash_timing.py: a 4 KB erase 45 ms, a page 0.4 ms, the board frozen with
interrupts off meanwhile), so a frame that writes a file pays for them; the report gives
the slowest such frame and the frames late. The run takes several minutes of wall time.

    python -m tools.bench rp2040
"""

import statistics
import time

MODES = ("menu", "solo", "referee", "classroom", "settings")
BUDGET_US = 10000  # the goal: half the 20 ms frame
FRAME_US = 20000  # a frame's period: work over it makes the frame late


def script(seed):
    """The bench's session, closed-loop on the host: ``(edges, length, quiet)``."""
    from tools.rp2040.session import SWITCH_MS
    from tools.sim import headless
    from tools.sim.script import Session

    s = Session(seed=seed, start=0)
    quiet = []

    def rest(mode, ms=300):
        quiet.append((mode, s.t + 40, s.t + ms - 40))
        s.wait(ms)

    rest("menu")
    s.tap("a")  # solo: the dice roll, one throw of it
    s.wait(SWITCH_MS)
    s.wait(1200)
    s.settle()
    rest("solo")
    s.hold("a", 700)  # a hint
    s.solo_round()  # the last move starts the celebration
    s.wait(2900)  # the score
    s.tap("a")  # the replay
    s.wait(2000)
    s.hold("b", 650)
    s.tap("right")
    s.tap("a")  # referee
    s.wait(SWITCH_MS)
    s.settle()
    rest("referee")
    ref = s.app.current
    route = ref.game.route()
    s.claim(0, len(route) - 1, route[1:])  # correct: the verdict, the scores
    s.wait(1200)
    s.hold("b", 650)
    s.tap("down")
    s.tap("left")
    s.tap("a")  # classroom
    s.wait(SWITCH_MS)
    s.tap("a")  # the dice skipped: the wave, one layer every 1.5 s
    rest("classroom")
    s.wait(3000)
    s.hold("b", 650)
    s.tap("up")
    s.tap("a")  # solo again: its game resumed from flash
    s.wait(SWITCH_MS)
    s.wait(1500)
    s.hold("b", 650)
    s.tap("right")
    s.tap("down")
    s.tap("a")  # settings
    s.wait(SWITCH_MS)
    rest("settings")
    s.tap("down")
    s.tap("right")  # shuffle
    s.tap("a")
    s.wait(900)
    s.tap("a", 4)
    s.tap("b")
    s.wait(300)
    return headless.parse_events(s.events_text(), "bench"), s.t, quiet


def measure(firmware, frozen=False):
    from tools.rp2040 import probe
    from tools.rp2040.session import BoardSession

    s = BoardSession(firmware, frozen=frozen)
    t0 = time.time()
    if not s.boot():
        raise RuntimeError("the firmware did not start: %s" % s.pico.console[-300:])
    edges, length, quiet = script(s.seed)
    start = s.now + 100
    s.play(edges, start)
    heaps = [(mode, s.command(start + a, probe.CMD_HEAP)) for mode, a, _ in quiet]
    s.run_to(start + length)
    return {"records": s.boot_data(0)[0], "heap_after_boot": s.heap_after_boot,
            "boot_ms": s.boots[0][2][probe.H_ORIGIN],
            "heaps": [(mode, s.answer(box)) for mode, box in heaps],
            "length": length, "wall": time.time() - t0}


def _ms(us):
    return "%.1f" % (us / 1000)


def switch_frames(recs):
    """``[k or None per record]``: for the frames of a mode switch (the key's frame,
    which switches, then those that step its work: app.App.work), their number in it
    from 0; the frame after the last one entered the mode (its number too); None for
    other frames."""
    from tools.rp2040 import probe

    out = []
    for k, r in enumerate(recs):
        before = out[k - 1] if k else None
        if r.get("app", 0) & probe.APP_SWITCHING:
            out.append(0 if before is None else before + 1)
        elif before is not None and recs[k - 1].get("app", 0) & probe.APP_SWITCHING:
            out.append(before + 1)
        else:
            out.append(None)
    return out


def table(data):
    """The report's lines from ``measure``'s data."""
    recs = data["records"]
    lines = ["%-10s %7s %9s %9s %16s %12s %12s" % (
        "mode", "frames", "median", "worst", "worst, plain", "over 10 ms", "saving")]
    stages = switch_frames(recs)
    for k, mode in enumerate(MODES):
        work = [r["step_us"] for r in recs if r["mode"] == k]
        plain = [r["step_us"] for j, r in enumerate(recs)
                 if r["mode"] == k and not r["saves"] and stages[j] is None]
        saving = [r["step_us"] for j, r in enumerate(recs)
                  if r["mode"] == k and r["saves"] and stages[j] is None]
        if not work:
            continue
        lines.append("%-10s %7d %7s ms %6s ms %13s ms %12d %9s ms" % (
            mode, len(work), _ms(statistics.median(work)), _ms(max(work)),
            _ms(max(plain)) if plain else "-", sum(1 for u in plain if u > BUDGET_US),
            _ms(max(saving)) if saving else "-"))
    lines.append("")
    lines.append("entering a mode (worst frame's work: the key's frame, which switches; the"
                 " frames of its work; the mode's first frame):")
    lines.append("%-10s%15s%15s%15s" % ("into", "switch", "work", "first"))
    for k, mode in enumerate(MODES):
        switch, work, first = [], [], []
        for j, r in enumerate(recs):
            if stages[j] is not None and r["mode"] == k:
                last = stages[j + 1] is None if j + 1 < len(recs) else True
                (first if last and stages[j] else switch if stages[j] == 0 else work).append(
                    r["step_us"])
        if switch:
            lines.append("%-10s" % mode + "".join(
                "%12s ms" % _ms(max(x)) if x else "%15s" % "-" for x in (switch, work, first)))
    shows = [r["show_us"] for k, r in enumerate(recs)
             if k and r["writes"] != recs[k - 1]["writes"]]  # frames sent to the LEDs
    saves = [r["save_us"] / r["saves"] for r in recs if r["saves"]]
    claims = [r["claim_us"] for r in recs if r["claim_us"]]
    lines.append("")
    lines.append("(plain: frames that neither write a file nor switch mode, the frames that"
                 " encode a file's JSON included; saving: frames that write one)")
    lines.append("display.show of a frame sent (incl. the WS2812 bitstream): median %s ms,"
                 " worst %s ms" % (
        _ms(statistics.median(shows)), _ms(max(shows))))
    if saves:
        lines.append("a file written (littlefs: a temporary file, a rename): median %s ms,"
                     " %s-%s ms; most in one frame: %d files" % (
                         _ms(statistics.median(saves)), _ms(min(saves)), _ms(max(saves)),
                         max(r["saves"] for r in recs)))
    if claims:
        lines.append("game.claim with the next roll: %s ms" % ", ".join(_ms(c) for c in claims))
    saving = [r["step_us"] for r in recs if r["saves"]]
    late = [r for r in recs if r["step_us"] > FRAME_US]
    lines.append("with the flash's typical erase and program times (W25Q16JV: a 4 KB erase"
                 " 45 ms, a page 0.4 ms, interrupts off): the slowest frame that writes a"
                 " file %s ms; frames late (work over the 20 ms period): %d of %d (%d with a"
                 " file written)" % (_ms(max(saving)) if saving else "-", len(late), len(recs),
                                     sum(1 for r in late if r["saves"])))
    heaps = dict(data["heaps"])
    lines.append("heap in use: after boot %.1f KB; %s" % (
        data["heap_after_boot"] / 1024, ", ".join(
            "%s %.1f KB" % (m, heaps[m] / 1024) for m in MODES if heaps.get(m) is not None)))
    lines.append("boot to the first frame: %d ms" % data["boot_ms"])
    return lines


NAMES = {"stock": "stock image + .mpy files", "ours": "Micro Robots image"}


def side_by_side(results):
    """The two images' headline figures, a column each (``results``: kind -> data)."""
    from tools.rp2040.session import switch_times

    kinds = [k for k in ("stock", "ours") if k in results]
    columns = {}
    for k in kinds:
        d = results[k]
        heaps = dict(d["heaps"])
        work = [r["step_us"] for r in d["records"]]
        rows = [("heap in use after boot", "%.1f KB" % (d["heap_after_boot"] / 1024))]
        rows += [("heap with " + m, "%.1f KB" % (heaps[m] / 1024) if heaps.get(m) else "-")
                 for m in MODES]
        rows.append(("power-on to first frame", "%d ms" % d["boot_ms"]))
        rows += [("switch %d, into %s" % (j + 1, m), "%d ms" % ms)
                 for j, (m, ms) in enumerate(switch_times(d["records"], MODES))]
        rows.append(("frame work, median", "%s ms" % _ms(statistics.median(work))))
        rows.append(("frame work, worst", "%s ms" % _ms(max(work))))
        columns[k] = rows
    names = [name for name, _ in columns[kinds[0]]]
    lines = ["%-28s" % "" + "".join("%26s" % NAMES[k] for k in kinds)]
    for i, name in enumerate(names):
        lines.append("%-28s" % name + "".join(
            "%26s" % (columns[k][i][1] if i < len(columns[k]) and columns[k][i][0] == name
                      else "-") for k in kinds))
    return lines


TAP_SESSION_TAPS = 300  # random 40-80 ms taps per flash timing (about 55 s emulated each)


def report():
    print("== Emulated RP2040: both images side by side (rp2040py cycle model, "
          "MicroPython v1.28.0) ==")
    from tools.rp2040 import image

    results = {}
    for kind in image.IMAGES:
        firmware, why = image.find(kind)
        if firmware is None:
            print("%s: %s" % (NAMES[kind], why))
            continue
        results[kind] = measure(firmware, frozen=kind == "ours")
    if not results:
        return
    first = next(iter(results.values()))
    print("a scripted session of %.0f s (emulated) through every mode and animation; wall"
          " %s" % (first["length"] / 1000, ", ".join(
              "%.0f s (%s)" % (results[k]["wall"], k) for k in results)))
    for line in side_by_side(results):
        print(line)
    for kind, data in results.items():
        print()
        print("-- %s: frame work per mode --" % NAMES[kind])
        for line in table(data):
            print(line)
    print("Emulated time: the model is believed about 2x slower than a real RP2040; flash"
          " erases and programs take the W25Q16JV's typical times (45 ms a 4 KB sector).")
    kind = "ours" if "ours" in results else next(iter(results))
    print()
    print("-- taps against saves (%s; tools/rp2040/tap_checks.py) --" % NAMES[kind])
    from tools.rp2040.tap_checks import judged_session, row

    firmware = image.find(kind)[0]
    print("| flash times | taps | lost | slowest frame with a save | frames late |"
          " frames without a save over 10 ms |")
    print("|---|---|---|---|---|---|")
    notes = []
    for times in ("typical", "worst"):
        t = judged_session(firmware, kind == "ours", times, TAP_SESSION_TAPS)
        print(row(times, t))
        notes.append("%s: %.0f s emulated, %d erases (%.0f ms busy); saved files as the host's:"
                     " %s, after a reset: %s; the emulator %.0f CPU-s per emulated s" % (
                         times, t["emulated_s"], t["erases"], t["busy_ms"],
                         not t["saved_differ"], not t["after_reset_differ"],
                         t["cpu_per_emulated_s"]))
        if t["lost"]:
            notes.append("  lost: %s" % ", ".join("%s %d-%d ms (%s)" % (
                ("up", "down", "left", "right", "a", "b")[b], d, u, why)
                for (d, u, b), why in zip(t["lost"], t["lost_why"])))
    for line in notes:
        print(line)
    if "stock" in results:
        from tools.rp2040 import heapmap

        heapmap.report(image.find_firmware()[0])


if __name__ == "__main__":
    report()
