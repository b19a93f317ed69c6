"""Pictures and prints of the game and the handheld.

    dice.py     where a die's pips sit: shared by every drawing
    colour.py   every colour conversion (LED -> screen, film, pips, 256-colour terminals,
                CIELAB differences), shared by the PNGs, the terminal, the web page
    overlay.py  the printable tile films at the LED grid's pitch (make overlay)
    wiring.py   the wiring diagram and pin table from the firmware's defaults (make wiring)
    render.py   a PNG of the device showing a frame of the simulator
    images.py   the README's pictures, regenerated from event scripts (make images)

Each command runs as ``python -m tools.draw.NAME``.
"""
