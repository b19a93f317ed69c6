"""The solver where the compiler has no native emitters (CircuitPython's): run inside
MicroPython by rules/test_solver_micropython.py, whose CPython side calls ``answers``."""

import builtins
import json


def answers(solver):
    """A sample of the solver's answers: distances and walks with a waypoint."""
    return ([list(solver.distances(a)) for a in range(0, 36, 7)],
            [solver.walk_exists(a, 35 - a, 9, 17) for a in range(36)])


def main():
    real_exec = builtins.exec

    def exec_without_native(source, scope):
        # CircuitPython's compiler: no native emitters, so the viper decorator is a SyntaxError
        if "@micropython.viper" in source:
            raise SyntaxError("invalid micropython decorator")
        return real_exec(source, scope)

    builtins.exec = exec_without_native  # before the firmware's first import
    from microrobots.rules.board import Layout
    from microrobots.rules.solver import Solver

    for part in answers(Solver(Layout.named("copper:CADB0312"))):
        print(json.dumps(part))
