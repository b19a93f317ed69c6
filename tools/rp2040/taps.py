"""Taps against saves on the emulated board: is any tap lost while the flash is busy?

    result = tap_session(firmware, taps=200, seed=1, flash_times="typical")
    result["lost"]          # taps the firmware never saw as a press
    result["erases"]        # erases (and their times) during the session

A board boots and enters solo; then ``taps`` random taps of 40-80 ms on random buttons,
20-200 ms apart (release to the next press), are played as GPIO edges. The taps move the
cursor and the robots, undo (B) and select (A): moves are saved a second after the last
one (app.App's saver), so saves, with their erases and page programs, fall among the taps.
``inside_erases``: besides, a tap (up to 60 ms, 8 ms shorter than the erase) begins 3 ms
into every erase, on a button the random taps leave alone then: it begins and ends while
the board is frozen, the case a once-a-frame poll loses. ``inside_erases="planned"``:
in an erase of PLANNED_MIN_MS or more, PLANNED's four taps instead (issue 31's lost
taps: two of one button inside one freeze, a tap pressed in it and let go after).
``lost_why`` says for each lost tap what the frames' times show (``why_lost``).
A tap is seen when the firmware's debounced buttons (device/input.py, run on the masks
the board read, frame by frame, as the board did) give a PRESS of its button between its
press and the next tap of that button, or within HANDOVER_MS of the first frame after its
release (a freeze holds the presses of all its taps back: ``lost_taps``), each press
answering one tap, in order. ``frames``: every frame's work (step_us), to find
the slowest frame with a save and the frames late (work over the 20 ms period).
"""

import random

BUTTONS = 6
FRAME_MS = 20
SLACK_MS = FRAME_MS  # a record's now is its frame's start: the edge may fall just before
# After a freeze the record's changes are given a change of a button a frame (rp2_pio):
# a button tapped n times inside it has its last press 2(n - 1) frames after the first.
HANDOVER_MS = 15 * FRAME_MS
# On CircuitPython a save freezes the board for 270-380 ms (a FAT drive: 5-7 erases) and a
# second may follow 140 ms later: the changes held through the first are handed over in
# the few frames between and after the second (seed 1, 60 taps, typical times: none lost,
# the latest press 414 ms after the first frame after its tap's release).
CIRCUITPYTHON_HANDOVER_MS = 30 * FRAME_MS
# inside_erases="planned", in an erase this long (worst-case times): two taps of one
# button, two of another, the last pressed 25 ms before the erase ends and let go after:
# (ms after the erase began, or before its end if negative; length; first or second button)
PLANNED_MIN_MS = 300
PLANNED = ((3, 60, 0), (90, 50, 0), (163, 60, 1), (-25, 60, 1))


def tap_script(taps, seed):
    """``[(down ms, up ms, button)]`` from 0."""
    rng = random.Random(seed)
    out = []
    t = 0
    for _ in range(taps):
        button = rng.randrange(BUTTONS)
        length = rng.randint(40, 80)
        out.append((t, t + length, button))
        t += length + rng.randint(20, 200)
    return out


def presses(records):
    """``[(now, button)]``: the PRESS events device/input.py gives on the records' masks."""
    from microrobots.device.input import PRESS, Buttons

    buttons = Buttons()
    if records:
        buttons.reset(records[0]["now"])
    out = []
    for r in records:
        buttons.poll(r["now"], r["mask"])
        e = buttons.next_event()
        while e >= 0:
            if e >> 3 == PRESS:
                out.append((r["now"], e & 7))
            e = buttons.next_event()
    return out


