"""Boot the handheld: the device loop (microrobots/handheld.py) on this board's pins.

The first line above is how the Micro Robots image knows this file for the one that
``make flash`` copies (tools/picoimage/launcher.py, STOCK_MAIN): it runs its own frozen
copy of the package instead.
"""

from microrobots.handheld import main

if __name__ == "__main__":
    main()
