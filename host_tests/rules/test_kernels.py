"""The whole-frame kernels (frame.py, display.py) against the per-cell Python they replace.

The kernels are viper functions beside their owners (NAME_viper.py) with a plain twin
(NAME_plain.py, the same file without the decorators; the display's and the drawing's,
which keep work in C or between calls, are checked against their viper kernels' code
instead) where there is no native emitter; these reference
implementations are the code they replaced, cell by cell. Under CPython
the plain twins run; inside the micropython interpreter the viper machine code.
"""

import json
import os

from hypothesis import given
from hypothesis import strategies as st

from microrobots import animations as anim
from microrobots import frame as F
from microrobots import palette as P
from microrobots.modes.classroom import Wave

import kernels_mpy
from mpy import run_file

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels_mpy.py")

frames = st.binary(min_size=108, max_size=108).map(bytearray)
levels = st.integers(0, 255)


def ref_board(frame, colours, pal, level):
    for i in range(36):
        c = colours[i] * 3
        F.put_scaled(frame, i, pal[c], pal[c + 1], pal[c + 2], level)


def ref_wave(frame, dist, layer):
    for i in range(36):
        d = dist[i]
        if d <= layer:
            k = d if d < 8 else 7
            F.put_entry(frame, i, P.WAVE, k, 255 if d == layer else 110)


