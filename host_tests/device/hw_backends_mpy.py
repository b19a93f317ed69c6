"""The rp2 backend inside MicroPython, on a fake ``machine`` module (GP13, right, held;
the LED bytes kept): run by device/test_hw_backends.py. ``main`` prints what the backend
chosen by ``hw.backend()`` reports and sends."""

import json
import sys

sent = []


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 2
    PULL_DOWN = 3
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, n, mode=None, pull=None, value=None):
        self.n = n

    def value(self, level=None):
        return 0 if self.n == 13 else 1

    def irq(self, handler=None, trigger=None, hard=False):
        return self


class PWM:
    def __init__(self, pin):
        pass

    def freq(self, f):
        pass

    def duty_u16(self, d):
        pass


class ADC:
    def __init__(self, pin):
        pass

    def read_u16(self):
        return 0x6000


class WDT:
    def __init__(self, timeout):
        pass

    def feed(self):
        pass


class Machine:
    Pin = Pin
    PWM = PWM
    ADC = ADC
    WDT = WDT

    @staticmethod
    def disable_irq():
        return 0

    @staticmethod
    def enable_irq(state):
        pass

    @staticmethod
    def lightsleep(ms):
        pass

    @staticmethod
    def bitstream(pin, encoding, timing, buf):
        sent.append(bytes(buf))


def main():
    sys.modules["machine"] = Machine()  # before the firmware looks for it
    from microrobots.device.config import defaults
    from microrobots.device.display import Display
    from microrobots.device.hw import backend

    hardware = backend()
    board = hardware(defaults())
    display = Display(defaults(), write=board.show)
    frame = bytearray(108)
    frame[105] = 255
    display.show(frame)
    t = board.ticks_ms()
    board.sleep_ms(5)
    print(json.dumps({"name": hardware.__module__, "mask": board.pressed_mask(),
                      "sent": list(sent[0]), "elapsed": board.ticks_diff(board.ticks_ms(), t),
                      "seed": board.seed(), "mv": board.vsys_mv()}))
