"""hw/: the rp2 and CircuitPython backends against fake pin modules, the fake backend.

The CircuitPython backend runs the real Adafruit ``neopixel`` library (from PyPI) on top
of fake ``board``, ``digitalio``, ``neopixel_write`` and ``pwmio`` modules.
"""

import importlib
import json
import os
import sys
import types

import mpy
import pytest
from microrobots.device import config as cfg
from microrobots.device import hw
from microrobots.device.display import Display
from microrobots.device.input import BUTTON_NAMES


# --- fake MicroPython modules -------------------------------------------------------------
class FakePin:
    IN, OUT, PULL_UP, PULL_DOWN = "in", "out", "pull_up", "pull_down"
    IRQ_FALLING, IRQ_RISING = 4, 8  # the RP2040's edge bits (machine_pin.c)
    levels = {}  # pin id -> level read by value(); buttons idle high (pull-up)
    pulls = {}  # pin id -> the pull it was last set up with
    made = {}  # pin id -> the last Pin made for it

    def __init__(self, pin_id, mode=None, pull=None, value=None):
        self.id, self.mode, self.pull = pin_id, mode, pull
        self.irq_handler, self.trigger, self._flags = None, 0, 0
        FakePin.pulls[pin_id] = pull
        FakePin.made[pin_id] = self
        if value is not None:
            FakePin.levels[pin_id] = value

    def value(self, level=None):
        if level is not None:
            FakePin.levels[self.id] = level
            return None
        return FakePin.levels.get(self.id, 1)

    def irq(self, handler=None, trigger=None, hard=False):
        if handler is None and trigger is None:
            return self  # pin.irq(): the irq object, whose flags() the handler reads
        self.irq_handler, self.trigger, self.hard = handler, trigger, hard
        return self

    def edges(self, flags):
        """The interrupt with these edge flags, as the pin latched them."""
        self._flags = flags
        self.irq_handler(self)

    def flags(self):
        return self._flags


class FakeADC:
    u16 = 0  # what read_u16() gives, while the pin has no pull-down (or is driven)
    driven = True  # False: nothing drives the pin (it reads 0 with the pull-down on)

    def __init__(self, pin):
        self.pin = pin
        FakePin.pulls[pin.id] = None  # adc_gpio_init: the pad analog, no pull

    def read_u16(self):
        if not FakeADC.driven and FakePin.pulls.get(self.pin.id) == "pull_down":
            return 0
        return FakeADC.u16


class FakeWDT:
    made = []

    def __init__(self, timeout):
        self.timeout, self.fed = timeout, 0
        FakeWDT.made.append(self)

    def feed(self):
        self.fed += 1


class FakePWM:
    def __init__(self, pin):
        self.pin = pin
        self.log = []

    def freq(self, f):
        self.log.append(("freq", f))

    def duty_u16(self, d):
        self.log.append(("duty", d))


def fake_machine(sent):
    machine = types.ModuleType("machine")
    machine.Pin = FakePin
    machine.PWM = FakePWM
    machine.bitstream = lambda pin, encoding, timing, buf: sent.append((pin.id, encoding, timing, bytes(buf)))
    machine.ADC = FakeADC
    machine.WDT = FakeWDT
    machine.disable_irq = lambda: 1
    machine.enable_irq = lambda state: None
    machine.lightsleeps = []  # (ms, the pins whose irq has a handler) of each lightsleep()
    machine.during = lambda n: None  # what happens during the n-th sleep (a button's IRQ)

    def lightsleep(ms):
        machine.lightsleeps.append((ms, machine.armed()))
        machine.during(len(machine.lightsleeps))

    machine.lightsleep = lightsleep
    return machine


def fake_time():
    t = types.ModuleType("time")
    t.clock = [1000]
    t.ticks_ms = lambda: t.clock[0]
    t.ticks_diff = lambda a, b: ((a - b + (1 << 29)) & ((1 << 30) - 1)) - (1 << 29)
    t.ticks_add = lambda a, b: (a + b) & ((1 << 30) - 1)
    t.sleep_ms = lambda ms: t.clock.__setitem__(0, t.clock[0] + ms)
    return t


def import_fresh(monkeypatch, name, fakes):
    """``name`` imported anew on the ``fakes`` modules; without an "rp2" among them the rp2
    backend finds none (no PIO: its pin-interrupt path; None in sys.modules makes the
    import fail, as a namespace package of the same name in site-packages would not)."""
    fakes = dict({"rp2": None}, **fakes)
    for mod, value in fakes.items():
        monkeypatch.setitem(sys.modules, mod, value)
    monkeypatch.delitem(sys.modules, name, raising=False)
    module = importlib.import_module(name)
    monkeypatch.delitem(sys.modules, name)  # the next import gets real modules again
    return module


def test_rp2_backend_pins_buttons_leds_and_buzzer(monkeypatch):
    sent = []
    rp2 = import_fresh(monkeypatch, "microrobots.device.hw.rp2",
                       {"machine": fake_machine(sent), "time": fake_time()})
    config = cfg.load('{"buttons": {"a": 20}, "led_pin": 7}')
    board = rp2.Hardware(config)
    assert [p.id for p in board._buttons] == [config["buttons"][n] for n in BUTTON_NAMES]
    assert all(p.mode == "in" and p.pull == "pull_up" for p in board._buttons)
    FakePin.levels = {20: 0, 11: 0}  # a and down held: pulled low
    try:
        assert board.pressed_mask() == (1 << 4) | (1 << 1)
    finally:
        FakePin.levels = {}
    assert board.pressed_mask() == 0

    display = Display(config, write=board.show)
    frame = bytearray(108)
    frame[0:3] = b"\xff\x00\x00"
    display.show(frame)
    pin, encoding, timing, buf = sent[-1]
    assert pin == 7 and encoding == 0 and timing == (400, 850, 800, 450)
    assert buf == bytes(display.buf) and len(buf) == 108 and buf[1] > 0 and buf[0] == 0  # G R B

    board.tone(440)
    board.quiet()
    board.tone(0)
    assert board._buzzer.pin.id == 16
    assert board._buzzer.log == [("duty", 0), ("freq", 440), ("duty", 32768), ("duty", 0), ("duty", 0)]
    t0 = board.ticks_ms()
    board.sleep_ms(20)
    assert board.ticks_diff(board.ticks_ms(), t0) == 20
    assert 0 <= board.seed() < 1 << 30


