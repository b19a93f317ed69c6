"""The display's hot loop: a frame through the brightness-and-gamma table and the power
cap into the LED buffer, unless nothing changed (device/display.py).

display_viper.py is this kernel as viper (native machine code) for MicroPython; this is
the same behaviour for runtimes with no native emitter (CircuitPython, the WebAssembly
port) and CPython: display.py picks one at import (compat.NATIVE). Bytecode costs per
operation, not per instruction, so here every step that a bytes operation does in C is
left to it: the sum (``sum``), the "nothing changed" test (``==``, a memcmp) and the copy
into ``written`` (a slice). The table lookup and the wiring order stay a loop, one pass.
host_tests/rules/test_kernels.py keeps the two equal.
"""


def _show(frame, lut, nxt, written, buf, dest, cap, fresh):
    # The LED buffer is written in the same pass as the lookup: a second pass costs as
    # much again. Unless the cap scales it (then written again) the values are final, and
    # when they repeat ``written`` they are what the buffer held: only this kernel writes
    # the buffer, and it leaves buf[dest[i]] == written[i].
    i = 0
    for v in frame:
        v = lut[v]
        nxt[i] = v
        buf[dest[i]] = v
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
            buf[dest[i]] = v
            total += v
            i += 1
        capped = 65536
    if not fresh and nxt == written:
        return -1
    written[:] = nxt
    return total + capped
