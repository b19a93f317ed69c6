"""The drawing's whole-frame loops: a frame dimmed, the board in its die colours, the
celebration's rings (frame.py, animations.py).

Viper (native machine code) on MicroPython; frame_plain.py is this file without its
``@micropython.viper`` lines, for runtimes with no native emitter (CircuitPython, the
WebAssembly port) and CPython: frame.py picks one at import (compat.NATIVE).
host_tests/rules/test_kernels.py keeps the twins equal.
"""

from .compat import micropython, ptr8  # noqa: F401 - the viper decorator and its types


@micropython.viper
def _dim(frame: ptr8, level: int):
    i = 0
    while i < 108:
        frame[i] = int(frame[i]) * level // 255
        i += 1


@micropython.viper
def _board(frame: ptr8, colours: ptr8, pal: ptr8, level: int):
    i = 0
    while i < 36:
        c = int(colours[i]) * 3
        j = i * 3
        frame[j] = int(pal[c]) * level // 255
        frame[j + 1] = int(pal[c + 1]) * level // 255
        frame[j + 2] = int(pal[c + 2]) * level // 255
        i += 1


@micropython.viper
def _rings(frame: ptr8, cell: int, step: int, table: ptr8):
    r0 = cell // 6
    c0 = cell % 6
    i = 0
    while i < 36:
        dr = i // 6 - r0
        dc = i % 6 - c0
        if dr < 0:
            dr = 0 - dr
        if dc < 0:
            dc = 0 - dc
        d = dc if dc > dr else dr
        phase = (step + 6 - d) % 6
        if phase < 2:
            level = 255 if phase == 0 else 60
            k = (1 + (step + d) % 7) * 3
            j = i * 3
            frame[j] = int(table[k]) * level // 255
            frame[j + 1] = int(table[k + 1]) * level // 255
            frame[j + 2] = int(table[k + 2]) * level // 255
        i += 1
