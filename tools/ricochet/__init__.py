"""Ricochet Robots with Micro Robots' transparent robot, on the host.

    cli.py     python -m tools.ricochet: solve, check, render and deal (random)
    solver.py  the optimal solver (IDA*), used by the command and by make bench
    kernel.py  the same search compiled with numba, for long deals (solver.py hands over)

The rules and the claim checker themselves are firmware (firmware/microrobots/ricochet.py),
so that the handheld can check a claim too; the files here build on them.
"""