def rp2_board(monkeypatch, config_text="{}", machine_name="Raspberry Pi Pico with RP2040"):
    machine = fake_machine([])
    rp2 = import_fresh(monkeypatch, "microrobots.device.hw.rp2", {"machine": machine, "time": fake_time()})
    monkeypatch.setattr(FakePin, "levels", {})
    monkeypatch.setattr(FakePin, "pulls", {})
    monkeypatch.setattr(FakeADC, "driven", True)
    monkeypatch.setattr(FakeADC, "u16", 0x4000)  # a divider's share of a running Pico's VSYS
    monkeypatch.setattr(sys.implementation, "_machine", machine_name, raising=False)
    board = rp2.Hardware(cfg.load(config_text))
    machine.armed = lambda: [p.id for p in board._buttons if p.irq_handler] + (
        [board._usb.id] if board._usb is not None and board._usb.trigger else [])
    return rp2, machine, board


def test_rp2_backend_battery_gauge_led_supply_and_sleep(monkeypatch):
    rp2, machine, board = rp2_board(monkeypatch, '{"led_power_pin": 18}')
    assert board._vsys.pin.id == 29 and board._usb.id == 24
    assert FakePin.pulls[24] == "pull_down"  # a pin nothing drives reads "no USB"
    assert FakePin.pulls[29] is None  # the divider found, the pad analog again
    FakeADC.u16 = 0x5D00  # 0x5D0 of 4095 = 1488 / 4095 * 3.3 V, times the 3:1 divider
    assert board.vsys_mv() == 0x5D0 * 9900 // 4095 == 3597
    assert FakePin.levels[25] == 0  # GP25 raised for the reading only (a Pico W's divider)
    FakeADC.u16 = 0xFFFF
    assert board.vsys_mv() == 9900
    FakePin.levels[24] = 0
    assert board.usb_power() == 0
    FakePin.levels[24] = 1
    assert board.usb_power() == 1
    assert FakePin.levels[18] == 1  # the LED supply starts on (Pin(..., value=1))
    board.led_power(False)
    assert FakePin.levels[18] == 0
    board.led_power(True)
    assert FakePin.levels[18] == 1
    FakePin.levels[24] = 0  # on the cell
    every = [10, 11, 12, 13, 14, 15]  # every button wakes it, and USB coming

    def press_during_the_third(n):  # 5 s slices until a button's IRQ fires
        if n == 3:
            board._buttons[4].edges(FakePin.IRQ_FALLING)

    machine.during = press_during_the_third
    FakeWDT.made.clear()
    assert board.sleep() is True
    assert machine.lightsleeps == [(5000, every + [24])] * 3
    assert machine.armed() == every  # USB's irq disarmed (trigger 0), the buttons' kept
    (dog,) = FakeWDT.made  # the watchdog armed by the first sleep, fed through it
    assert dog.timeout == 8000 > 5000 and dog.fed >= 3
    assert board.pressed_mask() == 1 << 4  # the press that woke it, seen once
    machine.lightsleeps.clear()
    FakePin.levels[12] = 0  # a button already held: no sleep at all
    assert board.sleep() is True and machine.lightsleeps == []
    FakePin.levels[12] = 1
    machine.during = lambda n: FakePin.levels.__setitem__(24, 1) if n == 2 else None
    assert board.sleep() is True and len(machine.lightsleeps) == 2  # USB plugged in: awake
    machine.lightsleeps.clear()
    assert board.sleep() is False and machine.lightsleeps == []  # on USB: no lightsleep
    assert len(FakeWDT.made) == 1  # one watchdog, armed once


def test_rp2_backend_catches_a_tap_inside_a_freeze_and_not_a_bounce(monkeypatch):
    rp2, machine, board = rp2_board(monkeypatch)
    a = board._buttons[4]
    assert a.hard and a.trigger == FakePin.IRQ_FALLING | FakePin.IRQ_RISING
    clock = sys.modules["time"].clock
    clock[0] += 1000
    assert board.pressed_mask() == 0
    a.edges(FakePin.IRQ_FALLING | FakePin.IRQ_RISING)  # pressed and released in a freeze
    assert board.pressed_mask() == 1 << 4 and board.pressed_mask() == 0  # once
    FakePin.levels[a.id] = 0  # held: a frame sees it
    a.edges(FakePin.IRQ_FALLING)
    assert board.pressed_mask() == 1 << 4
    FakePin.levels[a.id] = 1
    clock[0] += 100
    a.edges(FakePin.IRQ_RISING)  # released, the contacts bouncing
    clock[0] += 2
    a.edges(FakePin.IRQ_FALLING)
    clock[0] += 1
    a.edges(FakePin.IRQ_RISING)
    assert board.pressed_mask() == 0  # a bounce is no press
    FakePin.levels[a.id] = 0
    board.pressed_mask()  # held at this frame...
    FakePin.levels[a.id] = 1
    clock[0] += 100
    a.edges(FakePin.IRQ_RISING | FakePin.IRQ_FALLING)  # ... released inside a freeze
    assert board.pressed_mask() == 0  # its release, no new press
    clock[0] += 100
    a.edges(FakePin.IRQ_FALLING | FakePin.IRQ_RISING)  # a tap between two frames
    assert board.pressed_mask() == 1 << 4


