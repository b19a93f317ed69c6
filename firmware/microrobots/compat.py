"""What MicroPython has built in and CPython lacks, so one source runs on both.

Import from here instead of from ``micropython``::

    from .compat import micropython, const, ptr8

The MicroPython compiler recognises ``@micropython.viper`` and ``const(...)`` by name at
compile time, so the names must be spelled exactly so in the importing module. Under
CPython ``micropython.viper`` is a no-op decorator and the viper type names are plain
placeholders that make annotations evaluate.

``NATIVE`` says whether this runtime compiles viper (native machine code): MicroPython
on a board or the unix port, not the WebAssembly port, not CircuitPython (no native
emitter) nor CPython. A module with hot loops imports them from its ``NAME_viper.py``
where it is True and from the plain twin ``NAME_plain.py`` elsewhere (the same file
without the decorators; the display's does the same with bytes operations in C, where
bytecode would pass over the frame), as hw.backend() picks a backend by the runtime.

compat imports nothing of the project: every layer may import it.
"""

import sys

if sys.implementation.name == "micropython":
    import micropython
    from micropython import const
else:
    # Decide by the runtime, not by whether "import micropython" works: CPython
    # packages such as Adafruit Blinka ship a module of that name whose decorators raise.

    class micropython:  # noqa: N801 - the module's name
        """Stand-in for the ``micropython`` module under CPython."""

        @staticmethod
        def viper(f):
            return f

        native = viper

    def const(value):
        return value


NATIVE = sys.implementation.name == "micropython" and sys.platform != "webassembly"

# Viper annotation names. Under MicroPython the compiler reads them as types;
# under CPython they only need to exist.
ptr8 = ptr16 = ptr32 = uint = None


# -- time: milliseconds on a clock that wraps ---------------------------------------------
# The firmware's times (``now`` everywhere) are ticks in 0 .. 2**30 - 1 that wrap around
# every 2**30 ms (12.4 days), MicroPython's ticks_ms() period on the rp2 port: a number
# of ms since boot would become a heap-allocated big int after 12.4 days and every frame
# would then allocate. Add and compare times only through these two functions; two
# times compare correctly while they are less than 2**29 ms (6.2 days) apart.
TICKS_MAX = const(0x3FFFFFFF)  # the largest tick; the period is TICKS_MAX + 1
_TICKS_HALF = const(0x20000000)


def ticks_add(ticks, delta):
    """The tick ``delta`` ms after ``ticks`` (``delta`` may be negative, |delta| < 2**29).

    Every intermediate value stays within a Pico's small ints (-2**30 .. 2**30 - 1), so
    nothing is allocated on any port.
    """
    if delta >= 0:
        t = ticks - TICKS_MAX + delta - 1  # ticks - 2**30 + delta, in -2**30 .. 2**29
        return t + TICKS_MAX + 1 if t < 0 else t
    t = ticks + delta
    return t + TICKS_MAX + 1 if t < 0 else t


def ticks_diff(end, start):
    """``end - start`` in ms, signed, for two ticks less than 2**29 ms apart."""
    d = end - start  # -2**30 < d < 2**30
    if d >= _TICKS_HALF:
        return d - TICKS_MAX - 1
    if d < -_TICKS_HALF:
        return d + TICKS_MAX + 1
    return d


if sys.implementation.name == "micropython":
    import time

    # rp2 (and every 32-bit port) has these built in, with this very period: the same
    # arithmetic in C. The 64-bit unix port's period is 2**62, so there the functions
    # above stay (the tests run them there and under CPython).
    if hasattr(time, "ticks_add") and time.ticks_add(0, -1) == TICKS_MAX:
        ticks_add = time.ticks_add  # noqa: F811
        ticks_diff = time.ticks_diff  # noqa: F811

