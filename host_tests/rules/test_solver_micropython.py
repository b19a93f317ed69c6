"""The same solver inside the real MicroPython interpreter, with a Pico-sized heap:
identical answers to CPython's, and queries that allocate nothing. The MicroPython side
runs solver_mpy.py and no_native_mpy.py (beside this file), whose functions CPython calls
for its own answers."""

import json
import os
import random

import no_native_mpy
import solver_mpy
from layouts import PAIRS, layout_from_pairs
from microrobots.rules.board import Layout
from microrobots.rules.solver import Solver
from mpy import run_file

HERE = os.path.dirname(os.path.abspath(__file__))


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
    lines = run_file(os.path.join(HERE, "solver_mpy.py"), "records",
                     stdin=json.dumps(texts)).splitlines()
    got = [dict(zip(solver_mpy.PIECES, map(json.loads, lines[i:i + 4])))
           for i in range(0, len(lines), 4)]
    assert got == [solver_mpy.record(text) for text in texts]


def test_queries_allocate_nothing_in_micropython():
    baseline, used = map(int, run_file(os.path.join(HERE, "solver_mpy.py"), "alloc").split())
    assert used == baseline == 0


def test_runtimes_without_native_emitters_run_the_same_kernels():
    out = run_file(os.path.join(HERE, "no_native_mpy.py")).splitlines()
    expected = no_native_mpy.answers(Solver(Layout.named("copper:CADB0312")))
    assert [json.loads(line) for line in out] == [json.loads(json.dumps(x)) for x in expected]
