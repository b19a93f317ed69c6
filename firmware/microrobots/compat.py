"""What MicroPython has built in and CPython lacks, so one source runs on both.

Import from here instead of from ``micropython``::

    from .compat import micropython, const, ptr8

The MicroPython compiler recognises ``@micropython.viper`` and ``const(...)`` by name at
compile time, so the names must be spelled exactly so in the importing module. Under
CPython ``micropython.viper`` is a no-op decorator and the viper type names are plain
placeholders that make annotations evaluate.

``kernels(text, names)`` compiles hot loops written once as text (kernels.py): viper
(native machine code) where the port has a native emitter, plain Python where it has none
(CircuitPython, the WebAssembly port), a no-op decorator under CPython. Every runtime runs
the same code.
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


def forget(name):
    """Forget module ``name`` (a dotted name): out of ``sys.modules`` and its package, so
    that its functions and globals leave the heap once nothing else holds them (the next
    import runs it again). For code a device needs one part of at a time: a mode's module
    (modes.release), the configuration's checker after boot (handheld.read_config). Our
    image keeps the code in flash, but each import builds the module's function objects
    and globals in the heap."""
    sys.modules.pop(name, None)
    package, _, leaf = name.rpartition(".")
    parent = sys.modules.get(package)
    if parent is not None and hasattr(parent, leaf):
        delattr(parent, leaf)


_kernels = None  # every kernel, compiled at the first call


def kernels(text, names):
    """The functions called ``names`` from the kernels ``kernels.<text>`` (functions
    decorated ``@micropython.viper``), in that order. The first call compiles all of
    kernels.py's texts at once (the Micro Robots image has them frozen, compiled: see
    tools/picoimage, native_kernels). Where the decorator is refused ("invalid
    micropython decorator": no native emitter) the same text is compiled without it."""
    global _kernels
    if _kernels is None:
        try:  # the Micro Robots image: the same kernels, frozen as machine code in flash
            from .rules import native_kernels
        except ImportError:
            native_kernels = None
        if native_kernels is not None:
            _kernels = native_kernels.__dict__
            return tuple(_kernels[name] for name in names)
        from .rules import kernels as texts

        source = texts.SOLVER + texts.DISPLAY + texts.FRAME
        texts = None
        scope = {"micropython": micropython, "ptr8": ptr8, "ptr16": ptr16, "ptr32": ptr32,
                 "uint": uint}
        try:
            exec(source, scope)
        except SyntaxError:
            exec(source.replace("@micropython.viper\n", ""), scope)
        _kernels = scope
    return tuple(_kernels[name] for name in names)
