"""main.py of the Micro Robots image: what a Pico runs at power-on (frozen into the image).

MicroPython runs a frozen main.py in place of the filesystem's. This one gives the
filesystem its usual say back: a main.py of your own on the board (or a test harness's)
runs instead of the handheld. A main.py that the stock-image install wrote (it starts with
``STOCK_MAIN``) is not yours: the built-in handheld runs. Either way the built-in package
comes first on ``sys.path``, so a ``microrobots/`` folder left on the filesystem by that
install can never shadow the code in flash (and double the heap).
"""

import sys

STOCK_MAIN = '"""Boot the handheld'  # firmware/main.py's first line (a test keeps it so)

sys.path.remove(".frozen")
sys.path.insert(0, ".frozen")
try:
    with open("main.py") as f:
        own = f.read()
except OSError:
    own = None
if own is None or own.startswith(STOCK_MAIN):
    own = None
    from microrobots import handheld  # the device loop, frozen with the package

    handheld.main()
else:
    exec(own, {"__name__": "__main__"})
