"""The handheld without hardware: the very firmware a Pico runs, on fake pins and a fake clock.

How the parts meet::

    driver.py    firmware/main.py's Device on fake pins: button masks in, frames out as JSON
                 lines. Runs under CPython and inside the micropython interpreter alike.
    events.py    the events file of scripted runs: parser and button masks (also in MicroPython)
    headless.py  python -m tools.sim --headless: an events file -> the driver -> frames.jsonl
                 (also the runner the tests and benches use)
    script.py    a scripted player for tests and benches: reads the app's state, presses
                 buttons, records an events file that headless.py replays
    terminal.py  make play: the driver as a child process, every frame drawn in the terminal
    help.py      what both front ends say on screen: each mode's buttons, the counts' legend
    web/         make web: the firmware in MicroPython's WebAssembly port in a web page, the
                 page as the board (firmware/microrobots/device/hw/web.py); page.py runs there too

``python -m tools.sim`` (``__main__.py``) starts the terminal front end, or the headless
runner with ``--headless``.
"""
