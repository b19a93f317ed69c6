"""The handheld: the device's config, pins, buttons, display and store wired to the app;
the frame loop.

    Device(hw.backend()).run()       # what main.py does at power-on (main())

Every 20 ms: read the buttons, hand their events to the app, let it update, then draw
a frame (the contract: device/contract.py), show the frame on the LEDs, play any sound it asked for, print any line it has for the serial
console (a referee's verdict and why), sleep until the next frame. Long work (a saved
game replayed) is the app's: a piece of it a frame (app.App.work).

Holding A while the device powers on starts the builder's self-test (every LED, button,
the supply, the piezo: modes/selftest.py) instead of the mode on show.

Power (device/power.py): a minute without a button (the setting ``dim``, in minutes;
0 = never) dims the grid to level 1; five (``sleep``) put the device to sleep: the game
saved, the LEDs dark and their supply cut (``led_power_pin``), then ``hw.sleep()``,
the board's lowest state that a button wakes. The press that wakes it is no move (its
button is ignored until released), and the app's clock skips the time asleep, so the
game resumes exactly as it was. A low battery is announced on the grid (a battery with
a red cell, blinking); a critical one saves the game and sleeps. The app sees the gauge
as ``app.power`` (the settings show it).

Nothing here may reboot the device in a loop:
- a bad ``config.json`` prints one line on the serial console (again every 10 s) and
  shows a red X on the grid, wired by the default configuration; the device then idles;
- an exception in the app prints its traceback and shows an orange X; releasing any
  button restarts the app. Settings are kept, and so is the saved game, unless it was
  being played (or, when the app could not even start, it was the file read last): then
  that file is set aside as NAME.bad.json (kept, never loaded again), the console says
  so and the restarted app shows the notice, so a saved state never replays into a
  crash loop. After a MemoryError (perhaps only a short heap) the file stays the first
  time, and goes aside when the app stops again with it in play: the restart after
  that starts clean and says why.
"""

import gc
import sys

from . import frame as F
from .compat import TICKS_MAX, ticks_add, ticks_diff
from .device import config, hw
from .device.display import Display
from .device.input import A, NO_EVENT, RELEASE, Buttons
from .device.power import DIM, SLEEP, Power
from .device.sound import Player
from .device.store import Store

try:
    from .app import App as _App
except Exception as error:  # noqa: BLE001 - shown as a failed app below, not a crash
    _App = error

FRAME_MS = 20
CONFIG_FILE = "config.json"
CONFIG_ERROR = (255, 0, 0)  # red X: config.json is wrong, see the serial console
APP_ERROR = (255, 96, 0)  # orange X: the app stopped; release any button to restart it
RESTART_AFTER_MS = 1000  # ignore buttons this long after a failure (one may be held)
REPEAT_MESSAGE_MS = 10000
SELF_TEST_BUTTON = A  # held at power-on: the builder's self-test (modes/selftest.py)
def read_config(path):
    """``(config, problem)``: config.json checked, or the defaults and one line on why.

    ``path`` None gives the defaults. The device reads its configuration once, at boot."""
    try:
        if path is None:
            return config.defaults(), None
        return config.load_file(path), None
    except config.ConfigError as error:
        return config.defaults(), str(error)
    except Exception as error:  # noqa: BLE001 - e.g. MemoryError: a red X, never a dead boot
        return config.defaults(), "%s: cannot be read (%s)" % (path, type(error).__name__)


def log_exception(error):
    if hasattr(sys, "print_exception"):  # MicroPython, CircuitPython
        sys.print_exception(error)
    else:
        import traceback

        traceback.print_exception(type(error), error, error.__traceback__)


