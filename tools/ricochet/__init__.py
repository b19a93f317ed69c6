"""Ricochet Robots with Micro Robots' transparent robot, on the host.

    rules.py   the rules and the claim checker (plain Python that MicroPython runs too)
    cli.py     python -m tools.ricochet: solve, check, render and deal (random)
    quick.py   its quick path: solve --game ID --json without argparse or json
    solver.py  the optimal solver (IDA*), used by the command and by make bench
    kernel.py  the same search compiled with numba, for long deals (solver.py hands over)

Nothing here is flashed: the handheld plays Micro Robots, and Ricochet Robots is a host
program.
"""