def ref_rings(frame, cell, wave):
    r0, c0 = cell // 6, cell % 6
    for i in range(36):
        d = max(abs(i // 6 - r0), abs(i % 6 - c0))
        if (wave - d) % 6 == 0:
            F.put_entry(frame, i, P.WAVE, 1 + (wave + d) % 7)
        elif (wave - d) % 6 == 1:
            F.put_entry(frame, i, P.WAVE, 1 + (wave + d) % 7, 60)


@given(frames, st.lists(st.integers(0, 5), min_size=36, max_size=36), levels,
       st.sampled_from((P.palette(False), P.palette(True))))
def test_board_is_every_cell_put_scaled(frame, colours, level, pal):
    want = bytearray(frame)
    ref_board(want, colours, pal, level)
    F._board(frame, bytearray(colours), pal, level)
    assert frame == want


@given(frames, levels)
def test_dim_and_fill(frame, level):
    want = bytearray(v * level // 255 for v in frame)
    F.dim(frame, level)
    assert frame == want
    F.fill(frame, 1, 2, level)
    assert frame == bytearray((1, 2, level) * 36)


@given(frames, st.lists(st.sampled_from(list(range(12)) + [255]), min_size=36, max_size=36),
       st.integers(0, 12))
def test_wave_is_every_reached_cell_in_its_layer_colour(frame, dist, layer):
    want = bytearray(frame)
    ref_wave(want, dist, layer)
    w = Wave()
    w.start(0, bytearray(dist), 0)
    w.layer = layer
    w.render(0, frame)
    assert frame == want


@given(frames, st.integers(0, 35), st.integers(-30, 40))
def test_rings_are_the_celebration_cell_by_cell(frame, cell, wave):
    want = bytearray(frame)
    ref_rings(want, cell, wave)
    anim._rings(frame, cell, wave, P.WAVE)
    assert frame == want


def test_kernels_as_viper_inside_micropython_match_and_allocate_nothing():
    # Seeded pseudo-random frames (kernels_mpy.frames); the same inputs drawn by the
    # reference under CPython.
    board_frames, allocated, native = json.loads(
        run_file(SCRIPT, heap="1m").strip().splitlines()[-1])
    assert allocated == 0
    assert native  # the viper twins ran

    def reference(fr, col, dist, level, layer, cell, wave):
        ref_board(fr, col, P.DIE, level)
        ref_wave(fr, dist, layer)
        ref_rings(fr, cell, wave)
        for i in range(108):
            fr[i] = fr[i] * level // 255

    assert board_frames == kernels_mpy.frames(reference)


TWINS = ("rules/solver",)  # each kernel's owner: NAME_viper.py (display, frame: below)


def test_each_plain_twin_is_its_viper_module_without_the_decorators():
    """The plain Python twin (CircuitPython, the WebAssembly port, CPython) runs the very
    code the viper module runs on a Pico: the same file, its decorator lines left out."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "firmware",
                        "microrobots")
    for owner in TWINS:
        with open(os.path.join(root, owner + "_viper.py")) as f:
            viper = f.read()
        with open(os.path.join(root, owner + "_plain.py")) as f:
            plain = f.read()
        assert viper.count("@micropython.viper\n") >= 1, owner
        want = "".join(line for line in viper.splitlines(True)
                       if line.strip() != "@micropython.viper")
        assert plain == want, "%s_plain.py differs from %s_viper.py without its decorators" % (
            owner, owner)


def test_the_owners_pick_the_plain_twins_under_cpython():
    from microrobots import compat
    from microrobots.device import display
    from microrobots.rules import solver

    assert not compat.NATIVE
    assert solver._bfs.__module__ == "microrobots.rules.solver_plain"
    assert display._show.__module__ == "microrobots.device.display_plain"
    assert F._board.__module__ == anim._rings.__module__ == "microrobots.frame_plain"


@given(frames, st.binary(min_size=256, max_size=256), st.binary(min_size=108, max_size=108),
       st.integers(0, 108 * 255 + 1), st.booleans(), st.booleans())
def test_the_displays_plain_kernel_does_what_its_viper_kernel_does(frame, lut, written, cap,
                                                                     fresh, same):
    """display_plain.py is not the viper file without its decorators: it leaves the sum,
    the "nothing changed" test and the copy to bytes operations in C, and fills the LED
    buffer in the lookup's pass. Under CPython the viper module's decorator is a no-op, so
    its code runs as Python: from any state a Display can be in (the LED buffer holding
    ``written`` in wiring order, the panel's other LEDs dark), the two must leave the same
    bytes in every buffer and return the same."""
    from microrobots.device import display_plain, display_viper

    dest = bytearray(range(191, 83, -1))  # wired backwards, the first 84 LEDs dark
    if same:  # the frame gives exactly what was last written
        written = bytes(lut[v] for v in frame)
    shown = bytearray(192)
    for i in range(108):
        shown[dest[i]] = written[i]
    results = []
    for kernel in (display_viper._show, display_plain._show):
        nxt, done, buf = bytearray(108), bytearray(written), bytearray(shown)
        ret = kernel(frame, lut, nxt, done, buf, dest, cap, 1 if fresh else 0)
        results.append((ret, done, buf, nxt))
    assert results[0] == results[1]


_PALETTES = (P.palette(False), P.palette(True))


@given(st.lists(st.tuples(st.sampled_from(("board", "dim", "rings")), frames,
                          st.sampled_from((0, 1, 2)), st.sampled_from((0, 40, 70, 255)),
                          st.sampled_from(_PALETTES), st.integers(0, 35), st.integers(-8, 40)),
                min_size=1, max_size=8))
def test_the_drawings_plain_kernels_do_what_their_viper_kernels_do_call_after_call(calls):
    """frame_plain.py keeps the last board drawn (copied while its colours, palette and
    level hold) and the last dimming table: call after call, with the layout's colours
    changed in place between calls, each kernel leaves what the viper code (a no-op
    decorator under CPython: its code runs as Python) leaves."""
    from microrobots import frame_plain, frame_viper

    colours = bytearray(36)  # one layout's colours, as Layout.colours: changed in place
    for kind, frame, change, level, pal, cell, step in calls:
        if change:
            colours[(cell * 7) % 36] = (colours[(cell * 7) % 36] + change) % 6
        want, got = bytearray(frame), bytearray(frame)
        if kind == "board":
            frame_viper._board(want, colours, pal, level)
            frame_plain._board(got, colours, pal, level)
        elif kind == "dim":
            frame_viper._dim(want, level)
            frame_plain._dim(got, level)
        else:
            frame_viper._rings(want, cell, step, P.WAVE)
            frame_plain._rings(got, cell, step, P.WAVE)
        assert got == want, kind
