"""Long work spread between frames (issue 12): ``main.Device.pause`` and loader.py.

A Pico takes 20-40 ms to import a mode and longer to resume a long saved game; the work
pauses at safe points and, when its next piece would take a frame's period past
5 ms of work, the next frame runs there (a frame within a frame), so that the buttons are read, sound goes on
and the picture fades or holds on time. Here with a fake clock that every reading moves
on by a millisecond, as if each piece of work took that long.
"""

import json

import mpy
WORK_MS = 5  # main.Device.pause: a piece goes on while the period's work stays within
from main import FRAME_MS, Device
from microrobots.app import App
from microrobots.hw.fake import Hardware as FakeHardware
from microrobots.input import A, B, DOWN, RIGHT


class Slow(FakeHardware):
    """Each reading of the clock costs a millisecond of work; sleeps are kept. SLOW: long
    work pauses for frames, as on a Pico (main.Device.pause)."""

    SLOW = True

    def __init__(self, config):
        super().__init__(config)
        self.slept = []

    def ticks_ms(self):
        self.now += 1
        return self.now

    def sleep_ms(self, ms):
        self.slept.append(ms)
        super().sleep_ms(ms)


def device(tmp_path, Hardware=Slow):
    return Device(Hardware, config_path=str(tmp_path / "none.json"), root=str(tmp_path) + "/")


def press(d, button, frames=3):
    d.hw.pressed = 1 << button
    d.run(frames)
    d.hw.pressed = 0
    d.run(2)


def test_a_pause_runs_a_frame_only_when_the_app_waits_and_the_period_is_used(tmp_path):
    d = device(tmp_path)
    d.run(5)
    frames = []
    step = d.step
    d.step = lambda: (frames.append(d.hw.now), step())
    d.start = d.hw.ticks_ms()
    d.pause()
    d.pause()
    assert frames == []  # the app is not waiting: long work runs on (boot, a plain key)
    d.app.waiting = True
    try:
        start = d.start = d.hw.ticks_ms()
        d.pause(WORK_MS - 2)  # the piece fits in the period: go on
        d.pause(2)
        assert frames == []
        slept = len(d.hw.slept)
        spent = d.hw.now + 1 - start  # what pause will read
        d.pause(WORK_MS - spent + 1)  # one ms too many
        assert len(frames) == 1  # the next frame, there and then, ...
        assert d.hw.slept[slept:] == [FRAME_MS - spent]  # ... once the period is over
        assert d.start == start + FRAME_MS + 1 == frames[0]  # its own period begins
    finally:
        d.app.waiting = False


def test_a_new_layout_holds_the_picture_and_keeps_keys_for_after(tmp_path):
    d = device(tmp_path)
    d.run(5)
    app = d.app
    app.go("settings", d.now)
    d.run(12)
    assert app.mode == "settings" and not app.switching
    d.run(3)
    picture = bytes(d.frame)
    within = []
    pause = d.pause

    def long_pause(ms=4):  # the layout's work: a frame is due; a key comes meanwhile
        d.hw.now += FRAME_MS
        d.hw.pressed = 1 << DOWN
        before = d.hw.writes
        pause(ms)
        within.append((bytes(d.frame), d.hw.writes - before, app.waiting))

    app.pause = long_pause
    item = app.current.item
    app.change("side", "copper")
    app.pause = pause
    d.hw.pressed = 0
    assert app.layout.name == "copper:ABCD0000" and not app.waiting
    assert within and all(frame == picture and w for frame, _, w in within)
    assert app.current.item == item  # the key waited ...
    d.run(3)
    assert app.current.item == item + 1  # ... and came once the work was done


