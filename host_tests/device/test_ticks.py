"""Time on a clock that wraps: the device runs for weeks without a big int or a hiccup.

MicroPython's ticks_ms() wraps every 2**30 ms (12.4 days) on the rp2 port. The firmware
keeps every time as such a tick (compat.ticks_add / ticks_diff); the fake clock wraps
the same way, so a test can start it a few seconds before the wrap.
"""

import json
import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

import mpy
from button_events import event_name
from microrobots import animations as anim
from microrobots import frame as F
from microrobots.compat import TICKS_MAX, ticks_add, ticks_diff
from microrobots.device.input import A, LEFT, Buttons
from microrobots.device.sound import Player
from tools.sim.script import Session

# ticks_mpy.py (beside this file): the ticks and the frame loop inside MicroPython
SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ticks_mpy.py")

PERIOD = TICKS_MAX + 1
HALF = PERIOD // 2
ticks = st.integers(0, TICKS_MAX)
deltas = st.integers(-HALF + 1, HALF - 1)


def test_the_period_is_micropythons_on_the_rp2_port():
    assert PERIOD == 2**30
    got = json.loads(mpy.run_file(SCRIPT, "period").splitlines()[-1])
    # the 64-bit unix port's own ticks wrap at 2**62, so there compat's functions stand in
    assert got == [TICKS_MAX, 10, True]


@given(ticks, deltas)
def test_ticks_add_is_addition_modulo_the_period(t, d):
    assert ticks_add(t, d) == (t + d) % PERIOD
    assert ticks_diff(ticks_add(t, d), t) == d


@given(ticks, ticks)
def test_ticks_diff_is_the_signed_distance(a, b):
    d = ticks_diff(a, b)
    assert -HALF <= d < HALF and (b + d) % PERIOD == a


class Small(int):
    """An int that fails when arithmetic leaves a Pico's small ints (-2**30 .. 2**30-1),
    where MicroPython on rp2 would allocate a big int."""

    def _check(self, v):
        assert -PERIOD <= v < PERIOD, v
        return Small(v)

    def __add__(self, o):
        return self._check(int(self) + int(o))

    def __sub__(self, o):
        return self._check(int(self) - int(o))

    __radd__ = __add__

    def __rsub__(self, o):
        return self._check(int(o) - int(self))


@given(ticks, deltas, ticks)
def test_no_intermediate_needs_a_big_int_on_a_pico(t, d, u):
    assert ticks_add(Small(t), Small(d)) == (t + d) % PERIOD
    assert ticks_diff(Small(t), Small(u)) == ticks_diff(t, u)
    for edge in (0, 1, HALF - 1, HALF, TICKS_MAX):
        ticks_add(Small(edge), Small(HALF - 1))
        ticks_add(Small(edge), Small(-HALF + 1))
        ticks_diff(Small(edge), Small(TICKS_MAX - edge))


def events(start, script):
    """Button events, with their time since ``start``, for ``script``: (ms, mask) steps."""
    b = Buttons()
    b.reset(start)
    out = []
    held = 0
    step = 0
    for ms in range(0, 3000, 20):
        while step < len(script) and script[step][0] <= ms:
            held = script[step][1]
            step += 1
        now = ticks_add(start, ms)
        b.poll(now, held)
        e = b.next_event()
        while e >= 0:
            out.append((ms, event_name(e)))
            e = b.next_event()
    return out


def test_presses_long_presses_and_repeats_are_the_same_across_the_wrap():
    script = [(100, 1 << LEFT), (1100, 0), (1200, 1 << A), (1300, 0), (1500, 1 << A),
              (2400, 0)]
    plain = events(0, script)
    assert ("repeat left" in {n for _, n in plain}) and (2100, "long a") in plain
    for start in (TICKS_MAX - 700, TICKS_MAX - 1250, TICKS_MAX):
        assert events(start, script) == plain, start


def test_a_button_left_alone_for_weeks_still_answers_at_once():
    b = Buttons()
    now = 0
    b.poll(now, 0)
    for _ in range(40):  # 40 * 2**25 ms: 15.5 days of frames (a poll every 9 hours here)
        now = ticks_add(now, 1 << 25)
        b.poll(now, 0)
    b.poll(ticks_add(now, 20), 1 << A)
    assert event_name(b.next_event()) == "press a"


def test_a_tune_plays_the_same_across_the_wrap():
    class Buzzer:
        def __init__(self):
            self.log = []

        def tone(self, f):
            self.log.append(f)

        def quiet(self):
            self.log.append(0)

    def play(start):
        hw = Buzzer()
        p = Player(hw)
        p.play(((440, 100), (0, 50), (880, 100)), start)
        at = []
        for ms in range(0, 400, 20):
            before = len(hw.log)
            p.update(ticks_add(start, ms))
            at += [(ms, f) for f in hw.log[before:]]
        return hw.log[:1] + at

    assert play(TICKS_MAX - 60) == play(0) == [440, (100, 0), (160, 880), (260, 0)]


