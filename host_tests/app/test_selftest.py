"""The builder's self-test (modes/selftest.py) on the device loop with fake pins and a
fake clock: entered by holding A at power-on or from the settings' last item; every LED
in four colours within the power cap, each button lighting its part of the grid, the
supply's picture, the piezo."""

import json
import os

import pytest
from screens import cell, read_count

from microrobots.modes import guide
from microrobots import palette as P
from microrobots.device.display import gamma_table
from microrobots.device.hw.fake import Hardware as FakeHardware
from microrobots.device.input import A, B, BUTTON_NAMES, DOWN, LEFT, RIGHT, UP
from microrobots.device.power import percent_of
from microrobots.handheld import Device
from microrobots.modes import selftest

FRAME_MS = 20
DARK = (0, 0, 0)


class Board(FakeHardware):
    """Fake pins with A held from power-on (``held_at_boot``) and a supply to set."""

    held_at_boot = 1 << A
    vsys_at_boot = -1
    usb_at_boot = 1

    def __init__(self, config):
        super().__init__(config)
        self.pressed = self.held_at_boot
        self.vsys = self.vsys_at_boot
        self.usb = self.usb_at_boot


def boot(tmp_path, Hardware=Board, settings=None):
    if settings is not None:
        (tmp_path / "settings.json").write_text(json.dumps({"format": 1, "data": settings}))
    return Device(Hardware, config_path=str(tmp_path / "config.json"),
                  root=str(tmp_path) + os.sep)


