"""MicroPython's WebAssembly port in a web page (tools/sim/web/): the page is the board.

The page owns the clock and the loop: it calls ``Device.step()`` once per tick (a
browser must never be blocked by a ``while True`` loop), so ``sleep_ms`` does not wait.
Everything else comes from a JavaScript object the page sets up before the firmware
boots, ``globalThis.microrobotsBoard``::

    buttons()     the buttons held, a mask as pressed_mask() returns
    show(grid)    a Uint8Array(108): the LED values written, R G B per cell, row-major
    tone(freq)    the buzzer at freq Hz until the next call; 0 is silence
    now()         the page's clock in ms (wall time, or the replayed events' time)
    seed()        a number for new games (random, or the page's ?seed=N)
    vsys()        the simulated battery's voltage in mV, or -1 (no battery: on USB)
    usb()         1 on USB power, 0 on the simulated battery
    ledPower(on)  the LED supply switched on (true) or off (the page shows it)
    sleep()       the device went to sleep (the page shows it; a button wakes it)

The page is no strip of LEDs: the backend declares the grid's own pixel order
(``PIXEL_ORDER``), so display.py hands ``show`` the grid as the player sees it, R G B
per cell, row-major: the same values, in the same order, as the simulator's frames
(``Display.written``).
"""

import js

_PERIOD = 0x40000000  # ticks wrap as MicroPython's do (2**30 ms, 12.4 days)
_HALF = 0x20000000


class Hardware:
    """The page's buttons, grid, buzzer and clock (see the module docstring)."""

    PIXEL_ORDER = "grid"  # display.py writes R G B per cell, row-major: no wiring

    def __init__(self, config):
        self._board = js.microrobotsBoard
        self._buzzer = config["buzzer_pin"] is not None

    def pressed_mask(self, now=None):
        return self._board.buttons()

    def show(self, buf):
        self._board.show(js.Uint8Array.new(buf))

    def tone(self, freq):
        if self._buzzer:
            self._board.tone(freq if freq > 0 else 0)

    def quiet(self):
        if self._buzzer:
            self._board.tone(0)

    def vsys_mv(self):
        return self._board.vsys()

    def usb_power(self):
        return self._board.usb()

    def led_power(self, on):
        self._board.ledPower(bool(on))

    def sleep(self):
        self._board.sleep()
        return False  # a page cannot block: the device loop asks again each tick

    def ticks_ms(self):
        return self._board.now() % _PERIOD

    def ticks_diff(self, end, start):
        return (end - start + _HALF) % _PERIOD - _HALF

    def sleep_ms(self, ms):
        pass  # the page's clock paces the frames: it calls Device.step() once per tick

    def seed(self):
        return self._board.seed() & 0x3FFFFFFF
