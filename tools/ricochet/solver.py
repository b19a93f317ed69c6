"""Optimal Ricochet Robots solver, with the transparent robot (host side, pure Python).

    from tools.ricochet.rules import Board, parse_robots, parse_target
    from tools.ricochet.solver import solve
    result = solve(Board("1A,2B,3A,4B"), parse_robots("red=0,0 ..."), parse_target("vortex"))
    result.count, result.moves, result.nodes

The rules are those of ``tools.ricochet.rules``, the ricochet rule
included (``ricochet=False`` drops it); this module only searches. The search is IDA*:
iterative deepening on the move count, where a move costs one plus the walls the
transparent robot passes in it, pruned by

- a lower bound per cell and ricochet state (unmoved, moved only E-W, only N-S, turned):
  the fewest moves from there to the target if the robot could stop on any cell it slides
  over (other robots might stop it there), computed once per target and board; for the
  transparent robot it may also pass walls at one move each;
- slack: a robot that cannot complete the target moves only when the bound leaves room
  for a move that does not bring the target robot closer; with no slack only the target
  robot's slides towards a closer cell, with one move of slack only helper moves from or to
  a cell such slides could cross;
- a transposition table keyed on the position, in which robots of equal role (the helpers
  of a coloured target, or all non-transparent robots for the vortex) count as a set.

Slides use bitboards: a Python int with bit ``c`` set for each occupied cell, masked by
the precomputed cells a slide would cross. Everything that depends only on the board (slide
tables) or on the board and the target (bounds, the slack tables) is built on first use
and kept on the board, so that solving many deals on one board pays for it once.
"""

import functools
import operator
import os
import time

from tools.ricochet.rules import (
    ABSENT, ACROSS, ALONG, CELLS, CLEAR, ROBOT_COUNT, STEP, TURNED, UNMOVED, VORTEX, Board,
    after_move)

UNREACHABLE = 999
_BOUND_OF = operator.itemgetter(5)  # a listed child's bound (see dfs)
BIT = [1 << c for c in range(CELLS)]
INC = (False, True, True, False)  # slides towards higher cell numbers: E, S
# per direction, the shift of a bitboard of cells that takes each to the cell before it
# (whose slide in that direction it would stop): left 16 for N, right 1 for E, ...
BESIDE = (16, -1, -16, 1)
# AFTER[state][d]: the ricochet state after a move in direction d (tools.ricochet.rules)
AFTER = [[after_move(f, d) for d in range(4)] for f in range(4)]


class Solution:
    """``moves``: list of (robot, direction, passes); ``count``: moves counting passes
    (None when there is none within the limit); ``nodes``: positions searched;
    ``seconds``: search time; ``depths``: (bound, positions, seconds so far) for each
    bound searched in full without finding a solution; ``ricochet``: whether the ricochet
    rule was in force; ``engine``: which search ran; ``out_of_budget``: whether it stopped
    at ``node_limit``."""

    def __init__(self, moves, count, nodes, seconds, depths, ricochet=True):
        self.moves = moves
        self.count = count
        self.nodes = nodes
        self.seconds = seconds
        self.depths = depths
        self.ricochet = ricochet
        self.engine = "python"
        self.out_of_budget = False

    def __repr__(self):
        return "<Solution %s moves, %d positions, %.3f s>" % (self.count, self.nodes, self.seconds)