def run(dev, ms, pressed=None):
    """Frames for ``ms``; ``pressed``: the buttons held meanwhile."""
    if pressed is not None:
        dev.hw.pressed = pressed
    for _ in range(ms // FRAME_MS):
        dev.step()
        dev.hw.sleep_ms(FRAME_MS)


def to_buttons(dev):
    """From power-on past the colours (four of a second each) to the buttons' screen."""
    run(dev, 200)
    run(dev, 4200, pressed=0)


def grid(dev):
    """The frame the app drew last (design values, before brightness and gamma)."""
    return bytes(dev.frame)


def lit(frame):
    return {i for i in range(36) if cell(frame, i) != DARK}


def test_holding_a_at_power_on_shows_every_led_red_green_blue_white_within_the_cap(tmp_path):
    dev = boot(tmp_path, settings={"sound": False})  # the piezo sounds anyway: under test
    run(dev, 200)  # the switch's pieces
    assert dev.app.mode == "selftest" and dev._waking
    run(dev, 100, pressed=0)  # A let go: no key (it started the test)
    seen = []
    for _ in range(4):
        frame = bytes(dev.display.written)  # what the LEDs got
        colours = {cell(frame, i) for i in range(36)}
        assert len(colours) == 1 and colours != {DARK}, colours  # a full-grid fill
        seen.append(colours.pop())
        assert dev.display.brightness == 8 and not dev.display.capped
        assert dev.display.total <= dev.power.cap
        run(dev, 1000)
    assert [tuple(1 if v else 0 for v in c) for c in seen] == [
        (1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 1)]
    # as bright as the cap allows: one step more and the white frame would be over it
    white = seen[3][0]
    assert white * 108 <= dev.power.cap < gamma_table()[
        selftest.fitting_level(dev.power.cap, 108) + 1] * 108
    assert len([f for _, f in dev.hw.tones if f]) >= 4  # a tone at each colour
    assert dev.app.current.screen is dev.app.current.buttons


def test_without_a_held_the_device_boots_as_ever(tmp_path):
    class Plain(Board):
        held_at_boot = 0

    dev = boot(tmp_path, Plain)
    run(dev, 200)
    assert dev.app.mode == "menu" and "selftest" not in dev.app.modes


def test_each_button_lights_its_part_of_the_grid_while_held(tmp_path):
    dev = boot(tmp_path)
    to_buttons(dev)
    mode = dev.app.current
    assert mode.screen is mode.buttons
    parts = {}
    for b in (UP, DOWN, LEFT, RIGHT, A, B):
        run(dev, 100, pressed=1 << b)
        frame = grid(dev)
        parts[b] = {i for i in range(36) if cell(frame, i)[0] == cell(frame, i)[2] > 200}
        assert parts[b], BUTTON_NAMES[b]
        run(dev, 100, pressed=0)
        assert mode.screen is mode.buttons  # B's tap here is tested, not obeyed
    for b, cells in parts.items():  # six parts, none shared
        assert all(not cells & others for o, others in parts.items() if o != b)
    assert max(i // 6 for i in parts[UP]) < 2 and min(i // 6 for i in parts[DOWN]) > 3
    assert all(i % 6 < 3 for b in (UP, DOWN, LEFT, RIGHT) for i in parts[b])  # the D-pad left
    assert all(i % 6 >= 3 for b in (A, B) for i in parts[b])
    frame = grid(dev)  # every part pressed once: dim green
    assert all(cell(frame, i)[1] > 0 and cell(frame, i)[0] == 0 for c in parts.values()
               for i in c)
    run(dev, 1100)
    assert mode.screen is mode.supply


def test_a_tap_held_for_one_frame_counts_as_seen(tmp_path):
    dev = boot(tmp_path)
    to_buttons(dev)
    mode = dev.app.current
    for b in range(6):  # each press seen by one frame only (the IRQ latch's report)
        run(dev, FRAME_MS, pressed=1 << b)
        run(dev, 60, pressed=0)
    assert mode.buttons.seen == 0x3F


def to_supply(dev):
    to_buttons(dev)
    for b in range(6):
        run(dev, 60, pressed=1 << b)
        run(dev, 60, pressed=0)
    run(dev, 1200)
    assert dev.app.current.screen is dev.app.current.supply
    run(dev, 1100)  # the gauge read again (once a second)


def test_the_supply_on_usb_is_a_blue_top_row_and_its_volts(tmp_path):
    class OnUsb(Board):
        vsys_at_boot = 4800

    dev = boot(tmp_path, OnUsb)
    to_supply(dev)
    frame = grid(dev)
    assert all(cell(frame, i) == P.VALUE for i in range(6))
    assert read_count(frame, 2) == ((255, 255, 255), 48)  # 4.8 V
    assert all(cell(frame, 30 + c) == P.VALUE for c in range(6))  # a gauge, charging


def test_the_supply_on_a_cell_is_its_volts_and_the_charge_bar(tmp_path):
    class OnCell(Board):
        vsys_at_boot = 3900
        usb_at_boot = 0

    dev = boot(tmp_path, OnCell)
    to_supply(dev)
    frame = grid(dev)
    assert all(cell(frame, i) == P.DIM for i in range(6))  # no USB
    assert read_count(frame, 2)[1] == 39
    bar = (percent_of(3900) * 6 + 50) // 100
    assert [cell(frame, 30 + c) for c in range(6)] == [P.GOOD] * bar + [P.DIM] * (6 - bar)


def test_no_gauge_is_zero_volts_and_a_dark_bottom_row_and_never_a_warning(tmp_path):
    class NoGauge(Board):
        vsys_at_boot = 1000  # a reading no running Pico gives: no gauge
        usb_at_boot = 0

    dev = boot(tmp_path, NoGauge)
    to_supply(dev)
    frame = grid(dev)
    assert read_count(frame, 2)[1] == 0
    assert lit(frame) & set(range(30, 36)) == set()
    assert not dev.power.warning(dev.now) and dev.sleeps == 0


def test_the_piezo_plays_its_scale_and_a_starts_again(tmp_path):
    dev = boot(tmp_path)
    to_supply(dev)
    mode = dev.app.current
    tones = len(dev.hw.tones)
    run(dev, 60, pressed=1 << A)
    run(dev, 60, pressed=0)
    assert mode.screen is mode.piezo
    run(dev, 1600)
    played = [f for _, f in dev.hw.tones[tones:] if f]
    assert played[:4] == [523, 659, 784, 1047] and played.count(523) >= 2  # again at 1.5 s
    run(dev, 60, pressed=1 << A)
    run(dev, 60, pressed=0)
    assert mode.screen is mode.colours


@pytest.mark.parametrize("leave", ["tap", "hold"])
def test_from_the_settings_and_back_to_the_menu_never_saved_as_the_mode(tmp_path, leave):
    from microrobots.modes import settings

    class Plain(Board):
        held_at_boot = 0

    dev = boot(tmp_path, Plain, settings={"mode": "settings"})
    run(dev, 200)
    assert dev.app.mode == "settings"
    run(dev, 60, pressed=1 << UP)  # the last item: the self-test
    run(dev, 60, pressed=0)
    assert settings._ITEMS[dev.app.current.item] == "selftest"
    run(dev, 60, pressed=1 << A)
    run(dev, 300, pressed=0)
    assert dev.app.mode == "selftest" and dev.app.settings["mode"] == "settings"
    run(dev, 700 if leave == "hold" else 60, pressed=1 << B)
    run(dev, 300, pressed=0)
    assert dev.app.mode == "menu"
    run(dev, 1500)
    saved = json.loads((tmp_path / "settings.json").read_text())
    assert saved["data"]["mode"] == "menu"
    assert "selftest" not in dev.app.modes  # put away with its module


def test_the_settings_item_shows_the_four_colours(tmp_path):
    from microrobots.modes import settings

    class Plain(Board):
        held_at_boot = 0

    dev = boot(tmp_path, Plain, settings={"mode": "settings"})
    run(dev, 200)
    run(dev, 60, pressed=1 << UP)
    run(dev, 60, pressed=0)
    frame = grid(dev)
    assert read_count(frame, 0)[1] == len(settings._ITEMS) == 13
    rgb = [tuple(1 if v else 0 for v in cell(frame, 7 + k)) for k in range(4)]
    assert rgb == [(1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 1)]


def test_the_guide_says_each_screen_in_words(tmp_path):
    dev = boot(tmp_path)
    run(dev, 200)
    run(dev, 100, pressed=0)
    mode = dev.app.current
    assert "self-test 1 of 4: every LED red" in guide.words(mode)
    mode.change(mode.buttons, dev.now)
    assert guide.words(mode).endswith("6 buttons still to press")
    run(dev, 60, pressed=1 << B)
    run(dev, 60, pressed=0)
    assert guide.words(mode).endswith("5 buttons still to press")
    mode.change(mode.supply, dev.now)
    assert "the supply: no gauge (on USB)" in guide.words(mode)  # (the Board: -1 mV, USB)
    mode.change(mode.piezo, dev.now)
    assert "the piezo plays a scale" in guide.words(mode)


# -- each screen's picture, cell by cell (issue 37: the mutation run's survivors) -------

def _scaled(rgb, level):
    return tuple(v * level // 255 for v in rgb)


def test_the_piezo_lights_each_note_s_column_exactly_while_it_sounds(tmp_path):
    dev = boot(tmp_path)
    to_supply(dev)
    run(dev, 60, pressed=1 << A)
    run(dev, 60, pressed=0)
    mode = dev.app.current
    piezo = mode.piezo
    steps = (0, 120, 240, 360, 760)  # keys.SOUND_WIN's notes
    for t in (0, 1, 119, 120, 239, 240, 359, 360, 759, 760, 1000):
        frame = bytearray(108)
        piezo.render(piezo.t0 + t, frame)
        for i in range(36):
            r, c = divmod(i, 6)
            k = c - 1  # column k + 1: note k, k + 2 cells high from the bottom
            if 0 <= k < 4 and r >= 5 - (k + 1):
                want = _STEP_GOLD if steps[k] <= t < steps[k + 1] else P.DIM
            else:
                want = DARK
            assert cell(frame, i) == want, (t, i)
    t0 = piezo.t0
    piezo.update(t0 + 1499)
    assert piezo.t0 == t0
    tones = len(dev.hw.tones)
    piezo.update(t0 + 1500)  # again at 1.5 s exactly
    assert piezo.t0 == t0 + 1500
    run(dev, 40)
    assert len(dev.hw.tones) > tones


_STEP_GOLD = (255, 170, 0)


def test_the_buttons_screen_is_white_held_green_seen_dim_unseen_and_dark_between(tmp_path):
    dev = boot(tmp_path)
    to_buttons(dev)
    mode = dev.app.current
    run(dev, 60, pressed=1 << UP)
    run(dev, 60, pressed=0)
    run(dev, 60, pressed=1 << A)  # A held now, UP seen before
    frame = grid(dev)
    parts = {b: bytes(p) for b, p in enumerate(selftest._PARTS)}
    for i in range(36):
        if i in parts[A]:
            want = (255, 255, 255)
        elif i in parts[UP]:
            want = _scaled(P.GOOD, 60)
        elif any(i in p for p in parts.values()):
            want = _scaled(P.DIM, 60)
        else:
            want = DARK
        assert cell(frame, i) == want, i
    assert mode.screen is mode.buttons


def test_a_key_other_than_a_leaves_the_colour_as_it_is(tmp_path):
    dev = boot(tmp_path)
    run(dev, 200)
    run(dev, 100, pressed=0)
    mode = dev.app.current
    assert mode.screen is mode.colours and mode.colours.colour == 0
    mode.key(UP, dev.now)
    assert mode.colours.colour == 0
    mode.key(A, dev.now)
    assert mode.colours.colour == 1


def _supply_frame(dev, mv, on_usb, percent=-1, low=False, power=True):
    mode = dev.app.current
    p = dev.app.power
    p.mv, p.on_usb, p.percent, p.low = mv, on_usb, percent, low
    frame = bytearray(108)
    if not power:
        dev.app.power = None
    try:
        mode.supply.render(dev.now, frame)
    finally:
        dev.app.power = p
    return frame


def test_the_supply_rounds_its_volts_and_draws_the_gauge_as_power_reads_it(tmp_path):
    class OnCell(Board):
        vsys_at_boot = 3900
        usb_at_boot = 0

    dev = boot(tmp_path, OnCell)
    to_supply(dev)
    assert read_count(_supply_frame(dev, 3749, False, 50), 2)[1] == 37
    assert read_count(_supply_frame(dev, 3750, False, 50), 2)[1] == 38
    assert read_count(_supply_frame(dev, 5050, True), 2)[1] == 51
    # a charge of 25 %: a bar of 2 (1.5 rounds up), green; low: red
    frame = _supply_frame(dev, 3600, False, 25)
    assert [cell(frame, 30 + c) for c in range(6)] == [P.GOOD] * 2 + [P.DIM] * 4
    frame = _supply_frame(dev, 3500, False, 25, low=True)
    assert [cell(frame, 30 + c) for c in range(6)] == [P.REFUSE] * 2 + [P.DIM] * 4
    # empty: the row all dim, not dark
    frame = _supply_frame(dev, 3300, False, 0, low=True)
    assert [cell(frame, 30 + c) for c in range(6)] == [P.DIM] * 6
    # no gauge on USB: a blue top row, zero volts, the bottom row dark
    frame = _supply_frame(dev, -1, True)
    assert [cell(frame, c) for c in range(6)] == [P.VALUE] * 6
    assert read_count(frame, 2)[1] == 0
    assert lit(frame) & set(range(30, 36)) == set()
    # a gauge reading 0 mV on USB is still a gauge: the full blue bar
    frame = _supply_frame(dev, 0, True)
    assert [cell(frame, 30 + c) for c in range(6)] == [P.VALUE] * 6
    # no power module at all: as USB without a gauge
    frame = _supply_frame(dev, 4000, False, power=False)
    assert [cell(frame, c) for c in range(6)] == [P.VALUE] * 6
    assert read_count(frame, 2)[1] == 0
    assert lit(frame) & set(range(30, 36)) == set()
