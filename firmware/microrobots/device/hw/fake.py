"""No pins: a scripted button mask, recorded LED writes and tones, and a fake clock.

The backend under CPython, and the stand-in tests and the simulator drive: set
``pressed`` (a mask like ``pressed_mask()`` returns), read ``shown`` (the last bytes
written, a copy) and ``writes``; ``sleep_ms`` advances the clock instead of waiting.

The clock is a MicroPython ticks_ms() clock: ``now`` runs from ``start`` and wraps to 0
after TICKS_MAX, as a Pico's does after 12.4 days, so tests can start it just before the
wrap (a subclass with ``start = TICKS_MAX - 5000``); ``elapsed`` counts the ms since the
fake was built, without wrapping.

Power: set ``vsys`` (mV the fake ADC reads, -1 = no gauge) and ``usb`` (1, 0 or -1);
``led_supply`` is the LED supply's switch as last set (True: on); ``sleeps`` counts the
sleep() calls. A fake cannot wait for a button: ``sleep`` returns False at once and the
device loop asks again each frame, until ``pressed`` says a button is down.
"""

from ...compat import TICKS_MAX, ticks_add, ticks_diff


class Hardware:
    PIXEL_ORDER = "wiring"  # show() gets the bytes a strip would (display.py)
    start = 0  # the first tick

    def __init__(self, config):
        self.config = config
        self.pressed = 0
        self.shown = None
        self.writes = 0
        self.tones = []  # (now, freq): every tone() and quiet() (freq 0)
        self.now = self.start & TICKS_MAX
        self.elapsed = 0
        self.vsys = -1
        self.usb = -1
        self.led_supply = True
        self.sleeps = 0

    def pressed_mask(self, now=None):
        return self.pressed

    def show(self, buf):
        self.shown = bytes(buf)
        self.writes += 1

    def tone(self, freq):
        self.tones.append((self.now, max(freq, 0)))

    def quiet(self):
        self.tones.append((self.now, 0))

    def vsys_mv(self):
        return self.vsys

    def usb_power(self):
        return self.usb

    def led_power(self, on):
        self.led_supply = bool(on)

    def sleep(self):
        self.sleeps += 1
        return False

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, end, start):
        return ticks_diff(end, start)

    def sleep_ms(self, ms):
        self.now = ticks_add(self.now, ms)
        self.elapsed += ms

    def seed(self):
        return 1234
