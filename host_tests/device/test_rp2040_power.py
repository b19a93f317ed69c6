"""The power calls of the rp2 backend on the emulated RP2040 (rp2040py, the stock
MicroPython v1.28.0 image with the tree ``make flash`` writes): the battery gauge through
the real ``machine.ADC`` on GP29, USB sensing on GP24, the LED supply's pin.

What the emulator does not model, so nothing here asserts it: sleep. ``lightsleep()``
without a timeout sends its crystal dormant (its XOSC reports so) and nothing wakes it,
as on a real RP2040 (micropython#7035: hence the backend's one-minute slices);
``lightsleep(ms)`` jumps the emulated clock ahead and the emulator then stops. Nor does
it model current, the LEDs' supply, or a cell: the ADC reads the value the test sets.
"""

import pytest

from microrobots.device.power import percent_of
from tools.rp2040 import image

SCRIPT = b"""
import time
from microrobots.device import config
from microrobots.device.hw import backend
from microrobots.device.power import Power
cfg = config.load('{"led_power_pin": 17}')
hw = backend()(cfg)
power = Power(cfg, hw, 0)
last = hw.vsys_mv()
for k in range(3):
    while k and abs(hw.vsys_mv() - last) < 100:  # the test's next supply (the console lags)
        time.sleep_ms(10)
    time.sleep_ms(20)
    power.read(0)
    last = hw.vsys_mv()
    print("READ", k, last, hw.usb_power(), power.percent, power.low, power.on_usb, power.cap)
    hw.led_power(k != 1)
print("DONE")
while True:  # a board at its REPL idles with nothing due: the emulator calls that stuck
    time.sleep_ms(100)
"""


@pytest.fixture(scope="module")
def board():
    firmware, why = image.find("stock")
    if why:
        pytest.skip(why)
    from tools.rp2040.pico import EmulatorMissing
    from tools.rp2040.session import BoardSession

    try:
        session = BoardSession(firmware, files={"main.py": SCRIPT}, probed=False)
    except EmulatorMissing as e:
        pytest.skip(str(e))
    pico = session.pico
    mcu = pico.mcu
    pico.set_supply(3700, usb=False)  # a LiPo at 3.7 V, USB unplugged
    supply = {}

    def console():
        return pico.console if isinstance(pico.console, str) else pico.console()

    def line_seen(k):
        return "READ %d" % k in console()

    assert pico.run_until(lambda: line_seen(0), 6000), console()[-500:]
    supply[0] = mcu.gpio[17].output_value
    pico.set_supply(3400, usb=False)  # nearly empty
    assert pico.run_until(lambda: line_seen(1), pico.ms + 1000), console()[-500:]
    supply[1] = mcu.gpio[17].output_value
    pico.set_supply(4900, usb=True)  # USB plugged in: VSYS near 5 V
    assert pico.run_until(lambda: "DONE" in console(), pico.ms + 1000), console()[-500:]
    supply[2] = mcu.gpio[17].output_value
    reads = {}
    for line in console().splitlines():
        if line.startswith("READ "):
            fields = line.split()
            reads[int(fields[1])] = fields[2:]
    return reads, supply


def test_the_gauge_reads_vsys_through_the_real_adc(board):
    reads, _ = board
    mv, usb, percent, low, on_usb, cap = reads[0]
    assert abs(int(mv) - 3700) <= 3 and usb == "0"  # 12 bits of 3.3 V: 2.4 mV a step
    assert (percent, low, on_usb, cap) == ("13", "True", "False", "5900")  # low: the cap halved
    first = int(mv)
    mv, usb, percent, low, on_usb, cap = reads[1]
    assert abs(int(mv) - 3400) <= 3
    # smoothed (an eighth of the step per reading), as the host computes it
    assert int(percent) == percent_of(first + (int(mv) - first) // 8) < 13
    mv, usb, percent, low, on_usb, cap = reads[2]
    assert int(mv) > 4800 and usb == "1" and on_usb == "True" and percent == "-1"


def test_the_led_supply_pin_follows_led_power(board):
    _, supply = board
    assert supply == {0: True, 1: False, 2: True}  # switched by the script after each read
