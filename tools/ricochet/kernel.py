"""The solver's search compiled with numba: the same IDA* as ``solver.py``, move for move.

``solver.py`` is the reference: this module takes the tables it builds (bounds, the slack
tables) and runs the same depth-first search over the same moves in the same order, with
the same pruning, in machine code. Two things differ, neither in what is found:

- slides walk cell by cell over a 256-byte occupancy grid instead of masking bitboards;
- the transposition table is a fixed array of 2**TABLE_BITS buckets (32 MB) instead of a
  dict that grows without end. A position's key is one 64-bit word: the target robot's
  and the transparent robot's cell and ricochet state, then the interchangeable robots'
  (cell, state) values sorted, 10 bits each (at most 60 bits). A bucket is one cache line
  of seven keys and the moves that were left when each was searched; a new position goes
  into its bucket's first free slot, or replaces the key with the fewest moves left. Until
  a bucket is full the table holds what the dict holds, so both search the same positions
  (a test compares the node counts); after that the kernel may search a position twice,
  never skip one it must search.

numba is an optional dependency (requirements.txt installs it): ``AVAILABLE`` says whether
it imported. The first call compiles the search (a few seconds) and caches the machine
code in ``__pycache__``; later runs load it.
"""

try:
    import numpy as np
    from numba import njit
    AVAILABLE = True
except ImportError:  # pragma: no cover - the pure-Python search runs instead
    AVAILABLE = False

TABLE_BITS = 19  # buckets: 2**19 of 64 bytes, 32 MB, 3.7 million positions
UNREACHABLE = 999

# columns of the search stack: the node's moves left, bound, robots to try (1 with no
# slack), one move of slack?, target robot's state and cell; then where its move loop
# stands: robot, direction, candidate, candidates, its other robots' bound, its most passes;
# and the cell and state the move down to its child started from
REM, H, TOP, TOUCH, F0, P0, I, D, C, M, OH, MOST, FROMP, FROMF = range(14)

