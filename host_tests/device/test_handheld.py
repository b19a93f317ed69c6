"""main.py: the frame loop, a bad config, a crashing app, sound — with fake hardware."""

import json
import os

import handheld_mpy
import mpy
from microrobots import handheld as main
from microrobots import frame as F
from microrobots.device.contract import AppContract
from microrobots.handheld import CONFIG_ERROR, Device
from microrobots.device.config import defaults
from microrobots.device.display import Display
from microrobots.device.hw.fake import Hardware as FakeHardware
from microrobots.device.input import A, PRESS, RIGHT, UP

# handheld_mpy.py (beside this file): the Device inside MicroPython; play() on both sides.
SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "handheld_mpy.py")


class Recorder(FakeHardware):
    """Fake pins that also keep every write, and check the power cap on each."""

    def show(self, buf):
        super().show(buf)
        assert sum(buf) <= self.config["brightness_cap"]
        self.log = getattr(self, "log", [])
        self.log.append((self.now, bytes(buf)))


class EchoApp(AppContract):
    """Lights cell ``button`` white for the last PRESS; asks for sound 1 on A."""

    TONES = ((), ((1000, 40), (0, 20), (2000, 40)))
    instances = 0

    def __init__(self, store, seed=0, now=0, power=None):
        type(self).instances += 1
        self.store, self.seed = store, seed
        self.brightness = 6
        self.last = -1
        self.sound = 0
        self.events = []

    def handle(self, event, now):
        self.events.append((now, event))
        if event >> 3 == PRESS:
            self.last = event & 7
            if self.last == A:
                self.sound = 1

    def render(self, now, frame):
        for i in range(108):
            frame[i] = 0
        if self.last >= 0:
            frame[3 * self.last:3 * self.last + 3] = b"\xff\xff\xff"

    def take_sound(self):
        s, self.sound = self.sound, 0
        return s


def device(tmp_path, config=None, App=EchoApp, Hardware=Recorder):
    path = tmp_path / "config.json"
    if config is not None:
        path.write_text(config)
    return Device(Hardware, config_path=str(path), root=str(tmp_path) + os.sep, App=App)


def test_a_press_reaches_the_leds_in_the_same_frame(tmp_path):
    d = device(tmp_path)
    d.run(5)
    assert d.hw.now == 100 and d.app.seed == 1234
    writes = d.hw.writes
    d.hw.pressed = 1 << RIGHT
    d.run(1)
    assert d.hw.writes == writes + 1  # this very frame
    assert d.display.written[3 * RIGHT] > 0 and d.app.events == [(100, PRESS << 3 | RIGHT)]
    d.run(1)
    assert d.hw.writes == writes + 1  # nothing changed: nothing written


def test_sound_requests_play_on_the_buzzer(tmp_path):
    d = device(tmp_path)
    d.run(2)
    d.hw.pressed = 1 << A
    d.run(10)
    assert d.hw.tones == [(40, 1000), (80, 0), (100, 2000), (140, 0)]


def test_bad_config_shows_a_red_x_and_idles(tmp_path, capsys):
    EchoApp.instances = 0
    d = device(tmp_path, config='{"led_pin": 40}')
    out = capsys.readouterr().out
    assert out == "%s: led_pin: pin 40 is out of range 0-29\n" % (tmp_path / "config.json")
    assert d.app is None and EchoApp.instances == 0
    assert d.hw.config == defaults()  # the X is lit on the default wiring
    expected = Display(defaults(), brightness=4)
    frame = bytearray(108)
    F.cross(frame, CONFIG_ERROR)
    expected.show(frame)
    assert d.hw.shown == bytes(expected.buf)
    assert [i // 3 for i in range(0, 108, 3) if d.display.written[i]] == [0, 5, 7, 10, 14, 15,
                                                                          20, 21, 25, 28, 30, 35]
    d.hw.pressed = 1 << A
    d.run(300)
    d.hw.pressed = 0
    d.run(300)  # 12 s in all
    assert d.app is None and d.hw.writes == 1
    assert capsys.readouterr().out.count("led_pin: pin 40 is out of range") == 1  # again at 10 s


def test_unusable_pins_fall_back_to_defaults_with_a_message(tmp_path, capsys):
    class Picky(Recorder):
        def __init__(self, config):
            if config["led_pin"] != 2:
                raise AttributeError("board has no pin GP3")
            super().__init__(config)
    d = device(tmp_path, config='{"led_pin": 3}', Hardware=Picky)
    assert d.app is None and d.hw.config["led_pin"] == 2
    assert "config.json: the pins do not work here (AttributeError: board has no pin GP3)" in capsys.readouterr().out


class Crashy(EchoApp):
    crash_at = 200

    def render(self, now, frame):
        if now >= Crashy.crash_at and Crashy.instances == 1:
            raise ZeroDivisionError("boom")
        super().render(now, frame)


