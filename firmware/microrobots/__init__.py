"""Micro Robots for a 6x6 LED grid: rules, solver, game engine and handheld app.

Data flows input -> app (state machine) -> game / solver -> frame -> display -> pixels.
Only the ``hw`` subpackage touches hardware; everything else runs on CPython too.
"""