def test_rp2_backend_a_button_tapped_again_within_one_long_frame_is_two_presses(monkeypatch):
    """A save's frame is 70-150 ms (emulated RP2040): a tap's release and the next tap of
    the same button can both fall between two frames. Reported held at both, the second
    tap would be no press (device/input.py sees one long hold): it is reported released
    once, then held."""
    rp2, machine, board = rp2_board(monkeypatch)
    a = board._buttons[4]
    clock = sys.modules["time"].clock
    clock[0] += 1000
    FakePin.levels[a.id] = 0
    a.edges(FakePin.IRQ_FALLING)
    assert board.pressed_mask() == 1 << 4  # held
    clock[0] += 2  # the press's bounce: a rise and a fall at once
    a.edges(FakePin.IRQ_RISING)
    a.edges(FakePin.IRQ_FALLING)
    clock[0] += 18
    assert board.pressed_mask() == 1 << 4  # still the same press
    clock[0] += 80  # a long frame: let go, pressed again 30 ms later, still held
    FakePin.levels[a.id] = 1
    a.edges(FakePin.IRQ_RISING)
    clock[0] += 30
    FakePin.levels[a.id] = 0
    a.edges(FakePin.IRQ_FALLING)
    assert [board.pressed_mask() for _ in range(3)] == [0, 1 << 4, 1 << 4]
    clock[0] += 100  # let go and pressed again inside a freeze: both edges at once
    a.edges(FakePin.IRQ_RISING | FakePin.IRQ_FALLING)
    assert [board.pressed_mask() for _ in range(2)] == [0, 1 << 4]
    clock[0] += 100  # let go, then a whole tap between two frames, up again at the next
    FakePin.levels[a.id] = 1
    a.edges(FakePin.IRQ_RISING)
    clock[0] += 40
    a.edges(FakePin.IRQ_FALLING)
    clock[0] += 40
    a.edges(FakePin.IRQ_RISING)
    assert [board.pressed_mask() for _ in range(3)] == [0, 1 << 4, 0]
    clock[0] += 100  # two taps inside two freezes, one frame apart: two presses
    a.edges(FakePin.IRQ_FALLING | FakePin.IRQ_RISING)
    assert board.pressed_mask() == 1 << 4
    clock[0] += 50
    a.edges(FakePin.IRQ_FALLING | FakePin.IRQ_RISING)
    assert [board.pressed_mask() for _ in range(3)] == [0, 1 << 4, 0]
    clock[0] += 100  # a button held all along is one press, however long the frames
    FakePin.levels[a.id] = 0
    a.edges(FakePin.IRQ_FALLING)
    for _ in range(3):
        assert board.pressed_mask() == 1 << 4
        clock[0] += 150


@pytest.mark.parametrize("name", ["Raspberry Pi Pico W with RP2040",
                                  "Raspberry Pi Pico 2 W with RP2350"])
def test_rp2_backend_gauge_absent_by_config_on_a_radio_board_and_on_a_bare_pin(monkeypatch, name):
    rp2, machine, board = rp2_board(monkeypatch, '{"battery_pin": null, "usb_pin": null}')
    assert (board.vsys_mv(), board.usb_power()) == (-1, -1)
    board.led_power(False)  # no switch: nothing to do, no error
    rp2, machine, board = rp2_board(monkeypatch, "{}", name)  # GP29, GP24: the radio's there
    assert (board.vsys_mv(), board.usb_power()) == (-1, -1) and 25 not in FakePin.levels
    rp2, machine, board = rp2_board(monkeypatch, '{"battery_pin": 27}', name)  # a divider of
    FakeADC.u16 = 0x8000  # the builder's own
    assert board.vsys_mv() == 0x800 * 9900 // 4095 and board.usb_power() == -1
    # a clone whose GP29 is a bare header pin: it reads 0 with the pull-down, no gauge
    monkeypatch.setattr(FakeADC, "driven", False)
    board = rp2.Hardware(cfg.load("{}"))
    assert board.vsys_mv() == -1


def test_rp2_backend_without_buzzer(monkeypatch):
    rp2 = import_fresh(monkeypatch, "microrobots.device.hw.rp2", {"machine": fake_machine([]), "time": fake_time()})
    board = rp2.Hardware(cfg.load('{"buzzer_pin": null}'))
    board.tone(440)  # nothing to sound: no error
    board.quiet()
    assert board._buzzer is None


def test_rp2_backend_runs_inside_micropython():
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hw_backends_mpy.py")
    got = json.loads(mpy.run_file(script))
    assert got["name"].endswith("rp2")
    assert got["mask"] == 1 << 3  # right (GP13) held
    assert got["elapsed"] >= 5
    assert 0 <= got["seed"] < 1 << 30
    assert got["mv"] == 0x600 * 9900 // 4095  # small-int arithmetic on a Pico as here
    sent = got["sent"]
    assert len(sent) == 108 and sum(sent) == sent[3 * 30 + 1] > 0  # cell 35 = LED 30, G first


# --- fake CircuitPython modules -----------------------------------------------------------
class CPPin:
    def __init__(self, number):
        self.number = number

    def __repr__(self):
        return "board.GP%d" % self.number


class DigitalInOut:
    levels = {}

    def __init__(self, pin):
        self.pin = pin
        self.direction = None
        self.pull = None
        self.deinited = False

    def switch_to_input(self, pull=None):
        self.direction, self.pull = "input", pull

    def switch_to_output(self, value=False):
        self.direction = "output"
        DigitalInOut.levels[self.pin.number] = value

    @property
    def value(self):
        return DigitalInOut.levels.get(self.pin.number, True)

    @value.setter
    def value(self, level):
        DigitalInOut.levels[self.pin.number] = level

    def deinit(self):
        self.deinited = True


class Keys:
    """keypad.Keys as the backend uses it: ``scan()`` (CircuitPython's tick interrupt,
    here a test's call) queues an event for each key whose level changed since the last
    scan; every key starts released, as keypad's do."""

    def __init__(self, pins, value_when_pressed, pull, interval=0.02, max_events=64):
        self.pins, self.value_when_pressed, self.pull = pins, value_when_pressed, pull
        self.interval, self.max_events = interval, max_events
        self.events = EventQueue()
        self.pressed = [False] * len(pins)
        self.deinited = False

    def scan(self):
        assert not self.deinited
        for i, pin in enumerate(self.pins):
            pressed = DigitalInOut.levels.get(pin.number, True) == self.value_when_pressed
            if pressed != self.pressed[i]:
                self.pressed[i] = pressed
                self.events.queue.append((i, pressed))

    def deinit(self):
        self.deinited = True


class EventQueue:
    def __init__(self):
        self.queue = []

    def get_into(self, event):
        if not self.queue:
            return False
        event.key_number, event.pressed = self.queue.pop(0)
        return True


class Event:
    key_number, pressed = 0, False


class PWMOut:
    def __init__(self, pin, duty_cycle=0, frequency=500, variable_frequency=False):
        self.pin, self.duty_cycle, self.frequency = pin, duty_cycle, frequency
        self.variable_frequency = variable_frequency


