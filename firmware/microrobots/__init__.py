"""Micro Robots for a 6x6 LED grid: rules, solver, game engine and handheld app.

Data flows input -> app (state machine) -> game / solver -> frame -> display -> pixels::

    rules/      the game, no device: board, solver, game, its text forms (notation)...
    device/     pins and flash, no app: hw/ (the only hardware code), input, display...
    app.py      the state machine, with modes/, keys, saving, preferences, frame drawing
    handheld.py the device loop that firmware/main.py starts

Only ``device/hw`` touches hardware; everything else runs on CPython too.
"""