class Device:
    """The running handheld. ``Hardware``: a class from ``microrobots.hw``; ``App``: the
    app's class (None: app.App), anything that implements device/contract.py."""

    def __init__(self, Hardware, config_path=CONFIG_FILE, root="", App=None):
        config, self.problem = read_config(config_path)  # a problem: the default wiring
        try:
            self.hw = Hardware(config)
        except Exception as error:  # noqa: BLE001 - e.g. a pin this board does not have
            if self.problem is not None:
                raise
            self.problem = "%s: the pins do not work here (%s: %s)" % (
                config_path, type(error).__name__, error)
            config = read_config(None)[0]
            self.hw = Hardware(config)
        self.display = Display(config, write=self.hw.show, pixel_order=Hardware.PIXEL_ORDER)
        self.buttons = Buttons()
        self.buttons.reset(self.hw.ticks_ms() & TICKS_MAX)
        self.store = Store(root)
        self.player = Player(self.hw)
        self.frame = bytearray(108)
        self.power = Power(config, self.hw, self.hw.ticks_ms() & TICKS_MAX)
        self.power.display = self.display  # the gauge corrects for the frame's current
        self.asleep = False
        self.sleeps = 0  # times the device went to sleep
        self._waking = False  # the button that woke the device is held: no move
        self._last = self.hw.ticks_ms()
        # The app's clock: compat's ticks, moved on by what the board's own ticks_diff
        # measures each frame (a board whose ticks wrap elsewhere still gives these).
        self.now = self._last & TICKS_MAX
        self._failed_at = self.now
        self._said_at = self.now  # the problem is said at once, then every 10 s
        self.app = None
        self._notice = None  # a saved game set aside by fail(): the next app shows it
        self._suspect = None  # the file in play when a MemoryError stopped the app (fail)
        self._App = App
        self.tones = ()
        if self.problem is not None:
            print(self.problem)
            self._halt(CONFIG_ERROR)
        else:
            self.start_app()
            if self.app is not None and self.hw.pressed_mask() >> SELF_TEST_BUTTON & 1:
                self.app.self_test(self.now)
                self._waking = True  # the button held is no key until released

    def start_app(self):
        try:
            App = self._App
            if App is None:
                if isinstance(_App, Exception):
                    raise _App
                App = _App
            self.tones = App.TONES
            gc.collect()
            self.app = App(self.store, seed=self.hw.seed(), now=self.now, power=self.power)
            if self._notice:  # a game set aside by fail
                self.app.show_notice(self._notice, self.now)
            self._notice = None
            if self.app.notice:  # a saved file was reset to defaults: say so on the console
                print("notice:", self.app.notice)
        except Exception as error:  # noqa: BLE001 - never reboot in a loop
            self.fail(error)

    def console(self, line):
        """A line from the app for the serial console (the simulator shows it too)."""
        print(line)

    def fail(self, error):
        print("error: the app stopped (%s); release a button to restart it" % type(error).__name__)
        log_exception(error)
        # The saved game being played, or the file read last if the app could not start:
        # set aside (NAME.bad.json), so that the restart does not replay it into a loop.
        # A MemoryError may say only that the heap was short, not that the game is bad:
        # the game is kept the first time, and set aside if the same file is in play
        # when the app stops again (whatever the error): no loop, however it fails.
        name = self.store.loaded if self.app is None else self.app.live_game()
        kept = None
        if name and (name == self._suspect or not isinstance(error, MemoryError)):
            kept = self.store.set_aside(name)
            self._suspect = None
        elif name:
            self._suspect = name
        if kept:
            again = " again" if isinstance(error, MemoryError) else ""
            self._notice = "%s: the app stopped with it%s (%s); kept as %s" % (
                self.store.path(name), again, type(error).__name__, kept)
            print("notice:", self._notice)
        self.app = None
        self._failed_at = self.now
        self._halt(APP_ERROR)

    def _halt(self, color):
        self.player.stop()
        F.cross(self.frame, color)
        self.display.set_brightness(4)
        self.display.show(self.frame)

    def step(self):
        """One frame."""
        board = self.hw
        t = board.ticks_ms()
        elapsed = board.ticks_diff(t, self._last)
        self._last = t
        if self.asleep:  # the app's clock stands still: it resumes as it was
            if board.pressed_mask(t) or board.sleep():
                self.wake()
            return
        self.now = ticks_add(self.now, elapsed)
        now = self.now
        # t, not a reading of its own: a backend that paces recorded changes (rp2's PIO
        # path) must count in the clock input.py counts in (now moves on as t does)
        mask = board.pressed_mask(t)
        if self._waking:  # the button that woke the device is no move
            self._waking = mask != 0
            mask = 0
        buttons = self.buttons
        buttons.poll(now, mask)
        app = self.app
        if app is None:
            self._idle(now)
            return
        power = self.power
        try:
            # a mode playing by itself (the classroom's demo, not paused) keeps it awake
            if mask or app.keeps_awake():
                power.touch(now)
            event = buttons.next_event()
            while event != NO_EVENT:
                app.handle(event, now)
                event = buttons.next_event()
            app.update(now)
            app.render(now, self.frame)
            sound = app.take_sound()
            level = app.brightness
            line = app.take_line()
            state = power.update(now, app.dim_after_ms(), app.sleep_after_ms())
            if state == SLEEP and app.may_sleep():
                self.sleep()
                return
        except Exception as error:  # noqa: BLE001 - show it, keep running
            self.fail(error)
            return
        if line:
            self.console(line)
        if state == DIM:
            level = 1
        if power.warning(now):
            F.battery(self.frame, now, power.critical)
        if level != self.display.brightness:
            self.display.set_brightness(level)
        self.display.cap = power.cap
        self.display.show(self.frame)
        if sound:
            self.player.play(self.tones[sound], now)
        self.player.update(now)

    def sleep(self):
        """Sleep until a button: the LEDs dark and their supply cut, then the game saved
        (the cell may run out, or the power switch go off, meanwhile: on a critical cell
        the save runs at its lightest load, not under the last picture), then the
        board's lowest power state (``hw.sleep``: blocks until a button on a Pico; a
        fake or a page cannot block, and step() asks again each frame)."""
        self.player.stop()
        frame = self.frame
        for i in range(len(frame)):
            frame[i] = 0
        self.display.show(frame)
        self.hw.led_power(False)
        if self.app is not None:
            self.app.flush()
        self.asleep = True
        self.sleeps += 1
        if self.hw.sleep():
            self.wake()

    def wake(self):
        """Back from sleep: the LEDs' supply on, the frame redrawn; the button held
        now is ignored until released."""
        self.asleep = False
        self.hw.led_power(True)
        self._last = self.hw.ticks_ms()
        self.buttons.reset(self.now)
        self._waking = True
        self.power.touch(self.now)
        self.power.read(self.now)
        self.display.set_brightness(self.display.brightness)  # write the next frame anew

    def _idle(self, now):
        """No app: a bad config waits forever, a failed app for a released button."""
        restart = False
        event = self.buttons.next_event()
        while event != NO_EVENT:
            restart = restart or event >> 3 == RELEASE
            event = self.buttons.next_event()
        if self.problem is not None:
            if ticks_diff(now, self._said_at) >= REPEAT_MESSAGE_MS:
                self._said_at = now
                print(self.problem)
        elif restart and ticks_diff(now, self._failed_at) >= RESTART_AFTER_MS:
            self.start_app()

    def run(self, frames=-1):
        """Run ``frames`` frames (-1: forever), each FRAME_MS long unless one overruns."""
        board = self.hw
        while frames != 0:
            start = board.ticks_ms()
            self.step()
            spent = board.ticks_diff(board.ticks_ms(), start)
            if spent < FRAME_MS:
                board.sleep_ms(FRAME_MS - spent)
            frames -= 1


def main():
    Device(hw.backend()).run()

