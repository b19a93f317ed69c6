"""device/recorded.py: levels recorded in the background (rp2's PIO reader, CircuitPython's
keypad scanner) reach input.py as presses, none lost, none made up."""

import doctest
import json
import os

import mpy
import recorded_mpy
from hypothesis import given
from hypothesis import strategies as st
from microrobots.compat import TICKS_MAX, ticks_add, ticks_diff
from microrobots.device import recorded
from microrobots.device.input import PRESS, RELEASE, Buttons
from microrobots.device.recorded import RecordedLevels

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "recorded_mpy.py")


def test_the_modules_example_runs():
    assert doctest.testmod(recorded).failed == 0


def events_of(session, start):
    """``{button: ["press" or "release", ...]}``: what input.py makes of the masks the
    frames get."""
    masks = recorded_mpy.masks(RecordedLevels(ticks_diff), session, start)
    buttons = Buttons()
    buttons.reset(start)
    out = {}
    now = start
    for (step, _), mask in zip(session, masks):
        now = ticks_add(now, step)
        buttons.poll(now, mask)
        e = buttons.next_event()
        while e >= 0:
            if e >> 3 in (PRESS, RELEASE):
                out.setdefault(e & 7, []).append("press" if e >> 3 == PRESS else "release")
            e = buttons.next_event()
    return out


def recorded_session(flips, frames, steps):
    """A session: ``flips`` (buttons, each changing the levels by one button, as a reader
    records them) spread over the first frames by ``frames`` (how many changes before
    each), then frames with nothing new; ``steps``: the ms between frames (19-21: the
    frames' clock moves that way where the ms tick over)."""
    session = []
    held = 0
    k = 0
    for i, step in enumerate(steps):
        recorded = []
        for _ in range(frames[i] if i < len(frames) else 0):
            if k < len(flips):
                held ^= 1 << flips[k]
                recorded.append(held)
                k += 1
        session.append([step, recorded])
    assert k == len(flips)
    return session


@given(st.lists(st.integers(0, 5), max_size=40),
       st.lists(st.integers(0, 12), min_size=40, max_size=40),
       st.lists(st.sampled_from([19, 20, 21]), min_size=200, max_size=200),
       st.sampled_from([0, TICKS_MAX - 300]))
def test_every_change_recorded_reaches_input_py_in_its_order(flips, frames, steps, start):
    """Whatever a freeze held back (up to 12 changes at once, taps of one button among
    them), input.py gets each button's presses and releases as the reader recorded them,
    and every frame's mask is one of the recorded levels (no level made up)."""
    frames = [n if sum(frames[:i + 1]) <= len(flips) else 0 for i, n in enumerate(frames)]
    frames[-1] += len(flips) - sum(frames)
    session = recorded_session(flips, frames, steps)
    expected = {}
    held = 0
    for b in flips:
        held ^= 1 << b
        expected.setdefault(b, []).append("press" if held >> b & 1 else "release")
    assert events_of(session, start) == expected
    seen = {0}
    given_masks = recorded_mpy.masks(RecordedLevels(ticks_diff), session, start)
    for (_, recorded_levels), mask in zip(session, given_masks):
        seen.update(recorded_levels)
        assert mask in seen


def test_a_full_queue_counts_what_it_drops():
    levels = RecordedLevels(ticks_diff)
    levels.reset(0, 0)
    for i in range(70):
        levels.put(i & 1)
    assert levels.lost == 6 and levels.latest() == 1  # the 64th kept: levels 63 & 1


def test_micropython_gives_the_same_masks_and_allocates_nothing():
    session = recorded_session([4, 4, 5, 4, 4, 0, 1, 0, 1, 5] * 3, [10, 0, 0, 0, 20] + [0] * 35,
                               [19, 20, 21] * 40)
    start = TICKS_MAX - 500  # across the wrap
    got = json.loads(mpy.run_file(SCRIPT, stdin=json.dumps({"session": session,
                                                            "start": start})))
    assert got["masks"] == recorded_mpy.masks(RecordedLevels(ticks_diff), session, start)
    assert got["masks"].count(0) > 5
    assert got["allocated"] == 0