class Tables:
    """Per-board slide tables, and per-target bounds, built on first use (see ``tables``)."""

    def __init__(self, board):
        walls = board.walls
        self.walls = walls
        self.stop = [[0] * CELLS for _ in range(4)]
        self.ray = [[0] * CELLS for _ in range(4)]
        for d in range(4):
            step, bit = STEP[d], 1 << d
            stop, ray = self.stop[d], self.ray[d]
            for p in _sweep(d):  # the cell after p comes first: reuse its answer
                if walls[p] & bit:
                    stop[p] = p
                else:
                    stop[p] = stop[p + step]
                    ray[p] = ray[p + step] | 1 << (p + step)
        # per cell: the slides a robot could make with no robot in the way,
        # as (direction, wall stop, mask of the cells crossed, towards higher cells?, step)
        self.slides = [tuple((d, self.stop[d][p], self.ray[d][p], INC[d], STEP[d])
                             for d in range(4) if self.stop[d][p] != p) for p in range(CELLS)]
        # per direction, the cells a slide in it stops on whatever is beyond: a wall there
        self.wallside = [sum(BIT[p] for p in range(CELLS) if walls[p] & 1 << d)
                         for d in range(4)]
        # per cell, it and the cells a robot there could stop on in one slide if anything
        # could stop it anywhere: its row's and column's stretch between walls
        self.lines = [BIT[p] | self.ray[0][p] | self.ray[1][p] | self.ray[2][p] | self.ray[3][p]
                      for p in range(CELLS)]
        self._clear = None
        self.kernel_cache = {}  # the compiled search's arrays for this board (kernel.Kernel)
        self._bounds = {}
        self._descents = {}
        self._within = {}

    @property
    def clear(self):
        """For the transparent robot, per direction and cell, a tuple of (stop cell after k
        passes, k, mask of cells crossed up to it, first cell after wall k); built on first use."""
        if self._clear is None:
            walls = self.walls
            self._clear = [[()] * CELLS for _ in range(4)]
            for d in range(4):
                step, bit = STEP[d], 1 << d
                segs = self._clear[d]
                for p in _sweep(d):
                    nxt = p + step
                    if walls[p] & bit:
                        here = ((p, 0, 0, nxt),)
                        if not walls[p] & (bit << 4):
                            here += tuple((s, k + 1, m | 1 << nxt, nxt if k == 0 else f)
                                          for s, k, m, f in segs[nxt])
                    else:
                        here = tuple((s, k, m | 1 << nxt, nxt if k == 0 else f)
                                     for s, k, m, f in segs[nxt])
                    segs[p] = here
        return self._clear

    def bound(self, target_cell, clear, ricochet=True):
        """Lower bounds of the moves to reach ``target_cell``: a list by ricochet state
        (UNMOVED, ACROSS, ALONG, TURNED) of lists by cell."""
        key = (target_cell, clear, ricochet)
        if key not in self._bounds:
            self._bounds[key] = self._relaxed_distances(target_cell, clear, ricochet)
        return self._bounds[key]

    def _shortest(self, init, clear, directions):
        """Dijkstra backwards over the relaxed moves in ``directions`` from the distances
        ``init``: a reaches b in direction d when b lies on a's ray (for the transparent
        robot, past walls that are not solid, one move more each). Small integer costs:
        one bucket per cost."""
        walls = self.walls
        dist = list(init)
        buckets = {}
        for c in range(CELLS):
            if dist[c] < UNREACHABLE:
                buckets.setdefault(dist[c], []).append(c)
        g = 0
        while buckets:
            for b in buckets.pop(g, ()):
                if dist[b] != g:
                    continue
                for d in directions:
                    step, bit = STEP[d], 1 << d
                    a, cost = b - step, g + 1
                    while 0 <= a < CELLS:
                        w = walls[a]
                        if w & bit:  # a wall between a and the cell after it
                            if not clear or w & (bit << 4):
                                break
                            cost += 1
                        if cost < dist[a]:
                            dist[a] = cost
                            buckets.setdefault(cost, []).append(a)
                        a -= step
            g += 1
        return dist

    def _ray_min(self, values, clear, d):
        """Per cell a: the least (relaxed moves from a to b) + values[b] over the cells b
        a slide from a in direction d could stop on if anything could stop it anywhere
        (for the transparent robot also past walls that are not solid, one move more each).
        One sweep: the answer for a builds on the one for the cell after it."""
        walls = self.walls
        step, bit = STEP[d], 1 << d
        out = [UNREACHABLE] * CELLS
        for a in _sweep(d):
            w = walls[a]
            if w & bit:
                if not clear or w & (bit << 4):
                    continue
                nxt = a + step
                v = values[nxt] + 1
                out[a] = 1 + (v if v < out[nxt] else out[nxt])
            else:
                nxt = a + step
                v = values[nxt] + 1
                out[a] = v if v < out[nxt] else out[nxt]
        return out

    def _relaxed_distances(self, goal, clear, ricochet):
        # turned (or no rule): the fewest relaxed moves to the goal
        init = [UNREACHABLE] * CELLS
        init[goal] = 0
        turned = self._shortest(init, clear, (0, 1, 2, 3))
        if not ricochet:
            return [turned, turned, turned, turned]
        # not yet turned, last move along one axis: a move along the other axis turns;
        # along the same one it does not (and stopping on the goal then does not count)
        by_axis = {}
        for axis, same, other in ((ACROSS, (1, 3), (0, 2)), (ALONG, (0, 2), (1, 3))):
            r0, r1 = (self._ray_min(turned, clear, d) for d in other)
            init = [x if x < y else y for x, y in zip(r0, r1)]
            by_axis[axis] = self._shortest(init, clear, same)
        rays = [self._ray_min(by_axis[ACROSS if d & 1 else ALONG], clear, d) for d in range(4)]
        unmoved = [min(v) for v in zip(*rays)]
        return [unmoved, by_axis[ACROSS], by_axis[ALONG], turned]

    def descents(self, goal, ricochet):
        """For a single non-transparent target robot: (closer, reach), by ricochet state and
        cell. ``closer``: its slides whose ray holds a cell one move closer by the bound
        (with no slack, no other slide can be the next move); ``reach``: the cells whose
        robots can change such a slack-free descent (a robot there stops or blocks it),
        from that cell and from each closer cell it reaches, and so on."""
        key = (goal, ricochet)
        if key in self._descents:
            return self._descents[key]
        h = self.bound(goal, False, ricochet)
        at = [{} for _ in range(4)]  # state -> bound -> bitboard of the cells with that bound
        for f in range(4):
            for c in range(CELLS):
                at[f][h[f][c]] = at[f].get(h[f][c], 0) | BIT[c]
        slides = self.slides
        closer = [[()] * CELLS for _ in range(4)]
        for f in range(4):
            hf, af, cf = h[f], AFTER[f], closer[f]
            for p in range(CELLS):
                want = hf[p] - 1
                cf[p] = tuple([m for m in slides[p] if m[2] & at[af[m[0]]].get(want, 0)])
        reach = [[0] * CELLS for _ in range(4)]
        for v, f, c in sorted((h[f][c], f, c) for f in range(4) for c in range(CELLS)):
            acc = 0
            for m in closer[f][c]:
                acc |= m[2]
                g = AFTER[f][m[0]]
                step_to = m[2] & at[g].get(v - 1, 0)
                while step_to:
                    low = step_to & -step_to
                    acc |= reach[g][low.bit_length() - 1]
                    step_to ^= low
            reach[f][c] = acc
        self._descents[key] = closer, reach
        return closer, reach

    def within(self, goal, ricochet):
        """For a single non-transparent target robot, by ricochet state f and v (0-63):
        the bitboard of the cells whose bound (state f) is at most v."""
        key = (goal, ricochet)
        if key not in self._within:
            h = self.bound(goal, False, ricochet)
            table = []
            for f in range(4):
                finite = [v for v in h[f] if v < UNREACHABLE]
                rows = [0] * (max(finite) + 1)
                for c in range(CELLS):
                    if h[f][c] < UNREACHABLE:
                        rows[h[f][c]] |= BIT[c]
                for v in range(1, len(rows)):
                    rows[v] |= rows[v - 1]
                table.append(rows + [rows[-1]] * (64 - len(rows)))
            self._within[key] = table
        return self._within[key]

    def descent_arrays(self, goal, ricochet):
        """``descents`` as numpy arrays for the compiled search: closer[f, p, d] and
        reach[f, p, c], booleans."""
        key = ("arrays", goal, ricochet)
        if key not in self._descents:
            self._descents[key] = _descent_arrays(*self.descents(goal, ricochet))
        return self._descents[key]


