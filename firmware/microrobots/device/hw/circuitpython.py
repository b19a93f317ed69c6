"""CircuitPython on a Raspberry Pi Pico: board pins, digitalio, Adafruit neopixel, pwmio.

The Adafruit ``neopixel`` library sets the data pin up (and powers the LEDs on boards
that switch them). Frames are sent with ``neopixel_write``, the call the library itself
transmits with, straight from display.py's prepared buffer: assigning 36 pixels through
``pixels[i] = (r, g, b)`` would build a tuple per pixel and redo the colour order.

Power: the battery gauge reads VSYS / 3 with ``analogio`` (GP29, the Pico's
VOLTAGE_MONITOR) and USB on GP24 (VBUS_SENSE), named as ``microcontroller.pin``'s GPIOn
(``board`` names them differently on each board); sleep is ``alarm``'s light sleep
until a button's PinAlarm (the buttons' pins are handed over to the alarms meanwhile).
"""

import os
import time

import analogio
import board
import digitalio
import microcontroller
import neopixel
import pwmio
from neopixel_write import neopixel_write

from ..input import BUTTON_NAMES

try:
    from supervisor import ticks_ms as _ticks_ms  # CircuitPython 7+: wraps at 2**29
except ImportError:  # pragma: no cover - older CircuitPython
    _ticks_ms = None

_TICKS_PERIOD = 1 << 29
_TICKS_HALF = _TICKS_PERIOD >> 1
BUZZER_DUTY = 32768  # half of duty_cycle's range: the loudest square wave
# time.sleep takes seconds; a float is a heap object here, so a frame's sleep (0-20 ms)
# uses one made at import instead of a new one every frame.
_SECONDS = tuple(ms / 1000 for ms in range(21))


def pin(number):
    """``board.GP<number>``."""
    return getattr(board, "GP%d" % number)


def _gpio(number):
    """``microcontroller.pin.GPIO<number>``: also the Pico's internal GP24 and GP29."""
    return getattr(microcontroller.pin, "GPIO%d" % number)


class Hardware:
    """Pins from ``config``: LED data, six active-low buttons with pull-ups, a piezo."""
    PIXEL_ORDER = "wiring"  # show() gets the LEDs' bytes in their wiring (display.py)

    READS_UNDER_LOAD = True  # the gauge reads a real cell, sagging under the LEDs (power.py)

    def __init__(self, config):
        self._config = config
        self.pixels = neopixel.NeoPixel(
            pin(config["led_pin"]), config["led_count"], brightness=1.0, auto_write=False,
            pixel_order=config["color_order"])
        self._buttons = []
        self._open_buttons()
        self._buzzer = None
        if config["buzzer_pin"] is not None:
            self._buzzer = pwmio.PWMOut(pin(config["buzzer_pin"]), duty_cycle=0,
                                        frequency=440, variable_frequency=True)
        self._vsys = self._usb = self._led_power = None
        if config["battery_pin"] is not None:
            self._vsys = analogio.AnalogIn(_gpio(config["battery_pin"]))
        if config["usb_pin"] is not None:
            self._usb = digitalio.DigitalInOut(_gpio(config["usb_pin"]))
        if config["led_power_pin"] is not None:
            self._led_power = digitalio.DigitalInOut(_gpio(config["led_power_pin"]))
            self._led_power.switch_to_output(value=True)

    def _open_buttons(self):
        for name in BUTTON_NAMES:
            io = digitalio.DigitalInOut(pin(self._config["buttons"][name]))
            io.switch_to_input(pull=digitalio.Pull.UP)
            self._buttons.append(io)

    def pressed_mask(self, now=None):
        mask = 0
        bit = 1
        for io in self._buttons:
            if not io.value:  # active low
                mask |= bit
            bit <<= 1
        return mask

    def show(self, buf):
        neopixel_write(self.pixels.pin, buf)

    def tone(self, freq):
        """Sound ``freq`` Hz until ``quiet()``; 0 or less is silence."""
        if self._buzzer is None:
            return
        if freq <= 0:
            self.quiet()
            return
        self._buzzer.frequency = freq
        self._buzzer.duty_cycle = BUZZER_DUTY

    def quiet(self):
        if self._buzzer is not None:
            self._buzzer.duty_cycle = 0

    def vsys_mv(self):
        """The supply's voltage in mV, or -1: no gauge."""
        if self._vsys is None:
            return -1
        return (self._vsys.value >> 4) * 9900 // 4095  # 3.3 V full scale, a 3:1 divider

    def usb_power(self):
        return (1 if self._usb.value else 0) if self._usb is not None else -1

    def led_power(self, on):
        if self._led_power is not None:
            self._led_power.value = bool(on)

    def sleep(self):
        """Light sleep until a button is pressed; False where ``alarm`` is missing."""
        try:
            import alarm
        except ImportError:
            return False
        for io in self._buttons:
            io.deinit()
        self._buttons = []
        alarms = [alarm.pin.PinAlarm(pin(self._config["buttons"][name]), value=False, pull=True)
                  for name in BUTTON_NAMES]
        alarm.light_sleep_until_alarms(*alarms)
        for a in alarms:
            a.deinit() if hasattr(a, "deinit") else None
        self._open_buttons()
        return True

    def ticks_ms(self):
        if _ticks_ms is not None:
            return _ticks_ms()
        return (time.monotonic_ns() // 1000000) % _TICKS_PERIOD

    def ticks_diff(self, end, start):
        return ((end - start + _TICKS_HALF) % _TICKS_PERIOD) - _TICKS_HALF

    def sleep_ms(self, ms):
        time.sleep(_SECONDS[ms] if 0 <= ms <= 20 else ms / 1000)

    def seed(self):
        b = os.urandom(4)
        return (b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24) & 0x3FFFFFFF
