"""The compiled search in C (csearch.c), built with the machine's C compiler at first use.

kernel.py's search, the same moves in the same order with the same pruning and the same
table, written in C and loaded with ctypes: a fresh command needs neither numpy (some
0.05 s) nor numba (0.4 s) to search, and a solve is one call (every bound inside it)
with one structure as its argument instead of 33 arrays a bound. The board's bounds and
slack tables (solver.Tables.bound and .descents) are built in C as well (``bounds``,
``descents``), the same numbers, so that a fresh board costs no table built in Python.

The library is built by ``cc -O3 -shared`` (some 0.5-1 s, once) into
``tools/ricochet/__pycache__/`` (never committed), named by a CRC-32 of csearch.c, so an
edit rebuilds it; it is written through a temporary file and a rename, so two processes
building at once never load half a file. No compiler, or a build that fails: ``load()``
is None and the solver runs numba's search or its own Python one instead.
``RICOCHET_CSEARCH=off`` ignores it.
"""

import _thread
import ctypes
import os
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
CACHE = os.path.join(HERE, "__pycache__")
SOURCE = os.path.join(HERE, "csearch.c")
UNREACHABLE = 999
LANDS_NOT = 256
MAX_PLIES = 64
CELLS = 256

_i32p = ctypes.POINTER(ctypes.c_int32)
_u8p = ctypes.POINTER(ctypes.c_uint8)


class Ctx(ctypes.Structure):
    """csearch.c's Ctx, field for field."""
    _fields_ = [(name, ctypes.c_int32) for name in (
        "n", "single", "goal", "first_bound", "max_bound", "h_root", "hs", "hm", "table_bits")] + [
        (name, ctypes.c_int32 * 8) for name in ("P", "F", "is_clear", "elig", "role", "fs")] + [
        ("budget", ctypes.c_int64),
        ("heur", _i32p * 8),
        ("walls", _i32p), ("closer", _u8p), ("reach", _u8p), ("reach2", _u8p), ("after", _i32p),
        ("hseg", _i32p), ("vseg", _i32p), ("raymin", _i32p), ("wall_dist", _i32p),
        ("nodes", ctypes.c_int64), ("found_bound", ctypes.c_int32),
        ("found_len", ctypes.c_int32),
        ("depth_nodes", ctypes.c_int64 * MAX_PLIES),
        ("path", (ctypes.c_int32 * 3) * MAX_PLIES),
    ]


# The compiler's options, in the cached build's name too (a change of them builds anew).
CFLAGS = ("-O3", "-shared", "-fPIC")


def path():
    with open(SOURCE, "rb") as f:
        crc = zlib.crc32(" ".join(CFLAGS).encode(), zlib.crc32(f.read()))
    machine = os.uname().machine if hasattr(os, "uname") else "unknown"
    return os.path.join(CACHE, "_csearch_%08x_%s.so" % (crc, machine))


_LIB = []  # the loaded library (or None: it cannot be), once per process
_LOCK = _thread.allocate_lock()  # one solve at a time: the library's state is the process's


def build(target):
    """Compile csearch.c to ``target``; RuntimeError in one line when it cannot."""
    import shutil
    import subprocess
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not compiler:
        raise RuntimeError("no C compiler (cc or gcc) to build the compiled search")
    os.makedirs(CACHE, exist_ok=True)
    tmp = "%s.%d.tmp" % (target, os.getpid())
    proc = subprocess.run([compiler, *CFLAGS, "-o", tmp, SOURCE],
                          capture_output=True, text=True)
    if proc.returncode:
        if os.path.exists(tmp):
            os.unlink(tmp)
        lines = (proc.stderr or proc.stdout).strip().splitlines()
        raise RuntimeError("cannot build csearch.c: %s" % (lines[-1] if lines else "exit %d"
                                                             % proc.returncode))
    os.replace(tmp, target)
    for old in os.listdir(CACHE):  # earlier builds, of an older csearch.c
        full = os.path.join(CACHE, old)
        if old.startswith("_csearch_") and old.endswith(".so") and full != target:
            try:
                os.unlink(full)
            except OSError:
                pass
    return target