def _sweep(d):
    """The cells in an order where the cell after each (in direction d) comes before it."""
    if d in (1, 2):  # E, S: from the high cell numbers down
        return range(CELLS - 1, -1, -1)
    return range(CELLS)


def _descent_arrays(closer, reach):
    import numpy as np
    closer_arr = np.zeros((4, CELLS, 4), dtype=np.bool_)
    for f in range(4):
        for p in range(CELLS):
            for m in closer[f][p]:
                closer_arr[f, p, m[0]] = True
    # every reach bitboard as 32 little-endian bytes, unpacked at once (one call, not 1024)
    raw = b"".join(r.to_bytes(32, "little") for row in reach for r in row)
    bits = np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little")
    return closer_arr, bits.reshape(4, CELLS, CELLS).astype(np.bool_)


@functools.lru_cache(maxsize=None)
def power_sum_values(k, shift, span=CELLS):
    """Per value 0..span-1, what a robot of a set of ``k`` adds to a position key: its
    value's powers 1..k, each in its own bit field from bit ``shift`` on. The sum over the
    set holds the power sums p1..pk, which determine k distinct values whatever their order."""
    values = [0] * span
    for j in range(1, k + 1):
        for c in range(span):
            values[c] += c ** j << shift
        shift += (k * (span - 1) ** j).bit_length()
    return tuple(values)  # cached: the same for every solve with k such robots


OWN_KEYS = tuple(range(4 * CELLS))                 # the target robot: bits 0-9
CLEAR_KEYS = tuple(v << 10 for v in range(4 * CELLS))  # the transparent robot: bits 10-19


def tables(board):
    t = getattr(board, "_solver_tables", None)
    if t is None:
        t = Tables(board)
        board._solver_tables = t
    return t


