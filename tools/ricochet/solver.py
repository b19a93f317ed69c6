"""Optimal Ricochet Robots solver, with the transparent robot (host side, pure Python).

    from microrobots.ricochet import Board, parse_robots, parse_target
    from tools.ricochet.solver import solve
    result = solve(Board("1A,2B,3A,4B"), parse_robots("red=0,0 ..."), parse_target("vortex"))
    result.count, result.moves, result.nodes

The rules are those of ``microrobots.ricochet`` (the firmware module); this module only
searches. The search is IDA*: iterative deepening on the move count, where a move costs one
plus the walls the transparent robot passes in it, pruned by

- a lower bound per cell: the fewest moves from that cell to the target if the robot could
  stop on any cell it slides over (other robots might stop it there), computed once per
  target; for the transparent robot it may also pass walls at one move each;
- slack: a robot that cannot complete the target moves only when the bound leaves room
  for a move that does not bring the target robot closer;
- a transposition table keyed on the position, in which robots of equal role (the helpers
  of a coloured target, or all non-transparent robots for the vortex) count as a set.

Slides use bitboards: a Python int with bit ``c`` set for each occupied cell, masked by
the precomputed cells a slide would cross.
"""

import heapq
import os
import sys
import time

FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "firmware")
if FIRMWARE not in sys.path:  # `python -m tools.ricochet` from a fresh clone
    sys.path.insert(0, FIRMWARE)

from microrobots.ricochet import (  # noqa: E402

    CELLS, CLEAR, ROBOT_COUNT, STEP, VORTEX, ABSENT, Board)

UNREACHABLE = 999


class Solution:
    """``moves``: list of (robot, direction, passes); ``count``: moves counting passes
    (None when there is none within the limit); ``nodes``: positions searched;
    ``seconds``: search time; ``depths``: (bound, positions, seconds so far) for each
    bound searched in full without finding a solution."""

    def __init__(self, moves, count, nodes, seconds, depths):
        self.moves = moves
        self.count = count
        self.nodes = nodes
        self.seconds = seconds
        self.depths = depths

    def __repr__(self):
        return "<Solution %s moves, %d positions, %.3f s>" % (self.count, self.nodes, self.seconds)


class Tables:
    """Per-board slide tables (built once per board and cached on it)."""

    def __init__(self, board):
        walls = board.walls
        self.stop = [[0] * CELLS for _ in range(4)]
        self.ray = [[0] * CELLS for _ in range(4)]
        # transparent robot: per cell and direction, a tuple of
        # (stop cell after k passes, k, mask of cells crossed up to it, first cell after wall k)
        self.clear = [[()] * CELLS for _ in range(4)]
        for d in range(4):
            step = STEP[d]
            bit = 1 << d
            for p in range(CELLS):
                here, mask = p, 0
                while not walls[here] & bit:
                    here += step
                    mask |= 1 << here
                self.stop[d][p] = here
                self.ray[d][p] = mask
                segs, here, mask, k, first = [], p, 0, 0, p + step
                while True:
                    while not walls[here] & bit:
                        here += step
                        mask |= 1 << here
                    segs.append((here, k, mask, first))
                    if walls[here] & (bit << 4):
                        break
                    k += 1
                    here += step
                    mask |= 1 << here
                    first = here
                self.clear[d][p] = tuple(segs)
        self.walls = walls
        self._bounds = {}

    def bound(self, target_cell, clear):
        """Lower bounds (list by cell) of the moves to reach ``target_cell``."""
        key = (target_cell, clear)
        if key not in self._bounds:
            self._bounds[key] = self._dijkstra(target_cell, clear)
        return self._bounds[key]

    def _dijkstra(self, goal, clear):
        # backwards: a reaches b in direction d when b lies on a's slide ray
        walls = self.walls
        dist = [UNREACHABLE] * CELLS
        dist[goal] = 0
        heap = [(0, goal)]
        while heap:
            g, b = heapq.heappop(heap)
            if g > dist[b]:
                continue
            for d in range(4):
                step = STEP[d]
                bit = 1 << d
                a, cost = b - step, g + 1
                while 0 <= a < CELLS:
                    w = walls[a]
                    if w & bit:  # a wall between a and the cell after it
                        if not clear or w & (bit << 4):
                            break
                        cost += 1
                    if cost < dist[a]:
                        dist[a] = cost
                        heapq.heappush(heap, (cost, a))
                    a -= step
        return dist


