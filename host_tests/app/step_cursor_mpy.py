"""modes.step_cursor inside MicroPython, run by app/test_step_cursor.py: prints the bytes
a second round of presses in every direction allocates."""

import gc
import json

from microrobots.modes import step_cursor


def presses():
    for k in range(4):
        step_cursor(14, 15, k)
        step_cursor(14, 20, k)


def main():
    presses()
    gc.collect()
    a = gc.mem_alloc()
    presses()
    print(json.dumps(gc.mem_alloc() - a))