if AVAILABLE:
    STEP = np.array([-16, 1, 16, -1], dtype=np.int64)

    @njit(cache=True)
    def _key(P, F, role, n, vals):
        """One word for the position: see the module doc. Which robots are there is fixed
        for a search, so packing their values one after the other, 10 bits each (six
        robots: 60 bits), is one-to-one."""
        key = np.uint64(0)
        shift = np.uint64(0)
        for r in range(2):  # the target robot, then the transparent one
            for i in range(n):
                if role[i] == r:
                    key |= np.uint64(P[i] * 4 + F[i]) << shift
                    shift += np.uint64(10)
        m = 0
        for i in range(n):
            if role[i] == 2:  # insertion sort of the interchangeable robots' values
                v = P[i] * 4 + F[i]
                j = m
                while j > 0 and vals[j - 1] > v:
                    vals[j] = vals[j - 1]
                    j -= 1
                vals[j] = v
                m += 1
        for j in range(m):
            key |= np.uint64(vals[j]) << shift
            shift += np.uint64(10)
        return key

    @njit(cache=True)
    def _seen(table, key, nrem):
        """The transposition table: True when ``key`` was searched with at least ``nrem``
        moves left; else records it with ``nrem`` and returns False. A bucket is one
        64-byte cache line: seven keys, then a word of their moves left plus one, a byte
        each (0: free). Keys fill a bucket from the front; in a full one the key with the
        fewest moves left makes room."""
        mask = np.uint64((table.shape[0] >> 3) - 1)  # a power of two: no division
        h = key * np.uint64(0x9E3779B97F4A7C15)
        h ^= h >> np.uint64(37)  # the product's high bits depend on all the key's bits
        base = np.int64((h & mask) << np.uint64(3))
        rw = table[base + 7]
        victim = -1
        low = 256
        for j in range(7):
            r = np.int64((rw >> np.uint64(8 * j)) & np.uint64(0xFF))
            if r == 0:
                victim = j
                break
            if table[base + j] == key:
                if r - 1 >= nrem:
                    return True
                victim = j
                break
            if r < low:
                low = r
                victim = j
        shift = np.uint64(8 * victim)
        table[base + victim] = key
        table[base + 7] = (rw & ~(np.uint64(0xFF) << shift)) | (np.uint64(nrem + 1) << shift)
        return False

    @njit(cache=True)
    def _dfs(bound, h_root, P, F, n, is_clear, elig, role, single, heur, walls, occ, goal,
             closer, reach, after, table, path, counter, budget, st, cand):
        """solver.py's recursive dfs, with the recursion turned into a loop over an explicit
        stack (numba's calls with many array arguments cost more than the work): ``st``
        holds per ply the node's values and where its move loop stands; ``cand`` the
        transparent robot's stops (cell, passes) for the direction being tried."""
        vals = np.empty(6, dtype=np.int64)
        ply = 0
        st[0, REM] = bound
        st[0, H] = h_root
        enter = True
        while True:
            if enter:
                enter = False
                counter[0] += 1
                if counter[0] > budget:
                    return -1
                rem = st[ply, REM]
                h = st[ply, H]
                st[ply, TOP] = 1 if (single and h == rem) else n
                st[ply, TOUCH] = 1 if (single and h == rem - 1) else 0
                st[ply, F0] = F[0]
                st[ply, P0] = P[0]
                st[ply, I] = 0
                st[ply, D] = -1
            rem = st[ply, REM]
            h = st[ply, H]
            tight = single and h == rem
            touch = st[ply, TOUCH] == 1
            f0 = st[ply, F0]
            p0 = st[ply, P0]
            child = False
            while not child:
                i = st[ply, I]
                if i >= st[ply, TOP]:
                    break
                if st[ply, D] < 0:  # a new robot: its slack, then lift it off the grid
                    if single:
                        other_h = UNREACHABLE if i == 0 else h
                    else:
                        other_h = UNREACHABLE
                        for j in range(n):
                            if j != i and elig[j]:
                                v = heur[j, F[j], P[j]]
                                if v < other_h:
                                    other_h = v
                    if elig[i]:
                        most = rem - 1
                    else:
                        most = rem - 1 - other_h
                        if most < 0:
                            st[ply, I] = i + 1
                            continue
                    st[ply, OH] = other_h
                    st[ply, MOST] = most
                    occ[P[i]] = 0
                    st[ply, D] = 0
                    st[ply, C] = 0
                    st[ply, M] = -1
                d = st[ply, D]
                if d >= 4:
                    occ[P[i]] = 1
                    st[ply, I] = i + 1
                    st[ply, D] = -1
                    continue
                p = P[i]
                f = F[i]
                other_h = st[ply, OH]
                step = STEP[d]
                bit = 1 << d
                if not is_clear[i]:
                    st[ply, D] = d + 1
                    if tight and not closer[f, p, d]:
                        continue
                    q = p
                    while not walls[q] & bit and not occ[q + step]:
                        q += step
                    if q == p:
                        continue
                    nrem = rem - 1
                    k = 0
                    if elig[i]:
                        g = after[f, d]
                        if q == goal and g == 3:
                            path[ply, 0] = i
                            path[ply, 1] = d
                            path[ply, 2] = 0
                            counter[1] = ply + 1
                            return 1
                        if i and touch and not (reach[f0, p0, p] or reach[f0, p0, q]):
                            continue
                        hq = heur[i, g, q]
                        if hq > other_h:
                            hq = other_h
                        if hq > nrem:
                            continue
                    else:
                        g = f
                        if i and touch and not (reach[f0, p0, p] or reach[f0, p0, q]):
                            continue
                        if other_h > nrem:
                            continue
                        hq = other_h
                else:
                    if st[ply, M] < 0:  # the candidates in this direction, as solver.py
                        most = st[ply, MOST]
                        m = 0
                        here = p
                        k = 0
                        while k <= most:
                            if k:  # through the wall: not into a robot right behind it
                                if occ[here + step]:
                                    break
                                here += step
                            while not walls[here] & bit and not occ[here + step]:
                                here += step
                            if not walls[here] & bit:  # a robot stops it
                                if here != p:
                                    cand[ply, m, 0] = here
                                    cand[ply, m, 1] = k
                                    m += 1
                                break
                            if here != p:
                                cand[ply, m, 0] = here
                                cand[ply, m, 1] = k
                                m += 1
                            if walls[here] & (bit << 4):
                                break
                            k += 1
                        st[ply, M] = m
                        st[ply, C] = 0
                    c = st[ply, C]
                    if c >= st[ply, M]:
                        st[ply, D] = d + 1
                        st[ply, M] = -1
                        continue
                    st[ply, C] = c + 1
                    q = cand[ply, c, 0]
                    k = cand[ply, c, 1]
                    g = after[f, d] if elig[i] else f
                    nrem = rem - 1 - k
                    if q == goal and elig[i] and g == 3:
                        path[ply, 0] = i
                        path[ply, 1] = d
                        path[ply, 2] = k
                        counter[1] = ply + 1
                        return 1
                    hq = other_h
                    if elig[i] and heur[i, g, q] < hq:
                        hq = heur[i, g, q]
                    if hq > nrem:
                        continue
                # the transposition table, then down into the child
                P[i] = q
                F[i] = g
                if _seen(table, _key(P, F, role, n, vals), nrem):
                    P[i] = p
                    F[i] = f
                    continue
                occ[q] = 1
                path[ply, 0] = i
                path[ply, 1] = d
                path[ply, 2] = k
                st[ply, FROMP] = p
                st[ply, FROMF] = f
                st[ply + 1, REM] = nrem
                st[ply + 1, H] = hq
                child = True
            if child:
                ply += 1
                enter = True
                continue
            # this node is done: back to its parent, undoing the parent's move
            if ply == 0:
                return 0
            ply -= 1
            i = path[ply, 0]
            occ[P[i]] = 0
            P[i] = st[ply, FROMP]
            F[i] = st[ply, FROMF]