# Which search runs: "python" (this module, the reference), "numba" (kernel.py, the same
# search compiled) or "auto": this module first, and the compiled search once the deal
# looks long. Starting numba (importing it and loading the cached machine code) costs
# about 0.4 s of CPU, what the pure-Python search needs for some 25,000 positions of a
# coloured target (each asks the blocker bound of its children) or 125,000 of the
# vortex. "auto" hands over when the next bound's search is expected to exceed HANDOVER
# positions (each bound searches about as many positions as the last times the growth
# from the one before), less than that start-up because the bounds after the next cost
# more again; or after three times that in all, so that a short deal never waits for
# numba. The compiled search starts at the bound after the last one searched in full.
ENGINE = os.environ.get("RICOCHET_ENGINE", "auto")
HANDOVER = 10_000  # positions of a coloured target; five times that for the vortex
VORTEX_HANDOVER = 5
# Once the compiled search is loaded (a process that keeps running, like the table's
# server, loads it ahead), its per-solve arrays are kept with the board and its table with
# the process: it starts in some 0.05 ms and searches ten or more times faster, so it takes
# every deal at once (0: no pure-Python search first; a number hands over as HANDOVER does).
WARM_HANDOVER = 0
# Built ahead of time (aot.py), the compiled search loads in some 0.05 s (numpy): a fresh
# process hands over once the next bound looks like two thousand positions (measured on
# the bench's 7-10-move deals: a 7-move deal of 434 positions stays in Python, 0.09 s of
# CPU instead of 0.23 s with numpy loaded; the 8-10-move ones hand over as before).
AOT_HANDOVER = 2_000
# The compiled search's table in a process that had not loaded it before the solve (a
# command): 2**18 buckets, 16 MB, room for 1.8 million positions, so that a deal of up to
# 15 moves stays under 60 MB; a server's, loaded ahead, has kernel.TABLE_BITS (32 MB).
COLD_TABLE_BITS = 18
# The C search's table grows with the search (from 256 KB) up to 2**C_TABLE_BITS buckets:
# in a command 16 MB, room for 1.8 million positions before it replaces any, so that a
# fresh process stays under 40 MB (a 14-move deal with 32 MB peaked at 63 MB: the table,
# the one it grew from, 2 MB pages); in a process that loads the search ahead
# (load_kernel: the table's server) 32 MB, as the numba search's. Its stacks go to 62
# moves (a deal allowed more runs the other searches).
C_TABLE_BITS = 18
C_MAX_PLIES = 64
TABLE_BITS = 19  # kernel.TABLE_BITS (kernel.py imports numpy: not imported for it)


def solve(board, robots, target, max_moves=30, node_limit=None, ricochet=True, engine=None,
          handover=None, clear_stops_on_targets=False):
    """An optimal solution for ``target`` (index) from ``robots`` (six cells).

    Under the ricochet rule (the default) the robot that completes the target must have
    turned on its way. The transparent robot never ends a move on a coloured target (the
    rulebook), unless ``clear_stops_on_targets`` (the other reading: it may, to no effect).
    Returns a Solution; ``count`` is None when no solution has at most
    ``max_moves`` moves or ``node_limit`` positions were searched first. ``engine``:
    "python", "numba" or "auto" (default: ``ENGINE``, from $RICOCHET_ENGINE);
    ``handover``: auto's threshold (default ``HANDOVER``, or ``WARM_HANDOVER`` once the
    compiled search is loaded).
    """
    landing = clear_stops_on_targets
    engine = engine or ENGINE
    if engine not in ("auto", "python", "numba", "c"):
        raise ValueError("engine %r: use auto, python, numba or c" % engine)
    if engine == "c" or (engine == "auto" and max_moves + 2 <= C_MAX_PLIES and c_available()):
        if engine == "c" and not c_available():
            raise RuntimeError("the c engine needs a C compiler (cc or gcc) to build csearch.c")
        return _solve_c(board, robots, target, max_moves, node_limit, ricochet, landing)
    loaded = kernel_loaded()  # then it is available: no look at the disk (aot.ready) per solve
    if engine == "numba" and not loaded and not kernel_available():
        raise RuntimeError("the numba engine needs numba (pip install -r requirements/ricochet.txt)")
    if engine == "python" or (engine == "auto" and not loaded and not kernel_available()):
        return _solve(board, robots, target, max_moves, node_limit, ricochet, False,
                      clear_stops_on_targets=landing)
    if engine == "auto":
        started = time.perf_counter()
        warm = loaded
        if warm and handover is None and not WARM_HANDOVER:
            return _solve(board, robots, target, max_moves, node_limit, ricochet, True,
                          clear_stops_on_targets=landing)
        if handover is None:
            from tools.ricochet import aot
            handover = (WARM_HANDOVER if warm else AOT_HANDOVER if aot.ready()
                        else HANDOVER)
        first = _solve(board, robots, target, max_moves, node_limit, ricochet, False,
                       handover=handover, clear_stops_on_targets=landing)
        if not first.out_of_budget or (node_limit and node_limit <= first.nodes):
            return first
        # the bounds searched in full have no solution: the compiled search goes on from there
        start = first.depths[-1][0] + 1 if first.depths else None
        result = _solve(board, robots, target, max_moves,
                        node_limit and node_limit - first.nodes, ricochet, True,
                        first_bound=start, table_bits=None if warm else COLD_TABLE_BITS,
                        clear_stops_on_targets=landing)
        result.nodes += first.nodes
        result.depths = first.depths + [(b, n, s + first.seconds) for b, n, s in result.depths]
        result.seconds = time.perf_counter() - started
        result.engine = "python, then numba"
        return result
    return _solve(board, robots, target, max_moves, node_limit, ricochet, True,
                  clear_stops_on_targets=landing)


def c_available():
    """Whether the search in C (ckernel.py) is loaded or can be: built at first use with
    the machine's C compiler, it starts in microseconds and needs neither numpy nor numba,
    so "auto" runs it for every deal when it is there."""
    from tools.ricochet import ckernel
    return ckernel.available()


