"""make bench section: battery life, from the light the firmware really shows.

A soak-style session of each mode (tools/sim/soak.py's random player, kept in that
mode) runs the firmware's own Device on fake pins under CPython, on a simulated cell
(fake ADC at 3.9 V, no USB: the battery's power cap, idle dimming as the device does
it). Every frame the app drew is put through the display's brightness and gamma at each
of the 8 levels, and the cap; the mean channel sum per frame becomes milliamps with the
power budget of README.md and hardware/README.md (a WS2812B: 1 mA idle, 20 mA per
channel at 255), plus the Pico's own draw. Hours of play on a 2000 mAh cell follow, and
days asleep, with and without the LED supply switch.

Figures for the model's inputs (hardware/README.md, "Running on a battery"): the Pico
running MicroPython's frame loop draws about 25 mA from VSYS (its datasheet: 20-25 mA at
125 MHz); in machine.lightsleep(ms) Peter Hinch measured 0.99 mA on VSYS
(micropython#8832), taken here as 1.5 mA for margin (the LiPo SHIM and the MOSFET add
microamps). These are published figures, not measurements of ours: the emulated RP2040
models neither current nor the LEDs' draw.
"""

import os
import shutil
import tempfile
import time

CELL_MAH = 2000
LED_IDLE_MA = 1  # per WS2812B, dark
CHANNEL_MA = 20  # per channel at 255
PICO_RUN_MA = 25
PICO_SLEEP_MA = 1.5
LEDS = 36
MINUTES = 60  # simulated minutes of each mode (50 frames a second: 30000 frames)
MODES = ("solo", "referee", "classroom", "menu")
GOAL_HOURS = 8
GOAL_DAYS = 30


def luts():
    """The display's table of each brightness level 1..8, as bytes for translate()."""
    from microrobots.device.config import defaults
    from microrobots.device.display import Display

    tables = []
    for level in range(1, 9):
        display = Display(defaults(), brightness=level)
        tables.append(bytes(display._lut))
    return tables


def session(mode, minutes, folder, seed=7):
    """The mean channel sum per frame at each level 1..8, the share of frames in ``mode``
    and the share dimmed."""
    from microrobots.device.config import power_budget
    from microrobots.rules.rng import XorShift32
    from tools.sim import soak

    tables = luts()
    cap = power_budget(LEDS, 1000)  # on the cell (config battery_ma)
    root = os.path.join(folder, mode) + os.sep
    os.makedirs(root)
    soak.SoakHardware.start = 0
    d = soak.SoakDevice(soak.SoakHardware, root + "config.json", root)
    d.hw.vsys, d.hw.usb = 3900, 0
    player = soak.Player(XorShift32(seed))
    player.want, player.stay_until = mode, 10 ** 12
    player.focus = mode != "menu"
    sums = [0] * 8
    frames = in_mode = dimmed = 0
    elapsed = 0
    while elapsed < minutes * 60000:
        d.hw.pressed = player.mask(elapsed, d)
        d.run(1)
        elapsed += 20
        frames += 1
        in_mode += d.app is not None and d.app.mode == mode
        if d.asleep:
            continue  # dark: nothing to add
        frame = bytes(d.frame)
        if d.power.dimmed:
            dimmed += 1
            total = min(sum(frame.translate(tables[0])), cap)
            for k in range(8):
                sums[k] += total
            continue
        for k in range(8):
            sums[k] += min(sum(frame.translate(tables[k])), cap)
    return [s / frames for s in sums], in_mode / frames, dimmed / frames


def milliamps(mean_sum):
    return LEDS * LED_IDLE_MA + CHANNEL_MA * mean_sum / 255 + PICO_RUN_MA


def report():
    print("== Battery life (tools/bench/battery.py): dev machine CPython, fake pins; "
          "a model, not a measurement ==")
    folder = tempfile.mkdtemp(prefix="bench-battery-")
    started = time.perf_counter()
    try:
        results = {}
        for mode in MODES:
            results[mode] = session(mode, MINUTES, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print("  %d simulated minutes of each mode (soak's random player kept in it), %.0f s; "
          "a %d mAh cell; LEDs %d x %d mA dark + %d mA per channel at 255; Pico %s mA "
          "running, %s mA asleep"
          % (MINUTES, time.perf_counter() - started, CELL_MAH, LEDS, LED_IDLE_MA, CHANNEL_MA,
             PICO_RUN_MA, PICO_SLEEP_MA))
    for mode in MODES:
        _, share, dim = results[mode]
        print("  %-9s  %3.0f %% of its frames in the mode, %3.0f %% dimmed (a minute idle)"
              % (mode, share * 100, dim * 100))
    print("  level  " + "".join("%-22s" % m for m in MODES))
    print("         " + "".join("%-22s" % "sum   mA    hours" for _ in MODES))
    for k in range(8):
        cells = []
        for mode in MODES:
            mean = results[mode][0][k]
            ma = milliamps(mean)
            cells.append("%-22s" % ("%5.0f %5.0f %5.1f" % (mean, ma, CELL_MAH / ma)))
        print("  %-5s  %s" % ("%d%s" % (k + 1, "*" if k == 4 else ""), "".join(cells)))
    games = [results[m][0][4] for m in ("solo", "referee", "classroom")]
    worst = CELL_MAH / milliamps(max(games))
    print("  * the default brightness (5): %.1f h of play in the brightest game mode; goal "
          "%d h: %s" % (worst, GOAL_HOURS, "met" if worst >= GOAL_HOURS else "NOT met"))
    with_switch = CELL_MAH / PICO_SLEEP_MA / 24
    without = CELL_MAH / (PICO_SLEEP_MA + LEDS * LED_IDLE_MA) / 24
    print("  asleep: %.0f days with the LED supply switch (%.1f mA), %.1f days without it "
          "(%.1f mA: 36 dark LEDs); goal %d days: %s"
          % (with_switch, PICO_SLEEP_MA, without, PICO_SLEEP_MA + LEDS * LED_IDLE_MA,
             GOAL_DAYS, "met with the switch" if with_switch >= GOAL_DAYS else "NOT met"))
