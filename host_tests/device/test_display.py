"""display.py: wiring maps, gamma, brightness, the power cap, writing only on change."""

import itertools
import json
import os

import display_mpy
import mpy
import pytest
from hypothesis import given
from hypothesis import strategies as st
from microrobots.device import config as cfg
from microrobots.device.display import _BRIGHTNESS_LEVELS as BRIGHTNESS_LEVELS
from microrobots.device.display import Display, gamma_table, led_map

# display_mpy.py (beside this file): the same frames inside MicroPython
SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "display_mpy.py")


def make_config(**over):
    text = json.dumps(over)
    return cfg.load(text)


def reference_map(config):
    """Walk the wire, lay LEDs on a 2D matrix, turn the logical grid: cell -> LED index."""
    size = 8 if config["matrix"] == "panel8x8" else 6
    # 1. Physical matrix: which LED sits at (y, x), row 0 at the top, walking the wire.
    matrix = [[None] * size for _ in range(size)]
    rows = list(range(size))
    cols = list(range(size))
    if config["origin"].startswith("bottom"):
        rows.reverse()
    if config["origin"].endswith("right"):
        cols.reverse()
    index = 0
    for n, y in enumerate(rows):
        line = cols if (n % 2 == 0 or config["order"] == "progressive") else cols[::-1]
        for x in line:
            matrix[y][x] = index
            index += 1
    # 2. The 6x6 part of it that shows the grid.
    c0, r0 = config["window"] if size == 8 else (0, 0)
    area = [row[c0:c0 + 6] for row in matrix[r0:r0 + 6]]
    # 3. The grid turned clockwise lands on that area: turn the area back counter-clockwise.
    for _ in range(config["rotation"] // 90):
        area = [list(r) for r in zip(*area)][::-1]  # one counter-clockwise turn
    return [area[cell // 6][cell % 6] for cell in range(36)]


ALL_WIRINGS = [
    dict(matrix=m, order=o, origin=g, rotation=r, **({"window": list(w)} if m == "panel8x8" else {}))
    for m in ("strip", "panel8x8")
    for o in ("serpentine", "progressive")
    for g in ("top-left", "top-right", "bottom-left", "bottom-right")
    for r in (0, 90, 180, 270)
    for w in (itertools.product(range(3), range(3)) if m == "panel8x8" else [(1, 1)])
]


@pytest.mark.parametrize("wiring", ALL_WIRINGS, ids=lambda w: "-".join(str(v) for v in w.values()))
def test_led_map_matches_the_wire_walk(wiring):
    config = make_config(**wiring)
    leds = led_map(config)
    assert leds == reference_map(config)
    assert len(set(leds)) == 36 and all(0 <= i < config["led_count"] for i in leds)


def test_default_strip_is_serpentine_from_the_top_left():
    assert led_map(cfg.defaults())[:13] == [0, 1, 2, 3, 4, 5, 11, 10, 9, 8, 7, 6, 12]


def test_rotation_90_puts_the_top_left_cell_at_the_top_right():
    leds = led_map(make_config(order="progressive", rotation=90))
    assert leds[0] == 5 and leds[5] == 35 and leds[30] == 0


def test_panel_window_default_starts_at_led_9():
    leds = led_map(make_config(matrix="panel8x8", order="progressive"))
    assert leds[0] == 9 and leds[5] == 14 and leds[6] == 17 and leds[35] == 54


def test_gamma_table_shape():
    g = gamma_table()
    assert len(g) == 256 and g[0] == 0 and g[255] == 255
    assert all(g[v] >= 1 for v in range(1, 256))
    assert all(g[v] <= g[v + 1] for v in range(255))
    assert 25 <= g[128] <= 45  # half the design value is about a sixth of the light
    assert list(gamma_table(1.0)) == list(range(256))


def test_gamma_table_is_the_formula_in_double_precision():
    # The firmware keeps the table as bytes so that a Pico's single-precision floats
    # cannot round an entry differently from the host (the emulated board showed it).
    formula = [0] + [max(1, int(255 * (v / 255) ** 2.6 + 0.5)) for v in range(1, 256)]
    assert list(gamma_table()) == formula
    assert list(gamma_table(2.2)) != formula


def frame_of(*cells):
    frame = bytearray(108)
    for cell, (r, g, b) in cells:
        frame[3 * cell:3 * cell + 3] = bytes((r, g, b))
    return frame


def test_writes_only_when_the_output_changes():
    writes = []
    display = Display(cfg.defaults(), write=lambda buf: writes.append(bytes(buf)))
    frame = frame_of((0, (255, 0, 0)))
    assert display.show(frame) and len(writes) == 1
    assert not display.show(frame) and len(writes) == 1
    assert not display.show(bytearray(frame)) and len(writes) == 1
    frame[1] = 1  # a tiny change still shows
    assert display.show(frame) and len(writes) == 2
    display.set_brightness(2)
    assert display.show(frame) and len(writes) == 3
    assert display.writes == 3


def test_first_show_writes_even_a_dark_frame():
    writes = []
    Display(cfg.defaults(), write=writes.append).show(bytearray(108))
    assert len(writes) == 1


def test_buffer_follows_wiring_and_color_order():
    config = make_config(matrix="panel8x8", color_order="GRB", rotation=180)
    display = Display(config, brightness=8, gamma=1.0)
    frame = frame_of((0, (10, 20, 30)), (35, (40, 50, 60)))
    display.show(frame)
    leds = led_map(config)
    buf = display.buf
    assert len(buf) == 192
    assert buf[3 * leds[0]:3 * leds[0] + 3] == bytes((20, 10, 30))  # G, R, B on the wire
    assert buf[3 * leds[35]:3 * leds[35] + 3] == bytes((50, 40, 60))
    assert sum(buf) == 210  # every other LED, inside the window or not, is dark
    assert display.written[0:3] == bytes((10, 20, 30)) and display.written[105:108] == bytes((40, 50, 60))


def test_brightness_levels_are_monotonic_and_full_is_pure_gamma():
    frame = bytearray(range(108))
    frame[107] = 255
    previous = None
    for level in range(1, BRIGHTNESS_LEVELS + 1):
        display = Display(make_config(brightness_cap=65535), brightness=level)
        display.show(frame)
        if previous is not None:
            assert all(a >= b for a, b in zip(display.written, previous))
            assert sum(display.written) > sum(previous)
        previous = bytes(display.written)
    g = gamma_table()
    assert previous == bytes(g[v] for v in frame)
    display.set_brightness(99)
    assert display.brightness == BRIGHTNESS_LEVELS
    display.set_brightness(-3)
    assert display.brightness == 1


def test_full_white_is_capped_to_the_budget():
    display = Display(cfg.defaults(), brightness=8)
    display.show(bytearray([255] * 108))
    assert display.capped
    assert display.total == sum(display.written) <= 5900
    assert len(set(display.written)) == 1  # scaled evenly: still white
    assert display.total >= 5900 - 108  # and not darker than needed


@given(st.binary(min_size=108, max_size=108), st.integers(1, 8), st.integers(1, 9000))
def test_cap_holds_for_every_frame(data, level, cap):
    display = Display(make_config(brightness_cap=cap), brightness=level)
    display.show(bytearray(data))
    total = sum(display.written)
    assert total == display.total <= cap
    uncapped = Display(make_config(brightness_cap=65535), brightness=level)
    uncapped.show(bytearray(data))
    if sum(uncapped.written) <= cap:
        assert display.written == uncapped.written and not display.capped
    else:
        assert display.capped
        whole = sum(uncapped.written)
        assert list(display.written) == [v * cap // whole for v in uncapped.written]
    for cell in range(36):  # nonzero design channels stay lit unless the cap bites
        for ch in range(3):
            if data[3 * cell + ch] and not display.capped:
                assert display.written[3 * cell + ch] > 0


def test_micropython_matches_cpython_and_allocates_nothing():
    config = make_config(matrix="panel8x8", window=[2, 1], origin="bottom-right", rotation=90,
                         color_order="RGB", brightness_cap=3000)
    frames = [bytes((i * 37 + k * 11) % 256 for i in range(108)) for k in range(6)]
    got = json.loads(mpy.run_file(SCRIPT, stdin=json.dumps([config, [list(f) for f in frames]])))
    expected = display_mpy.shown(config, frames)
    assert got["out"] == expected["out"]
    assert got["writes"] == expected["writes"]
    assert got["allocated"] == 0
    assert got["count"] == 30


@pytest.mark.parametrize("level", [1, 5, BRIGHTNESS_LEVELS])
def test_a_frame_exactly_at_the_cap_is_not_capped(level):
    frame = frame_of(*[(i, (255, 200, 31)) for i in range(0, 36, 5)])
    exact = Display(make_config(brightness_cap=65535), brightness=level)
    exact.show(frame)
    total = sum(exact.written)
    at_cap = Display(make_config(brightness_cap=total), brightness=level)
    at_cap.show(frame)
    assert (at_cap.capped, at_cap.total, at_cap.written) == (False, total, exact.written)
    below = Display(make_config(brightness_cap=total - 1), brightness=level)
    below.show(frame)
    assert below.capped and below.total <= total - 1
    assert list(below.written) == [v * (total - 1) // total for v in exact.written]