def test_an_app_crash_shows_an_orange_x_and_a_release_restarts(tmp_path, capsys):
    Crashy.instances = 0
    d = device(tmp_path, App=Crashy)
    d.run(15)
    assert d.app is None
    out = capsys.readouterr()
    assert "error: the app stopped (ZeroDivisionError); release a button to restart it" in out.out
    assert "boom" in out.err  # the traceback
    assert [i // 3 for i in range(0, 108, 3) if d.display.written[i]][:3] == [0, 5, 7]
    assert d.display.written[1] > 0 and d.display.written[2] == 0  # orange: red and some green
    d.hw.pressed = 1 << UP  # a tap too soon after the crash is ignored
    d.run(3)
    d.hw.pressed = 0
    d.run(3)
    assert d.app is None
    d.run(50)
    d.hw.pressed = 1 << UP
    d.run(3)
    assert d.app is None  # a press alone does not restart: the release would reach the app
    d.hw.pressed = 0
    d.run(1)
    assert d.app is not None and Crashy.instances == 2
    d.run(20)
    assert d.app is not None and d.app.events == []


def test_an_app_that_cannot_start_does_not_stop_the_device(tmp_path, capsys):
    class Broken(AppContract):
        def __init__(self, store, seed=0, now=0, power=None):
            raise MemoryError("memory allocation failed")
    d = device(tmp_path, App=Broken)
    d.run(5)
    assert d.app is None and "(MemoryError)" in capsys.readouterr().out


def test_the_real_app_implements_every_name_of_the_contract(tmp_path):
    """app.App is no subclass of AppContract (on a Pico that class would sit in the heap
    for nothing): it defines each name itself, with the contract's kind of value."""
    from microrobots.app import App
    from microrobots.device.store import Store

    app = App(Store(str(tmp_path) + "/"), seed=3)
    names = [n for n in dir(AppContract) if not n.startswith("_")]
    assert len(names) >= 15
    for name in names:
        assert name in App.__dict__ or name in vars(app), name
        assert callable(getattr(AppContract, name)) == callable(getattr(app, name)), name


def test_the_real_app_boots_into_the_menu(tmp_path):
    d = device(tmp_path, App=None)
    d.run(50)
    assert d.app.mode == "menu" and d.hw.writes >= 1
    assert sum(d.display.written) > 0


def test_micropython_runs_main_with_the_real_app_like_cpython(tmp_path):
    presses = [(10, RIGHT), (30, A), (60, A), (90, RIGHT), (120, A)]
    for sub in ("mpy", "cpy"):
        (tmp_path / sub).mkdir()
    config = str(tmp_path / "none.json")
    got = json.loads(mpy.run_file(SCRIPT, "play", config, str(tmp_path / "mpy") + "/",
                                  json.dumps(presses)).splitlines()[-1])
    d = Device(FakeHardware, config_path=config, root=str(tmp_path / "cpy") + "/")
    assert got == handheld_mpy.play(d, presses)
    assert main.FRAME_MS == 20


def test_a_corrupt_settings_file_is_reported_on_the_console(tmp_path, capsys):
    (tmp_path / "settings.json").write_bytes(b'{"format": 1, "data": {"bright')
    d = device(tmp_path, App=None)
    d.run(3)
    out = capsys.readouterr().out
    assert "notice: %ssettings.json: corrupt or cut short (not valid JSON); using defaults" % (
        str(tmp_path) + os.sep) in out
    assert d.app is not None and d.app.mode == "menu"


def test_micropython_bad_config_shows_the_red_x_and_a_good_one_boots(tmp_path):
    (tmp_path / "config.json").write_text('{"matrix": "panel8x8", "window": [4, 0]}')
    root = str(tmp_path) + "/"
    lines = mpy.run_file(SCRIPT, "configs", str(tmp_path / "config.json"),
                         str(tmp_path / "no.json"), root)
    first, last = lines.splitlines()[0], lines.splitlines()[-1]
    assert first == ("%s: window: [4, 0] puts the 6x6 grid outside the 8x8 panel "
                     "(column and row must be 0-2)" % (tmp_path / "config.json"))
    got = json.loads(last)
    assert got == {"bad": [0, 5, 7, 10, 14, 15, 20, 21, 25, 28, 30, 35], "app": True,
                   "good": "menu", "leds": 108}


def test_tone_player_steps_with_the_frames_and_can_be_replaced():
    from microrobots.device.sound import Player
    board = FakeHardware(defaults())
    player = Player(board)
    player.play(((440, 100), (0, 50), (880, 100)), 0)
    for now in range(0, 400, 20):
        board.now = now
        player.update(now)
    assert board.tones == [(0, 440), (100, 0), (160, 880), (260, 0)]  # 150 and 250 fall mid-frame
    assert player._index >= len(player._steps)  # nothing playing
    board.tones.clear()
    board.now = 400
    player.play(((1000, 200),), 400)
    board.now = 420
    player.play(((2000, 40),), 420)
    board.now = 460
    player.update(460)
    assert board.tones == [(400, 1000), (420, 2000), (460, 0)]


def test_micropython_frame_loop_allocates_nothing(tmp_path):
    out = mpy.run_file(SCRIPT, "alloc", str(tmp_path / "none.json"), str(tmp_path) + "/")
    got = json.loads(out.splitlines()[-1])  # after any console notice
    assert got["mode"] == "menu" and got["writes"] > 5  # the menu animates: frames were written
    assert got["allocated"] == 0