def circuitpython_fakes(written):
    board = types.ModuleType("board")
    for n in range(30):
        setattr(board, "GP%d" % n, CPPin(n))
    digitalio = types.ModuleType("digitalio")
    digitalio.DigitalInOut = DigitalInOut
    digitalio.Direction = types.SimpleNamespace(INPUT="input", OUTPUT="output")
    digitalio.Pull = types.SimpleNamespace(UP="up", DOWN="down")
    neopixel_write = types.ModuleType("neopixel_write")
    neopixel_write.neopixel_write = lambda pin, buf: written.append((pin, bytes(buf)))
    pwmio = types.ModuleType("pwmio")
    pwmio.PWMOut = PWMOut
    keypad = types.ModuleType("keypad")
    keypad.Keys, keypad.Event = Keys, Event
    supervisor = types.ModuleType("supervisor")
    supervisor.ticks_ms = lambda: (1 << 29) - 5  # just before the wrap
    microcontroller = types.ModuleType("microcontroller")
    microcontroller.Pin = CPPin
    microcontroller.pin = types.SimpleNamespace(**{"GPIO%d" % n: CPPin(n) for n in range(30)})
    analogio = types.ModuleType("analogio")
    analogio.AnalogIn = AnalogIn
    alarm = types.ModuleType("alarm")
    alarm.slept = []
    alarm.pin = types.SimpleNamespace(PinAlarm=PinAlarm)
    alarm.light_sleep_until_alarms = lambda *alarms: alarm.slept.append(
        [(a.pin.number, a.value, a.pull) for a in alarms])
    return {"board": board, "digitalio": digitalio, "neopixel_write": neopixel_write,
            "pwmio": pwmio, "supervisor": supervisor, "microcontroller": microcontroller,
            "analogio": analogio, "alarm": alarm, "keypad": keypad}


class AnalogIn:
    value = 0x7000

    def __init__(self, pin):
        self.pin = pin


class PinAlarm:
    def __init__(self, pin, value, pull):
        self.pin, self.value, self.pull = pin, value, pull


@pytest.fixture
def circuitpython(monkeypatch):
    written = []
    fakes = circuitpython_fakes(written)
    for mod, value in fakes.items():
        monkeypatch.setitem(sys.modules, mod, value)
    monkeypatch.delitem(sys.modules, "neopixel", raising=False)
    neopixel = importlib.import_module("neopixel")  # the real Adafruit library
    assert neopixel.__version__ == "6.4.2" and hasattr(neopixel.NeoPixel, "show")
    module = import_fresh(monkeypatch, "microrobots.device.hw.circuitpython", {})
    monkeypatch.delitem(sys.modules, "neopixel")
    return module, written


def test_circuitpython_backend_with_the_adafruit_library(circuitpython):
    module, written = circuitpython
    config = cfg.load('{"matrix": "panel8x8", "order": "progressive", "color_order": "RGB", "buzzer_pin": 22}')
    board = module.Hardware(config)
    pixels = board.pixels
    assert type(pixels).__module__ == "neopixel" and len(pixels) == 64
    assert pixels.pin.pin.number == 2 and pixels.pin.direction == "output"
    keys = board._buttons._keys
    assert (keys.value_when_pressed, keys.pull, keys.interval) == (False, True, 0.02)
    assert [p.number for p in keys.pins] == [10, 11, 12, 13, 14, 15]

    DigitalInOut.levels = {15: False, 10: False}  # b and up held
    try:
        keys.scan()
        assert board.pressed_mask() == (1 << 5) | 1
    finally:
        DigitalInOut.levels = {}

    display = Display(config, write=board.show, gamma=1.0, brightness=8)
    frame = bytearray(108)
    frame[0:3] = bytes((1, 2, 3))
    display.show(frame)
    pin, buf = written[-1]
    assert pin is pixels.pin and len(buf) == 192
    assert buf[27:30] == bytes((1, 2, 3)) and sum(buf) == 6  # window at (1, 1): LED 9, RGB order

    board.tone(880)
    assert board._buzzer.pin.number == 22 and board._buzzer.variable_frequency
    assert (board._buzzer.frequency, board._buzzer.duty_cycle) == (880, 32768)
    board.quiet()
    assert board._buzzer.duty_cycle == 0

    # supervisor.ticks_ms wraps at 2**29; the difference across the wrap stays right.
    assert board.ticks_diff(3, (1 << 29) - 5) == 8
    assert board.ticks_diff((1 << 29) - 5, 3) == -8
    assert board.ticks_ms() == (1 << 29) - 5
    assert 0 <= board.seed() < 1 << 30


def test_circuitpython_library_still_drives_pixels_itself(circuitpython):
    # The same pin object also works through the library's own API (e.g. for a test pattern).
    module, written = circuitpython
    board = module.Hardware(cfg.defaults())
    board.pixels[0] = (10, 20, 30)
    board.pixels.show()
    assert written[-1][1][:3] == bytes((20, 10, 30))  # GRB from config


def test_backend_picks_fake_on_cpython():
    Hardware = hw.backend()
    assert Hardware.__module__ == "microrobots.device.hw.fake"
    board = Hardware(cfg.defaults())
    board.pressed = 5
    assert board.pressed_mask() == 5
    board.show(bytearray(b"\x01\x02"))
    board.sleep_ms(20)
    board.tone(440)
    assert board.shown == b"\x01\x02" and board.ticks_ms() == 20 and board.tones == [(20, 440)]


def test_only_hw_imports_hardware_modules():
    import os
    import re
    root = os.path.join(mpy.FIRMWARE, "microrobots")
    banned = re.compile(r"^\s*(import|from)\s+(machine|neopixel|rp2|rp2pio|board|digitalio|keypad|pwmio|js)\b", re.M)
    for folder, _, files in os.walk(root):
        if os.path.basename(folder) == "hw":
            continue
        for name in files:
            if name.endswith(".py"):
                with open(os.path.join(folder, name)) as f:
                    assert not banned.search(f.read()), name


