"""The device: pins, LEDs, buttons, piezo, flash and config, below the app (nothing here
imports the app or the rules; handheld.py wires them together).

    hw/         the hardware backends, the only code that touches pins (rp2, CircuitPython,
                the web page, a fake for tests)
    input.py    buttons debounced into press, repeat, long and release events
    display.py  a frame mapped onto the LED wiring, within the power budget
    sound.py    tone sequences on the piezo, stepped with the frames
    store.py    files on flash: JSON written atomically, a bad file set aside
    config.py   config.json: pins, LED layout, brightness cap, checked key by key
"""
