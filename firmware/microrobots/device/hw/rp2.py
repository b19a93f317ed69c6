"""MicroPython on a Raspberry Pi Pico (RP2040, RP2350): machine.Pin, bitstream, PWM, ADC.

Buttons: watched by a PIO state machine (rp2_pio.py), which keeps sampling while a flash
erase freezes the CPU for 45 ms (400 ms at the datasheet's worst) with interrupts off:
every change of the levels is kept, in order, and ``pressed_mask`` gives them to the
frames one change of a button at a time (a tap inside a freeze held at one frame, let go
at the next; two taps of one button two presses).

Without a free state machine (another program took them all), the pin interrupts catch
the edges instead: a fall is latched by the pin and handled when the erase is done, and
``pressed_mask`` reports it held once (device/input.py then sees a press, and a release
the frame after). A fall within 20 ms of the button's last rise is the contacts
bouncing on a release, no press; and a fall seen together with a rise by one interrupt
(both inside a freeze) of a button that was held is its release. A button reported held
at one call of ``pressed_mask`` and caught again at the next, without staying held in
between (let go: a rise 20 ms or more after the call that first reported it, not the
press's bounce; or reported by the latch alone, already up), was tapped again within one
long frame (a save's): it is reported released once, then held, so that the second tap
is a press of its own. (Two taps of one button inside one freeze read as one on this
path: the latch holds one fall.)

The battery gauge reads VSYS through the board's divider (a third of it on GP29, ADC3)
and USB power on GP24 (with the pad's pull-down, so a pin nothing drives reads "no
USB"). Which board this is, is found by what its pins do, at boot, not by its name
alone (a Pico W flashed with the Pico's image says "Raspberry Pi Pico"):

- GP29 is read once with the pad's pull-down on: a divider still gives its share
  (VSYS 2.5 V reads 0.36 V), a pin nothing drives (a clone's bare header pin) reads
  0: no gauge (``vsys_mv`` -1).
- On a Pico W the divider is connected only while GP25 (the radio's chip select) is
  high: every reading raises GP25 for the few microseconds it takes (on a Pico and the
  clones GP25 is the on-board LED: a flash too short to see). A board whose name says
  it has the radio (Pico W, Pico 2 W: its own image, the radio's driver owns GP24, GP25
  and GP29) has no gauge unless config.json names a divider of the builder's own on
  GP26-28.
- device/power.py takes a reading no running Pico can give (below 2.5 V, above 5.5 V)
  for "no gauge" too.

The watchdog (machine.WDT, 8 s) is armed at the first sleep, the path a hang would be
left on (and not at boot, so that a board stopped at the REPL by a computer is not reset
under it); ``pressed_mask``, called once a frame, feeds it, and so does every slice of
the sleep (5 s).
"""

import os
import sys
import time

from machine import ADC, PWM, WDT, Pin, bitstream, disable_irq, enable_irq, lightsleep

from ...compat import const
from ..input import BUTTON_NAMES

# WS2812 at 800 kHz: high and low times in ns of a 0 bit, then of a 1 bit. These are the
# values of MicroPython's own neopixel module (timing=1); bitstream sends the buffer
# display.py prepared, colour order included, without copying it.
_WS2812_TIMING = const((400, 850, 800, 450))
_BUZZER_DUTY = const(32768)  # half of duty_u16's range: the loudest square wave
# Full scale of the ADC (12 bits, 3.3 V) in mV of VSYS, through the Pico's 3:1 divider.
_VSYS_FULL_MV = const(9900)
_DRIVEN_MIN = const(124)  # 0.1 V at the pin with its pull-down on: a divider drives it
_WL_CS = const(25)  # a Pico W's radio chip select, which connects its VSYS divider
_WATCHDOG_MS = const(8000)  # machine.WDT's limit on an RP2040 is 8388 ms
_SLEEP_SLICE_MS = const(5000)  # lightsleep's timer wakes it this often: under the watchdog
_BOUNCE_MS = const(20)  # input.py's debounce: a fall this soon after a rise is a bounce