def test_a_switch_fades_within_its_import_and_keeps_keys_in_order(tmp_path):
    d = device(tmp_path)
    d.run(5)
    app = d.app
    shown = []
    seen = []

    def importing(name):  # as loader.py does on a Pico: pauses while the code loads
        for _ in range(3):
            d.hw.now += FRAME_MS
            seen.append(d.hw.pressed)
            d.pause()
            shown.append(bytes(d.frame))
            d.hw.pressed = [1 << RIGHT, 1 << DOWN, 0][len(seen) - 1]
        return real(name)

    real = app._import_mode
    app._import_mode = importing
    app.go("settings", d.now)
    d.run(8)
    app._import_mode = real
    assert app.mode == "settings" and not app.switching
    assert len(shown) == 3
    levels = [sum(f) for f in shown]
    assert levels == sorted(levels, reverse=True) and levels[0] > levels[-1]  # fading
    # RIGHT then DOWN were pressed within the import: both handled after it, in order
    # (RIGHT changes the first item's value, the side; DOWN then moves to item 2)
    d.run(3)
    assert app.settings["side"] == "copper" and app.current.item == 1


def test_keys_wait_behind_keys_already_waiting(tmp_path):
    app = App(None, seed=1)
    app.waiting = True
    app.handle(RIGHT | 1 << 3, 0)
    app.waiting = False
    app.handle(A | 3 << 3, 0)  # while one waits, a new key queues behind it
    assert list(app._held[:app._held_n]) == [RIGHT | 1 << 3, A | 3 << 3]


def test_micropython_streams_imports_and_runs_frames_within_them(tmp_path):
    """The real interpreter, the real loader: a Pico-like backend whose imports go
    through loader.py; entering the referee and settings runs frames within the import
    and the keys pressed then act after it, as on CPython where nothing streams."""
    script = """
import json, sys, main
from microrobots.hw.fake import Hardware
class Slow(Hardware):
    SLOW = %s
    def ticks_ms(self):
        self.now += 1
        return self.now
d = main.Device(Slow, config_path=%r, root=%r)
steps = [0]
step = d.step
def counted():
    steps[0] += 1
    step()
d.step = counted
def run(n, mask=0):
    d.hw.pressed = mask
    for _ in range(n):
        d.run(1)
out = {"within": 0}
run(5)
for button in (%d, %d):  # DOWN, RIGHT: the cursor to settings (bottom right)
    run(3, 1 << button); run(3)
run(3, 1 << %d)  # A pressed: the switch begins on release
before = steps[0]
d.hw.pressed = 0
for n in range(40):
    d.run(1)
    if n == 2:
        d.hw.pressed = 1 << %d  # RIGHT held within the switch: the side changes after
    if n == 5:
        d.hw.pressed = 0
out["within"] = steps[0] - before - 40
run(10)
out["mode"] = d.app.mode
out["side"] = d.app.settings["side"]
import vfs
out["mounts"] = [point for _, point in vfs.mount()]
print(json.dumps(out))
"""
    got = {}
    for stream in (True, False):
        root = tmp_path / str(stream)
        root.mkdir()
        text = mpy.run(script % (stream, str(tmp_path / "none.json"), str(root) + "/",
                                 DOWN, RIGHT, A, RIGHT))
        got[stream] = json.loads(text.splitlines()[-1])
    streamed, plain = got[True], got[False]
    # streamed: a filesystem over the firmware's own folder, its paths unchanged
    assert len(streamed["mounts"]) == 2 and any(
        point.endswith("/firmware/microrobots") for point in streamed["mounts"])
    assert plain["mounts"] == ["/"]
    assert streamed["within"] > 0 and plain["within"] == 0
    assert streamed["mode"] == plain["mode"] == "settings"
    assert streamed["side"] == plain["side"] == "copper"


def test_loader_is_off_where_nothing_can_be_mounted():
    import microrobots
    from microrobots import loader

    path = microrobots.__path__
    assert loader.stream(microrobots, lambda: None) is False  # CPython: no vfs.mount
    assert microrobots.__path__ == path


def test_frames_on_cpython_do_not_stream(tmp_path):
    d = device(tmp_path, Hardware=FakeHardware)
    press(d, DOWN)
    press(d, A)
    d.run(10)
    assert d.app.mode == "classroom" and "microrobots.modes.classroom" in __import__(
        "sys").modules
    press(d, B, 40)
    d.run(10)
    assert d.app.mode == "menu"