def test_an_animation_left_for_days_does_not_come_back():
    """A mode left in the middle of an animation keeps its start time; ticks compare only
    within 6.2 days, so older times read as long ago (not as "still to come")."""
    frame = bytearray(108)
    flash = anim.Flash()
    assert not flash.render(0, frame), "never started: nothing"
    flash.start(1000, 7)
    assert flash.render(1100, frame)
    replay = anim.Replay()
    replay.start(1000, [0, 1, 2])
    assert replay.running(1100)
    for days in (1, 6.3, 7, 10):
        later = (1000 + int(days * 86400000)) % PERIOD
        assert not flash.render(later, frame), days
        assert not replay.running(later) and not replay.render(later, frame), days
        assert F.since(later, 1000) > 60000


# -- the whole device through the wrap, in every mode ---------------------------------------
# Every blink and pulse period of frame.py and the modes divides L, so a clock started at S
# and one started at S' = S mod L draw the same frames; the wrap itself is a jump of 2**30
# ms, which L does not divide: after it the wrapped device must draw what a device started
# at (S - 2**30) mod L draws.
L = 2**6 * 3**3 * 5**3 * 7
WRAP_AFTER = 5000  # ms from the start
START = PERIOD - WRAP_AFTER


def led_states(s, until):
    """The LEDs at every frame time 0, 20, ... until (the driver reports changes only)."""
    changes = [json.loads(x) for x in s.frames]
    out = []
    k = -1
    for t in range(0, until, 20):
        while k + 1 < len(changes) and changes[k + 1]["t"] <= t:
            k += 1
        out.append((changes[k]["mode"], changes[k]["pixels"]) if k >= 0 else None)
    return out


def solo(s):
    s.tap("a")
    s.settle()
    s.solo_round(extra=2)
    s.finish_solo()
    s.tap("b")  # the score, nothing to take back
    s.wait(800)
    s.hold("b")


def referee(s):
    s.tap("right")
    s.tap("a")
    s.settle()
    route = s.app.current.game.route()
    s.claim(1, len(route) - 1, route[1:])
    s.wait(3000)
    s.tap("up")  # the scores
    s.wait(2000)
    s.hold("a")  # give up: the route revealed
    s.wait(4000)


def classroom(s):
    s.tap("down")
    s.tap("a")
    s.wait(2500)
    s.tap("a", 3)
    s.wait(6000)
    s.tap("up")  # paused
    s.wait(1000)


def settings(s):
    s.tap("down")
    s.tap("right")
    s.tap("a")
    s.tap("down")
    s.tap("right", 2)
    s.tap("a")  # match a table: the quadrants blink
    s.wait(3000)
    s.tap("b", 2)
    s.tap("down", 2)
    s.tap("right")
    s.wait(500)


@pytest.mark.parametrize("play", [solo, referee, classroom, settings])
@pytest.mark.parametrize("offset", [0, 2500])
def test_every_mode_plays_through_the_wrap_exactly_as_without_it(play, offset, tmp_path):
    runs = {}
    for name, clock in (("wraps", START + offset), ("before", (START + offset) % L),
                        ("after", (START + offset - PERIOD) % L)):
        (tmp_path / name).mkdir()
        s = Session(seed=9, state=str(tmp_path / name), clock=clock)
        play(s)
        assert s.driver.device.app is not None, "no orange X"
        runs[name] = s
    wrapped = runs["wraps"]
    until = wrapped.t
    assert all(r.t == until for r in runs.values())
    assert wrapped.driver.device.now < START, "the clock did wrap"
    cut = (WRAP_AFTER - offset) // 20
    a, b1, b2 = (led_states(runs[n], until) for n in ("wraps", "before", "after"))
    assert a[:cut] == b1[:cut]
    assert a[cut:] == b2[cut:]
    assert len({str(x) for x in a}) > 20, "the session drew many different frames"
    for name in ("wraps", "after"):
        assert (tmp_path / name / "settings.json").read_text() == \
            (tmp_path / "before" / "settings.json").read_text()
    for game in ("solo.json", "referee.json"):
        saved = [(tmp_path / n / game) for n in ("wraps", "before", "after")]
        assert len({p.read_text() if p.exists() else None for p in saved}) == 1, game


# -- MicroPython: nothing allocated per frame, through the wrap -----------------------------
def test_micropython_frames_through_the_wrap_allocate_nothing_in_any_mode(tmp_path):
    for name in ("menu", "solo", "referee", "classroom", "settings"):
        (tmp_path / name).mkdir()
    out = json.loads(mpy.run_file(SCRIPT, "frames", str(tmp_path / "none.json"),
                                  str(tmp_path) + "/").splitlines()[-1])
    for name in ("menu", "solo", "referee", "classroom", "settings"):
        allocated, now, mode = out[name]
        assert mode == name and now < 2000, (name, out[name])  # the clock wrapped meanwhile
        assert allocated == 0, (name, allocated)
