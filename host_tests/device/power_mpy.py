"""Power on the handheld's frame loop (fake pins, a fake clock, a fake ADC), inside
MicroPython: run by device/test_power.py, whose CPython side calls ``session`` too.
``main``: the config path and the flash folder in argv, one JSON line out."""

import json
import sys

from microrobots import handheld
from microrobots.device.hw.fake import Hardware


def session(config_path, root):
    """A solo game on battery, left alone until it dims and sleeps, woken by a press that
    is no move, then the cell run down to low and to critical, and USB plugged in. Each
    entry of the trace: what the device shows and keeps at that moment (test_power.FIELDS)."""
    d = handheld.Device(Hardware, config_path=config_path, root=root)
    hw = d.hw
    hw.usb, hw.vsys = 0, 4000
    trace = []

    def run(ms, pressed=0):
        hw.pressed = pressed
        d.run(ms // 20)

    def note(tag):
        solo = d.app.current
        trace.append([tag, d.app.mode, d.display.brightness, d.asleep, hw.led_supply,
                      sum(d.display.written), d.power.percent, d.power.low, d.power.critical,
                      d.sleeps, d.now, getattr(solo, "cursor", -1),
                      type(solo.screen).__name__ if getattr(solo, "screen", None) else None,
                      d.display.cap])

    run(200)
    run(60, 16)  # A: solo
    run(600)
    run(60, 16)  # A: the dice rolled, play
    run(600)
    run(60, 8)  # RIGHT: the cursor moves
    run(400)
    note("playing")
    run(59000)
    note("before dim")
    run(2000)
    note("dimmed")
    run(60, 8)  # a press brightens (and acts: the grid was on show)
    run(400)
    note("bright again")
    run(300000)
    note("asleep")
    run(600000)
    note("asleep 10 min later")
    run(200, 8)  # RIGHT wakes it: no move
    note("woken, held")
    run(400)
    note("released")
    run(60, 8)  # the next press is a move
    run(400)
    note("moved")
    hw.vsys = 3690
    run(60000)
    note("low")
    hw.vsys = 3350
    run(30000)
    note("critical")
    hw.usb, hw.vsys = 1, 4800
    run(200, 8)
    run(2000)
    note("on USB")
    return trace


def main():
    print(json.dumps(session(sys.argv[1], sys.argv[2])))
