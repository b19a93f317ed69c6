"""What MicroPython has built in and CPython lacks, so one source runs on both.

Import from here instead of from ``micropython``::

    from .compat import micropython, const, ptr8

The MicroPython compiler recognises ``@micropython.viper`` and ``const(...)`` by name at
compile time, so the names must be spelled exactly so in the importing module. Under
CPython ``micropython.viper`` is a no-op decorator and the viper type names are plain
placeholders that make annotations evaluate.
"""

import sys

if sys.implementation.name == "micropython":
    import micropython
    from micropython import const
else:
    # Decide by the runtime, not by whether "import micropython" works: CPython
    # packages such as Adafruit Blinka ship a module of that name whose decorators raise.

    class _Shim:
        """Stand-in for the ``micropython`` module under CPython."""

        @staticmethod
        def viper(func):
            return func

        @staticmethod
        def native(func):
            return func

    micropython = _Shim()

    def const(value):
        return value


# Viper annotation names. Under MicroPython the compiler reads them as types;
# under CPython they only need to exist.
ptr8 = ptr16 = ptr32 = uint = None
