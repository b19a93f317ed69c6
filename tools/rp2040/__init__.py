"""The firmware on an emulated Raspberry Pi Pico: rp2040py's cycle model of the RP2040,
booting the official MicroPython image with the very files ``make flash`` writes.

How the parts meet::

    image.py    the MicroPython .uf2 to boot (PICO_FIRMWARE, or shared/pico/ beside the
                checkout); the flash tree from tools/flash.py's own plan (.mpy from
                mpy-cross -march=armv6m, main.py as source); littlefs images in and out
    pico.py     one emulated board, run on the calling thread: the filesystem loaded, GPIO
                buttons (active low, the firmware's pull-ups), the WS2812 line decoded into
                LED frames, the USB serial console, SRAM reads, the RUN-pin reset
    probe.py    a main.py that runs the shipped one (renamed firmware_main.py) and records
                per frame the board's now, the buttons read, the frame's work and its parts,
                into a buffer the harness reads straight from SRAM; heap and allocation
                readings on request
    session.py  a board with the probe: boot, tools.sim events played as GPIO edges at the
                board's own now, LED frames in grid order through the configured wiring, and
                lockstep(): the host firmware fed the same now and buttons, frame by frame
    checks.py   the sessions host_tests/device/test_rp2040.py judges, run once in the background

The bench (tools/bench/rp2040.py) and the tests find the image the same way and skip with
one line when there is none.
"""