class Kernel:
    """The compiled search for one solve: arrays built from the reference's tables."""

    def __init__(self, walls, goal, order, P, F, is_clear, elig, heur, single, closer, reach,
                 after, table_bits=None):
        n = len(order)
        self.n = n
        self.P = np.array(P, dtype=np.int64)
        self.F = np.array(F, dtype=np.int64)
        self.is_clear = np.array(is_clear, dtype=np.bool_)
        self.elig = np.array(elig, dtype=np.bool_)
        group_of = [0 if (e and single) else 1 if c else 2 for e, c in zip(elig, is_clear)]
        self.role = np.array(group_of, dtype=np.int64)
        self.single = bool(single)
        self.heur = np.full((n, 4, 256), UNREACHABLE, dtype=np.int64)
        for i in range(n):
            if heur[i] is not None:
                self.heur[i] = np.array(heur[i], dtype=np.int64)
        self.walls = np.frombuffer(bytes(walls), dtype=np.uint8).astype(np.int64)
        self.occ = np.zeros(256 + 32, dtype=np.uint8)  # margin: a wall never lets a slide off
        for p in P:
            self.occ[p] = 1
        self.goal = goal
        self.closer = closer if closer is not None else np.zeros((4, 256, 4), dtype=np.bool_)
        self.reach = reach if reach is not None else np.zeros((4, 256, 256), dtype=np.bool_)
        self.after = np.array(after, dtype=np.int64)
        table_bits = table_bits or TABLE_BITS
        self.table = np.zeros(8 << table_bits, dtype=np.uint64)  # 2**bits buckets
        self.path = np.zeros((64, 3), dtype=np.int64)
        self.st = np.zeros((65, 14), dtype=np.int64)
        self.cand = np.zeros((64, 16, 2), dtype=np.int64)
        self.counter = np.zeros(2, dtype=np.int64)  # positions searched, moves found

    def search(self, bound, h, budget):
        """1 found (see ``moves``), 0 none within ``bound``, -1 ``budget`` positions searched."""
        return _dfs(bound, h, self.P, self.F, self.n, self.is_clear, self.elig, self.role,
                    self.single, self.heur, self.walls, self.occ, self.goal, self.closer,
                    self.reach, self.after, self.table, self.path, self.counter,
                    budget, self.st, self.cand)

    @property
    def nodes(self):
        return int(self.counter[0])

    def moves(self):
        """The moves found, first to last, as (robot index in the search order, d, passes)."""
        return [tuple(int(v) for v in self.path[j]) for j in range(int(self.counter[1]))]
