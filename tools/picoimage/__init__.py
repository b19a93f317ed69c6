"""make firmware: MicroPython for the Pico with the firmware frozen in (see __main__.py;
launcher.py is the image's main.py, manifest.py what it freezes)."""