_FELL = bytearray(1)  # bit i: button i fell since pressed_mask last looked (its IRQ)
_HELD = bytearray(1)  # the levels pressed_mask read last (bit set: held)
_ROSE = [0] * 6  # ticks_ms of each button's last rise
# the buttons' Pins, in BUTTON_NAMES order (the IRQ handler finds its button in it)
_BUTTONS = []  # type: list[Pin]
_LET_GO = bytearray(1)  # bit i: button i, held at the last pressed_mask, rose since
_SHOWN = bytearray(1)  # the mask pressed_mask returned last
_SEEN = [0] * 6  # ticks_ms of the pressed_mask that first reported each button held
_WOKEN = bytearray(1)  # set by USB's IRQ while asleep


def _radio_board():
    # e.g. "Raspberry Pi Pico W with RP2040", "Raspberry Pi Pico 2 W with RP2350"
    machine = getattr(sys.implementation, "_machine", "")
    return "Pico W" in machine or "Pico 2 W" in machine


def _caught(pin):
    """The buttons' hard IRQ handler, one for the six (a closure each would be heap for
    nothing): the pin says which; allocates nothing (it runs with the heap locked)."""
    t = time.ticks_ms()
    i = _BUTTONS.index(pin)
    bit = 1 << i
    flags = pin.irq().flags()
    if flags & Pin.IRQ_FALLING and time.ticks_diff(t, _ROSE[i]) >= _BOUNCE_MS and not (
            flags & Pin.IRQ_RISING and _HELD[0] & bit):
        _FELL[0] |= bit
    if flags & Pin.IRQ_RISING:
        _ROSE[i] = t
        if _HELD[0] & bit and time.ticks_diff(t, _SEEN[i]) >= _BOUNCE_MS:
            _LET_GO[0] |= bit


def _woken(pin):
    """USB's or (PIO path) a button's IRQ handler while asleep."""
    _WOKEN[0] = 1


def _watcher(ids):
    """rp2_pio's state machine for the buttons on GPIOs ``ids``, or None."""
    try:
        from . import rp2_pio
    except ImportError:  # no rp2 module (a port without PIO)
        return None
    return rp2_pio.watcher(ids)


