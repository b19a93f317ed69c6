"""Button levels recorded in the background, given to the frames as input.py can take them.

A reader that records every change of the six buttons while the frames cannot look
(rp2's PIO state machine, CircuitPython's ``keypad`` scanner) may hold several changes by
the next frame: a save's flash erase froze the CPU, and a button was tapped twice in it.
Handing the frame only the latest levels would lose both taps; handing over every change
at once would put a press and its release in one frame, which input.py never sees.

``RecordedLevels.mask(now)``, once a frame, gives as many of the queued levels as it can
without changing one button twice, or a button that changed less than 20 ms ago by the
frame's clock (input.py would take that for a bounce). A tap inside a freeze is then held
at one frame and let go at the next, and two taps of one button are two presses:

>>> from microrobots.compat import ticks_diff
>>> levels = RecordedLevels(ticks_diff)
>>> levels.reset(1000, 0)  # nothing held at the start, as if changed long ago
>>> for held in (16, 0, 16, 0):  # A tapped twice while the frames could not look
...     levels.put(held)
>>> [levels.mask(now) for now in (1000, 1020, 1040, 1060, 1080)]
[16, 0, 16, 0, 0]

``now`` must be the frame's own now as input.py gets it (Device.step passes it): counted in
a reading of the ticks a moment later, which may be 1 ms on, a change would come 20 ms
after the last by this clock and 19 by input.py's, which took it for a bounce (issue 31: a
tap lost at worst-case flash times). Allocates nothing.
"""

from ..compat import const

_QUEUE = const(64)  # levels recorded and not yet given (a frame gives one change a button)
_BOUNCE_MS = const(20)  # input.py's lock-out: a button changes once in this time


class RecordedLevels:
    """A queue of the six buttons' levels (bit i: button i held), paced for input.py.

    ``ticks_diff``: the board's own (its ticks may wrap elsewhere than compat's), a plain
    function: a bound method would be allocated at every call."""

    def __init__(self, ticks_diff):
        self._diff = ticks_diff
        self._queue = bytearray(_QUEUE)
        self._head = 0
        self._count = 0
        self.lost = 0  # levels dropped with the queue full (never, read once a frame)
        self._shown = 0
        self._changed = [0] * 6  # the now at which mask() last changed each button

    def reset(self, now, levels):
        """Forget the queue: ``levels`` are the buttons as they are, changed long ago
        (``now`` - 20 ms: at least 20 ms before any frame's now)."""
        self._head = self._count = 0
        self._shown = levels
        for i in range(6):
            self._changed[i] = now - _BOUNCE_MS  # compared only by ticks_diff

    def put(self, levels):
        """Record the levels after one change, in the order the changes came."""
        if self._count == _QUEUE:
            self.lost += 1
            return
        self._queue[(self._head + self._count) % _QUEUE] = levels
        self._count += 1

    def latest(self):
        """The levels after the last change recorded, given to a frame or not."""
        if self._count:
            return self._queue[(self._head + self._count - 1) % _QUEUE]
        return self._shown

    def mask(self, now):
        """The levels for the frame at ``now`` (once a frame)."""
        mask = self._shown
        busy = 0
        changed = self._changed
        diff = self._diff
        for i in range(6):
            if diff(now, changed[i]) < _BOUNCE_MS:
                busy |= 1 << i
        done = 0
        while self._count:
            levels = self._queue[self._head]
            change = levels ^ mask
            if change & (busy | done):
                break
            done |= change
            mask = levels
            self._head = (self._head + 1) % _QUEUE
            self._count -= 1
        if done:
            for i in range(6):
                if done >> i & 1:
                    changed[i] = now
        self._shown = mask
        return mask
