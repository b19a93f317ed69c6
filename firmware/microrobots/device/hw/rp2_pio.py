"""The buttons watched by a PIO state machine, which runs on while the flash is erased.

A sector erase holds the CPU for 45 ms (400 ms at the datasheet's worst) with interrupts
off; a pin's interrupt then keeps one fall and one rise, and two taps of one button in
that time read as one. A PIO state machine does not stop: it samples the six pins about
every 1.6 ms (2.5 kHz, three instructions a sample) and records every change of their
levels in its RX FIFO (joined, 8 words), with a lock-out of about 20 ms after each
change while the contacts bounce (device/input.py's own). ``pressed_mask`` reads the
FIFO once a frame and gives the levels in the order they came (``Replay``).

A record is the pins' levels inverted (bit set: held) under a marker bit: SPAN + 1 bits,
SPAN the width of the window of GPIOs that holds the six (6 for GP10-15). While the CPU
reads the FIFO (fewer than 2 words in it) each change is pushed at once, a word of its
own; when it does not (a freeze), the records are packed, 4 to a word (autopush at 28
bits), so that the 8 words hold 26 changes or more: 13 taps inside one freeze. The
partly filled word is pushed when the FIFO has room again. A word holds whole records
only, the oldest in its top bits; a group without its marker is no record (the unused
top of a partly filled word, and the first one the program makes as it starts).

The state machine needs no CPU and no interrupt; it does not wake the board from
``lightsleep`` (the clocks stop): the rp2 backend arms the pins' interrupts for that.
"""

import time

import machine
import rp2

from ...compat import const

_FREQ_HZ = const(2500)  # a sample every 1.6 ms; clk_sys / 65536 is the slowest
_ROOM = const(2)  # a record is pushed at once while the FIFO holds fewer words than this
_WORD_BITS = const(30)  # a word under 2**30: a small int, read without an allocation
_QUEUE = const(64)  # levels read and not yet given (a frame reads at most 8 words)
_BOUNCE_MS = const(20)  # device/input.py's lock-out: a button changes once in this time


def _program(span):
    """The PIO program for a window of ``span`` pins (its assembler sees the PIO names,
    not this module's: ``span`` reaches it as a closure)."""
    group = span + 1
    per_word = _WORD_BITS // group

    @rp2.asm_pio(in_shiftdir=rp2.PIO.SHIFT_LEFT, out_shiftdir=rp2.PIO.SHIFT_RIGHT,
                 autopush=True, push_thresh=per_word * group, fifo_join=rp2.PIO.JOIN_RX)
    def watch():  # x: the levels sampled (inverted), y: those recorded last
        label("change")  # noqa: F821 (the assembler's names)
        mov(y, x)  # noqa: F821
        in_(x, group)  # noqa: F821 - marker (the inverted bit above the window) and levels
        mov(x, status)  # noqa: F821 - all ones while the RX FIFO has room (_ROOM)
        jmp(not_x, "debounce")  # noqa: F821 - the CPU is not reading: pack
        push(noblock)  # noqa: F821
        label("debounce")  # noqa: F821
        nop()[31]  # noqa: F821 - 32 + 14 + 5 cycles: 20 ms at 2.5 kHz
        jmp(not_x, "pending")[13]  # noqa: F821
        wrap_target()  # noqa: F821
        label("clean")  # noqa: F821 - the ISR empty
        mov(osr, pins)  # noqa: F821 - every pin from the window's first
        out(x, span)  # noqa: F821 - the window's only
        mov(x, invert(x))  # noqa: F821
        jmp(x_not_y, "change")  # noqa: F821
        wrap()  # noqa: F821
        label("pending")  # noqa: F821 - records in the ISR, not pushed
        mov(osr, pins)  # noqa: F821
        out(x, span)  # noqa: F821
        mov(x, invert(x))  # noqa: F821
        jmp(x_not_y, "change")  # noqa: F821
        mov(x, status)  # noqa: F821
        jmp(not_x, "pending")  # noqa: F821
        push(noblock)  # noqa: F821
        jmp("clean")  # noqa: F821

    # EXECCTRL's STATUS_SEL (RX level) and STATUS_N: asm_pio has no argument for them.
    # The program is a list whose fifth field from the end is EXECCTRL (MicroPython 1.22
    # to 1.28: the RP2350's third PIO added a field at the front).
    watch[-5] |= 1 << 4 | _ROOM
    return watch


