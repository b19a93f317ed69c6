"""Host programs for the handheld, run as ``python -m tools.NAME`` from the checkout.

Grouped by purpose, as firmware/microrobots/ is::

    sim/        the handheld without hardware: the driver around firmware/main.py's loop,
                the headless runner, the scripted player, the terminal front end (make play),
                the soak (make soak: hours of random mashing on both runtimes)
    bench/      make bench: one module per subject, and the reference solver they compare with
    ricochet/   Ricochet Robots with the transparent robot: the command and its optimal solver
    rp2040/     the firmware on an emulated Pico (rp2040py): what make flash writes, booted
                from the MicroPython image, buttons as GPIO, LEDs read off the WS2812 pin
    draw/       pictures and prints: tile films, the wiring diagram, PNG renders of the device,
                the README's images, and the dice and colours they all share
    solve.py    optimal routes and claim checks         boards.py   every arrangement, analysed
    replay.py   a shared or saved game, told round by round
    flash.py    make flash: the firmware onto a Pico
    dist.py     make dist: every file a person downloads (images, the page, prints, STL)
    cli.py      what every command shares: ROOT and FIRMWARE (their paths), one-line
                errors (UsageError, Parser, fail, run), reading the user's files
                (read_text, read_json: binary, missing, folder, unreadable -> one line,
                exit 2), write_atomically, --layout/--tiles/--side and dice names
                (add_layout_options, layout_from_args, cell), plural, micropython_binary

A command imports what it shares from cli.py (ROOT, FIRMWARE, Parser), never a sibling's
private helpers; host_tests/tools/test_tools_cli.py checks both. Importing a tool sets
nothing up: firmware/ is on the path by the project's configuration (the venv's .pth file,
the Makefile, pyproject.toml). The map of every command: docs/tools.md.
"""