def lost_taps(script, start, seen, polls=None, handover_ms=HANDOVER_MS):
    """The taps of ``script`` (played from the board's now ``start``) that no PRESS in
    ``seen`` answers. Each button's presses answer its taps in order, one press a tap: a
    tap's press comes from a frame before its press (SLACK_MS: a record's now is its
    frame's start) to a frame before that button's next tap (or a second after the last
    one). ``polls`` (the frames' now): a tap's press may come later than that, up to
    ``handover_ms`` after the first frame after its release. A freeze holds every frame back:
    when a button is tapped twice inside one, both presses come after it, the first later
    than the second tap's press (rp2_pio's record gives them to the frames one change of a
    button a frame); without ``polls`` the first would be judged lost."""
    lost = []
    used = set()
    for k, (down, up, button) in enumerate(script):
        later = [d for d, _, b in script[k + 1:] if b == button]
        until = start + (later[0] if later else up + 1000) - SLACK_MS
        if polls:
            after = [t for t in polls if t > start + up]
            if after:
                until = max(until, after[0] + handover_ms)
        hit = [j for j, (t, b) in enumerate(seen)
               if b == button and start + down - SLACK_MS <= t < until and j not in used]
        if hit:
            used.add(hit[0])
        else:
            lost.append((down, up, button))
    return lost


def why_lost(tap, script, start, polls):
    """Why tap ``tap`` of ``script`` (played from ``start``) found no press, from the
    frames' times ``polls`` (the board's now at each, when it read the buttons): the
    previous tap of its button let go and this one pressed with no frame between (the
    two read as one hold, unless the firmware tells them apart), or the whole tap between
    two frames (the latch's case), or neither."""
    down, up, button = tap
    before = [u for d, u, b in script if b == button and d < down]

    def frame_in(a, b):
        return any(start + a < t <= start + b for t in polls)

    if before and not frame_in(before[-1], down):
        return "merged"  # let go and pressed again inside one frame
    if not frame_in(down, up):
        return "between frames"
    return "unexplained"


