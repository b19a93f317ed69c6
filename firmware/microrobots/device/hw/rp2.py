"""MicroPython on a Raspberry Pi Pico (RP2040, RP2350): machine.Pin, bitstream, PWM."""

import os
import time

from machine import PWM, Pin, bitstream

from ...compat import const
from ..input import BUTTON_NAMES

# WS2812 at 800 kHz: high and low times in ns of a 0 bit, then of a 1 bit. These are the
# values of MicroPython's own neopixel module (timing=1); bitstream sends the buffer
# display.py prepared, colour order included, without copying it.
_WS2812_TIMING = const((400, 850, 800, 450))
_BUZZER_DUTY = const(32768)  # half of duty_u16's range: the loudest square wave


class Hardware:
    """Pins from ``config``: LED data, six active-low buttons with pull-ups, a piezo."""

    def __init__(self, config):
        self._led = Pin(config["led_pin"], Pin.OUT, value=0)
        buttons = config["buttons"]
        self._buttons = [Pin(buttons[name], Pin.IN, Pin.PULL_UP) for name in BUTTON_NAMES]
        self._buzzer = None
        if config["buzzer_pin"] is not None:
            self._buzzer = PWM(Pin(config["buzzer_pin"]))
            self._buzzer.duty_u16(0)

    def pressed_mask(self):
        mask = 0
        bit = 1
        for pin in self._buttons:
            if not pin.value():  # active low
                mask |= bit
            bit <<= 1
        return mask

    def show(self, buf):
        bitstream(self._led, 0, _WS2812_TIMING, buf)

    def tone(self, freq):
        """Sound ``freq`` Hz until ``quiet()``; 0 or less is silence."""
        if self._buzzer is None:
            return
        if freq <= 0:
            self.quiet()
            return
        self._buzzer.freq(freq)
        self._buzzer.duty_u16(_BUZZER_DUTY)

    def quiet(self):
        if self._buzzer is not None:
            self._buzzer.duty_u16(0)

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_diff(self, end, start):
        return time.ticks_diff(end, start)

    def sleep_ms(self, ms):
        time.sleep_ms(ms)

    def seed(self):
        # The RP2040's ring oscillator feeds os.urandom: a new seed at every boot.
        b = os.urandom(4)
        return (b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24) & 0x3FFFFFFF
