"""Power: the battery gauge and the idle timer, pure logic the frame loop consults.

    power = Power(config, hw)       # hw: its vsys_mv() and usb_power(), read once a second
    power.touch(now)                # a button: awake, not dimmed
    state = power.update(now, dim_ms, sleep_ms)   # AWAKE, DIM or SLEEP; once a frame
    power.percent                   # the battery's charge 0..100; -1: not known (USB)
    power.on_usb, power.low, power.critical
    power.cap                       # the display's power cap for what feeds the LEDs now
    power.warning(now)              # True while the low battery is announced on the grid

Idle: ``dim_ms`` after the last button the grid dims, ``sleep_ms`` after it the device
sleeps (0: never). A dimmed grid stays dim until a button, however long.

The battery: no gauge (``vsys_mv`` -1, or a reading no running Pico gives: below 2.5 V,
above 5.5 V, such as a pin nothing drives) is never low: a board without a gauge never
warns or sleeps for its battery, and its LEDs get the lower of the two caps (USB's and
the cell's: it may be either). USB power (``usb_power`` 1, or a supply above 4.4 V,
which only USB reaches, whatever the USB pin says) charges the cell: the USB cap, never
low. On a board whose reading sags under load (``hw.READS_UNDER_LOAD``: a real cell, not a
simulator's) it is corrected for the LEDs' current in the frame last shown (``display``,
set by the device: its ``total``): a bright frame sags the cell's voltage by about
0.15 ohm times its current (an estimate: the cell, its protection and the wires). On the cell, the charge follows a LiPo's discharge curve (volts at a light load),
smoothed over some 8 s so that a bright frame's dip is no alarm. At 15 % the battery is
low: announced on the grid for 3 s, again every 5 minutes, and the LEDs' cap is halved
(a nearly empty cell sags under a big current). At 3 % it is critical: announced, then
the device saves the game and sleeps (update gives SLEEP), again 3 s after each wake.
"""

from ..compat import const, ticks_diff

AWAKE = const(0)
DIM = const(1)
SLEEP = const(2)

_READ_MS = const(1000)  # the gauge is read once a second
_ANNOUNCE_MS = const(3000)  # a low battery is shown this long
_REPEAT_MS = const(300000)  # and again every 5 minutes while low
_LOW = const(15)  # percent: low at or below, until _LOW_CLEARED
_LOW_CLEARED = const(20)
_CRITICAL = const(3)  # percent: critical at or below, until _CRITICAL_CLEARED
_CRITICAL_CLEARED = const(8)
_USB_MV = const(4400)  # a supply above this is USB (a LiPo stops at 4.2 V)
_GAUGE_MIN_MV = const(2500)  # below: no running Pico (a cell's protection cuts at 2.5-3 V)
_GAUGE_MAX_MV = const(5500)  # above: no Pico either (VSYS's limit)
_SAG_MOHM = const(150)  # the cell's sag per A drawn, in mV (see the module docstring)
# A LiPo cell's voltage at 0, 10, ... 100 % charge under a light load, as (mV - 3000) / 5.
_CURVE = const(b"\x3c\x88\x94\x9a\x9e\xa4\xae\xb8\xc4\xd4\xf0")


# The LEDs' power budget from USB: 500 mA, of which each WS2812B takes 1 mA idle; a
# channel at full value (255) draws about 20 mA more. On battery: ``battery_ma``.
_USB_MA = const(500)
_IDLE_MA = const(1)
_CHANNEL_MA = const(20)


def power_budget(led_count, milliamps=_USB_MA):
    """The largest sum of channel values within USB's 500 mA (or ``milliamps``), rounded
    down to 50.

    36 LEDs: (500 - 36) mA / 20 mA * 255 = 5916 -> 5900 (the default brightness_cap);
    64 LEDs: (500 - 64) / 20 * 255 = 5559 -> 5550 (the panel8x8 default).
    """
    return max(milliamps - led_count * _IDLE_MA, 0) * 255 // _CHANNEL_MA // 50 * 50


