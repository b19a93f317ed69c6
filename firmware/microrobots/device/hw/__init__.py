"""The hardware backends: the only code that touches pins.

Every backend offers the same ``Hardware(config)`` (config: a dict from config.py)::

    hw = backend()(config)
    hw.pressed_mask(t)       # bit i set = button input.BUTTON_NAMES[i] held down; t: the
                             #   frame's hw.ticks_ms() (optional), which a backend that
                             #   records changes paces them by (device/recorded.py)
    hw.show(buf)             # send display.py's prepared bytes to the LEDs, in the
    Hardware.PIXEL_ORDER     #   order the backend declares: "wiring" (a strip) or "grid"
    hw.tone(440); hw.quiet() # the piezo, if config["buzzer_pin"] is not None
    hw.ticks_ms(); hw.ticks_diff(a, b); hw.sleep_ms(20)
    hw.seed()                # a different number at every boot, for new games
    hw.vsys_mv()             # the supply's voltage in mV (a battery's), -1: no gauge
    hw.usb_power()           # 1 on USB power, 0 on battery, -1: not known
    hw.led_power(False)      # cut the LEDs' supply (config["led_power_pin"]; else nothing)
    hw.sleep()               # lowest power until a button; False: cannot wait (call again)

``backend()`` picks the module for the running interpreter: ``rp2`` under MicroPython,
``web`` in MicroPython's WebAssembly port (a web page is the board, tools/sim/web/),
``circuitpython`` under CircuitPython, ``fake`` (no pins, a fake clock) under CPython.
"""

import sys


def backend():
    """The ``Hardware`` class for this runtime."""
    name = sys.implementation.name
    # Full module names: strings this long are constants, where ``from .web import``
    # would make a Pico intern the names of the backends it never loads.
    if sys.platform == "webassembly":
        module = "microrobots.device.hw.web"
    elif name == "micropython":
        module = "microrobots.device.hw.rp2"
    elif name == "circuitpython":
        module = "microrobots.device.hw.circuitpython"
    else:
        module = "microrobots.device.hw.fake"
    return __import__(module, None, None, ("Hardware",)).Hardware