# --- the web page's backend (MicroPython's WebAssembly port), with a fake ``js`` -------------
class FakeBoard:
    """What tools/sim/web/ sets up as globalThis.microrobotsBoard."""

    def __init__(self):
        self.mask, self.clock, self.grids, self.tones = 0, 0, [], []

    def buttons(self):
        return self.mask

    def show(self, grid):
        self.grids.append(bytes(grid))

    def tone(self, freq):
        self.tones.append(freq)

    def now(self):
        return self.clock

    def seed(self):
        return 0x7FFFFFFF

    vsys_level, usb_level, supply, sleeps = -1, 1, True, 0

    def vsys(self):
        return self.vsys_level

    def usb(self):
        return self.usb_level

    def ledPower(self, on):  # noqa: N802 - the page's JavaScript name
        self.supply = on

    def sleep(self):
        self.sleeps += 1


@pytest.fixture
def web(monkeypatch):
    board = FakeBoard()
    js = types.ModuleType("js")
    js.microrobotsBoard = board
    js.Uint8Array = types.SimpleNamespace(new=bytes)
    monkeypatch.setitem(sys.modules, "js", js)
    monkeypatch.delitem(sys.modules, "microrobots.device.hw.web", raising=False)
    return importlib.import_module("microrobots.device.hw.web"), board


@pytest.mark.parametrize("wiring", [{}, {"color_order": "RGB", "origin": "bottom-right"},
                                    {"matrix": "panel8x8", "led_count": 64, "rotation": 90,
                                     "order": "progressive", "color_order": "BRG"}])
def test_web_backend_gives_the_page_the_grid_as_written(web, wiring):
    module, board = web
    config = cfg.defaults()
    config.update(wiring)
    page = module.Hardware(config)
    display = Display(config, write=page.show, pixel_order=module.Hardware.PIXEL_ORDER)
    frame = bytearray(range(108))
    display.show(frame)
    assert board.grids == [bytes(display.written)]  # the grid's order: the simulator's
    # (whatever the wiring: the page declares its own pixel order, nothing is undone)
    assert len(board.grids[0]) == 108


def test_web_backend_buttons_clock_buzzer_seed(web):
    module, board = web
    page = module.Hardware(cfg.defaults())
    board.mask = 0b10001
    assert page.pressed_mask() == 0b10001
    board.clock = (1 << 30) + 5  # wraps as MicroPython's ticks do
    assert page.ticks_ms() == 5
    assert page.ticks_diff(5, (1 << 30) - 15) == 20 and page.ticks_diff(0, 20) == -20
    page.tone(440)
    page.tone(-3)
    page.quiet()
    assert board.tones == [440, 0, 0]
    assert page.seed() == 0x3FFFFFFF
    quiet = cfg.defaults()
    quiet["buzzer_pin"] = None
    module.Hardware(quiet).tone(440)
    assert board.tones == [440, 0, 0]  # no buzzer configured: silent
    board.vsys_level, board.usb_level = 3650, 0  # the page's simulated battery
    assert (page.vsys_mv(), page.usb_power()) == (3650, 0)
    page.led_power(False)
    assert board.supply is False
    assert page.sleep() is False and board.sleeps == 1  # the page cannot block: asked again


def test_web_backend_under_the_real_loop_gives_the_simulators_frames(web):
    """Device.step() paced by the page's clock shows what the fake-pins driver shows."""
    from microrobots import handheld

    module, board = web
    board.seed = lambda: 1234  # the fake backend's seed
    device = handheld.Device(module.Hardware, config_path=None, root="/nonexistent-web/")
    from microrobots.device.hw.fake import Hardware as Fake

    reference = handheld.Device(Fake, config_path=None, root="/nonexistent-web/")
    for k in range(60):
        board.mask = reference.hw.pressed = 16 if 10 <= k < 13 else 0
        device.step()
        reference.run(1)
        board.clock += 20
    assert board.grids and board.grids[-1] == bytes(reference.display.written)
    assert device.app.mode == reference.app.mode == "solo"


def test_circuitpython_backend_keeps_the_taps_scanned_while_the_loop_was_frozen(circuitpython,
                                                                              monkeypatch):
    """A save froze the frames (FAT writes, 270-380 ms) while keypad kept scanning: A
    tapped twice, then B; the frames get them one change of a button a frame, counted in
    the frames' own now across supervisor.ticks_ms's wrap at 2**29."""
    module, _ = circuitpython
    monkeypatch.setattr(DigitalInOut, "levels", {})
    board = module.Hardware(cfg.defaults())
    keys = board._buttons._keys
    for held in ({14: False}, {}, {14: False}, {}, {15: False}, {}):  # GP14: A, GP15: B
        DigitalInOut.levels = held
        keys.scan()
    now = board.ticks_ms()  # (the fake's: 5 ms before the wrap)
    frames = []
    for _ in range(6):
        frames.append(board.pressed_mask(now))
        now = (now + 20) % (1 << 29)
    A, B = 1 << 4, 1 << 5
    assert frames == [A, 0, A, B, 0, 0]  # A's second release and B's press in one frame


def test_circuitpython_backend_sees_a_button_held_at_power_on_before_any_scan(circuitpython,
                                                                             monkeypatch):
    """keypad takes every key for released at its start; the self-test (a button held at
    power-on) and the button that woke the board (no move) need the levels as they are."""
    module, _ = circuitpython
    monkeypatch.setattr(DigitalInOut, "levels", {10: False})  # up held
    board = module.Hardware(cfg.defaults())
    assert board.pressed_mask() == 1
    board._buttons._keys.scan()  # keypad's first scan: "pressed", which the levels already say
    assert board.pressed_mask() == 1
    DigitalInOut.levels = {}
    board._buttons._keys.scan()
    assert board.pressed_mask() == 0
    DigitalInOut.levels = {12: False}  # left wakes the board, and is still held after
    assert board.sleep() is True
    assert board.pressed_mask() == 1 << 2


