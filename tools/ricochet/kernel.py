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

Most of a position's cost is waiting for the table: its buckets are spread over 32 MB, and
each probe that misses the caches waits for memory. So a position lists its moves first
(as the reference does) and asks the processor to fetch every child's bucket at once
(``_prefetch``); by the time the search probes them, one by one, most are in the cache.

numba is an optional dependency (requirements/ricochet.txt installs it): ``AVAILABLE`` says whether
it imported. The first call compiles the search (a few seconds) and caches the machine
code in ``__pycache__``; later runs load it. When ``python -m tools.ricochet.aot`` has built
this search ahead of time from this very file (aot.py), ``AOT`` is that module and numba
is not loaded at all.
"""

from tools.ricochet import aot

# This search built ahead of time (aot.py), when it is up to date: numpy alone, no numba.
AOT = aot.load()
try:
    import numpy as np
    if AOT is None:
        from llvmlite import ir
        from numba import njit, types
        from numba.core import cgutils
        from numba.extending import intrinsic
    AVAILABLE = True
except ImportError:  # pragma: no cover - the pure-Python search runs instead
    AVAILABLE = False

TABLE_BITS = 19  # buckets: 2**19 of 64 bytes, 32 MB, 3.7 million positions
# a bit of the search's wall array (walls use bits 0-7): a cell the transparent robot may
# not end a move on, a coloured target's under the rulebook's reading
LANDS_NOT = 256
# counter[GENERATION]: which solve the table's entries belong to (see _seen)
GENERATION = 2
UNREACHABLE = 999
MAX_CHILDREN = 96  # moves of one position: 5 robots x 4 slides, the clear one 4 x 16 stops

# columns of the search stack, per ply: moves left, bound, children listed, next child to
# try; the robot moved down to the next ply, and the cell and state it came from
REM, H, NC, CJ, FROMI, FROMP, FROMF = range(7)
# columns of a child: robot, direction, walls passed, cell, state, bound, bucket
CI, CD, CK, CQ, CG, CH, CB = range(7)

if AOT is not None:
    _dfs, _ray_min = AOT.dfs, AOT.ray_min
elif AVAILABLE:
    STEP = np.array([-16, 1, 16, -1], dtype=np.int64)

    @intrinsic
    def _prefetch(typingctx, array, index):
        """Asks the processor to bring array[index]'s cache line closer (LLVM's
        llvm.prefetch: a hint, no effect on what the program computes)."""
        sig = types.void(array, index)

        def codegen(context, builder, signature, args):
            arrty = signature.args[0]
            arr = context.make_array(arrty)(context, builder, args[0])
            ptr = cgutils.get_item_pointer(context, builder, arrty, arr, [args[1]])
            i8p, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
            fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
            fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
            # read, high locality, data cache
            builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
            return context.get_dummy_value()
        return sig, codegen

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
    def _bucket(key, mask):
        """Where ``key``'s bucket starts: the product's high bits folded in, so that they
        depend on all the key's bits."""
        h = key * np.uint64(0x9E3779B97F4A7C15)
        h ^= h >> np.uint64(37)
        return np.int64((h & mask) << np.uint64(3))

    @njit(cache=True)
    def _seen(table, base, key, nrem, gen):
        """The transposition table: True when ``key`` was searched with at least ``nrem``
        moves left; else records it with ``nrem`` and returns False. A bucket is one
        64-byte cache line: seven keys, then a word of their moves left plus one, a byte
        each (0: free), and in its top byte the generation (the solve) that wrote them: a
        bucket of an older solve counts as empty, so the table is kept from solve to solve
        and never cleared. Keys fill a bucket from the front; in a full one the key with
        the fewest moves left makes room."""
        rw = table[base + 7]
        if (rw >> np.uint64(56)) != np.uint64(gen):
            rw = np.uint64(gen) << np.uint64(56)
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
    def _moved_key(key, r, fs, hs, hm, old, new):
        """``key`` (see _key) after a robot of role ``r`` went from value ``old`` (cell * 4
        + state) to ``new``: the target or transparent robot's field at bit ``fs``
        rewritten, or the interchangeable robots' ``hm`` sorted fields from bit ``hs`` on
        merged anew."""
        ten = np.uint64(0x3FF)
        if r < 2:
            s = np.uint64(fs)
            return (key & ~(ten << s)) | (np.uint64(new) << s)
        out = key & ((np.uint64(1) << np.uint64(hs)) - np.uint64(1))
        shift = np.uint64(hs)
        placed = False
        skipped = False
        for j in range(hm):
            v = np.int64((key >> np.uint64(hs + 10 * j)) & ten)
            if not skipped and v == old:
                skipped = True
                continue
            if not placed and new < v:
                out |= np.uint64(new) << shift
                shift += np.uint64(10)
                placed = True
            out |= np.uint64(v) << shift
            shift += np.uint64(10)
        if not placed:
            out |= np.uint64(new) << shift
        return out

    @njit(cache=True)
    def _child(ply, m, i, d, k, q, g, hq, P, F, role, fs, hs, hm, key0, table, mask, ch,
               ckey):
        """Lists a child: robot ``i`` moved to ``q`` (state ``g``) from the position whose
        key is ``key0``; fetches its bucket."""
        key = _moved_key(key0, role[i], fs[i], hs, hm, P[i] * 4 + F[i], q * 4 + g)
        base = _bucket(key, mask)
        _prefetch(table, base)
        ch[ply, m, CI] = i
        ch[ply, m, CD] = d
        ch[ply, m, CK] = k
        ch[ply, m, CQ] = q
        ch[ply, m, CG] = g
        ch[ply, m, CH] = hq
        ch[ply, m, CB] = base
        ckey[ply, m] = key

    @njit(cache=True)
    def _order_children(ch, ckey, ply, m):
        """The children in the order they are searched: the lowest bound first, of equal
        bounds in the order listed (a stable insertion sort, as solver.py's)."""
        for a in range(1, m):
            if ch[ply, a - 1, CH] <= ch[ply, a, CH]:
                continue
            c0, c1, c2, c3 = ch[ply, a, 0], ch[ply, a, 1], ch[ply, a, 2], ch[ply, a, 3]
            c4, c5, c6 = ch[ply, a, 4], ch[ply, a, 5], ch[ply, a, 6]
            key = ckey[ply, a]
            b = a
            while b > 0 and ch[ply, b - 1, CH] > c5:
                for col in range(7):
                    ch[ply, b, col] = ch[ply, b - 1, col]
                ckey[ply, b] = ckey[ply, b - 1]
                b -= 1
            ch[ply, b, 0], ch[ply, b, 1], ch[ply, b, 2], ch[ply, b, 3] = c0, c1, c2, c3
            ch[ply, b, 4], ch[ply, b, 5], ch[ply, b, 6] = c4, c5, c6
            ckey[ply, b] = key

    @njit(cache=True)
    def _ray_min(heur0, walls, after, raymin):
        """raymin[f, c, d]: the least bound (state after[f, d]) over the cells a slide from
        c in direction d crosses (UNREACHABLE when it crosses none)."""
        for f in range(4):
            for c in range(256):
                for d in range(4):
                    g = after[f, d]
                    best = UNREACHABLE
                    x = c
                    while not walls[x] & (1 << d):
                        x += STEP[d]
                        if heur0[g, x] < best:
                            best = heur0[g, x]
                    raymin[f, c, d] = best

    @njit(cache=True)
    def _relaxed(p, f, most, marks, goal, walls, heur0, raymin, after, occ, hmark, vmark,
                 hseg, vseg, stk):
        """solver.py's relaxed_path: whether the target robot, from p in state f, could
        complete the target in at most ``most`` slides if robots never got in its way and
        only walls and blockers stopped it. Blockers: the robots on ``occ`` (``marks``
        False), or any cell of a row or column stretch marked in ``hmark``/``vmark``.
        Depth first over an explicit stack ``stk``: per slide, the cell and state it
        starts from, the slides left, the direction being tried and how far along it."""
        sp = 0
        stk[0, 0] = p
        stk[0, 1] = f
        stk[0, 2] = most
        stk[0, 3] = -1
        stk[0, 4] = p
        while sp >= 0:
            c0 = stk[sp, 0]
            f0 = stk[sp, 1]
            m = stk[sp, 2]
            d = stk[sp, 3]
            x = stk[sp, 4]
            if d < 0 or walls[x] & (1 << d):  # on to the next direction worth a look
                d += 1
                while d < 4 and raymin[f0, c0, d] > m - 1:
                    d += 1
                if d == 4:
                    sp -= 1
                    continue
                stk[sp, 3] = d
                x = c0
            step = STEP[d]
            bit = 1 << d
            g = after[f0, d]
            push = False
            while not walls[x] & bit:  # along the slide to the next stop that could do
                x += step
                if heur0[g, x] > m - 1:
                    continue
                if not walls[x] & bit:  # no wall: a blocker on the next cell, or no stop
                    b = x + step
                    if marks:
                        if not (hmark[hseg[b]] or vmark[vseg[b]]):
                            continue
                    elif not occ[b]:
                        continue
                if x == goal and g == 3:
                    return True
                if m > 1:
                    push = True
                    break
            stk[sp, 4] = x
            if push:
                sp += 1
                stk[sp, 0] = x
                stk[sp, 1] = g
                stk[sp, 2] = m - 1
                stk[sp, 3] = -1
                stk[sp, 4] = x
        return False

    @njit(cache=True)
    def _blockers_allow(i, q, g, nrem, hq, P, F, n, occ, goal, walls, heur, raymin, after,
                        hmark, vmark, hseg, vseg, stk):
        """solver.py's blockers_allow, for robot i moving to q (state g) while its moves
        are listed (lifted off ``occ``)."""
        if i == 0:
            start = q
            state = g
        else:
            start = P[0]
            state = F[0]
            occ[q] = 1
            occ[start] = 0
        heur0 = heur[0]
        ok = False
        if nrem != hq:
            for j in range(1, n):
                c = q if j == i else P[j]
                hmark[hseg[c]] = 1
                vmark[vseg[c]] = 1
            ok = _relaxed(start, state, nrem - 1, True, goal, walls, heur0, raymin, after, occ,
                          hmark, vmark, hseg, vseg, stk)
            for j in range(1, n):
                c = q if j == i else P[j]
                hmark[hseg[c]] = 0
                vmark[vseg[c]] = 0
        if not ok:
            ok = _relaxed(start, state, nrem, False, goal, walls, heur0, raymin, after, occ,
                          hmark, vmark, hseg, vseg, stk)
        if i != 0:
            occ[q] = 0
            occ[start] = 1
        return ok

    @njit(cache=True)
    def _on(x, s, e, d):
        """Whether cell x lies on a slide from s to e in direction d, or right after it."""
        if x == e + STEP[d]:
            return True
        if x < min(s, e) or x > max(s, e):
            return False
        if d & 1:
            return (x >> 4) == (s >> 4)
        return (x & 15) == (s & 15)

    @njit(cache=True)
    def _commutes(p, q, d, a1, a2, da):
        """solver.py's commutes: a slide from p to q (direction d) and the move just made
        (from a1 to a2, direction da) leave each other alone."""
        return not (_on(a1, p, q, d) or _on(a2, p, q, d) or _on(p, a1, a2, da)
                    or _on(q, a1, a2, da))

    @njit(cache=True)
    def _slack1_alive(rem, h, last, a1, a2, da, P, F, n, occ, goal, walls, heur, raymin,
                      after, reach, hmark, vmark, hseg, vseg, stk):
        """solver.py's slack1_alive: whether the position with one move of slack (rem =
        h + 1), reached by robot ``last``'s move from a1 to a2 (direction da), lists a move
        that completes the target or a child the blocker bound allows (the table not
        asked)."""
        nrem = rem - 1
        f0 = F[0]
        p0 = P[0]
        for i in range(n):
            p = P[i]
            f = F[i]
            occ[p] = 0
            for d in range(4):
                step = STEP[d]
                bit = 1 << d
                q = p
                while not walls[q] & bit and not occ[q + step]:
                    q += step
                if q == p:
                    continue
                if i:
                    g = f
                    if not (reach[f0, p0, p] or reach[f0, p0, q]):
                        continue
                    hq = h
                else:
                    g = after[f, d]
                    if q == goal and g == 3:
                        occ[p] = 1
                        return True
                    hq = heur[0, g, q]
                    if hq > nrem:
                        continue
                if i < last and _commutes(p, q, d, a1, a2, da):
                    continue
                if _blockers_allow(i, q, g, nrem, hq, P, F, n, occ, goal, walls, heur, raymin,
                                   after, hmark, vmark, hseg, vseg, stk):
                    occ[p] = 1
                    return True
            occ[p] = 1
        return False

    @njit(cache=True)
    def _dfs(bound, h_root, P, F, n, is_clear, elig, role, single, heur, walls, occ, goal,
             closer, reach, after, table, path, counter, budget, st, ch, ckey, hmark, vmark,
             hseg, vseg, raymin, stk, fs, hs, hm, keys):
        """solver.py's recursive dfs, with the recursion turned into a loop over an explicit
        stack (numba's calls with many array arguments cost more than the work): ``st``
        holds per ply the node's values and how far its children are tried, ``ch`` and
        ``ckey`` the children listed when the node was entered."""
        vals = np.empty(6, dtype=np.int64)
        keys[0] = _key(P, F, role, n, vals)
        slack1 = single  # (slack1_alive: a single target robot, no transparent robot)
        for i in range(n):
            if is_clear[i]:
                slack1 = False
        mask = np.uint64((table.shape[0] >> 3) - 1)  # a power of two: no division
        ply = 0
        st[0, REM] = bound
        st[0, H] = h_root
        enter = True
        while True:
            if enter:  # a new position: count it, list its moves
                enter = False
                counter[0] += 1
                if counter[0] > budget:
                    return -1
                rem = st[ply, REM]
                h = st[ply, H]
                tight = single and h == rem  # no slack: the target robot's descents only
                touch = single and h == rem - 1  # a helper must touch the descent's cells
                f0 = F[0]
                p0 = P[0]
                last = -1  # the move to here: its robot, from a1 to a2 in direction da
                a1 = a2 = da = 0
                if ply:
                    last = st[ply - 1, FROMI]
                    a1 = st[ply - 1, FROMP]
                    a2 = P[last]
                    da = path[ply - 1, 1]
                m = 0
                for i in range(1 if tight else n):
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
                        most = rem - 1 - other_h  # a helper move needs slack
                        if most < 0:
                            continue
                    p = P[i]
                    f = F[i]
                    occ[p] = 0  # lifted off the grid while its moves are listed
                    for d in range(4):
                        step = STEP[d]
                        bit = 1 << d
                        if not is_clear[i]:
                            if tight and not closer[f, p, d]:
                                continue
                            q = p
                            while not walls[q] & bit and not occ[q + step]:
                                q += step
                            if q == p:
                                continue
                            nrem = rem - 1
                            if elig[i]:
                                g = after[f, d]
                                if q == goal and g == 3:
                                    occ[p] = 1
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
                            if i < last and _commutes(p, q, d, a1, a2, da):
                                continue
                            _child(ply, m, i, d, 0, q, g, hq, P, F, role, fs, hs, hm,
                                   keys[ply], table, mask, ch, ckey)
                            m += 1
                            continue
                        # the transparent robot: a stop after each wall it may pass
                        g = after[f, d] if elig[i] else f
                        here = p
                        k = 0
                        while k <= most:
                            if k:  # through the wall: not into a robot right behind it
                                if occ[here + step]:
                                    break
                                here += step
                            while not walls[here] & bit and not occ[here + step]:
                                here += step
                            stopped = not walls[here] & bit  # a robot stops it
                            if here != p and not walls[here] & LANDS_NOT:
                                nrem = rem - 1 - k
                                if here == goal and elig[i] and g == 3:
                                    occ[p] = 1
                                    path[ply, 0] = i
                                    path[ply, 1] = d
                                    path[ply, 2] = k
                                    counter[1] = ply + 1
                                    return 1
                                hq = other_h
                                if elig[i] and heur[i, g, here] < hq:
                                    hq = heur[i, g, here]
                                if hq <= nrem and not (
                                        i and touch and not (reach[f0, p0, p]
                                                             or reach[f0, p0, here])) and not (
                                        i < last and _commutes(p, here, d, a1, a2, da)):
                                    _child(ply, m, i, d, k, here, g, hq, P, F, role, fs, hs,
                                           hm, keys[ply], table, mask, ch, ckey)
                                    m += 1
                            if stopped or walls[here] & (bit << 4):
                                break
                            k += 1
                    occ[p] = 1
                _order_children(ch, ckey, ply, m)
                st[ply, NC] = m
                st[ply, CJ] = 0
            j = st[ply, CJ]
            if j < st[ply, NC]:  # the next child: the table, then down into it
                st[ply, CJ] = j + 1
                k = ch[ply, j, CK]
                nrem = st[ply, REM] - 1 - k
                if _seen(table, ch[ply, j, CB], ckey[ply, j], nrem, counter[GENERATION]):
                    continue
                i = ch[ply, j, CI]
                q = ch[ply, j, CQ]
                hq = ch[ply, j, CH]
                if single and nrem - hq < 2:  # (recorded: a search would find nothing)
                    occ[P[i]] = 0
                    ok = _blockers_allow(i, q, ch[ply, j, CG], nrem, hq, P, F, n, occ, goal,
                                         walls, heur, raymin, after, hmark, vmark, hseg, vseg,
                                         stk)
                    occ[P[i]] = 1
                    if not ok:
                        continue
                st[ply, FROMI] = i
                st[ply, FROMP] = P[i]
                st[ply, FROMF] = F[i]
                occ[P[i]] = 0
                occ[q] = 1
                P[i] = q
                F[i] = ch[ply, j, CG]
                if slack1 and nrem - hq == 1 and not _slack1_alive(
                        nrem, hq, i, st[ply, FROMP], q, ch[ply, j, CD], P, F, n, occ, goal,
                        walls, heur, raymin, after, reach, hmark, vmark, hseg, vseg, stk):
                    occ[q] = 0  # (recorded: a search of it would find nothing)
                    P[i] = st[ply, FROMP]
                    F[i] = st[ply, FROMF]
                    occ[P[i]] = 1
                    continue
                path[ply, 0] = i
                path[ply, 1] = ch[ply, j, CD]
                path[ply, 2] = k
                st[ply + 1, REM] = nrem
                st[ply + 1, H] = hq
                keys[ply + 1] = ckey[ply, j]
                ply += 1
                enter = True
                continue
            # this node is done: back to its parent, undoing the parent's move
            if ply == 0:
                return 0
            ply -= 1
            i = st[ply, FROMI]
            occ[P[i]] = 0
            P[i] = st[ply, FROMP]
            F[i] = st[ply, FROMF]
            occ[P[i]] = 1


