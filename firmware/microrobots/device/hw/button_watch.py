"""The buttons' PIO watcher as both ports run it: its parameters and its records read.

rp2_pio.py writes the program with MicroPython's assembler (``rp2.asm_pio``) and explains
it line by line; button_program.py gives the same instructions as machine words for
CircuitPython's ``rp2pio``. ``Replay`` reads either port's state machine: a record is the
pins' levels inverted (bit set: held) under a marker bit, SPAN + 1 bits, packed up to 4
to a word while the CPU is not reading (a flash erase's freeze), the oldest in the top
bits; a group without its marker is no record. Nothing here imports a port's modules.
"""

from ...compat import const
from ..recorded import RecordedLevels

FREQ_HZ = const(2500)  # a sample every 1.6 ms; clk_sys / 65536 is the slowest
ROOM = const(2)  # a record is pushed at once while the RX FIFO holds fewer words than this
WORD_BITS = const(30)  # a word under 2**30: a small int, read without an allocation


def group_bits(span):
    """Bits of a record for a window of ``span`` pins: the levels and their marker."""
    return span + 1


def push_threshold(span):
    """Autopush after this many bits: the whole records a word holds."""
    return WORD_BITS // group_bits(span) * group_bits(span)


class Replay:
    """The levels a state machine recorded, given to the frames in their order.

    ``sm``: the port's state machine, or anything with its ``rx_fifo()`` (words waiting)
    and ``get()`` (the oldest). ``mask(now)`` (once a frame) drains the FIFO into a
    ``RecordedLevels`` (device/recorded.py), which gives the frames as many of the
    changes as input.py can take: a tap inside a freeze is held at one frame and let go
    at the next, and two taps of one button are two presses. ``ticks_diff``, ``ticks_ms``:
    the board's clock. Allocates nothing."""

    def __init__(self, sm, offsets, span, ticks_ms, ticks_diff):
        self.sm = sm  # (CircuitPython's backend frees its pins for a sleep's alarms)
        self._offsets = bytes(offsets)  # bit of the window for each button
        self._plain = self._offsets == bytes(range(6))
        group = group_bits(span)
        self._group = group
        self._per_word = WORD_BITS // group
        self._marker = 1 << (group - 1)
        self._gmask = (1 << group) - 1
        self._ticks_ms = ticks_ms
        self._diff = ticks_diff
        self.levels = RecordedLevels(ticks_diff)

    def first(self, now, timeout_ms=50):
        """Wait for the state machine's first record (the levels at its start: a button
        held at power-on; none comes with none held); its buttons count as changed long
        ago."""
        start = self._ticks_ms()
        while not self.sm.rx_fifo() and self._diff(self._ticks_ms(), start) < timeout_ms:
            pass
        self.levels.reset(now, 0)
        self._drain()
        self.levels.reset(now, self.levels.latest())  # as they are, no change to space out
        return self.levels.latest()

    def _drain(self):
        sm = self.sm
        group = self._group
        while sm.rx_fifo():
            word = sm.get()
            shift = (self._per_word - 1) * group
            while shift >= 0:
                g = word >> shift & self._gmask
                if g & self._marker:
                    self.levels.put(self._levels(g))
                shift -= group

    def _levels(self, g):
        if self._plain:
            return g & 0x3F
        mask = 0
        offsets = self._offsets
        for i in range(6):
            mask |= (g >> offsets[i] & 1) << i
        return mask

    def mask(self, now):
        self._drain()
        return self.levels.mask(now)