def tap_session(firmware, taps=200, seed=1, flash_times="typical", frozen=False,
                inside_erases=True, keep=False, circuitpython=None):
    """The session (see the module's docstring); ``keep``: the result's "session" is the
    BoardSession, still running (to read its files, reset it), and "boot_records" every
    record of its boot. ``circuitpython``: ``firmware`` is a CircuitPython image, booted
    with the firmware's drive (circuitpython.CircuitSession); the value is its Compiler
    for the ``.mpy`` install, or True for the source install; its presses are judged with
    CIRCUITPYTHON_HANDOVER_MS."""
    import time

    from .session import SWITCH_MS, BoardSession

    cpu0 = time.process_time()
    if circuitpython:
        from .circuitpython import CircuitSession

        compiled = None if circuitpython is True else circuitpython
        s = CircuitSession(firmware, compiled=compiled, flash_times=flash_times)
    else:
        s = BoardSession(firmware, frozen=frozen, flash_times=flash_times)
    if not s.boot():
        raise RuntimeError("the firmware did not start: %s" % s.pico.console[-300:])
    s.play([(0, 4, True), (60, 4, False)], s.now + 100)  # A: solo
    start = s.now + 100 + SWITCH_MS + 1500  # the dice rolled, the game on show
    script = tap_script(taps, seed)

    def press(b, down):  # one button's edge, the others as they are
        mask = s.pico.mask | 1 << b if down else s.pico.mask & ~(1 << b)
        s.pico.set_buttons(mask)

    for down, up, button in script:
        s.at(start + down, press, button, True)
        s.at(start + up, press, button, False)
    erases_before = len(s.pico.flash.erases()) if s.pico.flash else 0
    injected = []
    if inside_erases and s.pico.flash is not None:
        origin = s.board_ms(start)  # emulated ms at the script's start

        def free(first, lo, hi, taken=()):
            """A button the script (and the taps put in) leaves alone from ``lo`` to
            ``hi``, looked for from ``first`` on; None if every one is busy."""
            for k in range(BUTTONS):
                b = (first + k) % BUTTONS
                if b not in taken and all(up < lo or down > hi for down, up, bb
                                          in script + injected if bb == b):
                    return b
            return None

        def tap_inside(ms, busy):
            """A tap that begins and ends inside the erase just begun (the board frozen),
            on a button the script leaves alone around it; "planned": PLANNED's in a
            long one."""
            now = ms - origin
            if now > script[-1][1] + 2500:  # a save the taps put in made: no more
                return
            plan = [(3, min(60, busy - 8), 0)]
            first = free(len(injected), now - 150, now + 150)
            if first is None:
                return
            buttons = [first]
            if inside_erases == "planned" and busy >= PLANNED_MIN_MS:
                a = free(len(injected), now - 150, now + busy + 150)
                b = None if a is None else free(a + 1, now - 150, now + busy + 150, (a,))
                if b is not None:
                    plan, buttons = PLANNED, [a, b]
            for at, length, which in plan:
                at = at if at >= 0 else busy + at
                b = buttons[which]
                injected.append((now + at, now + at + length, b))
                s.pico.at_ms(ms + at, press, b, True)
                s.pico.at_ms(ms + at + length, press, b, False)

        s.pico.flash.on_erase = tap_inside
    end = start + script[-1][1] + 2500  # and the last save done
    cpu1, ms1 = time.process_time(), s.pico.ms
    s.run_to(end)
    handover = CIRCUITPYTHON_HANDOVER_MS if circuitpython else HANDOVER_MS
    while injected and start + injected[-1][1] + handover + 2 * FRAME_MS > end:
        # a tap put into a save that ended the session (CircuitPython's last save comes
        # later than MicroPython's): its presses are given after the freeze
        end = start + round(injected[-1][1]) + handover + 2 * FRAME_MS
        s.run_to(end)
    cpu_per_s = (time.process_time() - cpu1) / max(1e-9, (s.pico.ms - ms1) / 1000)
    records = [r for r in s.records if r["now"] >= start - 200]
    seen = presses(records)
    script = sorted(script + [(round(d), round(u), b) for d, u, b in injected])
    polls = [r["now"] for r in records]
    lost = lost_taps(script, start, seen, polls, handover)
    erases = s.pico.flash.erases()[erases_before:] if s.pico.flash else []
    saving = [r["step_us"] for r in records if r["saves"]]
    plain = [r["step_us"] for r in records if not r["saves"] and not r["app"] & 2]
    out = {
        "cpu_s": time.process_time() - cpu0, "cpu_per_emulated_s": cpu_per_s,
        "pio": pio_facts(s.pico.mcu),
        "taps": len(script), "inside_erases": len(injected), "lost": lost,
        "handover_ms": handover,
        "lost_why": [why_lost(tap, script, start, polls) for tap in lost],
        "presses": len(seen),
        "erases": len(erases), "busy_ms": sum(e[3] for e in s.pico.flash.log[erases_before:])
        if s.pico.flash else 0,
        "frames": len(records),
        "saving_frames": len(saving), "slowest_saving_us": max(saving) if saving else 0,
        "slowest_plain_us": max(plain) if plain else 0,
        "plain_over_10ms": sum(1 for u in plain if u > 10000),
        "late": sum(1 for r in records if r["step_us"] > FRAME_MS * 1000),
        "emulated_s": (end - start) / 1000, "flash_times": flash_times,
        "console": s.pico.console[-2000:],
        "script": script, "start": start, "seen": seen,
        "erase_times": [e[0] for e in erases],  # emulated ms; and in the board's now:
        "erase_times_now": [e[0] - s.board_ms(start) + start for e in erases],
    }
    if keep:
        out["session"] = s
        out["boot_records"] = s.boot_data(0)[0]
    return out


FDEBUG_RXSTALL = 1  # FDEBUG bit 0 (+ sm): a push found the RX FIFO full (sticky)


def pio_facts(mcu):
    """The state machines running on the board: ``[(pio, sm, words in its RX FIFO)]``;
    ``rx_stalled``, those ``[(pio, sm)]`` whose push found the RX FIFO full since the boot
    (FDEBUG.RXSTALL: rp2_pio's watcher samples nothing while stalled, a tap inside the
    stall is lost); and how often an idle jump wrote a machine's backlog off (rp2040py
    steps a state machine at most once per CPU instruction or idle jump: asleep between
    frames, the board's PIO clock stands nearly still in the model; a freeze is the
    bootrom's busy loop, instructions, where it runs at its rate)."""
    running, stalled, drops = [], [], 0
    for k, pio in enumerate(mcu.pio):
        drops += pio.backlog_drops
        running += [(k, i, m.rx_fifo.item_count) for i, m in enumerate(pio.machines)
                    if m.enabled]
        stalled += [(k, i) for i in range(4) if pio.fdebug >> i & FDEBUG_RXSTALL]
    return {"running": running, "rx_stalled": stalled, "backlog_drops": drops}
