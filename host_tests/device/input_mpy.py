"""The buttons' debouncing on both runtimes: ``events`` is called by device/test_input.py
under CPython and, through ``main`` (polls as JSON on stdin), inside MicroPython, which
also measures the bytes a second pass of the polls allocates."""

import gc
import json
import sys

from microrobots.device.input import NO_EVENT, Buttons


def events(buttons, polls):
    """``[[ms, event]]`` from feeding ``buttons`` the ``polls`` ([ms, mask])."""
    out = []
    for now, mask in polls:
        buttons.poll(now, mask)
        e = buttons.next_event()
        while e != NO_EVENT:
            out.append([now, e])
            e = buttons.next_event()
    return out


def allocations(buttons, polls, later):
    """Bytes allocated by polling (and draining) ``polls`` again, ``later`` ms on."""
    buttons.reset(later)
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for now, mask in polls:
        buttons.poll(now + later, mask)
        e = buttons.next_event()
        while e != NO_EVENT:
            e = buttons.next_event()
    allocated = gc.mem_alloc() - before
    gc.enable()
    return allocated


def main():
    polls = json.loads(sys.stdin.read())
    b = Buttons()
    out = events(b, polls)
    print(json.dumps({"events": out, "allocated": allocations(b, polls, 5000)}))