# The transposition table, kept for the next solve in this process: (bits, array, the
# generation of the last solve). A new solve takes the next generation instead of clearing
# it (see _seen); np.zeros maps fresh pages, which the system zeroes as they are touched, so
# a short search pays only for the buckets it writes.
_TABLE = [0, None, 0]


def _table(bits):
    """The table with 2**bits buckets and the generation (1-255) this solve writes."""
    if _TABLE[0] != bits or _TABLE[2] >= 255:
        _TABLE[1] = None  # let the old one go first: the peak holds one table, not two
        _TABLE[:] = [bits, np.zeros(8 << bits, dtype=np.uint64), 0]
    _TABLE[2] += 1
    return _TABLE[1], _TABLE[2]


def _kept(cache, key, owner, build):
    """``cache[key]``, built by ``build()`` the first time. ``owner``: the object the key
    names by id (a bound's list, kept by the board's tables), kept with the entry so that
    its id cannot be reused while the entry lives."""
    entry = cache.get(key)
    if entry is None or entry[0] is not owner:
        entry = (owner, build())
        cache[key] = entry
    return entry[1]


def _walls(walls, lands_not):
    out = np.frombuffer(bytes(walls), dtype=np.uint8).astype(np.int64)
    if lands_not is not None:  # cells the transparent robot may not end a move on
        out |= np.frombuffer(bytes(lands_not), dtype=np.uint8).astype(np.int64) * LANDS_NOT
    return out


