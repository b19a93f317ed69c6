"""No pins: a scripted button mask, recorded LED writes and tones, and a fake clock.

The backend under CPython, and the stand-in tests and the simulator drive: set
``pressed`` (a mask like ``pressed_mask()`` returns), read ``shown`` (the last bytes
written, a copy) and ``writes``; ``sleep_ms`` advances ``now`` instead of waiting.
"""


class Hardware:
    def __init__(self, config):
        self.config = config
        self.pressed = 0
        self.shown = None
        self.writes = 0
        self.tones = []  # (now, freq): every tone() and quiet() (freq 0)
        self.now = 0

    def pressed_mask(self):
        return self.pressed

    def show(self, buf):
        self.shown = bytes(buf)
        self.writes += 1

    def tone(self, freq):
        self.tones.append((self.now, max(freq, 0)))

    def quiet(self):
        self.tones.append((self.now, 0))

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, later, earlier):
        return later - earlier

    def sleep_ms(self, ms):
        self.now += ms

    def seed(self):
        return 1234
