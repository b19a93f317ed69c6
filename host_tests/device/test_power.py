"""Power: idle dimming, sleep and wake, the battery gauge (low, critical), on fake pins with
a fake clock and a fake ADC, under CPython and in the `micropython` interpreter."""

import json
import os

import mpy
import pytest
from hypothesis import given
from hypothesis import strategies as st

from microrobots import frame as F
from microrobots import handheld
from microrobots.device import config
from microrobots.device.hw.fake import Hardware as FakeHardware
from microrobots.device.power import AWAKE, DIM, SLEEP, Power, percent_of

# One session on both runtimes (power_mpy.session): a solo game on battery, left alone
# until it dims and sleeps, woken by a press that is no move, then the cell run down to
# low and to critical. Each line of the trace: what the device shows and keeps then.
SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "power_mpy.py")
FIELDS = ("tag", "mode", "level", "asleep", "supply", "sum", "percent", "low", "critical",
          "sleeps", "now", "cursor", "state", "cap")


def session(tmp_path, runtime, sub, config_text=None):
    folder = tmp_path / sub
    folder.mkdir()
    path = folder / "config.json"
    if config_text is not None:
        path.write_text(config_text)
    if runtime == "micropython":
        rows = json.loads(mpy.run_file(SCRIPT, str(path), str(folder) + os.sep).splitlines()[-1])
    else:
        import power_mpy

        rows = power_mpy.session(str(path), str(folder) + os.sep)
    return {row[0]: dict(zip(FIELDS, row)) for row in rows}, folder


@pytest.fixture(scope="module")
def cpython_trace(tmp_path_factory):
    return session(tmp_path_factory.mktemp("cpy"), "cpython", "s", '{"led_power_pin": 17}')


def test_dims_after_a_minute_and_a_press_brightens(cpython_trace):
    t, _ = cpython_trace
    assert t["playing"]["level"] == 5 and t["before dim"]["level"] == 5
    assert t["dimmed"]["level"] == 1 and t["dimmed"]["sum"] < t["playing"]["sum"]
    assert t["bright again"]["level"] == 5
    assert t["bright again"]["cursor"] != t["dimmed"]["cursor"]  # the press acted


def test_sleeps_after_five_minutes_dark_supply_cut_game_saved(cpython_trace):
    t, folder = cpython_trace
    asleep = t["asleep"]
    assert asleep["asleep"] and asleep["sum"] == 0 and asleep["supply"] is False
    assert asleep["sleeps"] == 1
    assert (folder / "solo.json").exists()  # saved before sleeping
    # the app's clock stood still while asleep: ten minutes asleep cost it nothing
    assert t["asleep 10 min later"]["now"] == asleep["now"]


def test_the_wake_press_is_no_move_and_the_game_resumes_as_it_was(cpython_trace):
    t, _ = cpython_trace
    before = t["asleep"]
    woken = t["woken, held"]
    assert not woken["asleep"] and woken["supply"] is True and woken["level"] == 5
    assert woken["sum"] > 0  # the grid is back
    assert (woken["mode"], woken["cursor"], woken["state"]) == (
        before["mode"], before["cursor"], before["state"])
    assert t["released"]["cursor"] == before["cursor"]  # its release did nothing either
    assert t["moved"]["cursor"] != before["cursor"]  # the next press is a move
    assert woken["now"] - before["now"] <= 300  # the game's clock went on from where it was


def test_low_battery_is_announced_and_caps_the_leds(cpython_trace):
    t, _ = cpython_trace
    full = config.power_budget(36, 1000)
    # the fake cell reads as at a light load: no correction for the LEDs' sag
    assert t["playing"]["percent"] == percent_of(4000) and not t["playing"]["low"]
    assert t["playing"]["cap"] == full  # on the cell: its own budget, not USB's
    low = t["low"]
    assert low["low"] and not low["critical"] and 0 < low["percent"] <= 15
    assert low["cap"] == config.power_budget(36, 500)


