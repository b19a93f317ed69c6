"""The whole-frame kernels inside MicroPython (viper machine code), run by
rules/test_kernels.py; ``frames`` is shared with its CPython side, which draws the same
seeded inputs with the per-cell reference instead. ``main`` prints the kernels' frames and
the bytes a loop of them allocates."""

import gc
import json

from microrobots import animations as anim
from microrobots import frame as F
from microrobots import palette as P
from microrobots.modes.classroom import Wave


class Lcg:
    """Seeded pseudo-random numbers, the same on both runtimes."""

    def __init__(self, seed=12345):
        self.x = seed

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return self.x % n


def frames(draw, count=40):
    """``count`` frames, each random pixels drawn over by ``draw(frame, colours, dist,
    level, layer, cell, wave)`` (a board at a level, a wave's layer, rings from a cell)."""
    rnd = Lcg().below
    fr = bytearray(108)
    col = bytearray(36)
    dist = bytearray(36)
    out = []
    for _ in range(count):
        for i in range(108):
            fr[i] = rnd(256)
        for i in range(36):
            col[i] = rnd(6)
            dist[i] = rnd(13) if rnd(5) else 255
        level = rnd(256)
        layer = rnd(12)
        cell = rnd(36)
        draw(fr, col, dist, level, layer, cell, rnd(40) - 10)
        out.append(list(fr))
    return out


_wave = Wave()


def draw_with_kernels(fr, col, dist, level, layer, cell, wave):
    F._board(fr, col, P.DIE, level)
    _wave.start(0, dist, 0)
    _wave.layer = layer
    _wave.render(0, fr)
    anim._rings(fr, cell, wave, P.WAVE)
    F.dim(fr, level)


def loop(fr, col):
    for t in range(20):
        F._board(fr, col, P.DIE, 100)
        _wave.layer = 3
        _wave.render(0, fr)
        anim._rings(fr, 14, t, P.WAVE)
        F.fill(fr, 0, 0, 0)


def main():
    out = frames(draw_with_kernels)
    fr = bytearray(108)
    col = bytearray(i % 6 for i in range(36))
    _wave.start(0, bytearray(i % 12 for i in range(36)), 0)
    loop(fr, col)
    gc.collect()
    a = gc.mem_alloc()
    loop(fr, col)
    allocated = gc.mem_alloc() - a
    from microrobots import compat

    print(json.dumps([out, allocated, compat.NATIVE]))
