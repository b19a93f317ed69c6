"""The drawing's whole-frame loops: a frame dimmed, the board in its die colours, the
celebration's rings (frame.py, animations.py).

frame_viper.py is these loops as viper (native machine code) for MicroPython; this is
the same behaviour for runtimes with no native emitter (CircuitPython, the WebAssembly
port) and CPython: frame.py picks one at import (compat.NATIVE). Bytecode costs per
operation (one pass over a frame's 36 cells or 108 channels is about 2 ms on the
emulated RP2040 with CircuitPython), so here what repeats is kept instead of redone:
``_board`` keeps the last board it drew and copies it (one copy in C) while its
colours, palette and level hold, which most frames of a game do (modes.draw_round draws
the board under the marks every frame); ``_dim`` keeps its table of ``v * level //
255`` for the last level, one lookup a channel; ``_rings`` keeps the cells the last
step's rings light and their colours (a step lasts 110 ms, five or six frames). Nothing
is allocated.
host_tests/rules/test_kernels.py keeps the twins equal.
"""

from .compat import micropython, ptr8  # noqa: F401 - the viper decorator and its types

_dim_table = bytearray(256)  # v * _dim_level // 255, for every v
_dim_level = -1
_board_frame = bytearray(108)  # the last board drawn, for these colours, palette, level:
_board_colours = bytearray(36)
_board_pal = None  # a palette.py palette: bytes, never changed (held by identity)
_board_level = -1
_rings_cell = -1  # the rings last drawn: from this cell, at this step, in this table
_rings_step = 0
_rings_table = None
_rings_n = 0  # they light this many cells:
_rings_at = bytearray(36)  # which, in order
_rings_rgb = bytearray(108)  # in these colours


def _dim(frame: ptr8, level: int):
    global _dim_level
    table = _dim_table
    if level != _dim_level:
        for v in range(256):
            table[v] = v * level // 255
        _dim_level = level
    for i in range(108):
        frame[i] = table[frame[i]]


def _board(frame: ptr8, colours: ptr8, pal: ptr8, level: int):
    global _board_pal, _board_level
    if level == _board_level and pal is _board_pal and colours == _board_colours:
        frame[:] = _board_frame
        return
    j = 0
    for i in range(36):
        c = colours[i] * 3
        frame[j] = pal[c] * level // 255
        frame[j + 1] = pal[c + 1] * level // 255
        frame[j + 2] = pal[c + 2] * level // 255
        j += 3
    if isinstance(pal, bytes) and len(colours) == 36:  # else drawn afresh every time
        _board_frame[:] = frame
        _board_colours[:] = colours
        _board_pal = pal
        _board_level = level


def _rings(frame: ptr8, cell: int, step: int, table: ptr8):
    global _rings_cell, _rings_step, _rings_table, _rings_n
    at = _rings_at
    rgb = _rings_rgb
    if cell != _rings_cell or step != _rings_step or table is not _rings_table:
        r0 = cell // 6
        c0 = cell % 6
        n = 0
        for i in range(36):
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
                j = n * 3
                at[n] = i
                rgb[j] = table[k] * level // 255
                rgb[j + 1] = table[k + 1] * level // 255
                rgb[j + 2] = table[k + 2] * level // 255
                n += 1
        _rings_n = n
        cacheable = isinstance(table, bytes)
        _rings_cell = cell if cacheable else -1
        _rings_step = step
        _rings_table = table if cacheable else None
    j = 0
    for k in range(_rings_n):
        i = at[k] * 3
        frame[i] = rgb[j]
        frame[i + 1] = rgb[j + 1]
        frame[i + 2] = rgb[j + 2]
        j += 3