def percent_of(mv):
    """A LiPo cell's charge (0..100) at ``mv`` millivolts: the curve, linear between its
    points."""
    x = mv - 3000
    curve = _CURVE
    if x <= curve[0] * 5:
        return 0
    for k in range(1, 11):
        hi = curve[k] * 5
        if x < hi:
            lo = curve[k - 1] * 5
            return 10 * (k - 1) + 10 * (x - lo) // (hi - lo)
    return 100


class Power:
    """The battery's state and the idle timer (see the module docstring)."""

    def __init__(self, config, hw, now=0):
        self.hw = hw
        self.display = None  # the device's Display: the current of the frame shown
        # a real cell sags under the LEDs (READS_UNDER_LOAD, the rp2 and CircuitPython
        # backends); a simulated one reads as at a light load already
        self._sags = getattr(hw, "READS_UNDER_LOAD", False)
        leds = config["led_count"]
        self._leds = leds
        self._usb_cap = config["brightness_cap"]
        self._cell_cap = power_budget(leds, config["battery_ma"])
        self._low_cap = power_budget(leds, config["battery_ma"] // 2)
        self.mv = -1  # the smoothed supply voltage; -1: no gauge
        self.percent = -1
        self.on_usb = True
        self.low = False
        self.critical = False
        self.cap = self._usb_cap
        self.dimmed = False
        self._touched = now
        self._read_at = now
        self._announced = now
        self._critical_at = now
        self.read(now)

    def touch(self, now):
        """A button was pressed: awake, bright; a critical battery warns again first."""
        self._touched = now
        self.dimmed = False
        if self.critical:
            self._critical_at = now

    def read(self, now):
        """Read the gauge now (update does once a second)."""
        self._read_at = now
        mv = self.hw.vsys_mv()
        usb = self.hw.usb_power()
        if mv < _GAUGE_MIN_MV or mv > _GAUGE_MAX_MV:
            mv = -1  # no gauge, or none worth the name
        elif self.display is not None and self._sags:
            mv += self.load_ma() * _SAG_MOHM // 1000
        self.on_usb = usb == 1 or mv > _USB_MV or usb < 0 and mv < 0
        if mv < 0 or self.on_usb:
            self.mv = mv
            self.percent = -1
            self.low = self.critical = False
            self.cap = self._usb_cap if self.on_usb else min(self._usb_cap, self._cell_cap)
            return
        self.mv = mv if self.mv < 0 or self.mv > _USB_MV else self.mv + (mv - self.mv) // 8
        self.percent = p = percent_of(self.mv)
        was_low, was_critical = self.low, self.critical
        self.low = p <= _LOW or was_low and p < _LOW_CLEARED
        self.critical = p <= _CRITICAL or was_critical and p < _CRITICAL_CLEARED
        if self.low and not was_low:
            self._announced = now
        if self.critical and not was_critical:
            self._critical_at = now
        self.cap = self._low_cap if self.low else self._cell_cap

    def load_ma(self):
        """The LEDs' current in the frame last shown, in mA (display.py's estimate)."""
        return self._leds * _IDLE_MA + self.display.total * _CHANNEL_MA // 255

    def warning(self, now):
        """True while the grid announces a low battery (always, when it is critical)."""
        if self.critical:
            return True
        if not self.low:
            return False
        t = ticks_diff(now, self._announced)
        if t >= _REPEAT_MS:
            self._announced = now
            t = 0
        return 0 <= t < _ANNOUNCE_MS

    def update(self, now, dim_ms, sleep_ms):
        """AWAKE, DIM or SLEEP at ``now``, the gauge read when due."""
        if ticks_diff(now, self._read_at) >= _READ_MS:
            self.read(now)
        if self.critical and ticks_diff(now, self._critical_at) >= _ANNOUNCE_MS:
            return SLEEP
        idle = ticks_diff(now, self._touched)
        if sleep_ms and idle >= sleep_ms:
            return SLEEP
        if dim_ms and idle >= dim_ms:
            self.dimmed = True
        return DIM if self.dimmed else AWAKE
