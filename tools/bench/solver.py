"""Solver figures for `make bench`: the firmware solver inside the micropython interpreter,
side by side with a straightforward bytearray BFS, and the board analysis under CPython."""

import subprocess
import time

from tools.cli import ROOT, micropython_command

MP_SCRIPT = r"""
import sys, gc, time
sys.path.insert(0, "firmware")
sys.path.insert(0, "tools/bench")
from microrobots.rules.board import Layout
from microrobots.rules.solver import Solver
import reference_solver as plain

lay = Layout.named("black:CADB0312")
s = Solver(lay)
dist = bytearray(36); queue = bytearray(36); cur = bytearray(72); nxt = bytearray(72)
VIA = 17

def fast_dist(k):
    for i in range(k):
        s.distances(i % 36)

def fast_walk(k):
    for i in range(k):
        s.walk_exists(i % 36, 35 - i % 36, 12, VIA)

def plain_dist(k):
    for i in range(k):
        plain.distances(lay.colours, lay.numbers, i % 36, dist, queue)

def plain_walk(k):
    for i in range(k):
        plain.walk_exists(lay.colours, lay.numbers, i % 36, 35 - i % 36, 12, VIA, cur, nxt)

def empty(k):
    for i in range(k):
        pass

def per_call(f, k):
    f(2)
    gc.collect()
    t = time.ticks_us(); empty(k); base = time.ticks_diff(time.ticks_us(), t)
    gc.collect(); gc.disable()
    m = gc.mem_alloc(); t = time.ticks_us()
    f(k)
    us = time.ticks_diff(time.ticks_us(), t) - base
    alloc = gc.mem_alloc() - m
    gc.enable()
    return us / k, alloc / k

for name, f, k in (("fast_dist", fast_dist, 3600), ("plain_dist", plain_dist, 360),
                   ("fast_walk", fast_walk, 3600), ("plain_walk", plain_walk, 36)):
    us, alloc = per_call(f, k)
    print(name, us, alloc)
"""


def micropython_figures():
    proc = subprocess.run(micropython_command() + ["-c", MP_SCRIPT], capture_output=True,
                          text=True, cwd=ROOT)
    if proc.returncode:
        raise SystemExit("bench_solver: micropython failed: " + proc.stderr.strip())
    return {name: (float(us), float(alloc)) for name, us, alloc in
            (line.split() for line in proc.stdout.split("\n") if line)}


def report():
    print("== Solver (issue 2) ==")
    print("micropython unix port, 190k heap, layout black:CADB0312, via = cell 17;")
    print("per query, averaged over all 36 starts (lower is better)")
    f = micropython_figures()
    rows = (("distances(start)", "plain_dist", "fast_dist"),
            ("walk_exists(n=12, via)", "plain_walk", "fast_walk"))
    print("  %-24s %16s %16s %9s %14s" % ("query", "straightforward", "firmware", "speed-up",
                                         "bytes/query"))
    for label, plain, fast in rows:
        (pu, pa), (fu, fa) = f[plain], f[fast]
        print("  %-24s %13.1f us %13.2f us %8.0fx %7.0f -> %.0f" % (
            label, pu, fu, pu / fu if fu > 0 else float("inf"), pa, fa))
    print("  (issue 2 targets: >= 10x for distances, >= 20x for walk_exists, 0 bytes)")

    from tools import boards
    t = time.perf_counter()
    for side in ("black", "copper"):
        boards.analyse_side(side)
    fast = time.perf_counter() - t
    t = time.perf_counter()
    boards.analyse_naive("black")
    naive = (time.perf_counter() - t) * 2
    print()
    print("tools.boards analyse (CPython, both sides, 12288 arrangements):")
    print("  %.2f s (naive: rebuild the solver and run 36 BFS per arrangement: %.1f s, %.0fx)"
          % (fast, naive, naive / fast))