class Hardware:
    """Pins from ``config``: LED data, six active-low buttons with pull-ups, a piezo."""
    PIXEL_ORDER = "wiring"  # show() gets the LEDs' bytes in their wiring (display.py)

    READS_UNDER_LOAD = True  # the gauge reads a real cell, sagging under the LEDs (power.py)

    def __init__(self, config):
        self._led = Pin(config["led_pin"], Pin.OUT, value=0)
        buttons = config["buttons"]
        _BUTTONS[:] = [Pin(buttons[name], Pin.IN, Pin.PULL_UP) for name in BUTTON_NAMES]
        self._buttons = _BUTTONS
        _FELL[0] = _HELD[0] = _LET_GO[0] = _SHOWN[0] = 0
        self._pio = _watcher([buttons[name] for name in BUTTON_NAMES])
        if self._pio is not None:
            self._pio.first(time.ticks_ms())
        for i in range(len(_BUTTONS) if self._pio is None else 0):
            _ROSE[i] = time.ticks_add(time.ticks_ms(), -_BOUNCE_MS)
            _BUTTONS[i].irq(handler=_caught, trigger=Pin.IRQ_FALLING | Pin.IRQ_RISING,
                            hard=True)
        self._buzzer = None
        if config["buzzer_pin"] is not None:
            self._buzzer = PWM(Pin(config["buzzer_pin"]))
            self._buzzer.duty_u16(0)
        battery, usb = config["battery_pin"], config["usb_pin"]
        self._cs = None
        if _radio_board():  # GP29, GP24 and GP25 belong to the radio's driver there
            battery = None if battery == 29 else battery
            usb = None if usb == 24 else usb
        elif battery == 29 and _WL_CS not in _pins_used(config):
            self._cs = Pin(_WL_CS, Pin.OUT, value=0)
        self._usb = Pin(usb, Pin.IN, Pin.PULL_DOWN) if usb is not None else None
        self._vsys = None
        if battery is not None:
            adc = ADC(Pin(battery))
            self._vsys = adc if self._driven(adc, battery) else None
        self._led_power = None
        if config["led_power_pin"] is not None:
            self._led_power = Pin(config["led_power_pin"], Pin.OUT, value=1)
        self._watchdog = None

    def _driven(self, adc, pin):
        """True when something drives ADC pin ``pin``: read once with its pull-down on."""
        Pin(pin, Pin.IN, Pin.PULL_DOWN)
        level = self._read_adc(adc)
        ADC(Pin(pin))  # the pad analog again, no pull
        return level >= _DRIVEN_MIN

    def _read_adc(self, adc):
        cs = self._cs
        if cs is not None:
            cs.value(1)
        level = adc.read_u16() >> 4  # 12 bits
        if cs is not None:
            cs.value(0)
        return level

    def pressed_mask(self, now=None):
        """The buttons held now, and those that fell since the last call (once a frame);
        feeds the watchdog. ``now``: the frame's ticks_ms, read at its start (None: read
        here), the clock device/input.py's lock-out counts in: the PIO path gives a
        recorded change only when input.py will take it (rp2_pio.Replay.mask)."""
        if self._pio is not None:
            mask = self._pio.mask(time.ticks_ms() if now is None else now)
            if self._watchdog is not None:
                self._watchdog.feed()
            return mask
        state = disable_irq()  # the levels and the latches of one moment
        levels = 0
        bit = 1
        for pin in self._buttons:
            if not pin.value():  # active low
                levels |= bit
            bit <<= 1
        shown = _SHOWN[0]
        mask = levels | _FELL[0]
        # shown held last time and now, not held all along: tapped again in between
        again = mask & shown & ~(_HELD[0] & ~_LET_GO[0])
        mask &= ~again  # its release now, its press at the next call
        _FELL[0] = again & ~levels  # (latched, if it is already up again)
        _LET_GO[0] = 0
        _HELD[0] = levels
        _SHOWN[0] = mask
        enable_irq(state)
        new = mask & ~shown
        if new:
            t = time.ticks_ms()
            for i in range(6):
                if new >> i & 1:
                    _SEEN[i] = t
        if self._watchdog is not None:
            self._watchdog.feed()
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
        return self._read_adc(self._vsys) * _VSYS_FULL_MV // 4095

    def usb_power(self):
        """1 while USB powers the board, 0 when it does not, -1: not known."""
        return self._usb.value() if self._usb is not None else -1

    def led_power(self, on):
        """Switch the LEDs' supply (the MOSFET on their 5 V line), if there is one."""
        if self._led_power is not None:
            self._led_power.value(1 if on else 0)

    def sleep(self):
        """The lowest state that still wakes on a button: machine.lightsleep in slices of
        5 s, until a button pin falls or USB comes (RAM and the game kept, the clocks
        stopped but the timer's). Returns True once woken; False on USB power (nothing to
        save, and a sleep that stops the USB clock while a computer is attached may not
        come back: the frame loop then keeps polling, the LEDs dark).

        Slices, not ``lightsleep()``: without a timeout MicroPython sends the crystal
        dormant, which no pin IRQ wakes on an RP2040 (micropython#7035); with one, a pin
        whose IRQ has a handler wakes it (the buttons' are armed from boot on). USB's
        pin gets one for the sleep, disarmed after with ``trigger=0``; so do the buttons'
        on the PIO path (the state machine's clock stops in lightsleep)."""
        if self.usb_power() == 1:
            return False
        if self._watchdog is None:
            self._watchdog = WDT(timeout=_WATCHDOG_MS)
        _WOKEN[0] = 0
        usb = self._usb
        if usb is not None:
            usb.irq(handler=_woken, trigger=Pin.IRQ_RISING)
        if self._pio is not None:
            for pin in self._buttons:
                pin.irq(handler=_woken, trigger=Pin.IRQ_FALLING)
        while not _FELL[0] and not _WOKEN[0] and not self._levels() and self.usb_power() != 1:
            self._watchdog.feed()
            lightsleep(_SLEEP_SLICE_MS)
        self._watchdog.feed()
        if usb is not None:
            usb.irq(handler=None, trigger=0)
        if self._pio is not None:
            for pin in self._buttons:
                pin.irq(handler=None, trigger=0)
        return True

    def _levels(self):
        for pin in self._buttons:
            if not pin.value():
                return True
        return False

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


def _pins_used(config):
    used = [config["led_pin"], config["buzzer_pin"], config["led_power_pin"], config["usb_pin"]]
    for name in BUTTON_NAMES:
        used.append(config["buttons"][name])
    return used