def test_circuitpython_backend_battery_gauge_led_supply_and_light_sleep(circuitpython, monkeypatch):
    module, written = circuitpython
    monkeypatch.setattr(DigitalInOut, "levels", {})
    board = module.Hardware(cfg.load('{"led_power_pin": 18}'))
    assert board._vsys.pin.number == 29 and board._usb.pin.number == 24
    assert board.vsys_mv() == 0x700 * 9900 // 4095
    DigitalInOut.levels[24] = False
    assert board.usb_power() == 0
    assert DigitalInOut.levels[18] is True  # the LEDs' supply starts on
    board.led_power(False)
    assert DigitalInOut.levels[18] is False
    before = board._buttons._keys
    assert board.sleep() is True
    alarm = sys.modules["alarm"]
    assert alarm.slept == [[(n, False, True) for n in (10, 11, 12, 13, 14, 15)]]
    assert before.deinited  # the pins went to the alarms, and came back
    assert [p.number for p in board._buttons._keys.pins] == [10, 11, 12, 13, 14, 15]
    assert board._buttons._keys.pull and not board._buttons._keys.deinited
    bare = module.Hardware(cfg.load('{"battery_pin": null, "usb_pin": null}'))
    assert (bare.vsys_mv(), bare.usb_power()) == (-1, -1)


def test_fake_backend_answers_the_power_calls():
    from microrobots.device.hw.fake import Hardware

    board = Hardware(cfg.defaults())
    assert (board.vsys_mv(), board.usb_power(), board.led_supply) == (-1, -1, True)
    board.vsys, board.usb = 3700, 0
    assert (board.vsys_mv(), board.usb_power()) == (3700, 0)
    board.led_power(False)
    assert board.led_supply is False
    assert board.sleep() is False and board.sleeps == 1  # a fake cannot wait for a button


# Every board kind (tools/rp2040/boards.py) as the rp2 backend finds it: what GP29 and GP24
# give. The emulated board runs three of them (test_rp2040.py); a Pico 2 W (an RP2350) only
# here, by its name. (u16 driven?, GP24's level, the name)
KINDS = {
    "pico": (True, 0, "Raspberry Pi Pico with RP2040"),
    "pico_w": (True, 0, "Raspberry Pi Pico with RP2040"),  # on the Pico's image: GP24
    "pico2_w": (True, 0, "Raspberry Pi Pico 2 W with RP2350"),  # undriven, pulled down
    "yd_rp2040": (False, 1, "Raspberry Pi Pico with RP2040"),  # the USR key's pull-up
}


@pytest.mark.parametrize("mv", [0, 1000, 3300, 5000])
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_no_board_sleeps_or_warns_for_a_gauge_it_does_not_have(monkeypatch, tmp_path, kind, mv):
    from microrobots.handheld import Device

    driven, usb_level, name = KINDS[kind]
    rp2, machine, board = rp2_board(monkeypatch, "{}", name)
    monkeypatch.setattr(FakeADC, "driven", driven)
    monkeypatch.setattr(FakeADC, "u16", min(int(mv / 3 * 65535 / 3300), 65535))
    FakePin.levels[24] = usb_level
    dev = Device(rp2.Hardware, config_path=str(tmp_path / "config.json"),
                 root=str(tmp_path) + os.sep)
    # a sleep (only a real gauge's critical cell may ask for one) ends at a press of A
    machine.during = lambda n: FakePin.made[14].edges(FakePin.IRQ_FALLING)
    gauge = dev.power.mv >= 0
    warned = 0
    for _ in range(250):  # 5 s: five readings of the gauge
        dev.run(1)
        warned += dev.power.warning(dev.now)
    has_gauge = kind in ("pico", "pico_w")  # a divider on GP29 (a Pico W's through GP25)
    if not has_gauge or mv in (0, 1000):  # no gauge, or a reading no running Pico gives
        assert not gauge and warned == 0 and dev.sleeps == 0, (kind, mv, dev.power.mv)
    elif mv == 3300:  # a real gauge on a nearly empty cell: its warning is right
        assert gauge and dev.power.critical and warned
    else:
        assert not warned and dev.sleeps == 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_rp2_backend_loses_no_tap_of_a_random_session_over_long_frozen_frames(monkeypatch, seed):
    """tools/rp2040/taps.py's random taps (40-80 ms on every button, 20-200 ms apart) on
    the fake pins, framed as on a Pico: 20 ms frames, and every second one that saves
    (110 ms, 45 ms of it an erase with interrupts off: the edges in it latched and
    handled at its end, as one interrupt per pin). device/input.py on the masks the
    backend gives finds a press for every tap."""
    from tools.rp2040.taps import lost_taps, presses, tap_script

    rp2, machine, board = rp2_board(monkeypatch)
    clock = sys.modules["time"].clock
    start = clock[0] = 100000
    script = tap_script(300, seed)
    pins = board._buttons
    edges = sorted([(start + d, b, True) for d, _, b in script]
                   + [(start + u, b, False) for _, u, b in script])
    records, latched = [], {}
    t, k, frame = start - 200, 0, 0
    end = start + script[-1][1] + 500
    while t < end:
        long_frame = frame % 50 == 25
        freeze = (t + 20, t + 65) if long_frame else (t, t)
        next_poll = t + (110 if long_frame else 20)
        clock[0] = t
        records.append({"now": t, "mask": board.pressed_mask()})
        while k < len(edges) and edges[k][0] < next_poll:
            te, b, down = edges[k]
            FakePin.levels[pins[b].id] = 0 if down else 1
            flag = FakePin.IRQ_FALLING if down else FakePin.IRQ_RISING
            if freeze[0] <= te < freeze[1]:
                latched[b] = latched.get(b, 0) | flag
            else:
                if latched and te >= freeze[1]:
                    clock[0] = freeze[1]
                    for lb, flags in sorted(latched.items()):
                        pins[lb].edges(flags)
                    latched.clear()
                clock[0] = te
                pins[b].edges(flag)
            k += 1
        if latched:
            clock[0] = freeze[1]
            for lb, flags in sorted(latched.items()):
                pins[lb].edges(flags)
            latched.clear()
        t, frame = next_poll, frame + 1
    assert lost_taps(script, start, presses(records)) == []


# --- the PIO path (hw/rp2_pio.py): a fake state machine's FIFO -----------------------------
class FakeStateMachine:
    """rp2.StateMachine as rp2_pio uses it: its RX FIFO holds the words a test puts, after
    ``first``, the record the program makes as it starts (nothing held, window of 6)."""
    made = []
    first = 1 << 6

    def __init__(self, sm_id, prog, freq=None, in_base=None):
        self.id, self.prog, self.freq, self.in_base = sm_id, prog, freq, in_base
        self.fifo, self.on = [FakeStateMachine.first], False
        FakeStateMachine.made.append(self)

    def active(self, on):
        self.on = bool(on)

    def rx_fifo(self):
        return len(self.fifo)

    def get(self):
        return self.fifo.pop(0)


