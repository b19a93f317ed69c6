"""input.py: debounced press/release, long press, D-pad auto-repeat, the event queue."""

import json
import os

import input_mpy
import mpy
from hypothesis import given
from hypothesis import strategies as st
from microrobots.device import input as inp
from microrobots.device.input import (
    BUTTON_NAMES,
    DOWN,
    LEFT,
    LONG,
    NO_EVENT,
    PRESS,
    RELEASE,
    REPEAT,
    RIGHT,
    TAP,
    UP,
    A,
    B,
    Buttons,
)
from button_events import event, event_name

# input_mpy.py (beside this file): the same polls inside MicroPython
SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "input_mpy.py")


def drain(buttons):
    out = []
    e = buttons.next_event()
    while e != NO_EVENT:
        out.append(e)
        e = buttons.next_event()
    return out


def run(polls, buttons=None):
    """``polls``: (ms, mask) pairs; returns [(ms, "kind button"), ...]."""
    buttons = buttons or Buttons()
    out = []
    for now, mask in polls:
        buttons.poll(now, mask)
        out.extend((now, event_name(e)) for e in drain(buttons))
    return out


def hold(bit, start, end, until, step=20):
    """Polls every ``step`` ms from 0 to ``until``: ``bit`` held during [start, end)."""
    return [(t, bit if start <= t < end else 0) for t in range(0, until, step)]


def test_event_encoding_is_the_shared_convention():
    assert (UP, DOWN, LEFT, RIGHT, A, B) == (0, 1, 2, 3, 4, 5)
    assert BUTTON_NAMES == ("up", "down", "left", "right", "a", "b")
    assert (PRESS, RELEASE, LONG, REPEAT, TAP) == (1, 2, 3, 4, 5)
    assert event(LONG, B) == 3 << 3 | 5 == 29
    assert 29 >> 3 == LONG and 29 & 7 == B  # the kind, the button
    assert event_name(event(REPEAT, LEFT)) == "repeat left"


def test_press_is_reported_by_the_first_poll_that_sees_it():
    assert run([(0, 0), (20, 1 << A), (40, 1 << A), (60, 0), (80, 0)]) == [
        (20, "press a"), (60, "release a"), (60, "tap a")]


def test_bounces_within_the_debounce_window_are_ignored():
    # Contact bounce: down, up, down within 20 ms of the press, then held; same on release.
    polls = [(0, 1 << B), (4, 0), (9, 1 << B), (15, 0), (19, 1 << B), (40, 1 << B),
             (100, 0), (105, 1 << B), (110, 0), (140, 0)]
    assert run(polls) == [(0, "press b"), (100, "release b"), (100, "tap b")]


def test_a_release_after_the_window_is_taken_at_once():
    assert run([(0, 1), (20, 0), (40, 0)]) == [(0, "press up"), (20, "release up"),
                                               (20, "tap up")]


def test_long_press_on_a_fires_once_without_repeat_and_its_release_is_no_tap():
    out = run(hold(1 << A, 100, 1500, 1600))
    assert out == [(100, "press a"), (700, "long a"), (1500, "release a")]


def test_a_release_just_before_the_long_press_is_a_tap():
    out = run(hold(1 << A, 100, 680, 800))
    assert out == [(100, "press a"), (680, "release a"), (680, "tap a")]


def test_a_tap_of_b_while_a_is_held_long_is_still_a_tap():
    polls = [(0, 1 << A), (100, 1 << A | 1 << B), (600, 1 << A | 1 << B),
             (700, 1 << A), (800, 0)]
    assert run(polls) == [(0, "press a"), (100, "press b"), (600, "long a"),
                          (700, "release b"), (700, "tap b"), (800, "release a")]


def test_dpad_repeats_after_400_then_every_120_and_longs_at_600():
    out = run(hold(1 << RIGHT, 0, 1000, 1100, step=10))
    assert out == [(0, "press right"), (400, "repeat right"), (520, "repeat right"),
                   (600, "long right"), (640, "repeat right"), (760, "repeat right"),
                   (880, "repeat right"), (1000, "release right")]