def load():
    """The library, built first if need be; None when it cannot be (no compiler, or off)."""
    if _LIB:
        return _LIB[0]
    lib = None
    if os.environ.get("RICOCHET_CSEARCH") != "off":
        where = path()
        try:
            if not os.path.exists(where):
                build(where)
            # CDLL: a search lets the process's other threads run (the GIL is released);
            # the library's stacks and table are one per process, so solves take _LOCK
            lib = ctypes.CDLL(where)
            lib.rr_solve.argtypes = [ctypes.POINTER(Ctx)]
            lib.rr_solve.restype = ctypes.c_int
            lib.rr_ray_min.argtypes = [_i32p, _i32p, _i32p, _i32p]
            lib.rr_ray_min.restype = None
            lib.rr_table_info.argtypes = [_i32p, _i32p]
            lib.rr_table_info.restype = None
            lib.rr_table_expire.argtypes = []
            lib.rr_table_expire.restype = None
            lib.rr_bounds.argtypes = [_i32p, ctypes.c_int, ctypes.c_int, ctypes.c_int, _i32p]
            lib.rr_bounds.restype = None
            lib.rr_descents.argtypes = [_i32p, _i32p, _i32p, _u8p, _u8p]
            lib.rr_descents.restype = None
            lib.rr_wall_dist.argtypes = [_i32p, ctypes.c_int, _i32p, _i32p, _i32p, _i32p]
            lib.rr_wall_dist.restype = None
            lib.rr_reach2.argtypes = [_i32p, _i32p, _i32p, _u8p, _u8p]
            lib.rr_reach2.restype = None
        except (OSError, RuntimeError) as e:
            if os.environ.get("RICOCHET_CSEARCH_VERBOSE"):
                print("csearch: %s" % e, file=sys.stderr)
            lib = None
    _LIB.append(lib)
    return lib


def available():
    return load() is not None


def table_info():
    """(bits of the table's bucket count, -1 before the first solve; the last solve's
    generation)."""
    bits, gen = ctypes.c_int32(), ctypes.c_int32()
    load().rr_table_info(ctypes.byref(bits), ctypes.byref(gen))
    return bits.value, gen.value


def _i32(values):
    return (ctypes.c_int32 * len(values))(*values)


def board_walls(walls):
    """The board's walls (rules.Board.walls) as the C tables read them."""
    return _i32(walls)


def bounds(walls, goal, clear, ricochet):
    """solver.Tables.bound built in C: [state * 256 + cell], as one array; ``walls`` from
    ``board_walls``."""
    out = (ctypes.c_int32 * (4 * CELLS))()
    load().rr_bounds(walls, goal, 1 if clear else 0, 1 if ricochet else 0, out)
    return out


_AFTER = []


def descents(walls, heur, after):
    """solver.Tables.descents built in C, for a single target robot whose bounds are
    ``heur`` (``bounds`` with clear False): (closer, reach), as Prepared takes them."""
    if not _AFTER:
        _AFTER.append(_i32([v for row in after for v in row]))
    closer = (ctypes.c_uint8 * (4 * CELLS))()
    reach = (ctypes.c_uint8 * (4 * CELLS * 32))()
    with _LOCK:  # its work arrays are the library's, one per process
        load().rr_descents(walls, heur, _AFTER[0], closer, reach)
    return closer, reach


def _kept(cache, key, owner, build_it):
    entry = cache.get(key)
    if entry is None or entry[0] is not owner:
        entry = (owner, build_it())
        cache[key] = entry
    return entry[1]


def _segments(walls):
    hseg = [0] * (CELLS + 32)
    vseg = [0] * (CELLS + 32)
    for c in range(CELLS):
        x, y = c % 16, c // 16
        hseg[c] = hseg[c - 1] if x and not walls[c] & 8 else c
        vseg[c] = vseg[c - 16] if y and not walls[c] & 1 else c
    return _i32(hseg), _i32(vseg)


NO_BOUND = None  # one row of UNREACHABLE for robots without a bound, made at first use


