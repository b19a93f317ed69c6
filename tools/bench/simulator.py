"""Simulator, pictures and flashing figures for `make bench`: how much faster than real
time the firmware runs in each runtime, what one PNG of the device costs, and how long
make flash spends compiling."""

import json
import os
import shutil
import sys
import tempfile
import time

SIM_MS = 60000  # one minute of play: a solo puzzle, waiting


def _sim(runtime, folder):
    from tools.sim import headless as sim

    events = os.path.join(folder, "solo.events")
    with open(events, "w") as f:
        f.write("500 a\n")
    frames = os.path.join(folder, "frames-%s.jsonl" % runtime)
    start = time.perf_counter()
    status = sim.main(["--headless", "--seed", "7", "--events", events, "--frames-out",
                       frames, "--until", str(SIM_MS), "--runtime", runtime])
    took = time.perf_counter() - start
    with open(frames) as f:
        count = sum(1 for _ in f)
    return status, took, count, frames


def report():
    print("== Simulator, pictures, flashing (tools.sim, tools.draw.render, tools.flash) ==")
    folder = tempfile.mkdtemp(prefix="bench-sim-")
    try:
        last = None
        for runtime in ("cpython", "micropython"):
            status, took, count, frames = _sim(runtime, folder)
            if status != 0:
                print("  %-11s  failed (exit %d)" % (runtime, status))
                continue
            print("  %-11s  %d s of play (%d frames of 20 ms, %d written to the LEDs) "
                  "in %.2f s: %.0fx real time"
                  % (runtime, SIM_MS // 1000, SIM_MS // 20, count, took, SIM_MS / 1000 / took))
            last = frames
        if last:
            from tools.draw import render

            with open(last) as f:
                pixels = json.loads(f.readlines()[-1])["pixels"]
            layout = render.layout_of_state(None)
            start = time.perf_counter()
            image = render.render(pixels, layout)
            drawn = time.perf_counter() - start
            png = os.path.join(folder, "x.png")
            render.save_png(image, png)
            print("  %-11s  one device picture %dx%d: %.0f ms to draw, %d KB as PNG"
                  % ("render", image.width, image.height, drawn * 1000,
                     os.path.getsize(png) // 1024))
        _flash(folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _flash(folder):
    from tools import flash

    cache = flash.CACHE
    flash.CACHE = os.path.join(folder, "cache")  # a cold cache: every module compiled
    try:
        plan = flash.make_plan(flash.DEFAULT_BOARD)
        start = time.perf_counter()
        flash.stage(plan, build=os.path.join(folder, "stage"))
        cold = time.perf_counter() - start
        start = time.perf_counter()
        flash.stage(plan, build=os.path.join(folder, "stage"))
        warm = time.perf_counter() - start
    finally:
        flash.CACHE = cache
    source = sum(os.path.getsize(os.path.join(flash.FIRMWARE, s.src)) for s in plan.steps)
    built = sum(os.path.getsize(s.built) for s in plan.steps)
    print("  %-11s  %d files for armv6m: compiled in %.2f s (%.2f s from the cache); "
          "%d KB on the board instead of %d KB of source"
          % ("flash", len(plan.steps), cold, warm, built // 1024, source // 1024))
    sys.stdout.flush()


if __name__ == "__main__":
    report()
