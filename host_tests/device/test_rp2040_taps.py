"""Taps against saves on the emulated RP2040, our image (tools/rp2040/tap_checks.py, run
in the background as ``taps-ours``): for the typical and the worst-case flash times, a
short session of random 40-80 ms taps on every button in solo, with saves among them and a
tap inside every erase; in a 400 ms one taps.PLANNED's four (two taps of one button, two
of another, the last let go after the freeze). No tap may be lost (hw/rp2_pio.py's state
machine samples on while an erase holds the CPU, into its joined 8-word RX FIFO: the
emulated board's is 8 deep too, tools/rp2040/pio_fifos.py), and the saved game on the
board's flash, before and after a reset, must be what the host firmware saves from the
same frames."""

import pytest
import rp2040_background

from tools.rp2040.tap_checks import TIMINGS


@pytest.fixture(scope="module")
def taps():
    why = rp2040_background.why("ours")
    if why:
        pytest.skip(why)
    t = rp2040_background.result("taps", "ours")
    assert "error" not in t, t.get("error")
    return t


@pytest.mark.parametrize("times", TIMINGS)
def test_no_tap_is_lost_while_the_flash_is_busy(taps, times):
    t = taps[times]
    assert t["erases"] > 0 and t["inside_erases"] > 0, "no erase in the session: nothing tested"
    assert t["lost"] == [], "lost %s (%s)" % (t["lost"], t["lost_why"])
    assert t["presses"] == t["taps"], "presses %d for %d taps" % (t["presses"], t["taps"])
    assert t["pio"]["running"], "the buttons' state machine is not running"
    assert t["pio"]["rx_stalled"] == [], "its RX FIFO filled: it sampled nothing meanwhile"


def test_taps_of_one_button_inside_one_long_erase_are_each_a_press(taps):
    """Issue 31's lost taps, placed (taps.PLANNED): in every 400 ms erase two taps of one
    button, then two of another, the last let go after the erase; each is a press of its
    own, after the freeze, in order."""
    t = taps["worst"]
    twice = 0  # erases with a button tapped twice inside
    for erase in t["erase_times_now"]:
        began = erase - t["start"]
        inside = [b for down, _, b in t["script"] if began <= down < began + 400]
        twice += any(inside.count(b) >= 2 for b in inside)
    assert twice, "no button tapped twice inside one erase: nothing tested"
    assert t["lost"] == [] and t["presses"] == t["taps"]


@pytest.mark.parametrize("times", TIMINGS)
def test_nothing_saved_is_lost_before_or_after_a_reset(taps, times):
    t = taps[times]
    assert t["saved_names"], "the session saved nothing"
    assert t["saved_differ"] == [], "the board's files differ from the host's"
    assert t["resumed"] and t["after_reset_differ"] == [], "after the reset"
    assert t["after_reset_as_before"]