_NUMBA = []  # whether numba is installed, asked once per process (a search of sys.path)


def kernel_available():
    """Whether numba is installed, without importing it (0.4 s and 80 MB), or the search is
    built ahead of time: a short deal never needs either."""
    from tools.ricochet import aot
    if not _NUMBA:
        import importlib.util
        _NUMBA.append(importlib.util.find_spec("numba") is not None)
    return _NUMBA[0] or aot.ready()


def kernel_loaded():
    """Whether this process has loaded the compiled search already (see WARM_HANDOVER)."""
    import sys
    return "tools.ricochet.kernel" in sys.modules and sys.modules["tools.ricochet.kernel"].AVAILABLE


def load_kernel():
    """Load the compiled search now (numba and its cached machine code, compiling it the
    first time), by solving an 8-move deal with it (the first real search pays some
    one-time costs of its own); False without numba. With the search in C (built with the
    machine's compiler), that one instead: numba is not loaded at all."""
    board = Board("2A,1A,4B,3A")  # game 0F8JMYHTS10HC3, seed 246: 8 moves, 3,803 positions
    robots = [39, 19, 40, 44, ABSENT, ABSENT]
    if ENGINE == "auto" and c_available():
        global C_TABLE_BITS
        C_TABLE_BITS = TABLE_BITS
        _solve_c(board, robots, 1, 30, None, True, False)
        return True
    if not kernel_available():
        return False
    _solve(board, robots, 1, 30, None, True, True)
    return True


def prepare(board, ricochet=True, compiled=True):
    """Build what a solve on ``board`` needs for every target ahead (the bounds, the slack
    tables, for the compiled search their arrays), so that a solve starts searching at
    once: a server does it while the table places its robots (some 0.1-0.2 s of CPU in
    Python; the search in C builds its own in about a millisecond)."""
    if compiled and ENGINE in ("auto", "c") and c_available():  # the search in C's own
        for target in range(VORTEX + 1):
            goal = board.targets[target]
            _c_bound(board, goal, False, ricochet)
            if target == VORTEX:
                _c_bound(board, goal, True, ricochet)
            else:
                _c_descents(board, goal, ricochet)
        return
    tab = tables(board)
    for target in range(VORTEX + 1):
        goal = board.targets[target]
        tab.bound(goal, False, ricochet)
        if target == VORTEX:
            tab.bound(goal, True, ricochet)
        else:
            tab.within(goal, ricochet)
            if compiled and not c_available():  # numba's arrays (numpy); C's: at the solve
                tab.descent_arrays(goal, ricochet)
            else:
                tab.descents(goal, ricochet)


