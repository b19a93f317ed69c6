"""What the device loop (handheld.Device) needs from the app it runs: the one contract.

``app.App`` implements it, and so does every stand-in the tests give the device: they
subclass ``AppContract``, whose methods are the answers of an app that wants nothing
(no sound, no line, never awake by itself, no idle limits). The device calls nothing
else, and probes for nothing.

Each frame, in this order::

    app.handle(event, now)     # every input.py event of the frame, in order
    app.update(now)            # timers, long work, held keys, saves: all that changes
    app.render(now, frame)     # the bytearray(108) filled from the state; reads only
    app.take_sound()           # a sound request (an index into TONES), 0: none
    app.take_line()            # a line for the serial console, or None
    app.brightness             # 1..8

and for power (device/power.py): ``keeps_awake()`` (a mode playing by itself counts as
a button), ``dim_after_ms()`` and ``sleep_after_ms()`` (the idle limits; 0: never),
``may_sleep()`` (False while long work runs), ``flush()`` (write what is unsaved: the
device is about to sleep). Around failures: ``notice`` (a line the console prints at
start), ``show_notice(text, now)`` (the device set a saved game aside), ``live_game()``
(the file in play, set aside if the app stops with it). At boot, if the builder holds
the self-test's button (handheld.SELF_TEST_BUTTON): ``self_test(now)``.

None of them allocates in a frame, but in the frame that encodes a file to save
(saving.py) and a mode switch's.
"""


class AppContract:
    """The answers of an app that wants nothing; see the module docstring."""

    TONES = ()  # sound request -> ((freq_hz, ms), ...) for sound.Player
    brightness = 5
    notice = None  # one line for the console at start, or None

    def __init__(self, store, seed=0, now=0, power=None):
        """``store``: a store.Store; ``seed``: varies at every boot; ``now``: the
        device's clock; ``power``: the device's power.Power (the battery gauge)."""

    def handle(self, event, now):
        pass

    def update(self, now):
        pass

    def render(self, now, frame):
        pass

    def take_sound(self):
        return 0

    def take_line(self):
        return None

    def keeps_awake(self):
        return False

    def dim_after_ms(self):
        return 0

    def sleep_after_ms(self):
        return 0

    def may_sleep(self):
        return True

    def flush(self):
        pass

    def show_notice(self, text, now):
        pass

    def live_game(self):
        return None

    def self_test(self, now):
        pass
