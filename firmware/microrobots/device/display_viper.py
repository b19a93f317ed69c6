"""The display's hot loop: a frame through the brightness-and-gamma table and the power
cap into the LED buffer, unless nothing changed (device/display.py).

Viper (native machine code) on MicroPython; device/display_plain.py does the same for
runtimes with no native emitter (CircuitPython, the WebAssembly port) and CPython, not
as this file's text but with bytes operations in C where they serve: display.py picks
one at import (compat.NATIVE). host_tests/rules/test_kernels.py keeps the twins equal.
"""

from ..compat import micropython, ptr8  # noqa: F401 - the viper decorator and its types


@micropython.viper
def _show(frame: ptr8, lut: ptr8, nxt: ptr8, written: ptr8, buf: ptr8, dest: ptr8,
          cap: int, fresh: int) -> int:
    total = 0
    i = 0
    while i < 108:
        v = int(lut[frame[i]])
        nxt[i] = v
        total += v
        i += 1
    capped = 0
    if total > cap:
        whole = total
        total = 0
        i = 0
        while i < 108:
            v = int(nxt[i]) * cap // whole
            nxt[i] = v
            total += v
            i += 1
        capped = 65536
    if not fresh:
        i = 0
        while i < 108:
            if nxt[i] != written[i]:
                break
            i += 1
        if i == 108:
            return -1
    i = 0
    while i < 108:
        v = nxt[i]
        written[i] = v
        buf[dest[i]] = v
        i += 1
    return total + capped
