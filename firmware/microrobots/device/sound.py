"""Plays short tone sequences on the piezo without blocking the frame loop.

A sequence is a tuple of ``(freq_hz, ms)`` steps, frequency 0 being a rest (see
``app.TONES``). ``play`` starts one, replacing whatever was playing; ``update(now)``,
called once a frame, moves to the next step when its time is up. Steps are therefore
timed to the frame (20 ms); the short clicks of a handheld need no better.
"""


from ..compat import ticks_add, ticks_diff


class Player:
    def __init__(self, hw):
        self.hw = hw
        self._steps = ()
        self._index = 0
        self._until = 0

    def play(self, tones, now):
        self._steps = tones
        self._index = 0
        self._start(now)

    def stop(self):
        self._steps = ()
        self._index = 0
        self.hw.quiet()

    def update(self, now):
        if self._index < len(self._steps) and ticks_diff(now, self._until) >= 0:
            self._index += 1
            self._start(self._until)

    def _start(self, start):
        if self._index >= len(self._steps):
            self.hw.quiet()
            return
        freq, ms = self._steps[self._index]
        self.hw.tone(freq)
        self._until = ticks_add(start, ms)
