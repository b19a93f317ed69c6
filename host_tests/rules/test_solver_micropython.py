"""The same solver inside the real MicroPython interpreter, with a Pico-sized heap:
identical answers to CPython's, and queries that allocate nothing."""

import json
import random

from layouts import PAIRS, layout_from_pairs
from microrobots.rules.board import Layout
from microrobots.rules.solver import Solver
from mpy import run

SCRIPT = r"""
import gc, json
from microrobots.rules.board import Layout
from microrobots.rules.solver import Solver
for text in json.loads(%r):
    s = Solver(Layout.parse(text))
    rec = {"dist": [list(s.distances(a)) for a in range(36)], "paths": [], "walks": [],
           "checks": []}
    for a in range(0, 36, 5):
        for b in range(1, 36, 7):
            rec["paths"].append([s.path(a, b), s.path(a, b, (a + b) %% 36)])
            for n in (0, 1, 2, 3, 7, 12):
                rec["walks"].append([s.walk_exists(a, b, n), s.walk_exists(a, b, n, (a * b) %% 36)])
            p = s.path(a, b)
            if p:
                v = s.check(a, b, p[1:], len(p) - 1, (a * b) %% 36)
                rec["checks"].append([v.code, v.move])
                v = s.check(a, b, p[1:] + [a], len(p) - 1)
                rec["checks"].append([v.code, v.move])
    for key in ("dist", "paths", "walks", "checks"):  # small pieces keep the heap small
        gc.collect()  # and a collection first: a 3.8 KB line needs room in one piece
        print(json.dumps(rec[key]))
"""


def cpython_records(texts):
    out = []
    for text in texts:
        s = Solver(Layout.parse(text))
        rec = {"dist": [list(s.distances(a)) for a in range(36)], "paths": [], "walks": [],
               "checks": []}
        for a in range(0, 36, 5):
            for b in range(1, 36, 7):
                rec["paths"].append([s.path(a, b), s.path(a, b, (a + b) % 36)])
                for n in (0, 1, 2, 3, 7, 12):
                    rec["walks"].append([s.walk_exists(a, b, n),
                                         s.walk_exists(a, b, n, (a * b) % 36)])
                p = s.path(a, b)
                if p:
                    v = s.check(a, b, p[1:], len(p) - 1, (a * b) % 36)
                    rec["checks"].append([v.code, v.move])
                    v = s.check(a, b, p[1:] + [a], len(p) - 1)
                    rec["checks"].append([v.code, v.move])
        out.append(rec)
    return out


def sample_layouts():
    rng = random.Random(2016)
    texts = [str(Layout.named("black:CADB0312")), str(Layout.named("copper:ABCD0000"))]
    for _ in range(6):
        pairs = PAIRS[:]
        rng.shuffle(pairs)
        texts.append(str(layout_from_pairs(pairs)))
    # an island layout with unreachable pairs
    texts.append("\n".join(" ".join("BYGRPW"[(r + c) % 6] + str((r + 2 * c) % 6 + 1)
                                    for c in range(6)) for r in range(6)))
    return texts


def test_micropython_answers_match_cpython():
    texts = sample_layouts()
    lines = run(SCRIPT % json.dumps(texts)).splitlines()
    got = [dict(zip(("dist", "paths", "walks", "checks"), map(json.loads, lines[i:i + 4])))
           for i in range(0, len(lines), 4)]
    assert got == cpython_records(texts)


ALLOC = r"""
import gc
from microrobots.rules.board import Layout
from microrobots.rules.solver import Solver
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
    for a in range(36):
        pass

def measure(f):
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    f()
    used = gc.mem_alloc() - before
    gc.enable()
    return used

queries()  # warm up: first calls may intern or cache
print(measure(nothing), measure(queries))
"""


def test_queries_allocate_nothing_in_micropython():
    baseline, used = map(int, run(ALLOC).split())
    assert used == baseline == 0


NO_NATIVE = r"""
import builtins, json
real_exec = builtins.exec

def exec_without_native(source, scope):
    # CircuitPython's compiler: no native emitters, so the viper decorator is a SyntaxError
    if "@micropython.viper" in source:
        raise SyntaxError("invalid micropython decorator")
    return real_exec(source, scope)

builtins.exec = exec_without_native
from microrobots.rules.board import Layout
from microrobots.rules.solver import Solver
s = Solver(Layout.named("copper:CADB0312"))
print(json.dumps([list(s.distances(a)) for a in range(0, 36, 7)]))
print(json.dumps([s.walk_exists(a, 35 - a, 9, 17) for a in range(36)]))
"""


def test_runtimes_without_native_emitters_run_the_same_kernels():
    out = run(NO_NATIVE).splitlines()
    s = Solver(Layout.named("copper:CADB0312"))
    assert json.loads(out[0]) == [list(s.distances(a)) for a in range(0, 36, 7)]
    assert json.loads(out[1]) == [s.walk_exists(a, 35 - a, 9, 17) for a in range(36)]