class Prepared:
    """A solve's structure with everything but where the robots stand: built once per
    board, target, rule and set of robots (kept with the board), so that a warm solve only
    writes the robots' cells and makes one call. ``heur``: per robot its ``bounds`` or
    None; ``descents``: the target robot's (closer, reach) from ``descents`` when it is
    the only one that can complete the target."""

    def __init__(self, walls, goal, order, is_clear, elig, heur, single, descents, after,
                 lands_not, cache):
        global NO_BOUND
        lib = load()
        n = len(order)
        self.n = n
        self.heur = heur
        self.eligible = [i for i in range(n) if elig[i]]
        c = self.ctx = Ctx()
        c.n = n
        c.single = 1 if single else 0
        c.goal = goal
        group_of = [0 if (e and single) else 1 if cl else 2 for e, cl in zip(elig, is_clear)]
        fixed = [i for r in (0, 1) for i in range(n) if group_of[i] == r]
        for j, i in enumerate(fixed):
            c.fs[i] = 10 * j
        c.hs = 10 * len(fixed)
        c.hm = n - len(fixed)
        if NO_BOUND is None:
            NO_BOUND = _i32([UNREACHABLE] * (4 * CELLS))
        keep = []  # what the structure points to, alive as long as it is
        for i in range(n):
            c.is_clear[i] = 1 if is_clear[i] else 0
            c.elig[i] = 1 if elig[i] else 0
            c.role[i] = group_of[i]
            arr = NO_BOUND if heur[i] is None else heur[i]
            keep.append(arr)
            c.heur[i] = ctypes.cast(arr, _i32p)
        wall_arr = _kept(cache, ("c walls", lands_not is not None), None, lambda: _i32(
            [w | (LANDS_NOT if lands_not is not None and lands_not[x] else 0)
             for x, w in enumerate(walls)]))
        after_arr = _kept(cache, ("c after",), None,
                          lambda: _i32([v for row in after for v in row]))
        hseg, vseg = _kept(cache, ("c segments",), None, lambda: _segments(walls))
        c.walls = ctypes.cast(wall_arr, _i32p)
        c.after = ctypes.cast(after_arr, _i32p)
        c.hseg = ctypes.cast(hseg, _i32p)
        c.vseg = ctypes.cast(vseg, _i32p)
        if single:
            closer_arr, reach_arr = descents

            def ray_min():
                out = (ctypes.c_int32 * (4 * CELLS * 4))()
                lib.rr_ray_min(c.heur[0], c.walls, c.after, out)
                return out
            raymin = _kept(cache, ("c raymin", id(heur[0]), lands_not is not None), heur[0],
                           ray_min)

            def wall_dist():
                out = (ctypes.c_int32 * (11 * CELLS))()
                lib.rr_wall_dist(c.walls, goal, c.after, c.hseg, c.vseg, out)
                return out
            wall_dist_arr = _kept(cache, ("c wall dist", goal), None, wall_dist)

            def reach2():
                out = (ctypes.c_uint8 * (4 * CELLS * 32))()
                lib.rr_reach2(c.walls, c.heur[0], c.after, reach_arr, out)
                return out
            reach2_arr = _kept(cache, ("c reach2", id(heur[0])), heur[0], reach2)
        else:
            closer_arr = reach_arr = reach2_arr = _kept(
                cache, ("c none",), None, lambda: (ctypes.c_uint8 * (4 * CELLS * 32))())
            raymin = _kept(cache, ("c no raymin",), None,
                           lambda: _i32([UNREACHABLE] * (4 * CELLS * 4)))
            wall_dist_arr = raymin  # (not read: only a single target robot's search reads it)
        c.closer = ctypes.cast(closer_arr, _u8p)
        c.reach = ctypes.cast(reach_arr, _u8p)
        c.reach2 = ctypes.cast(reach2_arr, _u8p)
        c.raymin = ctypes.cast(raymin, _i32p)
        c.wall_dist = ctypes.cast(wall_dist_arr, _i32p)
        keep += [wall_arr, after_arr, hseg, vseg, closer_arr, reach_arr, reach2_arr, raymin,
                 wall_dist_arr]
        self.keep = keep
        self.byref = ctypes.byref(c)
        self.path = ctypes.cast(ctypes.byref(c, Ctx.path.offset), _i32p)  # (robot, d, k) each
        self.call = lib.rr_solve

    def lower_bound(self, P, F):
        heur = self.heur
        return min(heur[i][F[i] * CELLS + P[i]] for i in self.eligible)

    def run(self, P, F, first_bound, max_bound, h_root, budget, table_bits):
        """(status, nodes, found bound, moves, nodes per bound searched in full). status 1
        found, 0 none up to ``max_bound``, -1 ``budget`` spent."""
        c = self.ctx
        with _LOCK:  # (the structure is the deal's: another thread may solve it too)
            cp, cf = c.P, c.F
            for i in range(self.n):
                cp[i] = P[i]
                cf[i] = F[i]
            c.first_bound = first_bound
            c.max_bound = max_bound
            c.h_root = h_root
            c.budget = budget
            c.table_bits = table_bits
            status = self.call(self.byref)
            steps = self.path[:3 * c.found_len]  # (a pointer's slice: ctypes' fast read)
            moves = [tuple(steps[j:j + 3]) for j in range(0, len(steps), 3)]
            nodes, found = c.nodes, c.found_bound
            dn = c.depth_nodes  # read below as far as needed (a list of all 64: some 20 us)
            per_bound = []
            for b in range(first_bound, max_bound + 1 if status >= -1 else first_bound):
                if status == 1 and b >= found or not dn[b]:
                    break
                per_bound.append((b, dn[b]))
        if status == -2:
            raise MemoryError("the compiled search's table (%d MB)" % ((64 << table_bits) >> 20))
        if status == -3:
            raise ValueError("max_moves %d: the C search goes to %d" % (max_bound, MAX_PLIES - 2))
        # (per_bound: the bounds searched in full, each counted its root at least; an
        # aborted one 0)
        return status, nodes, found, moves, per_bound