def _segments(walls):
    hseg = np.zeros(256 + 32, dtype=np.int64)
    vseg = np.zeros(256 + 32, dtype=np.int64)
    for c in range(256):
        x, y = c % 16, c // 16
        hseg[c] = hseg[c - 1] if x and not walls[c] & 8 else c
        vseg[c] = vseg[c - 16] if y and not walls[c] & 1 else c
    return hseg, vseg, np.zeros(256, dtype=np.uint8), np.zeros(256, dtype=np.uint8)


def _raymin(heur0, walls, after):
    out = np.full((4, 256, 4), UNREACHABLE, dtype=np.int64)
    _ray_min(heur0, walls, after, out)
    return out


class Kernel:
    """The compiled search for one solve: arrays built from the reference's tables."""

    def __init__(self, walls, goal, order, P, F, is_clear, elig, heur, single, closer, reach,
                 after, max_moves=30, table_bits=None, lands_not=None, cache=None):
        """``cache``: a dict kept with the board (the solver's tables), where the arrays
        that depend only on the board, the target and the bounds are kept for the next
        solve on it, so that a short search starts at once."""
        cache = {} if cache is None else cache
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
                self.heur[i] = _kept(cache, ("heur", id(heur[i])), heur[i],
                                     lambda h=heur[i]: np.array(h, dtype=np.int64))
        self.walls = _kept(cache, ("walls", lands_not is not None), None,
                           lambda: _walls(walls, lands_not))
        self.occ = np.zeros(256 + 32, dtype=np.uint8)  # margin: a wall never lets a slide off
        for p in P:
            self.occ[p] = 1
        self.goal = goal
        if closer is None:  # unused without a single target robot: one zero array for all
            closer, reach = _kept(cache, ("no descents",), None, lambda: (
                np.zeros((4, 256, 4), dtype=np.bool_), np.zeros((4, 256, 256), dtype=np.bool_)))
        self.closer = closer
        self.reach = reach
        self.after = _kept(cache, ("after",), None, lambda: np.array(after, dtype=np.int64))
        self.table, generation = _table(table_bits or TABLE_BITS)
        plies = max_moves + 2  # a move costs at least one: no deeper than the bound
        self.path = np.zeros((plies, 3), dtype=np.int64)  # read after the search: its own
        # the search's stacks, used only inside one call (which holds the GIL): every entry
        # is written before it is read, so a later solve on this board reuses them as they are
        self.st, self.ch, self.ckey, self.stk, self.keys = _kept(
            cache, ("stacks", plies), None, lambda: (
                np.zeros((plies, 7), dtype=np.int64),
                np.zeros((plies, MAX_CHILDREN, 7), dtype=np.int64),
                np.zeros((plies, MAX_CHILDREN), dtype=np.uint64),
                np.zeros((plies + 1, 5), dtype=np.int64), np.zeros(plies + 1, dtype=np.uint64)))
        # positions searched, moves found, the table's generation for this solve
        self.counter = np.array([0, 0, generation], dtype=np.int64)
        # each cell's stretch of its row and of its column between walls, numbered; the
        # marks on them (every search leaves them all 0 again)
        self.hseg, self.vseg, self.hmark, self.vmark = _kept(
            cache, ("segments",), None, lambda: _segments(walls))
        if self.single:
            self.raymin = _kept(cache, ("raymin", id(heur[0])), heur[0],
                                lambda: _raymin(self.heur[0], self.walls, self.after))
        else:
            self.raymin = _kept(cache, ("no raymin",), None, lambda: np.full(
                (4, 256, 4), UNREACHABLE, dtype=np.int64))
        # where each robot's field starts in a position's key (see _key): the target
        # robot's, then the transparent one's, then the hm interchangeable ones' from hs
        fixed = [i for r in (0, 1) for i in range(n) if group_of[i] == r]
        self.fs = np.zeros(n, dtype=np.int64)
        for j, i in enumerate(fixed):
            self.fs[i] = 10 * j
        self.hs = 10 * len(fixed)
        self.hm = n - len(fixed)

    def search(self, bound, h, budget):
        """1 found (see ``moves``), 0 none within ``bound``, -1 ``budget`` positions searched."""
        return _dfs(bound, h, self.P, self.F, self.n, self.is_clear, self.elig, self.role,
                    self.single, self.heur, self.walls, self.occ, self.goal, self.closer,
                    self.reach, self.after, self.table, self.path, self.counter,
                    budget, self.st, self.ch, self.ckey, self.hmark, self.vmark, self.hseg,
                    self.vseg, self.raymin, self.stk, self.fs, self.hs, self.hm, self.keys)

    @property
    def nodes(self):
        return int(self.counter[0])

    def moves(self):
        """The moves found, first to last, as (robot index in the search order, d, passes)."""
        return [tuple(int(v) for v in self.path[j]) for j in range(int(self.counter[1]))]