def fake_rp2():
    rp2 = types.ModuleType("rp2")
    rp2.PIO = types.SimpleNamespace(SHIFT_LEFT=0, SHIFT_RIGHT=1, JOIN_RX=2)
    rp2.StateMachine = FakeStateMachine

    def asm_pio(**kw):  # the program as a list, EXECCTRL fifth from the end (1.28's layout)
        return lambda f: [kw, -1, -1, -1, 0, 0, None, None, None]

    rp2.asm_pio = asm_pio
    return rp2


def words(records, group):
    """``records`` (lists of held-window masks, one list per word) as the state machine
    packs them: each under its marker bit, the oldest in the top bits."""
    out = []
    for word in records:
        w = 0
        for levels in word:
            w = w << group | 1 << (group - 1) | levels
        out.append(w)
    return out


@pytest.fixture
def pio_board(monkeypatch):
    machine = fake_machine([])
    machine.freq = lambda: 125_000_000
    FakeStateMachine.made.clear()
    monkeypatch.setattr(FakeStateMachine, "first", 1 << 6)
    rp2 = import_fresh(monkeypatch, "microrobots.device.hw.rp2",
                       {"machine": machine, "time": fake_time(), "rp2": fake_rp2()})
    monkeypatch.setattr(FakePin, "levels", {})
    monkeypatch.delitem(sys.modules, "microrobots.device.hw.rp2_pio", raising=False)
    return rp2, machine


def test_rp2_backend_reads_the_buttons_from_a_state_machine_in_their_order(pio_board):
    rp2, machine = pio_board
    board = rp2.Hardware(cfg.load("{}"))  # GP10-15: a window of 6, records of 7 bits
    (sm,) = FakeStateMachine.made
    assert sm.on and sm.id == 4 and sm.freq == 2500 and sm.in_base.id == 10
    assert sm.prog[4] == 1 << 4 | 2  # mov x, status: the RX FIFO's level under 2
    assert sm.prog[0]["push_thresh"] == 28 and sm.prog[0]["autopush"]
    assert not any(p.irq_handler for p in board._buttons)  # no IRQ while awake
    clock = sys.modules["time"].clock
    A, B, UP = 1 << 4, 1 << 5, 1
    frames = []

    def frame(ms=20):
        frames.append(board.pressed_mask())
        clock[0] += ms

    frame()
    sm.fifo += words([[A]], 7)  # pressed, read at once
    frame()
    # a freeze: let go, pressed and let go again, then B tapped; packed 4 and 1 to a word,
    # the second pushed partly filled (its unused top: no record)
    sm.fifo += words([[0, A, 0, B], [0]], 7)
    for _ in range(5):
        frame()
    assert frames == [0, A, 0, A, 0 | B, 0, 0]  # A's release and B's press in one frame
    frames.clear()
    sm.fifo += [0] + words([[UP], [UP | A]], 7)  # an empty word; UP, then A
    frame(5)  # two buttons: one frame
    sm.fifo += words([[UP]], 7)  # A let go 5 ms after it was given
    frame(15)  # within 20 ms of A's last change: its release waits
    frame()
    assert frames == [UP | A, UP | A, UP]


def test_rp2_backend_pio_path_paces_a_freezes_changes_in_the_frames_clock(pio_board):
    """Issue 31, the tap the worst-case session lost: a freeze's record (three taps of
    LEFT among others) handed over a change of a button a frame. The frames' now (the
    clock input.py's 20 ms lock-out counts in) moves 19 or 21 ms at a time where the
    ms ticks over, and a reading of the ticks a moment later in the frame may be 1 ms on:
    counted in that reading, LEFT's second press came 20 ms after its release by the
    record's clock, 19 by input.py's, which took it for a bounce and then saw the
    release: a tap lost. Counted in the frame's own ticks (Device.step passes them) every
    tap is a press."""
    from microrobots.device.input import PRESS, Buttons

    rp2, _ = pio_board
    clock = sys.modules["time"].clock
    U, D, L, R = 1, 2, 4, 8
    record = [[U, 0, L, 0], [D, 0, L, 0], [R, 0, L, 0]]  # 4 to a word, as in a freeze

    def presses(frame_clock):
        board = rp2.Hardware(cfg.load("{}"))
        (sm,) = FakeStateMachine.made[-1:]
        sm.fifo += words(record, 7)
        buttons = Buttons()
        t = clock[0]
        buttons.reset(t)
        out = []
        for step in [20, 19, 21] * 8:
            t += step
            clock[0] = t + (step == 19)  # the ms ticked over just after the frame read t
            buttons.poll(t, board.pressed_mask(t if frame_clock else None))
            e = buttons.next_event()
            while e >= 0:
                out += [e & 7] if e >> 3 == PRESS else []
                e = buttons.next_event()
        return out

    assert presses(frame_clock=True) == [0, 2, 1, 2, 3, 2]  # up, left, down, left, ...
    assert presses(frame_clock=False).count(2) == 2  # a reading of its own: one lost


def test_rp2_backend_pio_path_maps_a_window_of_scattered_pins_and_wakes_by_irq(pio_board):
    rp2, machine = pio_board
    FakePin.levels[24] = 0  # on the cell
    FakeStateMachine.first = 1 << 12
    board = rp2.Hardware(cfg.load('{"buttons": {"up": 20, "b": 9}}'))  # GP9-20: 12 pins
    machine.armed = lambda: sorted([p.id for p in board._buttons if p.trigger] + (
        [board._usb.id] if board._usb.trigger else []))
    (sm,) = FakeStateMachine.made
    assert sm.in_base.id == 9 and sm.prog[0]["push_thresh"] == 26  # 2 records of 13 bits
    sm.fifo += words([[1 << (20 - 9) | 1 << 0]], 13)  # GP20 (up) and GP9 (b) held
    assert board.pressed_mask() == 1 | 1 << 5

    def press_during_the_second(n):
        if n == 2:
            board._buttons[4].irq_handler(board._buttons[4])

    machine.during = press_during_the_second
    sm.fifo += words([[0]], 13)
    sys.modules["time"].clock[0] += 100
    assert board.pressed_mask() == 0
    assert board.sleep() is True and len(machine.lightsleeps) == 2
    assert machine.lightsleeps[0][1] == [9, 11, 12, 13, 14, 20, 24]  # buttons' IRQs armed
    assert machine.armed() == []  # and disarmed after, with USB's