def test_critical_battery_saves_and_sleeps_and_usb_ends_it(cpython_trace):
    t, _ = cpython_trace
    crit = t["critical"]
    assert crit["critical"] and crit["asleep"] and crit["sleeps"] == 2
    usb = t["on USB"]
    assert not usb["asleep"] and not usb["low"] and usb["percent"] == -1
    assert usb["cap"] == 5900


def test_micropython_session_is_the_cpython_one(tmp_path, cpython_trace):
    got, folder = session(tmp_path, "micropython", "m", '{"led_power_pin": 17}')
    assert got == cpython_trace[0]
    assert (folder / "solo.json").exists()


def recorder(tmp_path, settings=None, vsys=-1, usb=-1):
    if settings is not None:
        (tmp_path / "settings.json").write_text(json.dumps({"format": 1, "data": settings}))
    d = handheld.Device(FakeHardware, config_path=None, root=str(tmp_path) + os.sep)
    d.hw.vsys, d.hw.usb = vsys, usb
    return d


def test_never_means_never(tmp_path):
    d = recorder(tmp_path, {"dim": 0, "sleep": 0})
    assert d.app.settings["dim"] == 0 and d.app.settings["sleep"] == 0
    d.run(2 * 3600 * 50)  # two hours without a key
    assert not d.asleep and d.display.brightness == 5 and d.sleeps == 0


def test_the_delays_are_settings(tmp_path):
    d = recorder(tmp_path, {"dim": 3, "sleep": 10})
    d.run(179 * 50)
    assert d.display.brightness == 5
    d.run(2 * 50)
    assert d.display.brightness == 1
    d.run(419 * 50)
    assert not d.asleep
    d.run(2 * 50)
    assert d.asleep and d.hw.sleeps >= 1


def test_the_low_battery_picture_blinks_on_the_grid(tmp_path):
    d = recorder(tmp_path, vsys=3690, usb=0)
    d.run(60)
    assert d.power.low
    frame = bytearray(108)
    seen = set()
    for _ in range(60):  # 1.2 s: both halves of the blink
        d.run(1)
        F.battery(frame, d.now, False)
        seen.add(bytes(frame))
        # what the LEDs show is the picture (at the brightness, gamma applied)
        assert [v > 0 for v in d.display.written] == [v > 0 for v in frame]
    assert len(seen) == 2
    d.run(4 * 50)  # after 3 s the game is back
    assert [v > 0 for v in d.display.written] != [v > 0 for v in frame]


def test_settings_show_the_battery(tmp_path):
    from microrobots.modes import settings as S

    d = recorder(tmp_path, {"mode": "settings"}, vsys=3900, usb=0)
    d.run(60)  # the gauge is read once a second
    assert d.app.mode == "settings"
    d.app.current.item = S._ITEMS.index("battery")
    d.run(2)
    frame = bytearray(108)
    d.app.current.render(d.now, frame)
    lit = [i for i in range(6, 18) if frame[3 * i:3 * i + 3] != b"\0\0\0"]
    assert percent_of(3900) == 66 and len(lit) == 1 + 4  # 66: L X V I, its label first
    assert sum(1 for i in range(24, 30) if frame[3 * i + 1] > 0) == 6  # the bar: 4 green, 2 dim


@given(st.integers(2500, 4500), st.integers(2500, 4500))
def test_the_charge_rises_with_the_voltage(a, b):
    lo, hi = min(a, b), max(a, b)
    assert 0 <= percent_of(lo) <= percent_of(hi) <= 100


class Cell:
    READS_UNDER_LOAD = True  # a real cell: sags under the LEDs

    def __init__(self, mv, usb=0):
        self.mv, self.usb = mv, usb

    def vsys_mv(self):
        return self.mv

    def usb_power(self):
        return self.usb


def test_a_reading_is_smoothed_and_a_dip_is_no_alarm():
    cell = Cell(3900)
    power = Power(config.defaults(), cell)
    cell.mv = 3300  # one bright frame's dip
    power.update(1000, 0, 0)
    assert not power.low and power.mv == 3900 - 600 // 8
    cell.mv = 3900
    power.update(2000, 0, 0)
    assert not power.low


