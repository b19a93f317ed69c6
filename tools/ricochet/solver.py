"""Optimal Ricochet Robots solver, with the transparent robot (host side, pure Python).

    from microrobots.ricochet import Board, parse_robots, parse_target
    from tools.ricochet.solver import solve
    result = solve(Board("1A,2B,3A,4B"), parse_robots("red=0,0 ..."), parse_target("vortex"))
    result.count, result.moves, result.nodes

The rules are those of ``microrobots.ricochet`` (the firmware module), the ricochet rule
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

import os
import sys
import time

FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "firmware")
if FIRMWARE not in sys.path:  # `python -m tools.ricochet` from a fresh clone
    sys.path.insert(0, FIRMWARE)

from microrobots.ricochet import (  # noqa: E402
    ABSENT, ACROSS, ALONG, CELLS, CLEAR, ROBOT_COUNT, STEP, TURNED, UNMOVED, VORTEX, Board,
    after_move)

UNREACHABLE = 999
BIT = [1 << c for c in range(CELLS)]
INC = (False, True, True, False)  # slides towards higher cell numbers: E, S
# AFTER[state][d]: the ricochet state after a move in direction d (microrobots.ricochet)
AFTER = [[after_move(f, d) for d in range(4)] for f in range(4)]


class Solution:
    """``moves``: list of (robot, direction, passes); ``count``: moves counting passes
    (None when there is none within the limit); ``nodes``: positions searched;
    ``seconds``: search time; ``depths``: (bound, positions, seconds so far) for each
    bound searched in full without finding a solution; ``ricochet``: whether the ricochet
    rule was in force."""

    def __init__(self, moves, count, nodes, seconds, depths, ricochet=True):
        self.moves = moves
        self.count = count
        self.nodes = nodes
        self.seconds = seconds
        self.depths = depths
        self.ricochet = ricochet

    def __repr__(self):
        return "<Solution %s moves, %d positions, %.3f s>" % (self.count, self.nodes, self.seconds)


class Tables:
    """Per-board slide tables, and per-target bounds, built on first use (see ``tables``)."""

    def __init__(self, board):
        walls = board.walls
        self.walls = walls
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
        # per cell: the slides a robot could make with no robot in the way,
        # as (direction, wall stop, mask of the cells crossed, towards higher cells?, step)
        self.slides = [tuple((d, self.stop[d][p], self.ray[d][p], INC[d], STEP[d])
                             for d in range(4) if self.stop[d][p] != p) for p in range(CELLS)]
        self._bounds = {}
        self._descents = {}

    def relaxed_moves(self, clear):
        """Per cell and direction, (cell, cost) for every cell a robot could stop on if
        anything could stop it anywhere: its ray, and for the transparent robot the cells
        beyond each wall that is not solid, at one more move per wall."""
        out = [[None] * 4 for _ in range(CELLS)]
        walls = self.walls
        for a in range(CELLS):
            for d in range(4):
                step, bit = STEP[d], 1 << d
                here, cost, cells = a, 1, []
                while True:
                    w = walls[here]
                    if w & bit:
                        if not clear or w & (bit << 4):
                            break
                        cost += 1
                    here += step
                    cells.append((here, cost))
                out[a][d] = cells
        return out

    def bound(self, target_cell, clear, ricochet=True):
        """Lower bounds of the moves to reach ``target_cell``: a list by ricochet state
        (UNMOVED, ACROSS, ALONG, TURNED) of lists by cell."""
        key = (target_cell, clear, ricochet)
        if key not in self._bounds:
            self._bounds[key] = self._relaxed_distances(target_cell, clear, ricochet)
        return self._bounds[key]

    def _relaxed_distances(self, goal, clear, ricochet):
        moves = self.relaxed_moves(clear)
        # turned (or no rule): the fewest relaxed moves to the goal, by value iteration
        # (256 cells, a few dozen rounds: cheaper than a heap here)
        turned = [UNREACHABLE] * CELLS
        turned[goal] = 0
        changed = True
        while changed:
            changed = False
            for a in range(CELLS):
                best = turned[a]
                for d in range(4):
                    for b, cost in moves[a][d]:
                        v = cost + turned[b]
                        if v < best:
                            best = v
                if best < turned[a]:
                    turned[a] = best
                    changed = True
        if not ricochet:
            return [turned, turned, turned, turned]
        turned[goal] = 0
        # not yet turned, last move along one axis: a move along the other axis turns;
        # along the same one it does not (and stopping on the goal then does not count)
        by_axis = {}
        for axis, same in ((ACROSS, (1, 3)), (ALONG, (0, 2))):
            other = (0, 2) if axis == ACROSS else (1, 3)
            dist = [UNREACHABLE] * CELLS
            for a in range(CELLS):
                for d in other:
                    for b, cost in moves[a][d]:
                        if cost + turned[b] < dist[a]:
                            dist[a] = cost + turned[b]
            changed = True
            while changed:
                changed = False
                for a in range(CELLS):
                    best = dist[a]
                    for d in same:
                        for b, cost in moves[a][d]:
                            if cost + dist[b] < best:
                                best = cost + dist[b]
                    if best < dist[a]:
                        dist[a] = best
                        changed = True
            by_axis[axis] = dist
        unmoved = [UNREACHABLE] * CELLS
        for a in range(CELLS):
            for d in range(4):
                dist = by_axis[ACROSS if d & 1 else ALONG]
                for b, cost in moves[a][d]:
                    if cost + dist[b] < unmoved[a]:
                        unmoved[a] = cost + dist[b]
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
            for p in range(CELLS):
                closer[f][p] = tuple(m for m in slides[p]
                                     if m[2] & at[AFTER[f][m[0]]].get(h[f][p] - 1, 0))
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


def power_sum_values(k, shift, span=CELLS):
    """Per value 0..span-1, what a robot of a set of ``k`` adds to a position key: its
    value's powers 1..k, each in its own bit field from bit ``shift`` on. The sum over the
    set holds the power sums p1..pk, which determine k distinct values whatever their order."""
    values = [0] * span
    for j in range(1, k + 1):
        for c in range(span):
            values[c] += c ** j << shift
        shift += (k * (span - 1) ** j).bit_length()
    return values


def tables(board):
    t = getattr(board, "_solver_tables", None)
    if t is None:
        t = Tables(board)
        board._solver_tables = t
    return t


def solve(board, robots, target, max_moves=30, node_limit=None, ricochet=True):
    """An optimal solution for ``target`` (index) from ``robots`` (six cells).

    Under the ricochet rule (the default) the robot that completes the target must have
    turned on its way. Returns a Solution; ``count`` is None when no solution has at most
    ``max_moves`` moves or ``node_limit`` positions were searched first.
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
            keyval.append([v << 10 for v in range(4 * CELLS)])
        elif w in group:
            keyval.append(set_value)
        else:
            keyval.append(list(range(4 * CELLS)))
    clearseg = tab.clear
    slides = tab.slides
    eligible_idx = [i for i in range(n) if elig[i]]
    single = len(eligible_idx) == 1
    table = {}
    path = []
    nodes = 0
    budget = node_limit or 1 << 62
    bit = BIT
    after = AFTER

    def lower_bound():
        return min(heur[i][F[i]][P[i]] for i in eligible_idx)

    if single:  # a coloured target: its robot is never the transparent one
        closer, reach = tab.descents(goal, ricochet)

    def dfs(rem, key, occ, h):
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            raise _Budget
        tight = single and h == rem  # no slack: only the target robot moves, closer each time
        # one move of slack: a helper's move must touch the cells the descent could use
        # (the target robot's own moves come first and found no descent without it)
        touch = reach[F[0]][P[0]] if single and h == rem - 1 else -1
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
            fs = 4 * p + f
            key_i = key - kv[fs]
            nrem = rem - 1
            af = after[f]
            if not is_clear[i]:
                can_win = elig[i]
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
                    nkey = key_i + kv[4 * q + g]
                    if table.get(nkey, -1) >= nrem:
                        continue
                    table[nkey] = nrem
                    P[i] = q
                    F[i] = g
                    found = dfs(nrem, nkey, occ_i | bit[q], hq)
                    P[i] = p
                    F[i] = f
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
                        nearest = (b & -b).bit_length() - 1 if INC[d] else b.bit_length() - 1
                        if nearest != first:
                            cands.append((nearest - step, k))
                        break
                    if s != p:
                        cands.append((s, k))
                g = af[d] if elig[i] else f
                for q, k in cands:
                    nrem = rem - 1 - k
                    if q == goal and elig[i] and g == TURNED:
                        path.append((i, d, k))
                        return True
                    hq = other_h
                    if hi is not None and hi[g][q] < hq:
                        hq = hi[g][q]
                    if hq > nrem:
                        continue
                    nkey = key_i + kv[4 * q + g]
                    if table.get(nkey, -1) >= nrem:
                        continue
                    table[nkey] = nrem
                    P[i] = q
                    F[i] = g
                    found = dfs(nrem, nkey, occ_i | bit[q], hq)
                    P[i] = p
                    F[i] = f
                    if found:
                        path.append((i, d, k))
                        return True
        return False

    key0 = sum(keyval[i][4 * P[i] + F[i]] for i in range(n))
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
    return Solution(moves, count, nodes, time.perf_counter() - started, depths, ricochet)


class _Budget(Exception):
    pass


def solve_text(faces, robots_text, target_text, **kw):
    """Convenience: solve from the CLI's text forms."""
    from microrobots.ricochet import parse_robots, parse_target
    board = Board(faces)
    return solve(board, parse_robots(robots_text), parse_target(target_text), **kw)