def watcher(ids):
    """A ``Replay`` of the buttons on GPIOs ``ids`` (in BUTTON_NAMES order, active low,
    their pull-ups on) read by a PIO state machine; None when none is free."""
    base = min(ids)
    span = max(ids) - base + 1
    if span + 1 > _WORD_BITS:  # (GP0 and GP29: a record and its marker need 31 bits)
        return None
    freq = max(_FREQ_HZ, machine.freq() // 65536 + 1)
    prog = _program(span)
    for sm_id in (4, 5, 6, 7, 0, 1, 2, 3):  # PIO1 first: a Pico W's radio takes PIO0
        try:
            sm = rp2.StateMachine(sm_id, prog, freq=freq, in_base=machine.Pin(base))
        except (ValueError, OSError):  # claimed, or no room for the program
            continue
        sm.active(1)
        return Replay(sm, [i - base for i in ids], span + 1)
    return None


class Replay:
    """The levels the state machine recorded, given to the frames in their order.

    ``mask(now)`` (once a frame) drains the FIFO into a queue and gives as many of the
    queued levels as it can without changing one button twice, or a button that changed
    less than 20 ms ago (device/input.py would take that for a bounce): a tap inside a
    freeze is then held at one frame and let go at the next, and two taps of one button
    are two presses. ``now`` must be the frame's own now as input.py gets it (or moving
    as it does): counted in a reading of the ticks a moment later, which may be 1 ms on,
    a change came 20 ms after the last by this clock and 19 by input.py's, which took it
    for a bounce; its opposite, given at the next frame, then hid it (issue 31: a tap
    lost at worst-case flash times). Allocates nothing."""

    def __init__(self, sm, offsets, group):
        self._sm = sm
        self._offsets = bytes(offsets)  # bit of the window for each button
        self._plain = self._offsets == bytes(range(6))
        self._group = group
        self._per_word = _WORD_BITS // group
        self._marker = 1 << (group - 1)
        self._gmask = (1 << group) - 1
        self._queue = bytearray(_QUEUE)
        self._head = 0
        self._count = 0
        self.lost = 0  # levels dropped with the queue full (never, read once a frame)
        self._shown = 0
        self._changed = [0] * 6  # ticks_ms at which mask() last changed each button

    def first(self, now, timeout_ms=50):
        """Wait for the state machine's first record (the levels at its start: a button
        held at power-on); its buttons count as changed long ago."""
        for i in range(6):
            self._changed[i] = time.ticks_add(now, -_BOUNCE_MS)
        start = time.ticks_ms()
        while not self._sm.rx_fifo() and time.ticks_diff(time.ticks_ms(), start) < timeout_ms:
            pass
        self._drain()
        if self._count:  # the levels at the start: as they are, no change to space out
            self._shown = self._queue[(self._head + self._count - 1) % _QUEUE]
            self._head = self._count = 0
        return self._shown

    def _drain(self):
        sm = self._sm
        group = self._group
        while sm.rx_fifo():
            word = sm.get()
            shift = (self._per_word - 1) * group
            while shift >= 0:
                g = word >> shift & self._gmask
                if g & self._marker:
                    self._put(self._levels(g))
                shift -= group

    def _levels(self, g):
        if self._plain:
            return g & 0x3F
        mask = 0
        offsets = self._offsets
        for i in range(6):
            mask |= (g >> offsets[i] & 1) << i
        return mask

    def _put(self, levels):
        if self._count == _QUEUE:
            self.lost += 1
            return
        self._queue[(self._head + self._count) % _QUEUE] = levels
        self._count += 1

    def held(self):
        """Whether a button is held, as the state machine last saw (no frame's worth)."""
        self._drain()
        if self._count:
            return self._queue[(self._head + self._count - 1) % _QUEUE] != 0
        return self._shown != 0

    def mask(self, now):
        self._drain()
        mask = self._shown
        busy = 0
        changed = self._changed
        for i in range(6):
            if time.ticks_diff(now, changed[i]) < _BOUNCE_MS:
                busy |= 1 << i
        done = 0
        while self._count:
            levels = self._queue[self._head]
            diff = levels ^ mask
            if diff & (busy | done):
                break
            done |= diff
            mask = levels
            self._head = (self._head + 1) % _QUEUE
            self._count -= 1
        if done:
            for i in range(6):
                if done >> i & 1:
                    changed[i] = now
        self._shown = mask
        return mask
