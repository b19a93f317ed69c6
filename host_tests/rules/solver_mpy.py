"""The solver's answers and allocations, the same code on both runtimes: imported by
rules/test_solver_micropython.py under CPython, run by it inside MicroPython
(``main``: ``records`` layouts as JSON on stdin, or ``alloc``)."""

import gc
import json
import sys

from microrobots.rules.board import Layout
from microrobots.rules.solver import Solver

PIECES = ("dist", "paths", "walks", "checks")


def record(text):
    """What the solver answers on the layout ``text``: every distance, and paths, walks
    and checks between a spread of cells (with and without a waypoint)."""
    s = Solver(Layout.parse(text))
    rec = {"dist": [list(s.distances(a)) for a in range(36)], "paths": [], "walks": [],
           "checks": []}
    for a in range(0, 36, 5):
        for b in range(1, 36, 7):
            rec["paths"].append([s.path(a, b), s.path(a, b, (a + b) % 36)])
            for n in (0, 1, 2, 3, 7, 12):
                rec["walks"].append([s.walk_exists(a, b, n), s.walk_exists(a, b, n, (a * b) % 36)])
            p = s.path(a, b)
            if p:
                v = s.check(a, b, p[1:], len(p) - 1, (a * b) % 36)
                rec["checks"].append([v.code, v.move])
                v = s.check(a, b, p[1:] + [a], len(p) - 1)
                rec["checks"].append([v.code, v.move])
    return rec


def print_records(texts):
    """``record`` of each layout as four JSON lines, one per piece of PIECES."""
    for text in texts:
        rec = record(text)
        for key in PIECES:  # small pieces keep the heap small
            gc.collect()  # and a collection first: a 3.8 KB line needs room in one piece
            print(json.dumps(rec[key]))


def measure(f):
    """Bytes the heap gives ``f()``, the collector off."""
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    f()
    used = gc.mem_alloc() - before
    gc.enable()
    return used


def print_allocations():
    """Bytes allocated by an empty loop and by every kind of query (after a warm-up)."""
    s = Solver(Layout.named("black:CADB0312"))
    route = s.path(0, 35)[1:]
    claimed = len(route)

    def queries():
        for a in range(36):
            s.distances(a)
            s.distance(a, 35 - a)
            s.distance(a, 35 - a, 17)
            s.walk_exists(a, 35 - a, 12, 17)
            s.walk_exists(a, 35 - a, 5)
            s.check(0, 35, route, claimed, 17)

    def nothing():
        for _ in range(36):
            pass

    queries()  # warm up: first calls may intern or cache
    print(measure(nothing), measure(queries))


def main():
    if sys.argv[1] == "records":
        print_records(json.loads(sys.stdin.read()))
    elif sys.argv[1] == "alloc":
        print_allocations()
