"""MicroPython on a Raspberry Pi Pico (RP2040, RP2350): machine.Pin, bitstream, PWM, ADC.

The battery gauge reads VSYS through the Pico's divider (a third of it on GP29, ADC3)
and USB power on GP24. A Pico W wires GP29 and GP24 to its radio instead (the
radio's SPI clock, and VBUS sensing through the radio's own WL_GPIO2): there the
defaults give no gauge (``vsys_mv`` -1, ``usb_power`` -1, the device then runs as on
USB, at the USB cap, and never announces a low battery); a builder who wants one on a
Pico W wires VSYS through a divider of his own to GP26-28 and names it in config.json.
"""

import os
import sys
import time

from machine import ADC, PWM, Pin, bitstream, lightsleep

from ...compat import const
from ..input import BUTTON_NAMES

# WS2812 at 800 kHz: high and low times in ns of a 0 bit, then of a 1 bit. These are the
# values of MicroPython's own neopixel module (timing=1); bitstream sends the buffer
# display.py prepared, colour order included, without copying it.
_WS2812_TIMING = const((400, 850, 800, 450))
_BUZZER_DUTY = const(32768)  # half of duty_u16's range: the loudest square wave
# Full scale of the ADC (12 bits, 3.3 V) in mV of VSYS, through the Pico's 3:1 divider.
_VSYS_FULL_MV = const(9900)
_SLEEP_SLICE_MS = const(60000)  # lightsleep's timer wakes it this often (a few ms awake)


def _pico_w():
    # e.g. "Raspberry Pi Pico W with RP2040" (os.uname().machine says the same)
    return "Pico W" in getattr(sys.implementation, "_machine", "")


class Hardware:
    """Pins from ``config``: LED data, six active-low buttons with pull-ups, a piezo."""
    PIXEL_ORDER = "wiring"  # show() gets the LEDs' bytes in their wiring (display.py)

    def __init__(self, config):
        self._led = Pin(config["led_pin"], Pin.OUT, value=0)
        buttons = config["buttons"]
        self._buttons = [Pin(buttons[name], Pin.IN, Pin.PULL_UP) for name in BUTTON_NAMES]
        self._buzzer = None
        if config["buzzer_pin"] is not None:
            self._buzzer = PWM(Pin(config["buzzer_pin"]))
            self._buzzer.duty_u16(0)
        battery, usb = config["battery_pin"], config["usb_pin"]
        if _pico_w():  # GP29 and GP24 belong to the radio there (module docstring)
            battery = None if battery == 29 else battery
            usb = None if usb == 24 else usb
        self._vsys = ADC(Pin(battery)) if battery is not None else None
        self._usb = Pin(usb, Pin.IN) if usb is not None else None
        self._led_power = None
        if config["led_power_pin"] is not None:
            self._led_power = Pin(config["led_power_pin"], Pin.OUT, value=1)

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

    def vsys_mv(self):
        """The supply's voltage in mV (the battery's, off USB), or -1: no gauge."""
        if self._vsys is None:
            return -1
        # 12 bits first: 65535 * 9900 would be a big integer (an allocation) on a Pico
        return (self._vsys.read_u16() >> 4) * _VSYS_FULL_MV // 4095

    def usb_power(self):
        """1 while USB powers the board, 0 when it does not, -1: not known."""
        return self._usb.value() if self._usb is not None else -1

    def led_power(self, on):
        """Switch the LEDs' supply (the MOSFET on their 5 V line), if there is one."""
        if self._led_power is not None:
            self._led_power.value(1 if on else 0)

    def sleep(self):
        """The lowest state that still wakes on a button: machine.lightsleep in slices of
        a minute, until a button pin falls (RAM and the game kept, the clocks stopped but
        the timer's). Returns True once a button woke it; False on USB power (nothing to
        save, and a sleep that stops the USB clock while a computer is attached may not
        come back: the frame loop then keeps polling, the LEDs dark).

        Slices, not ``lightsleep()``: without a timeout MicroPython sends the crystal
        dormant, which no pin IRQ wakes on an RP2040 (micropython#7035); with one, a pin
        whose IRQ has a handler wakes it (the emulated RP2040 shows the first half)."""
        if self.usb_power() == 1:
            return False
        _WOKEN[0] = 0
        for pin in self._buttons:
            pin.irq(handler=_woken, trigger=Pin.IRQ_FALLING)
        while not _WOKEN[0] and not self.pressed_mask():
            lightsleep(_SLEEP_SLICE_MS)
        for pin in self._buttons:
            pin.irq(handler=None)
        return True

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


_WOKEN = bytearray(1)  # set by a button's IRQ: the sleep is over


def _woken(pin):
    _WOKEN[0] = 1
