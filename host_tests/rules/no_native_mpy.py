"""The solver where the compiler has no native emitters (CircuitPython's): run inside
MicroPython by rules/test_solver_micropython.py, whose CPython side calls ``answers``."""

import json
import sys


def answers(solver):
    """A sample of the solver's answers: distances and walks with a waypoint."""
    return ([list(solver.distances(a)) for a in range(0, 36, 7)],
            [solver.walk_exists(a, 35 - a, 9, 17) for a in range(36)])


def main():
    # As on CircuitPython or the WebAssembly port: no native emitter, so solver.py takes
    # its plain twin (compat.NATIVE decides, before the solver's first import).
    from microrobots import compat

    compat.NATIVE = False
    from microrobots.rules import solver
    from microrobots.rules.board import Layout

    assert "microrobots.rules.solver_plain" in sys.modules
    assert "microrobots.rules.solver_viper" not in sys.modules
    for part in answers(solver.Solver(Layout.named("copper:CADB0312"))):
        print(json.dumps(part))