def test_late_polls_repeat_once_per_poll_and_do_not_burst():
    out = run([(0, 1 << UP), (1000, 1 << UP), (1010, 1 << UP), (1130, 1 << UP), (1140, 0)])
    assert [e for e in out if e[1] == "repeat up"] == [(1000, "repeat up"), (1130, "repeat up")]


def test_buttons_are_independent():
    polls = [(0, 1 << UP), (20, 1 << UP | 1 << A), (40, 1 << A), (60, 0)]
    assert run(polls) == [(0, "press up"), (20, "press a"), (40, "release up"), (40, "tap up"),
                          (60, "release a"), (60, "tap a")]


def test_a_full_queue_drops_new_events_and_counts_them():
    buttons = Buttons()
    t = 0
    for _ in range(12):  # 12 presses, releases and taps, never drained
        buttons.poll(t, 1 << A)
        buttons.poll(t + 20, 0)
        t += 40
    assert buttons.pending() == inp._QUEUE_SIZE
    assert buttons.dropped == 36 - inp._QUEUE_SIZE
    got = drain(buttons)
    cycle = [event(PRESS, A), event(RELEASE, A), event(TAP, A)]
    assert got == (cycle * 6)[:inp._QUEUE_SIZE]
    assert buttons.next_event() == NO_EVENT


def test_reset_forgets_held_buttons_and_events():
    buttons = Buttons()
    buttons.poll(0, 1 << B)
    buttons.reset(10)
    assert buttons.pending() == 0 and not buttons.state >> B & 1
    buttons.poll(30, 1 << B)
    assert drain(buttons) == [event(PRESS, B)]


# A brute-force reference: one button, simulated poll by poll with explicit fields.
def reference(polls, button):
    bit = 1 << button
    dpad = button <= RIGHT
    out = []
    down = False
    changed_at = -10**9
    pressed_at = 0
    long_sent = False
    next_repeat = 0
    for now, mask in polls:
        raw = bool(mask & bit)
        if raw != down and now - changed_at >= 20:
            down, changed_at = raw, now
            if down:
                out.append((now, "press"))
                pressed_at, long_sent = now, False
                next_repeat = now + 400
            else:
                out.append((now, "release"))
                if not long_sent:
                    out.append((now, "tap"))
            continue
        if not down:
            continue
        if dpad and now >= next_repeat:
            out.append((now, "repeat"))
            next_repeat += 120
            if next_repeat <= now:  # the poll came late: no catch-up burst
                next_repeat = now + 120
        if not long_sent and now - pressed_at >= 600:
            long_sent = True
            out.append((now, "long"))
    return out


polls_strategy = st.lists(
    st.tuples(st.integers(1, 250), st.integers(0, 63)), min_size=1, max_size=60).map(
    lambda steps: [(sum(s[0] for s in steps[:i + 1]), steps[i][1]) for i in range(len(steps))])


@given(polls_strategy)
def test_matches_a_per_button_reference(polls):
    events = run(polls)
    for button in range(6):
        name = BUTTON_NAMES[button]
        mine = [(t, e.split()[0]) for t, e in events if e.split()[1] == name]
        assert mine == reference(polls, button)


@given(polls_strategy)
def test_press_and_release_alternate_and_extras_come_while_held(polls):
    events = run(polls)
    for name in BUTTON_NAMES:
        down = False
        longs = 0
        for _, e in events:
            kind, button = e.split()
            if button != name:
                continue
            if kind == "press":
                assert not down
                down, longs = True, 0
            elif kind == "release":
                assert down
                down = False
            elif kind == "tap":  # right after its release, when no long came
                assert not down and longs == 0
            else:
                assert down
                assert kind != "repeat" or name in ("up", "down", "left", "right")
                longs += kind == "long"
                assert longs <= 1


def test_micropython_gives_the_same_events_and_allocates_nothing():
    polls = hold(1 << LEFT, 40, 900, 1000, step=20) + [(1000 + t, (t // 7) % 64) for t in range(0, 2000, 13)]
    got = json.loads(mpy.run_file(SCRIPT, stdin=json.dumps(polls)))
    expected = input_mpy.events(Buttons(), polls)
    assert got["events"] == expected
    assert len(expected) > 20
    assert got["allocated"] == 0
