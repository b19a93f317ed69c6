"""The display's hot loop: a frame through the brightness-and-gamma table and the power
cap into the LED buffer, unless nothing changed (device/display.py).

display_viper.py is this kernel as viper (native machine code) for MicroPython; this is
the same behaviour for runtimes with no native emitter (CircuitPython, the WebAssembly
port) and CPython: display.py picks one at import (compat.NATIVE). Bytecode costs per
operation, not per instruction, so here every step that a bytes operation does in C is
left to it: the sum (``sum``), the "nothing changed" test (``==``, a memcmp) and the copy
into ``written`` (a slice). Only the table lookup and the wiring order stay loops.
host_tests/rules/test_kernels.py keeps the two equal.
"""


def _show(frame, lut, nxt, written, buf, dest, cap, fresh):
    i = 0
    for v in frame:
        nxt[i] = lut[v]
        i += 1
    total = sum(nxt)
    capped = 0
    if total > cap:
        whole = total
        total = 0
        i = 0
        for v in nxt:
            v = v * cap // whole
            nxt[i] = v
            total += v
            i += 1
        capped = 65536
    if not fresh and nxt == written:
        return -1
    written[:] = nxt
    i = 0
    for v in nxt:
        buf[dest[i]] = v
        i += 1
    return total + capped
