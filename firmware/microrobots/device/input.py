"""Debounced buttons into the events a mode needs: press, tap, long, repeat, release.

Modelled on Peter Hinch's ``Pushbutton`` (micropython-async ``primitives``), made
synchronous and allocation-free: the main loop calls ``poll(now, pressed_mask)`` once per
frame with the time in ms and a bit mask of the buttons held down (bit 0 = up ... bit 5 = b;
the hardware layer has already inverted the active-low pins), then drains the events::

    buttons.poll(now, hw.pressed_mask())
    event = buttons.next_event()
    while event >= 0:
        app.handle(event, now)
        event = buttons.next_event()

An event is ``kind << 3 | button``: its kind (PRESS...) is ``e >> 3``, its button (UP...) ``e & 7``.

Debouncing is by lock-out, as in Hinch's Pushbutton: a change of level is accepted at the
first poll that sees it, and further changes of that button are ignored for
20 ms while the contacts bounce. So a PRESS is reported by the very poll
that first sees the button down, and reaches the screen in the same frame.

Holding a button: LONG once after 600 ms, for every button. The D-pad also
auto-repeats: REPEAT after 400 ms, then every 120 ms,
at most one per poll (a late poll never bursts). RELEASE always follows, LONG or not;
a TAP follows a RELEASE that came before LONG. Whether a release is a tap is decided
here, once, as Hinch's Pushbutton decides it ("a release after long is no tap"), per
button: a tap of B while A is held long is still a tap.

What the app makes of them (app.App.handle): the D-pad acts on PRESS and REPEAT, A and
B on TAP and LONG.
"""

from ..compat import const, ticks_add, ticks_diff

UP = const(0)
DOWN = const(1)
LEFT = const(2)
RIGHT = const(3)
A = const(4)
B = const(5)
BUTTON_NAMES = ("up", "down", "left", "right", "a", "b")
_BUTTONS = const(6)
_DPAD_MASK = const(0x0F)  # up, down, left, right: the buttons that auto-repeat

PRESS = const(1)
RELEASE = const(2)
LONG = const(3)
REPEAT = const(4)
TAP = const(5)  # released before LONG

NO_EVENT = const(-1)

_DEBOUNCE_MS = const(20)
_LONG_MS = const(600)
_REPEAT_DELAY_MS = const(400)
_REPEAT_MS = const(120)
_QUEUE_SIZE = const(16)
_STALE_MS = const(0x10000000)  # a level this old (3.1 days) stays "long ago" (see poll)


class Buttons:
    """Six debounced buttons and a queue of their events.

    ``poll`` and ``next_event`` allocate nothing. When the queue (``_QUEUE_SIZE`` events)
    is full, new events are dropped and counted in ``dropped``; polled once a frame and
    drained every frame it never fills.
    """

    def __init__(self):
        self._changed = [0] * _BUTTONS  # when each button's accepted level last changed
        self._long_done = [False] * _BUTTONS
        self._next_repeat = [0] * _BUTTONS
        self._queue = bytearray(_QUEUE_SIZE)
        self.reset()

    def reset(self, now=0):
        """Forget every button and event (e.g. after the app restarts)."""
        self.state = 0  # the debounced mask: bit set = held down
        for b in range(_BUTTONS):
            self._changed[b] = ticks_add(now, -_DEBOUNCE_MS)
            self._long_done[b] = False
        self._head = 0
        self._count = 0
        self.dropped = 0

    def poll(self, now, pressed_mask):
        """Take the raw levels at time ``now`` (ticks, see compat.ticks_add); queue the
        events they cause."""
        state = self.state
        for b in range(_BUTTONS):
            bit = 1 << b
            held = state & bit
            since = ticks_diff(now, self._changed[b])
            if since < 0 or since >= _STALE_MS:
                # Ticks compare only within 2**29 ms: a button left alone for days would
                # read as changed in the future, and be locked out for days more.
                since = _STALE_MS
                self._changed[b] = ticks_add(now, -_STALE_MS)
            if (pressed_mask & bit) != held and since >= _DEBOUNCE_MS:
                self._changed[b] = now
                state ^= bit
                if held:
                    self._put(RELEASE << 3 | b)
                    if not self._long_done[b]:
                        self._put(TAP << 3 | b)
                else:
                    self._put(PRESS << 3 | b)
                    self._long_done[b] = False
                    self._next_repeat[b] = ticks_add(now, _REPEAT_DELAY_MS)
            elif held:
                if _DPAD_MASK & bit and ticks_diff(now, self._next_repeat[b]) >= 0:
                    self._put(REPEAT << 3 | b)
                    due = ticks_add(self._next_repeat[b], _REPEAT_MS)
                    self._next_repeat[b] = due if ticks_diff(due, now) > 0 else ticks_add(
                        now, _REPEAT_MS)
                if not self._long_done[b] and since >= _LONG_MS:
                    self._long_done[b] = True
                    self._put(LONG << 3 | b)
        self.state = state

    def next_event(self):
        """The oldest queued event, or ``NO_EVENT`` (-1) when there is none."""
        if not self._count:
            return NO_EVENT
        e = self._queue[self._head]
        self._head = (self._head + 1) % _QUEUE_SIZE
        self._count -= 1
        return e

    def pending(self):
        return self._count

    def _put(self, e):
        if self._count == _QUEUE_SIZE:
            self.dropped += 1
            return
        self._queue[(self._head + self._count) % _QUEUE_SIZE] = e
        self._count += 1
