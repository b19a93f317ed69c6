"""The solver's hot loops: the move table and two breadth-first searches (rules/solver.py).

Viper (native machine code) on MicroPython; rules/solver_plain.py is this file without
its ``@micropython.viper`` lines, for runtimes with no native emitter (CircuitPython,
the WebAssembly port) and CPython: solver.py picks one at import (compat.NATIVE).
host_tests/rules/test_kernels.py keeps the twins equal.
"""

from ..compat import micropython, ptr8  # noqa: F401 - the viper decorator and its types


@micropython.viper
def _moves(colours: ptr8, numbers: ptr8, nb: ptr8, degree: ptr8):
    """Every cell's moves, in index order: the other cells of its row and column that
    share its colour or its number (at most 10 per cell). Down the cell's column, with
    its whole row in the cell's own place, which keeps index order in 12 looks a cell."""
    i = 0
    while i < 36:
        col = i % 6
        row = i - col  # the row's first cell
        k = 0
        j = col
        while j < 36:
            if j == i:  # the row, left to right
                m = row
                while m < row + 6:
                    if m != i and (colours[m] == colours[i] or numbers[m] == numbers[i]):
                        nb[i * 10 + k] = m
                        k += 1
                    m += 1
            elif colours[j] == colours[i] or numbers[j] == numbers[i]:
                nb[i * 10 + k] = j
                k += 1
            j += 6
        degree[i] = k
        i += 1


@micropython.viper
def _bfs(nb: ptr8, degree: ptr8, start: int, dist: ptr8, queue: ptr8):
    """Breadth-first distances from ``start`` over the 36 cells."""
    i = 0
    while i < 36:
        dist[i] = 255
        i += 1
    dist[start] = 0
    queue[0] = start
    head = 0
    tail = 1
    while head < tail:
        cell = int(queue[head])
        head += 1
        d = int(dist[cell]) + 1
        i = cell * 10  # cell's neighbours: nb[i:end]
        end = i + int(degree[cell])
        while i < end:
            n = int(nb[i])
            if int(dist[n]) == 255:
                dist[n] = d
                queue[tail] = n
                tail += 1
            i += 1


@micropython.viper
def _walk_bfs(nb: ptr8, degree: ptr8, start: int, via: int, dist: ptr8, queue: ptr8):
    """Shortest walks over states (cell, waypoint seen, length parity).

    State s = cell + 36 * seen + 72 * parity. ``via`` < 0 means no waypoint
    (every state counts as seen).
    """
    i = 0
    while i < 144:
        dist[i] = 255
        i += 1
    s = start
    if via < 0 or start == via:
        s += 36
    dist[s] = 0
    queue[0] = s
    head = 0
    tail = 1
    while head < tail:
        s = int(queue[head])
        head += 1
        d = int(dist[s]) + 1
        if d > 254:
            d = 254  # cannot happen with 144 states; keeps the byte from wrapping
        cell = s % 36
        seen = (s // 36) % 2
        flip = 72 - (s // 72) * 72  # parity of the next state
        i = cell * 10  # cell's neighbours: nb[i:end]
        end = i + int(degree[cell])
        while i < end:
            n = int(nb[i])
            if seen or n == via:
                t = n + 36 + flip
            else:
                t = n + flip
            if int(dist[t]) == 255:
                dist[t] = d
                queue[tail] = t
                tail += 1
            i += 1
