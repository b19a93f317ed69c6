"""CircuitPython on a Raspberry Pi Pico: board pins, keypad, Adafruit neopixel, pwmio.

Buttons: a save's writes to the FAT drive freeze the loop for 270-380 ms, most of it
sector erases of 45 ms with interrupts off, and taps fall inside. The rp2 backend's PIO
watcher (the same program: button_program.py's words for ``rp2pio``) records
every change of the six pins through them; ``pressed_mask`` gives the records to the
frames as input.py can take them (one change of a button a frame). Where no state
machine can have the pins (a window of GPIOs that holds a pin in other use), ``keypad``
scans them every 20 ms from CircuitPython's tick interrupt, which keeps a tap around a
freeze but not a press or a release that begins and ends inside one erase (the
interrupts are off); scanning every 20 ms is its debounce (no two scans in one bounce).

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
from array import array

import analogio
import board
import digitalio
import keypad
import microcontroller
import neopixel
import pwmio
from neopixel_write import neopixel_write

from ..input import BUTTON_NAMES
from ..recorded import RecordedLevels
from . import button_program, button_watch

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
_SCAN_S = 0.02  # keypad's interval: longer than a bounce, shorter than a tap
_EVENTS = 64  # keypad's queue: 32 taps between two frames


def pin(number):
    """``board.GP<number>``."""
    return getattr(board, "GP%d" % number)


def _ticks_diff(end, start):
    """``end - start`` in ms for two of ``supervisor.ticks_ms``'s readings."""
    return ((end - start + _TICKS_HALF) % _TICKS_PERIOD) - _TICKS_HALF


def _gpio(number):
    """``microcontroller.pin.GPIO<number>``: also the Pico's internal GP24 and GP29."""
    return getattr(microcontroller.pin, "GPIO%d" % number)


def _board_ticks():
    if _ticks_ms is not None:
        return _ticks_ms()
    return (time.monotonic_ns() // 1000000) % _TICKS_PERIOD


class _Fifo:
    """An ``rp2pio.StateMachine`` running button_watch's program, as Replay reads one."""

    def __init__(self, sm):
        self._sm = sm
        self._word = array("L", [0])  # readinto fills it: no allocation per word

    def rx_fifo(self):
        return self._sm.in_waiting

    def get(self):
        self._sm.readinto(self._word)
        return self._word[0]

    def deinit(self):
        self._sm.deinit()


def _watcher(ids):
    """button_watch's ``Replay`` of the buttons on GPIOs ``ids`` (in BUTTON_NAMES order)
    read by a state machine through ``rp2pio``, or None: no rp2pio, no free state
    machine, or a pin of the window in use."""
    try:
        import rp2pio
    except ImportError:
        return None
    base = min(ids)
    span = max(ids) - base + 1
    if button_watch.group_bits(span) > button_watch.WORD_BITS:
        return None
    words, wrap_target, wrap = button_program.program(span)
    pull_ups = 0
    for i in ids:
        pull_ups |= 1 << (i - base)
    try:
        sm = rp2pio.StateMachine(
            array("H", words), frequency=button_watch.FREQ_HZ, first_in_pin=pin(base),
            in_pin_count=span, pull_in_pin_up=pull_ups, auto_push=True,
            push_threshold=button_watch.push_threshold(span), in_shift_right=False,
            out_shift_right=True, mov_status_type="rxfifo", mov_status_n=button_watch.ROOM,
            wrap_target=wrap_target, wrap=wrap, fifo_type="rx")
    except (ValueError, RuntimeError, TypeError):  # in use, no room, an older rp2pio
        return None
    return button_watch.Replay(_Fifo(sm), [i - base for i in ids], span, _board_ticks,
                               _ticks_diff)


class _Keys:
    """``keypad``'s events as levels for the frames (device/recorded.py)."""

    def __init__(self, pins, held, now):
        self.levels = RecordedLevels(_ticks_diff)
        self.levels.reset(now, held)
        self._held = held  # the levels after the last event read
        self._keys = keypad.Keys(pins, value_when_pressed=False, pull=True, interval=_SCAN_S,
                                 max_events=_EVENTS)
        self._events = self._keys.events
        self._event = keypad.Event()  # filled in place: reading the queue allocates nothing

    def mask(self, now):
        event = self._event
        events = self._events
        while events.get_into(event):
            if event.pressed:
                self._held |= 1 << event.key_number
            else:
                self._held &= ~(1 << event.key_number)
            self.levels.put(self._held)
        return self.levels.mask(now)

    def deinit(self):
        self._keys.deinit()


class Hardware:
    """Pins from ``config``: LED data, six active-low buttons with pull-ups, a piezo."""
    PIXEL_ORDER = "wiring"  # show() gets the LEDs' bytes in their wiring (display.py)

    READS_UNDER_LOAD = True  # the gauge reads a real cell, sagging under the LEDs (power.py)

    def __init__(self, config):
        self._config = config
        self.pixels = neopixel.NeoPixel(
            pin(config["led_pin"]), config["led_count"], brightness=1.0, auto_write=False,
            pixel_order=config["color_order"])
        self._buttons = None  # what reads them: a state machine's Replay, or _Keys
        self._holder = None  # what holds their pins: deinit() lends them to a sleep's alarms
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
        """The reader on the buttons' pins, their levels read first as they are: the
        device must know a button held at power-on (the self-test) or the one that woke
        it (no move), and keypad takes every key for released at its start."""
        ids = [self._config["buttons"][name] for name in BUTTON_NAMES]
        pins = [pin(i) for i in ids]
        held = 0
        for k, p in enumerate(pins):
            io = digitalio.DigitalInOut(p)
            io.switch_to_input(pull=digitalio.Pull.UP)
            if not io.value:  # active low
                held |= 1 << k
            io.deinit()
        now = self.ticks_ms()
        replay = _watcher(ids)
        if replay is not None:
            replay.levels.reset(now, held)
            self._buttons, self._holder = replay, replay.sm
        else:
            self._buttons = self._holder = _Keys(pins, held, now)

    def pressed_mask(self, now=None):
        """The buttons held, one change of a button a frame in the order they came (once
        a frame). ``now``: the frame's ticks_ms (None: read here)."""
        return self._buttons.mask(self.ticks_ms() if now is None else now)

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
        self._holder.deinit()
        alarms = [alarm.pin.PinAlarm(pin(self._config["buttons"][name]), value=False, pull=True)
                  for name in BUTTON_NAMES]
        alarm.light_sleep_until_alarms(*alarms)
        for a in alarms:
            a.deinit() if hasattr(a, "deinit") else None
        self._open_buttons()
        return True

    def ticks_ms(self):
        return _board_ticks()

    def ticks_diff(self, end, start):
        return _ticks_diff(end, start)

    def sleep_ms(self, ms):
        time.sleep(_SECONDS[ms] if 0 <= ms <= 20 else ms / 1000)

    def seed(self):
        b = os.urandom(4)
        return (b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24) & 0x3FFFFFFF
