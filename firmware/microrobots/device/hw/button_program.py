"""rp2_pio.py's button watcher as machine words, for CircuitPython's ``rp2pio``.

CircuitPython has no PIO assembler built in, so ``program(span)`` encodes the program
rp2_pio.py writes with MicroPython's ``rp2.asm_pio`` (explained there, line by line); a
host test assembles that text with MicroPython's own rp2.py and compares the words. Only
CircuitPython's backend imports this module.
"""

from .button_watch import group_bits

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
