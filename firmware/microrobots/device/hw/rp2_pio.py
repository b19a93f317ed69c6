"""The buttons watched by a PIO state machine, which runs on while the flash is erased.

A sector erase holds the CPU for 45 ms (400 ms at the datasheet's worst) with interrupts
off; a pin's interrupt then keeps one fall and one rise, and two taps of one button in
that time read as one. A PIO state machine does not stop: it samples the six pins about
every 1.6 ms (2.5 kHz, three instructions a sample) and records every change of their
levels in its RX FIFO (joined, 8 words), with a lock-out of about 20 ms after each
change while the contacts bounce (device/input.py's own). ``pressed_mask`` reads the
FIFO once a frame and gives the levels in the order they came (button_watch.py's
``Replay``, which CircuitPython's backend shares, running this program as
button_program.py's machine words).

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

from .button_watch import FREQ_HZ, ROOM, WORD_BITS, Replay, group_bits, push_threshold


def _program(span):
    """The PIO program for a window of ``span`` pins (its assembler sees the PIO names,
    not this module's: ``span`` reaches it as a closure)."""
    group = group_bits(span)

    @rp2.asm_pio(in_shiftdir=rp2.PIO.SHIFT_LEFT, out_shiftdir=rp2.PIO.SHIFT_RIGHT,
                 autopush=True, push_thresh=push_threshold(span), fifo_join=rp2.PIO.JOIN_RX)
    def watch():  # x: the levels sampled (inverted), y: those recorded last
        label("change")  # noqa: F821 (the assembler's names)
        mov(y, x)  # noqa: F821
        in_(x, group)  # noqa: F821 - marker (the inverted bit above the window) and levels
        mov(x, status)  # noqa: F821 - all ones while the RX FIFO has room (ROOM)
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
    watch[-5] |= 1 << 4 | ROOM
    return watch


def watcher(ids):
    """A ``Replay`` of the buttons on GPIOs ``ids`` (in BUTTON_NAMES order, active low,
    their pull-ups on) read by a PIO state machine; None when none is free."""
    base = min(ids)
    span = max(ids) - base + 1
    if group_bits(span) > WORD_BITS:  # (GP0 and GP29: a record and its marker need 31 bits)
        return None
    freq = max(FREQ_HZ, machine.freq() // 65536 + 1)
    prog = _program(span)
    for sm_id in (4, 5, 6, 7, 0, 1, 2, 3):  # PIO1 first: a Pico W's radio takes PIO0
        try:
            sm = rp2.StateMachine(sm_id, prog, freq=freq, in_base=machine.Pin(base))
        except (ValueError, OSError):  # claimed, or no room for the program
            continue
        sm.active(1)
        return Replay(sm, [i - base for i in ids], span, time.ticks_ms, time.ticks_diff)
    return None