# --- CircuitPython's PIO path (rp2pio): button_watch's program on a fake state machine -----
class FakeCPStateMachine:
    """rp2pio.StateMachine as the backend uses it: the words a test puts in its RX FIFO;
    ``refuse``: the constructor raises it (a pin of the window in use)."""
    made = []
    refuse = None

    def __init__(self, program, **kw):
        if FakeCPStateMachine.refuse:
            raise FakeCPStateMachine.refuse
        self.program, self.kw = list(program), kw
        self.fifo, self.deinited = [], False
        FakeCPStateMachine.made.append(self)

    @property
    def in_waiting(self):
        return len(self.fifo)

    def readinto(self, buf):
        buf[0] = self.fifo.pop(0)

    def deinit(self):
        self.deinited = True


@pytest.fixture
def circuitpython_pio(circuitpython, monkeypatch):
    rp2pio = types.ModuleType("rp2pio")
    rp2pio.StateMachine = FakeCPStateMachine
    monkeypatch.setitem(sys.modules, "rp2pio", rp2pio)
    monkeypatch.setattr(FakeCPStateMachine, "made", [])
    monkeypatch.setattr(FakeCPStateMachine, "refuse", None)
    monkeypatch.setattr(DigitalInOut, "levels", {})
    return circuitpython[0]


def test_circuitpython_backend_reads_the_buttons_through_rp2pio_as_rp2_does(circuitpython_pio):
    from microrobots.device.hw import button_program

    module = circuitpython_pio
    board = module.Hardware(cfg.defaults())  # GP10-15
    (sm,) = FakeCPStateMachine.made
    assert sm.program == list(button_program.program(6)[0])
    kw = sm.kw
    assert (kw["first_in_pin"].number, kw["in_pin_count"], kw["pull_in_pin_up"]) == (10, 6, 0x3F)
    assert (kw["frequency"], kw["push_threshold"], kw["auto_push"]) == (2500, 28, True)
    assert (kw["mov_status_type"], kw["mov_status_n"], kw["fifo_type"]) == ("rxfifo", 2, "rx")
    assert (kw["wrap_target"], kw["wrap"]) == (7, 10)
    A, B = 1 << 4, 1 << 5
    sm.fifo += words([[A, 0, A, 0], [B], [0]], 7)  # a freeze: A tapped twice, then B
    now = board.ticks_ms()
    frames = []
    for _ in range(6):
        frames.append(board.pressed_mask(now))
        now = (now + 20) % (1 << 29)
    assert frames == [A, 0, A, B, 0, 0]
    DigitalInOut.levels = {11: False}  # down wakes it, still held after
    assert board.sleep() is True
    assert sm.deinited and len(FakeCPStateMachine.made) == 2  # its pins lent to the alarms
    assert board.pressed_mask() == 1 << 1


def test_circuitpython_backend_falls_back_to_keypad_when_no_state_machine_can_have_the_pins(
        circuitpython_pio):
    FakeCPStateMachine.refuse = ValueError("GP12 in use")
    board = circuitpython_pio.Hardware(cfg.defaults())
    assert FakeCPStateMachine.made == [] and board._buttons._keys.interval == 0.02
    DigitalInOut.levels = {14: False}
    board._buttons._keys.scan()
    assert board.pressed_mask() == 1 << 4


# --- one program, two ports: rp2_pio's text and button_program's words ------------------------
def micropython_assembler(monkeypatch):
    """MicroPython's own ``rp2`` module (ports/rp2/modules/rp2.py: asm_pio is Python),
    from the image's pinned sources (tools/picoimage: ../shared/pico-src/), over a
    ``_rp2`` that gives it the PIO constants; None without the sources."""
    import tarfile

    from tools.picoimage.__main__ import find_archive

    path, _ = find_archive()
    if path is None:
        return None
    with tarfile.open(path) as tar:
        source = tar.extractfile("micropython/ports/rp2/modules/rp2.py").read().decode()
    _rp2 = types.ModuleType("_rp2")
    _rp2.PIO = types.SimpleNamespace(SHIFT_LEFT=0, SHIFT_RIGHT=1, JOIN_NONE=0, JOIN_TX=1,
                                     JOIN_RX=2)
    _rp2.__all__ = ["PIO"]
    micropython = types.ModuleType("micropython")
    micropython.const = lambda x: x
    monkeypatch.setitem(sys.modules, "_rp2", _rp2)
    monkeypatch.setitem(sys.modules, "micropython", micropython)
    rp2 = types.ModuleType("rp2")
    exec(compile(source, "rp2.py", "exec"), rp2.__dict__)
    return rp2


@pytest.mark.parametrize("span", [6, 12, 29])
def test_the_circuitpython_words_are_rp2_pios_program_as_micropython_assembles_it(
        monkeypatch, span):
    rp2 = micropython_assembler(monkeypatch)
    if rp2 is None:
        pytest.skip("no pico-src.tar.xz (../shared/pico-src/ or PICO_SRC): MicroPython's "
                    "assembler is not at hand")
    monkeypatch.setitem(sys.modules, "rp2", rp2)
    monkeypatch.setitem(sys.modules, "machine", fake_machine([]))
    monkeypatch.delitem(sys.modules, "microrobots.device.hw.rp2_pio", raising=False)
    rp2_pio = importlib.import_module("microrobots.device.hw.rp2_pio")
    from microrobots.device.hw import button_program, button_watch

    prog = rp2_pio._program(span)
    words, wrap_target, wrap = button_program.program(span)
    assert list(prog[0]) == list(words)
    execctrl, shiftctrl = prog[-5], prog[-4]
    assert (execctrl >> 7 & 31, execctrl >> 12 & 31) == (wrap_target, wrap)
    assert execctrl & 0x1F == 1 << 4 | button_watch.ROOM  # status: RX level under 2
    assert shiftctrl >> 20 & 31 == button_watch.push_threshold(span)