def _solve(board, robots, target, max_moves, node_limit, ricochet, compiled, handover=None,
           first_bound=None, table_bits=None, clear_stops_on_targets=False):
    started = time.perf_counter()
    tab = tables(board)
    goal = board.targets[target]
    # search order: robots that can complete the target first
    present = [w for w in range(ROBOT_COUNT) if robots[w] != ABSENT]
    if target == VORTEX:
        eligible = set(present)
    else:
        eligible = {target >> 2}
    order = sorted(present, key=lambda w: (w not in eligible, w))
    n = len(order)
    P = [robots[w] for w in order]
    # ricochet state per robot (helpers keep theirs at UNMOVED: it does not matter)
    F = [UNMOVED if ricochet else TURNED] * n
    is_clear = [w == CLEAR for w in order]
    elig = [w in eligible for w in order]
    heur = [tab.bound(goal, w == CLEAR, ricochet) if w in eligible else None for w in order]
    # transposition key: one int, the sum of a value per robot, from its cell and ricochet
    # state (c * 4 + f). Robots of equal role (a set of k) add their values' powers 1..k in
    # separate bit fields: the power sums p1..pk of k numbers determine them (Newton's
    # identities), whatever their order. Bits 0-9: the target robot; 10-19: the clear one.
    group = [w for w in order if w != CLEAR and (target == VORTEX or w != target >> 2)]
    set_value = power_sum_values(len(group), 20, 4 * CELLS)
    keyval = []
    for w in order:
        if w == CLEAR:
            keyval.append(CLEAR_KEYS)
        elif w in group:
            keyval.append(set_value)
        else:
            keyval.append(OWN_KEYS)
    # the transparent robot's tables only when it is in the deal
    clearseg = tab.clear if any(is_clear) else None
    # the cells the transparent robot may not land on (the rulebook's reading)
    forbid = None if clear_stops_on_targets else board.coloured
    slides = tab.slides
    eligible_idx = [i for i in range(n) if elig[i]]
    single = len(eligible_idx) == 1
    table = {}
    path = []
    nodes = 0
    budget = node_limit or 1 << 62
    if handover:  # see HANDOVER
        handover *= 1 if single else VORTEX_HANDOVER
        budget = min(budget, 3 * handover)
    bit = BIT
    after = AFTER

    def lower_bound():
        return min(heur[i][F[i]][P[i]] for i in eligible_idx)

    if single:  # a coloured target: its robot is never the transparent one
        closer, reach = tab.descents(goal, ricochet)
        within = tab.within(goal, ricochet)
        rays, wallside, lines = tab.ray, tab.wallside, tab.lines

        def relaxed_path(p, f, most, stops_by_d):
            """Whether the target robot, from cell p in ricochet state f, could complete
            the target in at most ``most`` slides if robots never got in its way and it
            could stop only on the cells ``stops_by_d[d]`` when sliding in direction d."""
            for d in range(4):
                stops = rays[d][p] & stops_by_d[d]
                if not stops:
                    continue
                g = after[f][d]
                if g == TURNED and stops >> goal & 1:
                    return True
                if most > 1:
                    stops &= within[g][most - 1]
                    while stops:
                        low = stops & -stops
                        if relaxed_path(low.bit_length() - 1, g, most - 1, stops_by_d):
                            return True
                        stops ^= low
            return False

        def stops_beside(blockers):
            """Per direction, the cells a slide stops on with robots on ``blockers``: those
            with a wall on that side, and those right before a blocker."""
            return (wallside[0] | blockers << 16, wallside[1] | blockers >> 1,
                    wallside[2] | blockers >> 16, wallside[3] | blockers << 1)

        def blockers_allow(i, q, g, nrem, hq, occ):
            """The bound that counts blockers, min(M0, M1 + 1, h + 2) <= nrem, for the
            position where robot i moved to q (state g; ``occ`` its occupancy). Mt: the
            fewest slides of the target robot if only walls and the robots that could be
            there after t moves stopped it (t = 0: where the helpers stand; t = 1: their
            rows and columns up to a wall). Asked only when h + 2 > nrem."""
            if i == 0:  # the target robot moved
                start, state = q, g
            else:  # a helper moved
                start, state = P[0], F[0]
            helpers = occ ^ bit[start]
            if nrem == hq:
                return relaxed_path(start, state, nrem, stops_beside(helpers))
            if i == 0:
                reachable = 0
                for j in range(1, n):
                    reachable |= lines[P[j]]
            else:
                reachable = lines[q]
                for j in range(1, n):
                    if j != i:
                        reachable |= lines[P[j]]
            return (relaxed_path(start, state, nrem - 1, stops_beside(reachable))
                    or relaxed_path(start, state, nrem, stops_beside(helpers)))

    # a child with one move of slack is entered only when it lists a child of its own that
    # the blocker bound allows (see slack1_alive): a single target robot, no transparent one
    slack1 = single and not any(is_clear)

    def slack1_alive(rem, occ, h, last, last_cells, last_span):
        """Whether the position (P, F; ``occ``) with one move of slack (rem = h + 1),
        reached by robot ``last``'s move over ``last_cells`` (``last_span``), lists a move
        that completes the target or a child that the blocker bound allows: the moves dfs
        would list, each child asked blockers_allow, the table not asked. Without one a
        search of it finds nothing."""
        nrem = rem - 1
        touch = reach[F[0]][P[0]]
        for i in range(n):
            p = P[i]
            f = F[i]
            occ_i = occ ^ bit[p]
            for d, q, mask, up, step in slides[p]:
                b = occ_i & mask
                if b:
                    if up:
                        q = (b & -b).bit_length() - 1 - step
                    else:
                        q = b.bit_length() - 1 - step
                    if q == p:
                        continue
                if i:
                    g = f
                    if not (bit[p] | bit[q]) & touch:
                        continue
                    hq = h
                else:
                    g = after[f][d]
                    if q == goal and g == TURNED:
                        return True
                    hq = heur[0][g][q]
                    if hq > nrem:
                        continue
                if i < last:
                    moved = span(p, q, d)
                    if not moved & last_cells and not (bit[p] | bit[q]) & last_span:
                        continue
                if blockers_allow(i, q, g, nrem, hq, occ_i | bit[q]):
                    return True
        return False

    def dfs(rem, key, occ, h, last, last_cells, last_span):
        """Searches the position with ``rem`` moves left; True when a solution was found
        (its moves on ``path``, last first). Lists the position's moves first, returning
        at once when one completes the target, then searches them in that order. ``last``:
        the robot (search index) that made the move to here, ``last_cells`` its start and
        end cells, ``last_span`` the cells that move depended on (see ``span``)."""
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            raise _Budget
        tight = single and h == rem  # no slack: only the target robot moves, closer each time
        # one move of slack: a helper's move must touch the cells the descent could use
        # (the target robot's own moves come first and found no descent without it)
        touch = reach[F[0]][P[0]] if single and h == rem - 1 else -1
        children = []
        for i in range(1 if tight else n):
            p = P[i]
            f = F[i]
            if single:
                other_h = UNREACHABLE if i == 0 else h
            else:
                other_h = UNREACHABLE
                for j in eligible_idx:
                    if j != i:
                        v = heur[j][F[j]][P[j]]
                        if v < other_h:
                            other_h = v
            hi = heur[i]
            if hi is None:
                most = rem - 1 - other_h  # a helper move needs slack: passes at most this
                if most < 0:
                    continue
            else:
                most = rem - 1
            occ_i = occ ^ bit[p]
            kv = keyval[i]
            key_i = key - kv[4 * p + f]
            af = after[f]
            if not is_clear[i]:
                can_win = elig[i]
                nrem = rem - 1
                for d, q, mask, up, step in (closer[f][p] if tight else slides[p]):
                    b = occ_i & mask
                    if b:
                        if up:
                            q = (b & -b).bit_length() - 1 - step
                        else:
                            q = b.bit_length() - 1 - step
                        if q == p:
                            continue
                    if hi is None:
                        g = f
                        if i and not (bit[p] | bit[q]) & touch:
                            continue
                        if other_h > nrem:
                            continue
                        hq = other_h
                    else:
                        g = af[d]
                        if can_win and q == goal and g == TURNED:
                            path.append((i, d, 0))
                            return True
                        if i and not (bit[p] | bit[q]) & touch:
                            continue
                        hq = hi[g][q]
                        if hq > other_h:
                            hq = other_h
                        if hq > nrem:
                            continue
                    children.append((nrem, key_i + kv[4 * q + g], i, q, g, hq, d, 0,
                                     occ_i | bit[q]))
                continue
            # the transparent robot: a stop after each wall it may pass
            for d in range(4):
                step = STEP[d]
                g = af[d] if elig[i] else f
                for s, k, mask, first in clearseg[d][p]:
                    if k > most:
                        break
                    b = occ_i & mask
                    if b:
                        nearest = (b & -b).bit_length() - 1 if INC[d] else b.bit_length() - 1
                        if nearest == first:
                            break
                        q = nearest - step
                    elif s == p:
                        continue
                    else:
                        q = s
                    nrem = rem - 1 - k
                    if q == goal and elig[i] and g == TURNED:
                        path.append((i, d, k))
                        return True
                    if forbid is not None and forbid[q]:  # no landing on a coloured target
                        if b:
                            break
                        continue
                    hq = other_h
                    if hi is not None and hi[g][q] < hq:
                        hq = hi[g][q]
                    if hq <= nrem and not (i and not (bit[p] | bit[q]) & touch):
                        children.append((nrem, key_i + kv[4 * q + g], i, q, g, hq, d, k,
                                         occ_i | bit[q]))
                    if b:
                        break
        # the lowest bound first (the closest to a solution: the last bound's search ends
        # at the first found), of equal bounds in the order listed (a stable sort)
        children.sort(key=_BOUND_OF)
        for nrem, nkey, i, q, g, hq, d, k, nocc in children:
            if table.get(nkey, -1) >= nrem:
                continue
            p = P[i]
            if i < last:  # commutes with the last move? (asked of new positions only: the
                # compiled search leaves such moves off its list, the same positions)
                moved = span(p, q, d)
                if not moved & last_cells and not (bit[p] | bit[q]) & last_span:
                    continue
            table[nkey] = nrem
            if single and nrem - hq < 2 and not blockers_allow(i, q, g, nrem, hq, nocc):
                continue  # (recorded: a search of it would find nothing)
            f = F[i]
            P[i] = q
            F[i] = g
            if slack1 and nrem - hq == 1 and not slack1_alive(
                    nrem, nocc, hq, i, bit[p] | bit[q], span(p, q, d)):
                P[i] = p  # (recorded: a search of it would find nothing)
                F[i] = f
                continue
            found = dfs(nrem, nkey, nocc, hq, i, bit[p] | bit[q], span(p, q, d))
            P[i] = p
            F[i] = f
            if found:
                path.append((i, d, k))
                return True
        return False

    h0 = max(1, lower_bound(), first_bound or 1)
    depths = []
    count = None
    out_of_budget = False
    if compiled:
        from tools.ricochet import kernel
        if single:
            closer_arr, reach_arr = tab.descent_arrays(goal, ricochet)
        else:
            closer_arr = reach_arr = None
        k = kernel.Kernel(board.walls, goal, order, P, F, is_clear, elig, heur, single,
                          closer_arr, reach_arr, AFTER, max_moves, table_bits,
                          forbid if clearseg is not None else None, tab.kernel_cache)
        for bound in range(h0, max_moves + 1):
            before = k.nodes
            found = k.search(bound, lower_bound(), budget)
            if found > 0:
                count = bound
                path[:] = reversed(k.moves())
                break
            if found < 0:
                out_of_budget = True
                break
            depths.append((bound, k.nodes - before, time.perf_counter() - started))
        nodes = k.nodes
    else:
        key0 = sum(keyval[i][4 * P[i] + F[i]] for i in range(n))
        occ0 = 0
        for p in P:
            occ0 |= 1 << p
        try:
            for bound in range(h0, max_moves + 1):
                before = nodes
                if dfs(bound, key0, occ0, lower_bound(), -1, 0, 0):
                    count = bound
                    break
                depths.append((bound, nodes - before, time.perf_counter() - started))
                if handover and len(depths) >= 2:  # is the next bound worth compiling for?
                    last, prev = depths[-1][1], depths[-2][1]
                    if last * max(1.5, last / max(prev, 1)) > handover:
                        out_of_budget = True
                        break
        except _Budget:
            out_of_budget = True
    moves = [(order[i], d, k) for i, d, k in reversed(path)] if count is not None else []
    result = Solution(moves, count, nodes, time.perf_counter() - started, depths, ricochet)
    result.engine = "numba" if compiled else "python"
    result.out_of_budget = out_of_budget
    return result


