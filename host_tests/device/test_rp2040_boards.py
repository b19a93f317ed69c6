"""The board kinds of the emulated RP2040 (tools/rp2040/boards.py): what each wires to
GP24, GP25 and GP29, on rp2040py's own pins (no firmware: this runs in a second)."""

import pytest

pytest.importorskip("rp2040py")


from tools.rp2040.boards import KINDS, Wiring  # noqa: E402


class Pad:
    def __init__(self, down=False, up=False, out=None):
        self.pulldown_enabled, self.pullup_enabled = down, up
        self.output_enable, self.output_value = out is not None, bool(out)


def gpio(pull=None, cs=None):
    return {29: Pad(down=pull == "down", up=pull == "up"), 25: Pad(out=cs)}


def test_a_pico_reads_a_third_of_vsys_and_its_divider_loaded_by_the_pull_down():
    w = Wiring("pico")
    assert w.adc3(gpio(), 3700) == int(3700 / 3 * 4095 / 3300)
    assert 0 < w.adc3(gpio("down"), 2500) < w.adc3(gpio(), 2500) / 2  # still driven
    assert w.adc3(gpio("down"), 2500) * 3300 / 4095 > 100  # the firmware's 0.1 V test
    assert (w.gp24(True), w.gp24(False)) == (True, False)


def test_a_pico_w_connects_its_divider_only_while_gp25_is_high():
    w = Wiring("pico_w", floating_mv=3300)
    assert w.adc3(gpio(cs=True), 3700) == Wiring("pico").adc3(gpio(), 3700)
    assert w.adc3(gpio(cs=False), 3700) == int(3300 / 3 * 4095 / 3300)  # floating
    assert w.adc3(gpio("down"), 3700) == 0 and w.adc3(gpio("up"), 3700) == 4095
    assert w.gp24(True) is None  # the radio's line: undriven, USB or not


def test_a_yd_rp2040_has_no_divider_and_its_usr_key_on_gp24():
    w = Wiring("yd_rp2040", floating_mv=5000)
    assert w.adc3(gpio(cs=True), 3700) == int(5000 / 3 * 4095 / 3300)
    assert w.adc3(gpio("down", cs=True), 3700) == 0
    assert w.gp24(False) is True  # its pull-up, whatever powers the board
    w.usr_key = True
    assert w.gp24(True) is False


def test_an_unknown_board_is_one_clear_error():
    with pytest.raises(ValueError, match="board 'pico3'"):
        Wiring("pico3")
    assert "pico2_w" not in KINDS  # an RP2350: not emulated (boards.py)