def power_sum_values(k, shift):
    """Per cell, the value a robot of a set of ``k`` adds to a position key: its cell's
    powers 1..k, each in its own bit field from bit ``shift`` on. The sum over the set
    holds the power sums p1..pk, which determine k distinct cells whatever their order."""
    values = [0] * CELLS
    for j in range(1, k + 1):
        for c in range(CELLS):
            values[c] += c ** j << shift
        shift += (k * (CELLS - 1) ** j).bit_length()
    return values


def tables(board):
    t = getattr(board, "_solver_tables", None)
    if t is None:
        t = Tables(board)
        board._solver_tables = t
    return t


def solve(board, robots, target, max_moves=30, node_limit=None):
    """An optimal solution for ``target`` (index) from ``robots`` (bytearray(6)).

    Returns a Solution; ``count`` is None when no solution has at most ``max_moves``
    moves or ``node_limit`` positions were searched first.
    """
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
    is_clear = [w == CLEAR for w in order]
    elig = [w in eligible for w in order]
    heur = [tab.bound(goal, w == CLEAR) if w in eligible else None for w in order]
    # transposition key: one int, the sum of a value per robot. Robots of equal role (a
    # set of k cells) add their cells' powers 1..k in separate bit fields: the power sums
    # p1..pk of k numbers determine them (Newton's identities), whatever their order.
    group = [w for w in order if w != CLEAR and (target == VORTEX or w != target >> 2)]
    set_value = power_sum_values(len(group), 16)
    keyval = []
    for w in order:
        if w == CLEAR:
            keyval.append([c << 8 for c in range(CELLS)])
        elif w in group:
            keyval.append(set_value)
        else:
            keyval.append(list(range(CELLS)))
    stop, ray, clearseg = tab.stop, tab.ray, tab.clear
    inc = (False, True, True, False)  # slides towards higher cell numbers: E, S
    eligible_idx = [i for i in range(n) if elig[i]]
    single = len(eligible_idx) == 1
    table = {}
    path = []
    nodes = 0
    budget = node_limit or 1 << 62

    def lower_bound():
        return min(heur[i][P[i]] for i in eligible_idx)

    bit = [1 << c for c in range(CELLS)]
    # per cell: the slides a robot could make with no robot in the way,
    # as (direction, wall stop, mask of the cells crossed, towards higher cells?, step)
    slides = [tuple((d, stop[d][p], ray[d][p], inc[d], STEP[d]) for d in range(4)
                    if stop[d][p] != p) for p in range(CELLS)]

    # the target robot's slides whose path holds a cell one move closer by the bound:
    # with no slack, no other slide can be the next move
    closer = slides
    reach = None
    if single and not is_clear[0]:
        h0tab = heur[0]
        at = {}  # bound -> bitboard of the cells with that bound
        for c in range(CELLS):
            at[h0tab[c]] = at.get(h0tab[c], 0) | bit[c]
        closer = [tuple(m for m in slides[p] if m[2] & at.get(h0tab[p] - 1, 0))
                  for p in range(CELLS)]
        # the cells whose robots can change a slack-free descent from each cell: every
        # cell the target robot's slides towards closer cells cross (a robot there stops
        # or blocks it), from that cell and from each closer cell they reach, and so on
        reach = [0] * CELLS
        for c in sorted(range(CELLS), key=h0tab.__getitem__):
            acc = 0
            for m in closer[c]:
                acc |= m[2]
                step_to = m[2] & at.get(h0tab[c] - 1, 0)
                while step_to:
                    low = step_to & -step_to
                    acc |= reach[low.bit_length() - 1]
                    step_to ^= low
            reach[c] = acc

    def dfs(rem, key, occ, h):
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            raise _Budget
        tight = single and h == rem  # no slack: only the target robot moves, closer each time
        # one move of slack: a helper's move must touch the cells the descent could use
        # (the target robot's own moves come first and found no descent without it)
        touch = reach[P[0]] if single and h == rem - 1 else -1
        for i in range(1 if tight else n):
            p = P[i]
            if single:
                other_h = UNREACHABLE if i == 0 else h
            else:
                other_h = UNREACHABLE
                for j in eligible_idx:
                    if j != i:
                        v = heur[j][P[j]]
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
            key_i = key - kv[p]
            nrem = rem - 1
            if not is_clear[i]:
                can_win = elig[i]
                for d, q, mask, up, step in (closer[p] if tight else slides[p]):
                    b = occ_i & mask
                    if b:
                        if up:
                            q = (b & -b).bit_length() - 1 - step
                        else:
                            q = b.bit_length() - 1 - step
                        if q == p:
                            continue
                    if can_win and q == goal:
                        path.append((i, d, 0))
                        return True
                    if i and not (bit[p] | bit[q]) & touch:
                        continue
                    if hi is not None and hi[q] < other_h:
                        if hi[q] > nrem:
                            continue
                        hq = hi[q]
                    else:
                        if other_h > nrem:
                            continue
                        hq = other_h
                    nkey = key_i + kv[q]
                    if table.get(nkey, -1) >= nrem:
                        continue
                    table[nkey] = nrem
                    P[i] = q
                    found = dfs(nrem, nkey, occ_i | bit[q], hq)
                    P[i] = p
                    if found:
                        path.append((i, d, 0))
                        return True
                continue
            for d in range(4):
                cands = []
                step = STEP[d]
                for s, k, mask, first in clearseg[d][p]:
                    if k > most:
                        break
                    b = occ_i & mask
                    if b:
                        nearest = (b & -b).bit_length() - 1 if inc[d] else b.bit_length() - 1
                        if nearest != first:
                            cands.append((nearest - step, k))
                        break
                    if s != p:
                        cands.append((s, k))
                for q, k in cands:
                    nrem = rem - 1 - k
                    if q == goal and elig[i]:
                        path.append((i, d, k))
                        return True
                    hq = other_h
                    if hi is not None and hi[q] < hq:
                        hq = hi[q]
                    if hq > nrem:
                        continue
                    nkey = key_i + kv[q]
                    if table.get(nkey, -1) >= nrem:
                        continue
                    table[nkey] = nrem
                    P[i] = q
                    found = dfs(nrem, nkey, occ_i | bit[q], hq)
                    P[i] = p
                    if found:
                        path.append((i, d, k))
                        return True
        return False

    key0 = sum(keyval[i][P[i]] for i in range(n))
    occ0 = 0
    for p in P:
        occ0 |= 1 << p
    h0 = max(1, lower_bound())
    depths = []
    count = None
    try:
        for bound in range(h0, max_moves + 1):
            before = nodes
            if dfs(bound, key0, occ0, lower_bound()):
                count = bound
                break
            depths.append((bound, nodes - before, time.perf_counter() - started))
    except _Budget:
        pass
    moves = [(order[i], d, k) for i, d, k in reversed(path)] if count is not None else []
    return Solution(moves, count, nodes, time.perf_counter() - started, depths)


class _Budget(Exception):
    pass


def solve_text(faces, robots_text, target_text, **kw):
    """Convenience: solve from the CLI's text forms."""
    from microrobots.ricochet import parse_robots, parse_target
    board = Board(faces)
    return solve(board, parse_robots(robots_text), parse_target(target_text), **kw)