def _solve_c(board, robots, target, max_moves, node_limit, ricochet, landing):
    """The search in C (ckernel.py): _solve's compiled search, every bound in one call.
    What it needs that does not depend on where the robots stand is kept with the board
    per target, rule and set of robots, so that a warm solve of a short deal costs little
    more than its search."""
    started = time.perf_counter()
    cache = _c_tables(board)
    present = tuple(w for w in range(ROBOT_COUNT) if robots[w] != ABSENT)
    key = ("c deal", target, present, ricochet, landing)
    entry = cache.get(key)
    if entry is None:
        from tools.ricochet import ckernel
        goal = board.targets[target]
        eligible = set(present) if target == VORTEX else {target >> 2}
        order = sorted(present, key=lambda w: (w not in eligible, w))
        is_clear = [w == CLEAR for w in order]
        elig = [w in eligible for w in order]
        heur = [_c_bound(board, goal, w == CLEAR, ricochet) if w in eligible else None
                for w in order]
        single = sum(elig) == 1
        forbid = None if landing or not any(is_clear) else board.coloured
        prepared = ckernel.Prepared(
            board.walls, goal, order, is_clear, elig, heur, single,
            _c_descents(board, goal, ricochet) if single else None, AFTER, forbid, cache)
        entry = cache[key] = (order, prepared)
    order, prepared = entry
    P = [robots[w] for w in order]
    F = [UNMOVED if ricochet else TURNED] * len(order)
    h = prepared.lower_bound(P, F)
    status, nodes, found, moves, per_bound = prepared.run(
        P, F, max(1, h), max_moves, h, node_limit or 1 << 62, C_TABLE_BITS)
    elapsed = time.perf_counter() - started
    count = found if status > 0 else None
    result = Solution([(order[i], d, k) for i, d, k in moves] if count is not None else [],
                      count, nodes, elapsed,
                      [(b, k, elapsed) for b, k in per_bound],  # one call: no time per bound
                      ricochet)
    result.engine = "c"
    result.out_of_budget = status < 0
    return result


