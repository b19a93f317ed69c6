"""Optimal routes and claim checking for one robot on a Micro Robots layout.

A move goes along the robot's row or column, any distance, onto a cell that shares the
colour or the number of the cell it stands on. Moves are symmetric (if a->b is legal,
so is b->a), which the solver relies on: distances *to* a cell equal distances *from* it.

Everything is array-based. A Solver allocates its buffers once; ``distances``,
``distance``, ``walk_exists`` and ``check`` then allocate nothing on the heap under
MicroPython (host_tests assert it). The hot loops are ``@micropython.viper`` functions
on MicroPython (solver_viper.py) and their plain twin elsewhere (solver_plain.py, the
same file without the decorators): the same code path on every runtime.
"""

from .board import CELLS, SIZE
from ..compat import NATIVE, const

# The move table and two searches: viper on MicroPython (~100x faster), the same code
# as plain Python where there is no native emitter and under CPython (solver_viper.py).
if NATIVE:
    from .solver_viper import _bfs, _moves, _walk_bfs
else:
    from .solver_plain import _bfs, _moves, _walk_bfs

UNREACHABLE = const(255)  # distances() marks cells the robot can never reach with it
_MAX_DEGREE = const(10)  # 5 other cells in the row + 5 in the column
_STATES = const(144)  # walk states: cell + 36 * waypoint_seen + 72 * parity

# Verdict codes, in the order check() looks for them.
CORRECT = const(0)
ILLEGAL_MOVE = const(1)
WRONG_COUNT = const(2)
TARGET_MISSED = const(3)
WAYPOINT_MISSED = const(4)
BELOW_OPTIMUM = const(5)  # used by the game: a claim that fails without a demonstration


class Verdict:
    """The outcome of a demonstration: ``ok``, a ``code`` and, for an illegal move,
    which ``move`` (1-based). ``reason`` is the sentence to show a player.

    ``Solver.check`` reuses one Verdict per solver (to allocate nothing); call
    ``copy()`` to keep one past the next check.
    """

    def __init__(self, code=CORRECT, move=0):
        self.code = code
        self.move = move

    @property
    def ok(self):
        return self.code == CORRECT

    @property
    def reason(self):
        code = self.code
        if code == CORRECT:
            return "correct"
        if code == ILLEGAL_MOVE:  # move 0: an old saved game did not record which
            return "move %d is not legal" % self.move if self.move else "a move is not legal"
        if code == WRONG_COUNT:
            return "the number of moves differs from the claim"
        if code == TARGET_MISSED:
            return "the robot does not end on the target"
        if code == WAYPOINT_MISSED:
            return "the robot did not visit the waypoint first"
        return "the claim is below the optimum"

    def copy(self):
        return Verdict(self.code, self.move)

    def __repr__(self):
        return "<Verdict %s>" % self.reason


class Solver:
    """Routes on one layout. Build once per layout, query many times."""

    def __init__(self, layout):
        self.layout = layout
        self._nb = bytearray(CELLS * _MAX_DEGREE)
        self._degree = bytearray(CELLS)
        self._dist = bytearray(CELLS)
        self._queue = bytearray(_STATES)
        self._walk = bytearray(_STATES)
        self.verdict = Verdict()
        _moves(layout.colours, layout.numbers, self._nb, self._degree)

    # -- moves --------------------------------------------------------------
    def moves(self, i):
        """The cells reachable from ``i`` in one move, in index order."""
        base = i * _MAX_DEGREE
        return list(self._nb[base:base + self._degree[i]])

    def degree(self, i):
        """How many moves leave cell ``i``."""
        return self._degree[i]

    def neighbour(self, i, k):
        """The ``k``-th cell reachable from ``i`` (0 <= k < degree(i)); allocation-free."""
        return self._nb[i * _MAX_DEGREE + k]

    def is_move(self, a, b):
        """Is a hop from cell ``a`` to cell ``b`` legal?"""
        if not (0 <= a < CELLS and 0 <= b < CELLS) or a == b:
            return False
        if a // SIZE != b // SIZE and a % SIZE != b % SIZE:
            return False
        lay = self.layout
        return lay.colours[a] == lay.colours[b] or lay.numbers[a] == lay.numbers[b]

    # -- distances ----------------------------------------------------------
    def distances(self, start):
        """Optimal move counts from ``start`` to every cell, as a 36-byte buffer.

        ``UNREACHABLE`` (255) marks cells that cannot be reached. The buffer belongs to
        the solver and is overwritten by the next query: copy it to keep it.
        """
        _bfs(self._nb, self._degree, start, self._dist, self._queue)
        return self._dist

    def distance(self, start, target, via=None):
        """Fewest moves from ``start`` to ``target`` (first visiting ``via``), or None."""
        if via is None:
            d = self.distances(start)[target]
            return None if d == UNREACHABLE else d
        first = self.distances(start)[via]
        if first == UNREACHABLE:
            return None
        second = self.distances(via)[target]
        return None if second == UNREACHABLE else first + second

    def path(self, start, target, via=None):
        """One optimal route as a list of cells, ``start`` first; None if unreachable.

        Deterministic: among equally short routes it prefers lower cell indices.
        """
        if via is not None:
            head = self.path(start, via)
            tail = self.path(via, target) if head is not None else None
            return None if tail is None else head + tail[1:]
        dist = self.distances(target)  # symmetric moves: distances to target
        if dist[start] == UNREACHABLE:
            return None
        route = [start]
        cell = start
        while cell != target:
            want = dist[cell] - 1
            base = cell * _MAX_DEGREE
            for k in range(self._degree[cell]):
                n = self._nb[base + k]
                if dist[n] == want:
                    cell = n
                    break
            route.append(cell)
        return route

    # -- exact-length walks -------------------------------------------------
    def walk_exists(self, start, target, n, via=None):
        """Is there a route of exactly ``n`` moves from ``start`` to ``target``?

        Cells may be revisited. With ``via`` the robot must stand on ``via`` (the
        start counts) before or when it ends on ``target``.

        Any walk can be lengthened by 2 by stepping back and forth, so a walk of
        length n exists iff the shortest walk of n's parity is at most n (a walk of
        length 0 lengthens only if the start has a move). One BFS over
        (cell, waypoint seen, parity) answers every n in constant time.
        """
        if n < 0:
            return False
        v = -1 if via is None else via
        _walk_bfs(self._nb, self._degree, start, v, self._walk, self._queue)
        best = self._walk[target + 36 + 72 * (n & 1)]
        if best == UNREACHABLE or best > n:
            return False
        return best > 0 or n == 0 or self._degree[start] > 0

    # -- demonstrations -----------------------------------------------------
    def check(self, start, target, moves, claimed, via=None):
        """Judge a demonstration: ``moves`` are the cells after ``start``.

        Returns the solver's Verdict (reused; see Verdict). The first failing rule
        wins, in this order: an illegal move (which one), a count that differs from
        ``claimed``, not ending on ``target``, never standing on ``via`` first.
        """
        verdict = self.verdict
        verdict.move = 0
        cell = start
        seen = via is None or start == via
        k = 0
        for nxt in moves:
            k += 1
            if not self.is_move(cell, nxt):
                verdict.code = ILLEGAL_MOVE
                verdict.move = k
                return verdict
            cell = nxt
            if cell == via:
                seen = True
        if k != claimed:
            verdict.code = WRONG_COUNT
        elif cell != target:
            verdict.code = TARGET_MISSED
        elif not seen:
            verdict.code = WAYPOINT_MISSED
        else:
            verdict.code = CORRECT
        return verdict