def test_no_gauge_is_usb_and_a_supply_above_a_cell_is_usb():
    assert Power(config.defaults(), Cell(-1, -1)).on_usb
    assert Power(config.defaults(), Cell(4800, -1)).on_usb
    power = Power(config.defaults(), Cell(3800, -1))
    assert not power.on_usb and power.percent == percent_of(3800)


class Lit:
    """A display that showed a frame whose values sum to ``total``."""

    def __init__(self, total):
        self.total = total


def test_the_reading_is_corrected_for_the_current_of_the_frame_shown():
    # 36 LEDs, every channel at 255: 36 + 108 * 20 = 2196 mA, read 0.33 V low (36 mA: 5 mV)
    dark, bright = Power(config.defaults(), Cell(3800)), Power(config.defaults(), Cell(3476))
    dark.display, bright.display = Lit(0), Lit(108 * 255)
    assert bright.load_ma() == 36 + 108 * 20 and dark.load_ma() == 36
    dark.mv = bright.mv = -1  # forget the first reading (no display then): not smoothed
    dark.read(0)
    bright.read(0)
    assert dark.mv == 3800 + 36 * 150 // 1000 and bright.mv == dark.mv
    fake = Power(config.defaults(), FakeHardware(config.defaults()))  # a simulated cell
    fake.hw.vsys, fake.hw.usb = 3800, 0
    fake.display = Lit(108 * 255)
    fake.read(0)
    assert fake.mv == 3800  # reads as at a light load already


@pytest.mark.parametrize("mv", [-1, 0, 1000, 2499, 5501, 9900])
@pytest.mark.parametrize("usb", [-1, 0])
def test_a_reading_no_running_pico_gives_is_no_gauge_never_a_warning(mv, usb):
    cell = Cell(mv, usb)
    power = Power(dict(config.defaults(), battery_ma=2000), cell)
    for t in range(0, 600000, 1000):
        assert power.update(t, 0, 0) == AWAKE and not power.warning(t)
    assert power.percent == -1 and not power.low and not power.critical
    assert power.cap == config.defaults()["brightness_cap"]  # the lower cap: may be USB


def test_a_supply_above_a_cell_is_usb_whatever_the_usb_pin_says():
    power = Power(config.defaults(), Cell(4800, 0))  # a Pico W: GP24 is the radio's
    assert power.on_usb and power.percent == -1 and not power.low


def test_idle_states():
    power = Power(config.defaults(), Cell(-1))
    assert power.update(59999, 60000, 300000) == AWAKE
    assert power.update(60000, 60000, 300000) == DIM
    assert power.update(299999, 60000, 300000) == DIM
    assert power.update(300000, 60000, 300000) == SLEEP
    power.touch(300000)
    assert power.update(300020, 60000, 300000) == AWAKE


def test_the_classroom_demo_playing_by_itself_keeps_the_device_awake(tmp_path):
    d = recorder(tmp_path, {"mode": "classroom", "dim": 1, "sleep": 2})
    d.run(3)
    assert d.app.mode == "classroom" and d.app.current.playing_alone
    d.run(3 * 60 * 50)  # three minutes of the demo, no key
    assert not d.asleep and d.display.brightness == 5
    d.app.current.paused = True  # paused: it idles like any screen
    d.run(61 * 50)
    assert d.display.brightness == 1
    d.run(60 * 50)
    assert d.asleep


def test_battery_bench_model_and_a_short_session(tmp_path):
    from tools.bench import battery

    assert battery.milliamps(0) == 36 + 25  # dark LEDs and the Pico
    assert battery.milliamps(255) == 36 + 20 + 25  # one channel at full
    sums, share, dimmed = battery.session("solo", 1, str(tmp_path))
    assert share > 0.5 and 0 <= dimmed < 1
    assert all(a <= b for a, b in zip(sums, sums[1:]))  # brighter levels, more light
    assert 0 < sums[0] < sums[7] <= config.power_budget(36, 1000)
