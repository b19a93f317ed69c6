"""The boards a builder may own, as the firmware's pins see them (GP23, GP24, GP25, GP29).

The chip is the same RP2040 on each (rp2040py's "pico" build); what differs is what the
board wires to four pins, modelled here from each board's schematic:

- ``pico`` (Raspberry Pi Pico): GP29 (ADC3) reads VSYS / 3 through a 200k/100k divider;
  GP24 is VBUS sense (high on USB, through a divider: it drives the pin); GP23 the
  RT6150's power-save select, GP25 the on-board LED (both outputs the firmware leaves).
- ``pico_w`` (Raspberry Pi Pico W, flashed with the Pico's image, which says it is a
  "Raspberry Pi Pico"): GP29 is the radio's SPI clock too, and the VSYS divider is
  connected only while GP25 (the radio's chip select) is high; otherwise nothing drives
  GP29 (the radio unpowered: GP23, its WL_ON, low). GP24 is the radio's data line:
  undriven. VBUS sense is on the radio's own WL_GPIO2, out of reach. (rp2040py's own
  "pico_w" board adds its CYW43439 model, which the Pico's image never talks to.)
- ``pico2_w`` (Raspberry Pi Pico 2 W): an RP2350, which rp2040py cannot run. With its
  own image its name says "Pico 2 W" and its radio driver owns GP23-25 and GP29: the
  firmware then reads none of them (host_tests/device/test_hw_backends.py fakes it).
  Flashed with a Pico image it would not boot at all. Not emulated.
- ``yd_rp2040`` (VCC-GND YD-RP2040, a common clone): GP23 the on-board WS2812, GP24 the
  USR key (a 10k pull-up to 3.3 V, to ground when pressed), GP25 a blue LED, GP29 a bare
  header pin: no VSYS divider, nothing drives it.

An undriven pin reads as its pad's pull: a digital read the pull's level (rp2040py does
that itself), an ADC read 0 with the pull-down, full scale with the pull-up, and with no
pull ``floating_mv`` (a floating ADC input wanders: the tests try several values). A
divider loaded by the pad's pull-down (about 50 kohm against the divider's 66.7 kohm)
reads 3/7 of its share.
"""

KINDS = ("pico", "pico_w", "yd_rp2040")  # emulated; pico2_w: not (RP2350)
ADC_FULL_MV = 3300
PULL_KOHM = 50  # the RP2040's pad pull resistors, typical
DIVIDER_KOHM = 200 * 100 / 300  # the Pico's 200k/100k VSYS divider, as a source


class Wiring:
    """What one board kind puts on GP24 and GP29 for a supply of ``mv`` and ``usb``."""

    def __init__(self, kind, floating_mv=0):
        if kind not in KINDS:
            raise ValueError("board %r: not one of %s" % (kind, ", ".join(KINDS)))
        self.kind = kind
        self.floating_mv = floating_mv  # what an undriven ADC pin with no pull reads (VSYS mV)
        self.usr_key = False  # the YD-RP2040's USR key held

    def divider_connected(self, gpio):
        if self.kind == "pico":
            return True
        if self.kind == "pico_w":
            cs = gpio[25]
            return bool(cs.output_enable and cs.output_value)
        return False

    def adc3(self, gpio, mv):
        """The 12-bit reading of ADC3 now, for VSYS ``mv``."""
        pad = gpio[29]
        down, up = pad.pulldown_enabled, pad.pullup_enabled
        if self.divider_connected(gpio):
            pin_mv = max(mv, 0) / 3
            if down and not up:
                pin_mv = pin_mv * PULL_KOHM / (PULL_KOHM + DIVIDER_KOHM)
        elif down and not up:
            pin_mv = 0
        elif up and not down:
            pin_mv = ADC_FULL_MV
        else:
            pin_mv = max(self.floating_mv, 0) / 3
        return min(int(pin_mv * 4095 / ADC_FULL_MV), 4095)

    def gp24(self, usb):
        """GP24's level as the board drives it: True, False, or None (undriven)."""
        if self.kind == "pico":
            return bool(usb)
        if self.kind == "yd_rp2040":
            return not self.usr_key
        return None
