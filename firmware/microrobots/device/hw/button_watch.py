"""The buttons' PIO watcher as both ports run it: its program's words and its records read.

rp2_pio.py writes the program with MicroPython's assembler (``rp2.asm_pio``) and explains
it line by line; CircuitPython has no assembler built in, so ``program(span)`` gives the
same instructions as machine words for ``rp2pio.StateMachine`` (a host test assembles
rp2_pio's text with MicroPython's own rp2.py and compares). ``Replay`` reads either
port's state machine: a record is the pins' levels inverted (bit set: held) under a
marker bit, SPAN + 1 bits, packed up to 4 to a word while the CPU is not reading (a
flash erase's freeze), the oldest in the top bits; a group without its marker is no
record. Nothing here imports a port's modules.
"""

from ..recorded import RecordedLevels

FREQ_HZ = 2500  # a sample every 1.6 ms; clk_sys / 65536 is the slowest
ROOM = 2  # a record is pushed at once while the RX FIFO holds fewer words than this
WORD_BITS = 30  # a word under 2**30: a small int, read without an allocation

# Instruction fields (RP2040 datasheet, 3.4): the major opcode in bits 15-13, the delay
# in 12-8, then two fields of 3 bits (or 2 and 3 for MOV's operation and source).
_JMP, _IN, _OUT, _PUSH, _MOV = 0x0000, 0x4000, 0x6000, 0x8000, 0xA000
_NOT_X, _X_NOT_Y = 1, 5  # JMP's conditions
_PINS, _X, _Y, _STATUS, _OSR = 0, 1, 2, 5, 7  # MOV's sources and destinations
_INVERT = 1  # MOV's operation


def _mov(dest, src, op=0, delay=0):
    return _MOV | delay << 8 | dest << 5 | op << 3 | src


def _jmp(cond, address, delay=0):
    return _JMP | delay << 8 | cond << 5 | address


def group_bits(span):
    """Bits of a record for a window of ``span`` pins: the levels and their marker."""
    return span + 1


def push_threshold(span):
    """Autopush after this many bits: the whole records a word holds."""
    return WORD_BITS // group_bits(span) * group_bits(span)


def program(span):
    """``(words, wrap_target, wrap)``: rp2_pio's ``_program(span)`` as machine words."""
    group = group_bits(span)
    change, debounce, clean, pending = 0, 5, 7, 11  # the labels' addresses
    words = (
        _mov(_Y, _X),  # change: y = the levels now recorded
        _IN | _X << 5 | group,  # in x, group: marker and levels
        _mov(_X, _STATUS),  # all ones while the RX FIFO has room
        _jmp(_NOT_X, debounce),  # the CPU is not reading: pack
        _PUSH,  # push noblock
        _mov(_Y, _Y, delay=31),  # debounce: nop [31]
        _jmp(_NOT_X, pending, delay=13),
        _mov(_OSR, _PINS),  # clean (wrap target): the ISR empty
        _OUT | _X << 5 | span,  # out x, span: the window's pins only
        _mov(_X, _X, _INVERT),
        _jmp(_X_NOT_Y, change),  # (wrap)
        _mov(_OSR, _PINS),  # pending: records in the ISR, not pushed
        _OUT | _X << 5 | span,
        _mov(_X, _X, _INVERT),
        _jmp(_X_NOT_Y, change),
        _mov(_X, _STATUS),
        _jmp(_NOT_X, pending),
        _PUSH,
        _jmp(0, clean),
    )
    return words, clean, pending - 1


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