def _c_tables(board):
    """What the search in C keeps with a board: its own bounds and slack tables (built in C,
    not Tables': a fresh board costs it microseconds) and a prepared structure per deal."""
    cache = getattr(board, "_c_tables", None)
    if cache is None:
        cache = board._c_tables = {}
    return cache


def _c_bound(board, goal, clear, ricochet):
    """Tables.bound, built by the search in C: one array [state * 256 + cell]."""
    cache = _c_tables(board)
    key = ("bound", goal, clear, ricochet)
    if key not in cache:
        from tools.ricochet import ckernel
        if "walls" not in cache:
            cache["walls"] = ckernel.board_walls(board.walls)
        cache[key] = ckernel.bounds(cache["walls"], goal, clear, ricochet)
    return cache[key]


def _c_descents(board, goal, ricochet):
    """Tables.descents, built by the search in C, as it reads them: (closer, reach)."""
    cache = _c_tables(board)
    key = ("descents", goal, ricochet)
    if key not in cache:
        from tools.ricochet import ckernel
        cache[key] = ckernel.descents(cache["walls"] if "walls" in cache else
                                      ckernel.board_walls(board.walls),
                                      _c_bound(board, goal, False, ricochet), AFTER)
    return cache[key]


COLUMN = [sum(1 << (y * 16 + x) for y in range(16)) for x in range(16)]


def span(p, q, d):
    """The cells a slide from p to q in direction d depends on: those from p to q, and
    the one after q (what stopped it, when it is not a wall; a pass is a wall crossed)."""
    lo, hi = (p, q) if p < q else (q, p)
    cells = (2 << hi) - (1 << lo)
    if not d & 1:
        cells &= COLUMN[p & 15]
    after = q + STEP[d]
    if 0 <= after < CELLS:
        cells |= 1 << after
    return cells


class _Budget(Exception):
    pass


def solve_text(faces, robots_text, target_text, **kw):
    """Convenience: solve from the CLI's text forms."""
    from tools.ricochet.rules import parse_robots, parse_target
    board = Board(faces)
    return solve(board, parse_robots(robots_text), parse_target(target_text), **kw)
