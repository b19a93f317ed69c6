/* The solver's compiled search in C: kernel.py's _dfs, line for line, built with the
 * machine's C compiler at first use (ckernel.py) and called through ctypes, so that a fresh
 * command needs neither numpy nor numba. One call runs a whole solve: every bound from
 * first_bound to max_bound (iterative deepening), the table's generation taken once.
 * kernel.py documents the search, the position keys and the table; the names here are
 * its names. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define UNREACHABLE 999
#define LANDS_NOT 256
#define MAX_CHILDREN 96
#define MAX_PLIES 64
#define CELLS 256

/* columns of the search stack and of a child, as in kernel.py */
enum { REM, H, NC, CJ, FROMI, FROMP, FROMF };
enum { CI, CD, CK, CQ, CG, CH, CB };

typedef struct {
    /* in: the deal */
    int32_t n, single, goal, first_bound, max_bound, h_root, hs, hm, table_bits;
    int32_t P[8], F[8], is_clear[8], elig[8], role[8], fs[8];
    int64_t budget;
    const int32_t *heur[8];      /* per robot: [4][256] bounds (all UNREACHABLE if none) */
    const int32_t *walls;        /* [256]: wall bits 0-7, LANDS_NOT */
    const uint8_t *closer;       /* [4][256]: bit d set: a slide one move closer */
    const uint8_t *reach;        /* [4][256][32]: bitboards, little-endian bytes */
    const uint8_t *reach2;       /* the same with one move of slack (rr_reach2) */
    const int32_t *after;        /* [4][4] */
    const int32_t *hseg, *vseg;  /* [256 + 32] */
    const int32_t *raymin;       /* [4][256][4] */
    const int32_t *wall_dist;    /* rr_wall_dist: [4][256], [256][4], [256] x 3 */
    /* out */
    int64_t nodes;
    int32_t found_bound, found_len;
    int64_t depth_nodes[MAX_PLIES];
    int32_t path[MAX_PLIES][3];
} Ctx;

static const int STEP[4] = {-16, 1, 16, -1};

/* The transposition table, kept between solves (generations, as kernel.py's). It starts
 * small and grows, its entries moved over, whenever it is more than a quarter full, up to
 * 2**table_bits buckets: a fresh process pays a page fault per page the search writes, so a
 * short deal must not spread its few thousand positions over 32 MB (4 KB pages: some
 * thousands of faults, tens of ms). Big tables ask for 2 MB pages (madvise). Growing
 * holds the old table and the new one at once: from 2**11 buckets in steps of four, the
 * last step to 32 MB comes from 8 MB (40 MB, not 48, at the peak). While it grows
 * before it is full nothing is replaced, so it holds what the reference's dict holds. */
#define START_BITS 11
static uint64_t *table;
static void *table_map;
static size_t table_map_size;
static int bits_now, bits_max;
static int generation;
static int64_t entries;

static uint64_t *map_table(int bits) {
    size_t size = (size_t)64 << bits, huge = (size_t)2 << 20;
    size_t want = size >= 4 * huge ? size + huge : size;
    void *m = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    uint8_t *at = m;
    if (want != size) {
        at = (uint8_t *)(((uintptr_t)m + huge - 1) & ~(uintptr_t)(huge - 1));
#ifdef MADV_HUGEPAGE
        madvise(at, size, MADV_HUGEPAGE);
#endif
    }
    if (table_map)
        munmap(table_map, table_map_size);
    table_map = m;
    table_map_size = want;
    return (uint64_t *)at;
}

/* the search's stacks: one solve at a time per process (ckernel.py holds a lock) */
static int64_t st[MAX_PLIES][7];
static int32_t ch[MAX_PLIES][MAX_CHILDREN][8];  /* CI..CB, 32 bytes a child */
static uint64_t ckey[MAX_PLIES][MAX_CHILDREN];
static int32_t stk[MAX_PLIES + 1][5];
static uint64_t keys[MAX_PLIES + 1];
static uint8_t occbuf[32 + CELLS + 32];
/* M1's marked segments, by hseg's and vseg's numbers: those stamped with mark_now (a new
 * stamp a search, so nothing is cleared after one) */
static uint32_t hmark[CELLS + 32], vmark[CELLS + 32], mark_now;

static inline void new_marks(void) {
    if (++mark_now == 0) {  /* (the stamps ran out: all cleared once) */
        memset(hmark, 0, sizeof hmark);
        memset(vmark, 0, sizeof vmark);
        mark_now = 1;
    }
}
/* A slide in O(1) instead of cell by cell: per direction and cell the cell where walls
 * alone would stop it (this solve's board), and the robots per row and per column as
 * 16-bit masks (bit x of row y, bit y of column x), kept beside occ. */
static uint8_t wall_stop[4][CELLS];
static unsigned row_bits[16], col_bits[16];

static void find_wall_stops(const int32_t *walls) {
    for (int d = 0; d < 4; d++) {
        int step = STEP[d], bit = 1 << d, down = d == 1 || d == 2;
        for (int j = 0; j < CELLS; j++) {
            int p = down ? CELLS - 1 - j : j;  /* the cell after p comes first */
            wall_stop[d][p] = (uint8_t)(walls[p] & bit ? p : wall_stop[d][p + step]);
        }
    }
}

static inline void put_robot(int p, int on) {
    unsigned r = 1u << (p & 15), k = 1u << (p >> 4);
    if (on) {
        row_bits[p >> 4] |= r;
        col_bits[p & 15] |= k;
    } else {
        row_bits[p >> 4] &= ~r;
        col_bits[p & 15] &= ~k;
    }
}

/* where a slide from p in direction d stops: at a wall or before the first robot */
static inline int slide(int p, int d) {
    int x = p & 15, y = p >> 4, stop = wall_stop[d][p];
    unsigned b;
    switch (d) {
    case 0:  /* N: the nearest robot above, in the column */
        b = col_bits[x] & ((1u << y) - 1);
        if (b) {
            int at = (32 - __builtin_clz(b)) * 16 + x;  /* the cell below that robot */
            return at > stop ? at : stop;
        }
        return stop;
    case 1:  /* E */
        b = row_bits[y] & ~((2u << x) - 1);
        if (b) {
            int at = y * 16 + __builtin_ctz(b) - 1;
            return at < stop ? at : stop;
        }
        return stop;
    case 2:  /* S */
        b = col_bits[x] & ~((2u << y) - 1);
        if (b) {
            int at = (__builtin_ctz(b) - 1) * 16 + x;
            return at < stop ? at : stop;
        }
        return stop;
    default:  /* W */
        b = row_bits[y] & ((1u << x) - 1);
        if (b) {
            int at = y * 16 + 32 - __builtin_clz(b);
            return at > stop ? at : stop;
        }
        return stop;
    }
}

#define HEUR(c, i, f, p) ((c)->heur[i][(f) * CELLS + (p)])
#define AFTER(c, f, d) ((c)->after[(f) * 4 + (d)])
/* cell x's bit in a 32-byte board of bits (a row of the reach table) */
#define HAS_CELL(bits, x) (((bits)[(x) >> 3] >> ((x) & 7)) & 1)
#define REACH(c, f, p, x) HAS_CELL((c)->reach + ((f) * CELLS + (p)) * 32, x)

static uint64_t key_of(const Ctx *c) {
    uint64_t key = 0;
    unsigned shift = 0;
    int vals[8], m = 0;
    for (int r = 0; r < 2; r++)
        for (int i = 0; i < c->n; i++)
            if (c->role[i] == r) {
                key |= (uint64_t)(c->P[i] * 4 + c->F[i]) << shift;
                shift += 10;
            }
    for (int i = 0; i < c->n; i++)
        if (c->role[i] == 2) {
            int v = c->P[i] * 4 + c->F[i], j = m;
            while (j > 0 && vals[j - 1] > v) {
                vals[j] = vals[j - 1];
                j--;
            }
            vals[j] = v;
            m++;
        }
    for (int j = 0; j < m; j++) {
        key |= (uint64_t)vals[j] << shift;
        shift += 10;
    }
    return key;
}

static inline int64_t bucket(uint64_t key, uint64_t mask) {
    uint64_t h = key * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 37;
    return (int64_t)((h & mask) << 3);
}

/* A full bucket: while the table may still grow, 2 (the caller grows it and asks again);
 * once it is as big as it may be (or while grow() moves its entries over), the key goes
 * to the next bucket with room, up to PROBES buckets on, and only when all of those are
 * full does it replace the home bucket's key with the least remaining depth. Entries are
 * never taken out within a generation, so a key that went on is looked for past full
 * buckets only. Without the probes a 14-move deal in a command's 16 MB table replaced
 * some 500 keys and searched positions the reference's dict did not (405,062 against
 * 405,057, seed 838). */
#define PROBES 8
static int moving;  /* while grow() moves entries over: they go on, never dropped */

static inline int seen(int64_t base, uint64_t key, int64_t nrem, int gen) {
    int64_t home = base, words = ((int64_t)1 << bits_now) << 3;
    for (int probe = 0;; probe++) {
        uint64_t rw = table[base + 7];
        if ((rw >> 56) != (uint64_t)gen)
            rw = (uint64_t)gen << 56;
        int victim = -1;
        for (int j = 0; j < 7; j++) {
            int r = (int)((rw >> (8 * j)) & 0xFF);
            if (r == 0) {
                entries++;
                victim = j;
                break;
            }
            if (table[base + j] == key) {
                if (r - 1 >= nrem)
                    return 1;
                victim = j;
                break;
            }
        }
        if (victim < 0) {  /* full */
            if (probe == 0 && !moving && bits_now < bits_max)
                return 2;  /* not recorded: the caller grows the table and asks again */
            if (probe + 1 < PROBES) {
                base = (base + 8) & (words - 1);
                continue;
            }
            base = home;  /* every probe full: the home bucket's least remaining depth goes */
            rw = table[base + 7];
            int low = 256;
            for (int j = 0; j < 7; j++) {
                int r = (int)((rw >> (8 * j)) & 0xFF);
                if (r < low) {
                    low = r;
                    victim = j;
                }
            }
        }
        unsigned shift = 8 * victim;
        table[base + victim] = key;
        table[base + 7] = (rw & ~((uint64_t)0xFF << shift)) | ((uint64_t)(nrem + 1) << shift);
        return 0;
    }
}

/* the table 4 times as big (at most bits_max), this solve's entries moved over; 0 when
 * there is no memory for it (the search goes on in the one it has) */
static int grow(void) {
    int bits = bits_now + 2 > bits_max ? bits_max : bits_now + 2;
    uint64_t *old = table;
    void *old_map = table_map;
    size_t old_size = table_map_size, buckets = (size_t)1 << bits_now;
    table_map = NULL;
    uint64_t *fresh = map_table(bits);
    if (fresh == NULL) {
        table_map = old_map;
        return 0;
    }
    table = fresh;
    bits_now = bits;
    entries = 0;
    uint64_t mask = ((uint64_t)1 << bits) - 1;
    moving = 1;
    for (size_t b = 0; b < buckets; b++) {
        uint64_t rw = old[b * 8 + 7];
        if ((rw >> 56) != (uint64_t)generation)
            continue;
        for (int j = 0; j < 7; j++) {
            int r = (int)((rw >> (8 * j)) & 0xFF);
            if (r)
                seen(bucket(old[b * 8 + j], mask), old[b * 8 + j], r - 1, generation);
        }
    }
    moving = 0;
    munmap(old_map, old_size);
    return 1;
}

static inline uint64_t moved_key(uint64_t key, int r, int fs, int hs, int hm, int old, int nw) {
    const uint64_t ten = 0x3FF;
    if (r < 2)
        return (key & ~(ten << fs)) | ((uint64_t)nw << fs);
    uint64_t out = key & (((uint64_t)1 << hs) - 1);
    unsigned shift = hs;
    int placed = 0, skipped = 0;
    for (int j = 0; j < hm; j++) {
        int v = (int)((key >> (hs + 10 * j)) & ten);
        if (!skipped && v == old) {
            skipped = 1;
            continue;
        }
        if (!placed && nw < v) {
            out |= (uint64_t)nw << shift;
            shift += 10;
            placed = 1;
        }
        out |= (uint64_t)v << shift;
        shift += 10;
    }
    if (!placed)
        out |= (uint64_t)nw << shift;
    return out;
}

static inline void child(const Ctx *c, int ply, int m, int i, int d, int k, int q, int g,
                         int hq, uint64_t mask) {
    uint64_t key = moved_key(keys[ply], c->role[i], c->fs[i], c->hs, c->hm,
                             c->P[i] * 4 + c->F[i], q * 4 + g);
    int64_t base = bucket(key, mask);
    __builtin_prefetch(&table[base], 0, 3);
    int32_t *e = ch[ply][m];
    e[CI] = i;
    e[CD] = d;
    e[CK] = k;
    e[CQ] = q;
    e[CG] = g;
    e[CH] = hq;
    e[CB] = base;
    ckey[ply][m] = key;
}

/* kernel.py's _ray_min: raymin[f][c][d] */
void rr_ray_min(const int32_t *heur0, const int32_t *walls, const int32_t *after,
                int32_t *raymin) {
    for (int f = 0; f < 4; f++)
        for (int c = 0; c < CELLS; c++)
            for (int d = 0; d < 4; d++) {
                int g = after[f * 4 + d], best = UNREACHABLE, x = c;
                while (!(walls[x] & (1 << d))) {
                    x += STEP[d];
                    if (heur0[g * CELLS + x] < best)
                        best = heur0[g * CELLS + x];
                }
                raymin[(f * CELLS + c) * 4 + d] = best;
            }
}

/* A route of relaxed's, its moves, and the cells right after those of its stops that only
 * a robot (occ) or a marked segment allows, at most one a move: a witness of M1 */
typedef struct {
    int moves, n, beside[MAX_PLIES];
} Witness;

static int route_end;  /* the last yes of relaxed: its route is stk[0..route_end] */

/* The cells a search of M1 found beside a stop that no marked segment allowed, in order,
 * the first REFUSED_MAX of them (refused_to: where they go; refused: how many) */
#define REFUSED_MAX 48
static int refused_scratch[REFUSED_MAX], *refused_to = refused_scratch;
static unsigned refused;

static int relaxed(const Ctx *c, int p, int f, int most, int marks, const uint8_t *occ) {
    const int32_t *walls = c->walls, *heur0 = c->heur[0], *raymin = c->raymin;
    int sp = 0;
    stk[0][0] = p;
    stk[0][1] = f;
    stk[0][2] = most;
    stk[0][3] = -1;
    stk[0][4] = p;
    while (sp >= 0) {
        int c0 = stk[sp][0], f0 = stk[sp][1], m = stk[sp][2], d = stk[sp][3], x = stk[sp][4];
        if (d < 0 || walls[x] & (1 << d)) {
            d++;
            while (d < 4 && raymin[(f0 * CELLS + c0) * 4 + d] > m - 1)
                d++;
            if (d == 4) {
                sp--;
                continue;
            }
            stk[sp][3] = d;
            x = c0;
        }
        int step = STEP[d], bit = 1 << d, g = AFTER(c, f0, d), push = 0;
        while (!(walls[x] & bit)) {
            x += step;
            if (heur0[g * CELLS + x] > m - 1)
                continue;
            if (!(walls[x] & bit)) {
                int b = x + step;
                if (marks) {
                    if (hmark[c->hseg[b]] != mark_now && vmark[c->vseg[b]] != mark_now) {
                        if (refused < REFUSED_MAX)
                            refused_to[refused] = b;
                        refused++;
                        continue;
                    }
                } else if (!occ[b]) {
                    continue;
                }
            }
            if (x == c->goal && g == 3) {
                route_end = sp;
                return 1;
            }
            if (m > 1) {
                push = 1;
                break;
            }
        }
        stk[sp][4] = x;
        if (push) {
            sp++;
            stk[sp][0] = x;
            stk[sp][1] = g;
            stk[sp][2] = m - 1;
            stk[sp][3] = -1;
            stk[sp][4] = x;
        }
    }
    return 0;
}

/* wall_dist[g][x]: the target robot's fewest relaxed moves from cell x in state g to
 * the target when walls alone stop it (robots neither stop it nor block it); then
 * [x][d]: the least of wall_dist over the states a slide in direction d leaves it in;
 * then per segment the least of those beside its cells, and per cell the least beside
 * it. Backwards from the target, breadth first. */
void rr_wall_dist(const int32_t *walls, int goal, const int32_t *after, const int32_t *hseg,
                  const int32_t *vseg, int32_t *out) {
    static int16_t queue[4 * CELLS];
    int32_t *dist = out, *least = out + 4 * CELLS;
    for (int j = 0; j < 4 * CELLS; j++)
        dist[j] = UNREACHABLE;
    int head = 0, tail = 0;
    dist[3 * CELLS + goal] = 0;
    queue[tail++] = (int16_t)(3 * CELLS + goal);
    while (head < tail) {
        int v = queue[head++], g = v / CELLS, x = v % CELLS, next = dist[v] + 1;
        for (int d = 0; d < 4; d++) {
            int step = STEP[d], bit = 1 << d;
            if (!(walls[x] & bit))
                continue;  /* walls alone stop a slide in d only at a wall */
            for (int f = 0; f < 4; f++) {
                if (after[f * 4 + d] != g)
                    continue;
                for (int a = x - step; a >= 0 && a < CELLS && !(walls[a] & bit); a -= step)
                    if (dist[f * CELLS + a] == UNREACHABLE) {
                        dist[f * CELLS + a] = next;
                        queue[tail++] = (int16_t)(f * CELLS + a);
                    }
            }
        }
    }
    for (int x = 0; x < CELLS; x++)
        for (int d = 0; d < 4; d++) {
            int best = UNREACHABLE;
            for (int f = 0; f < 4; f++) {
                int v = dist[after[f * 4 + d] * CELLS + x];
                if (v < best)
                    best = v;
            }
            least[x * 4 + d] = best;
        }
    /* beside[b]: the least over directions d of least[b - step][d], a stop beside b; per
     * segment (hseg's and vseg's numbers) the least of beside over its cells */
    int32_t *by_hseg = least + 4 * CELLS, *by_vseg = by_hseg + CELLS, *beside = by_vseg + CELLS;
    for (int x = 0; x < CELLS; x++)
        by_hseg[x] = by_vseg[x] = UNREACHABLE;
    for (int b = 0; b < CELLS; b++) {
        int v = UNREACHABLE;
        for (int d = 0; d < 4; d++) {
            int z = b - STEP[d];
            if (z >= 0 && z < CELLS && least[z * 4 + d] < v)
                v = least[z * 4 + d];
        }
        beside[b] = v;
        if (v < by_hseg[hseg[b]])
            by_hseg[hseg[b]] = v;
        if (v < by_vseg[vseg[b]])
            by_vseg[vseg[b]] = v;
    }
}

/* A lower bound of M0, the relaxed moves when walls and the helpers where they stand
 * stop the target robot: a route that stops beside no helper is one that walls alone
 * stop (wall_dist); one that does, after the last such stop (beside helper j, coming in
 * direction d) stops at walls only. M0 itself is a search; this bound, a few lookups,
 * rules most positions out before it (M0 almost never leaves room). */
static int helpers_bound(const Ctx *c, int i, int q, int start, int state) {
    const int32_t *beside = c->wall_dist + 10 * CELLS;
    int best = c->wall_dist[state * CELLS + start], last = UNREACHABLE;
    for (int j = 1; j < c->n; j++) {
        int x = j == i ? q : c->P[j];
        if (beside[x] < last)
            last = beside[x];
    }
    return last + 1 < best ? last + 1 : best;
}

/* the same for M1, the helpers anywhere along their rows and columns: a stop beside
 * any cell of a helper's segments */
static int segments_bound(const Ctx *c, int i, int q, int start, int state) {
    const int32_t *by_hseg = c->wall_dist + 8 * CELLS, *by_vseg = by_hseg + CELLS;
    int best = c->wall_dist[state * CELLS + start], last = UNREACHABLE;
    for (int j = 1; j < c->n; j++) {
        int x = j == i ? q : c->P[j];
        if (by_hseg[c->hseg[x]] < last)
            last = by_hseg[c->hseg[x]];
        if (by_vseg[c->vseg[x]] < last)
            last = by_vseg[c->vseg[x]];
    }
    return last + 1 < best ? last + 1 : best;
}

/* Whether a helper (helper i at q) stands on the target robot's reach bitboard from
 * start in state: a route of M0 within the moves left (the bound and no more: reach; one
 * more: reach2) that stops beside a helper does so only if one does (a route that walls
 * alone stop needs none). */
static inline int helpers_on(const Ctx *c, int i, int q, const uint8_t *reach, int start,
                             int state) {
    const uint8_t *bits = reach + (state * CELLS + start) * 32;
    for (int j = 1; j < c->n; j++)
        if (HAS_CELL(bits, j == i ? q : c->P[j]))
            return 1;
    return 0;
}

/* relaxed's last route as a witness */
static void witness_of(const Ctx *c, Witness *w) {
    w->moves = route_end + 1;
    w->n = 0;
    for (int k = 0; k <= route_end; k++) {
        int d = (int)stk[k][3], end = k < route_end ? stk[k + 1][0] : c->goal;
        if (!(c->walls[end] & (1 << d)))
            w->beside[w->n++] = end + STEP[d];
    }
}

/* Whether witness w's route is one of M1 with the helpers (helper i at q) where they
 * stand: each of its cells beside a stop in one of their segments. */
static int witness_holds(const Ctx *c, const Witness *w, int i, int q) {
    for (int k = 0; k < w->n; k++) {
        int b = w->beside[k], found = 0;
        for (int j = 1; j < c->n && !found; j++) {
            int x = j == i ? q : c->P[j];
            found = c->hseg[x] == c->hseg[b] || c->vseg[x] == c->vseg[b];
        }
        if (!found)
            return 0;
    }
    return 1;
}

/* A no of M1's search, per ply: from start in state within most moves, with the cells it
 * found beside a stop that no marked segment allowed (n of them, -1 for none kept). The
 * search depends on the marks only through those cells: another search from there within
 * as many moves with none of them marked visits the same stops or fewer, and finds no
 * route either. Siblings, helpers' moves from one position, ask it in turn. */
typedef struct {
    int start, state, most, n, beside[REFUSED_MAX];
} M1No;

static M1No m1_no[MAX_PLIES];

static int m1_no_holds(const Ctx *c, const M1No *no, int start, int state, int most) {
    if (no->n < 0 || no->start != start || no->state != state || no->most != most)
        return 0;
    for (int k = 0; k < no->n; k++) {
        int b = no->beside[k];
        if (hmark[c->hseg[b]] == mark_now || vmark[c->vseg[b]] == mark_now)
            return 0;
    }
    return 1;
}

/* M1's search with the segments marked (mark_now), asking and keeping the no of the ply
 * first (no, or NULL) */
static int m1_search(const Ctx *c, int start, int state, int most, const uint8_t *occ,
                     M1No *no) {
    if (!no)
        return relaxed(c, start, state, most, 1, occ);
    if (m1_no_holds(c, no, start, state, most))
        return 0;
    refused_to = no->beside;
    refused = 0;
    int ok = relaxed(c, start, state, most, 1, occ);
    refused_to = refused_scratch;
    no->start = start;
    no->state = state;
    no->most = most;
    no->n = !ok && refused <= REFUSED_MAX ? (int)refused : -1;
    return ok;
}

static Witness witness[MAX_PLIES];  /* per ply: its M1 route, when it found one (n >= 0) */

/* With nrem - hq < 2 (its callers'): the moves left are the bound or one more. w, for a
 * move of a helper: a route of M1 from the target robot where it stands (its parent's:
 * helpers_all_fail's), or NULL; when it holds for this child within its moves it is this
 * child's yes, and its search is not made. no: the ply's no of M1 (m1_search), or NULL. */
static int blockers_allow(const Ctx *c, int i, int q, int g, int nrem, int hq, uint8_t *occ,
                          const Witness *w, M1No *no) {
    int start, state;
    if (i == 0) {
        start = q;
        state = g;
    } else {
        start = c->P[0];
        state = c->F[0];
        occ[q] = 1;
        occ[start] = 0;
    }
    int ok = nrem != hq && w && w->moves <= nrem - 1 && witness_holds(c, w, i, q);
    if (!ok && nrem != hq && segments_bound(c, i, q, start, state) <= nrem - 1) {
        new_marks();
        for (int j = 1; j < c->n; j++) {
            int x = j == i ? q : c->P[j];
            hmark[c->hseg[x]] = mark_now;
            vmark[c->vseg[x]] = mark_now;
        }
        ok = m1_search(c, start, state, nrem - 1, occ, no);
    }
    if (!ok && helpers_bound(c, i, q, start, state) <= nrem
        && (c->wall_dist[state * CELLS + start] <= nrem
            || helpers_on(c, i, q, nrem == hq ? c->reach : c->reach2, start, state)))
        ok = relaxed(c, start, state, nrem, 0, occ);
    if (i != 0) {
        occ[q] = 0;
        occ[start] = 1;
    }
    return ok;
}

/* Whether every move of the helpers (but the transparent one's) from this position leads
 * to a position the blocker bound rules out, asked once for them all instead of once a
 * child: with one or two moves of slack each such child has the target robot where it
 * stands and slack one less, so blockers_allow asks of it M0 <= h + slack - 1 (and with two
 * of slack M1 <= h), with stops beside the helpers as that move leaves them. Stops beside
 * every helper's cell and every cell a helper's move ends on are more stops than any one
 * child has (a relaxed route can only get shorter with more), so a no here is a no for
 * every child: they are left off the list, as blockers_allow would have left them
 * unsearched. The positions searched are the same (a child left off is not recorded in
 * the table: a later visit with as many moves left or fewer fails the same bound again).
 * The 9-move deal of the bench: 3,683 of its 3,879 positions with two moves of slack. */
static uint8_t union_buf[32 + CELLS + 32];

static int helpers_all_fail(const Ctx *c, int slack, int h, Witness *w, M1No *no) {
    const int most = h + slack - 1, start = c->P[0], state = c->F[0];
    /* a route that walls alone stop is a yes of either search */
    if (c->wall_dist[state * CELLS + start] <= most)
        return 0;
    uint8_t *stops = union_buf + 32;
    int cells[8 * 5], nc = 0;
    for (int j = 1; j < c->n; j++) {
        int p = c->P[j];
        cells[nc++] = p;
        if (c->is_clear[j])
            continue;  /* its moves (passes) are listed and asked one by one */
        for (int d = 0; d < 4; d++) {
            int q = slide(p, d);
            if (q != p)
                cells[nc++] = q;
        }
    }
    /* M1's search at once (segments_bound's lookups over those cells almost never rule it
     * out); M0's only when helpers_bound's lookups leave room for it */
    int ok = 0;
    if (slack == 2) {
        new_marks();
        for (int k = 0; k < nc; k++) {
            hmark[c->hseg[cells[k]]] = mark_now;
            vmark[c->vseg[cells[k]]] = mark_now;
        }
        if (m1_search(c, start, state, h, stops, no)) {
            if (w)
                witness_of(c, w);
            return 0;
        }
    }
    /* With one move of slack (most = h) a route is a descent, every slide one move closer:
     * its stops, and a helper's cell right after a stop, are cells of the target robot's
     * reach bitboard; a helper's cell outside it stops no such route. With two (most =
     * h + 1) the same holds of reach2. */
    const int32_t *beside = c->wall_dist + 10 * CELLS;
    const uint8_t *reach0 = (slack == 1 ? c->reach : c->reach2) + (state * CELLS + start) * 32;
    int k = 0;
    while (k < nc && (beside[cells[k]] >= most || !HAS_CELL(reach0, cells[k])))
        k++;
    if (k < nc) {
        for (k = 0; k < nc; k++)
            stops[cells[k]] = 1;
        ok = relaxed(c, start, state, most, 0, stops);
        for (k = 0; k < nc; k++)
            stops[cells[k]] = 0;
    }
    return !ok;
}

static inline int on(int x, int s, int e, int d) {
    if (x == e + STEP[d])
        return 1;
    int lo = s < e ? s : e, hi = s < e ? e : s;
    if (x < lo || x > hi)
        return 0;
    if (d & 1)
        return (x >> 4) == (s >> 4);
    return (x & 15) == (s & 15);
}

/* (a2, where the last robot stands, is on the slide from p to q only right after its end:
 * a slide passes no robot) */
static inline int commutes(int p, int q, int d, int a1, int a2, int da) {
    return !(a2 == q + STEP[d] || on(a1, p, q, d) || on(p, a1, a2, da) || on(q, a1, a2, da));
}

/* Whether a position with one move of slack (rem = h + 1) lists a child that the blocker
 * bound allows, or a move that completes the target: the robots as they stand, the move to
 * it by robot last from a1 to a2 in direction da. With no such child a search of it finds
 * nothing: it is not entered (recorded in the table, like a position the blocker bound
 * rules out). The table is not asked: a child it holds may still make this say yes. Only
 * for a single target robot and no transparent robot in the deal. */
static int slack1_alive(Ctx *c, int rem, int h, int last, int a1, int a2, int da,
                        uint8_t *occ) {
    const int n = c->n, nrem = rem - 1, goal = c->goal;
    int *P = c->P, *F = c->F;
    const int p0 = P[0], f0 = F[0];
    const uint8_t *reach0 = c->reach + (f0 * CELLS + p0) * 32;
    for (int d = 0; d < 4; d++) {
        int q = slide(p0, d);
        if (q == p0)
            continue;
        int g = AFTER(c, f0, d);
        if (q == goal && g == 3)
            return 1;
        int hq = HEUR(c, 0, g, q);
        if (hq > nrem)
            continue;
        if (0 < last && commutes(p0, q, d, a1, a2, da))
            continue;
        occ[p0] = 0;
        int ok = blockers_allow(c, 0, q, g, nrem, hq, occ, NULL, NULL);
        occ[p0] = 1;
        if (ok)
            return 1;
    }
    if (n < 2 || helpers_all_fail(c, 1, h, NULL, NULL))
        return 0;
    for (int i = 1; i < n; i++) {
        int p = P[i];
        const int reach_p = HAS_CELL(reach0, p);
        for (int d = 0; d < 4; d++) {
            int q = slide(p, d);
            if (q == p)
                continue;
            if (!reach_p && !HAS_CELL(reach0, q))
                continue;
            if (i < last && commutes(p, q, d, a1, a2, da))
                continue;
            occ[p] = 0;
            int ok = blockers_allow(c, i, q, F[i], nrem, h, occ, NULL, NULL);
            occ[p] = 1;
            if (ok)
                return 1;
        }
    }
    return 0;
}

/* The children in the order they are searched: the lowest bound first (the closest to a
 * solution: the last bound's search ends as soon as one is found), of equal bounds in the
 * order listed (a stable insertion sort: solver.py sorts its list the same way). */
static inline void order_children(int ply, int m) {
    for (int a = 1; a < m; a++) {
        int32_t moved[8];
        uint64_t key = ckey[ply][a];
        int b = a;
        if (ch[ply][a - 1][CH] <= ch[ply][a][CH])
            continue;
        memcpy(moved, ch[ply][a], sizeof moved);
        while (b > 0 && ch[ply][b - 1][CH] > moved[CH]) {
            memcpy(ch[ply][b], ch[ply][b - 1], sizeof moved);
            ckey[ply][b] = ckey[ply][b - 1];
            b--;
        }
        memcpy(ch[ply][b], moved, sizeof moved);
        ckey[ply][b] = key;
    }
}

/* one bound: 1 found (path[0..found_len)), 0 none, -1 the budget spent */
static int dfs(Ctx *c, int bound, int h_root, int gen) {
    uint64_t mask = ((uint64_t)1 << bits_now) - 1;
    int32_t *P = c->P, *F = c->F;
    const int32_t *walls = c->walls;
    const int n = c->n, single = c->single, goal = c->goal;
    /* (slack1_alive: a single target robot, no transparent robot) */
    int slack1 = single;
    for (int i = 0; i < n; i++)
        if (c->is_clear[i])
            slack1 = 0;
    uint8_t *occ = occbuf + 32;
    keys[0] = key_of(c);
    int ply = 0;
    st[0][REM] = bound;
    st[0][H] = h_root;
    int enter = 1;
    for (;;) {
        if (enter) {
            enter = 0;
            c->nodes++;
            if (c->nodes > c->budget)
                return -1;
            int rem = (int)st[ply][REM], h = (int)st[ply][H];
            int tight = single && h == rem, touch = single && h == rem - 1;
            int f0 = F[0], p0 = P[0];
            /* the target robot's reach bitboard, looked up once a position */
            const uint8_t *reach0 = c->reach + (f0 * CELLS + p0) * 32;
            int last = -1, a1 = 0, a2 = 0, da = 0;
            if (ply) {
                last = (int)st[ply - 1][FROMI];
                a1 = (int)st[ply - 1][FROMP];
                a2 = P[last];
                da = c->path[ply - 1][1];
            }
            int m = 0;
            witness[ply].n = -1;
            const int helpers_fail = single && n > 1 && (rem - h == 1 || rem - h == 2)
                                     && helpers_all_fail(c, rem - h, h, &witness[ply],
                                                         &m1_no[ply]);
            for (int i = 0; i < (tight ? 1 : n); i++) {
                int other_h, most;
                if (helpers_fail && i && !c->is_clear[i])
                    continue;
                if (single) {
                    other_h = i == 0 ? UNREACHABLE : h;
                } else {
                    other_h = UNREACHABLE;
                    for (int j = 0; j < n; j++)
                        if (j != i && c->elig[j]) {
                            int v = HEUR(c, j, F[j], P[j]);
                            if (v < other_h)
                                other_h = v;
                        }
                }
                if (c->elig[i]) {
                    most = rem - 1;
                } else {
                    most = rem - 1 - other_h;
                    if (most < 0)
                        continue;
                }
                int p = P[i], f = F[i];
                if (!c->is_clear[i]) {
                    /* A robot's own slides never meet its own bit in row_bits/col_bits
                     * (slide() looks past p only), nor occ[p]: it is left in place. The
                     * four directions unrolled, each slide() with its direction known. */
                    const int eligible = c->elig[i], check_reach = i && touch;
                    const unsigned closer = tight ? c->closer[f * CELLS + p] : 0xF;
                    const int reach_p = check_reach && HAS_CELL(reach0, p);
                    const int nrem = rem - 1;
#pragma GCC unroll 4
                    for (int d = 0; d < 4; d++) {
                        if (!(closer & (1u << d)))
                            continue;
                        int q = slide(p, d);
                        if (q == p)
                            continue;
                        int g, hq;
                        if (eligible) {
                            g = AFTER(c, f, d);
                            if (q == goal && g == 3) {
                                c->path[ply][0] = i;
                                c->path[ply][1] = d;
                                c->path[ply][2] = 0;
                                c->found_len = ply + 1;
                                return 1;
                            }
                            if (check_reach && !reach_p && !HAS_CELL(reach0, q))
                                continue;
                            hq = HEUR(c, i, g, q);
                            if (hq > other_h)
                                hq = other_h;
                            if (hq > nrem)
                                continue;
                        } else {
                            g = f;
                            if (check_reach && !reach_p && !HAS_CELL(reach0, q))
                                continue;
                            if (other_h > nrem)
                                continue;
                            hq = other_h;
                        }
                        if (i < last && commutes(p, q, d, a1, a2, da))
                            continue;
                        child(c, ply, m, i, d, 0, q, g, hq, mask);
                        m++;
                    }
                    continue;
                }
                occ[p] = 0;
                put_robot(p, 0);
                for (int d = 0; d < 4; d++) {
                    int step = STEP[d], bit = 1 << d;
                    /* the transparent robot: a stop after each wall it may pass */
                    int g = c->elig[i] ? AFTER(c, f, d) : f;
                    int here = p;
                    for (int k = 0; k <= most; k++) {
                        if (k) {
                            if (occ[here + step])
                                break;
                            here += step;
                        }
                        while (!(walls[here] & bit) && !occ[here + step])
                            here += step;
                        int stopped = !(walls[here] & bit);
                        if (here != p && !(walls[here] & LANDS_NOT)) {
                            int nrem = rem - 1 - k;
                            if (here == goal && c->elig[i] && g == 3) {
                                occ[p] = 1;
                                put_robot(p, 1);
                                c->path[ply][0] = i;
                                c->path[ply][1] = d;
                                c->path[ply][2] = k;
                                c->found_len = ply + 1;
                                return 1;
                            }
                            int hq = other_h;
                            if (c->elig[i] && HEUR(c, i, g, here) < hq)
                                hq = HEUR(c, i, g, here);
                            if (hq <= nrem
                                && !(i && touch && !(REACH(c, f0, p0, p) || REACH(c, f0, p0, here)))
                                && !(i < last && commutes(p, here, d, a1, a2, da))) {
                                child(c, ply, m, i, d, k, here, g, hq, mask);
                                m++;
                            }
                        }
                        if (stopped || walls[here] & (bit << 4))
                            break;
                    }
                }
                occ[p] = 1;
                put_robot(p, 1);
            }
            order_children(ply, m);
            st[ply][NC] = m;
            st[ply][CJ] = 0;
        }
        int64_t j = st[ply][CJ];
        if (j < st[ply][NC]) {
            st[ply][CJ] = j + 1;
            int32_t *e = ch[ply][j];
            int k = (int)e[CK];
            int nrem = (int)st[ply][REM] - 1 - k;
            if (entries > ((int64_t)1 << bits_now) && bits_now < bits_max && grow())
                mask = ((uint64_t)1 << bits_now) - 1;  /* a position a bucket on average */
            /* the bucket anew: the one listed with the child is a hint (the table may
             * have grown since) */
            int was = seen(bucket(ckey[ply][j], mask), ckey[ply][j], nrem, gen);
            while (was == 2) {  /* its bucket is full: room first, nothing replaced */
                if (!grow())
                    bits_max = bits_now;  /* no memory: replace from now on */
                mask = ((uint64_t)1 << bits_now) - 1;
                was = seen(bucket(ckey[ply][j], mask), ckey[ply][j], nrem, gen);
            }
            if (was)
                continue;
            int i = (int)e[CI], q = (int)e[CQ], hq = (int)e[CH];
            if (single && nrem - hq < 2) {
                occ[P[i]] = 0;
                int ok = blockers_allow(c, i, q, (int)e[CG], nrem, hq, occ,
                                        i && witness[ply].n >= 0 ? &witness[ply] : NULL,
                                        i ? &m1_no[ply] : NULL);
                occ[P[i]] = 1;
                if (!ok)
                    continue;
            }
            st[ply][FROMI] = i;
            st[ply][FROMP] = P[i];
            st[ply][FROMF] = F[i];
            occ[P[i]] = 0;
            occ[q] = 1;
            put_robot(P[i], 0);
            put_robot(q, 1);
            P[i] = q;
            F[i] = (int)e[CG];
            if (slack1 && nrem - hq == 1
                && !slack1_alive(c, nrem, hq, i, (int)st[ply][FROMP], q, (int)e[CD], occ)) {
                occ[q] = 0;
                put_robot(q, 0);
                P[i] = (int)st[ply][FROMP];
                F[i] = (int)st[ply][FROMF];
                occ[P[i]] = 1;
                put_robot(P[i], 1);
                continue;
            }
            c->path[ply][0] = i;
            c->path[ply][1] = (int)e[CD];
            c->path[ply][2] = k;
            st[ply + 1][REM] = nrem;
            st[ply + 1][H] = hq;
            keys[ply + 1] = ckey[ply][j];
            ply++;
            enter = 1;
            continue;
        }
        if (ply == 0)
            return 0;
        ply--;
        int i = (int)st[ply][FROMI];
        occ[P[i]] = 0;
        put_robot(P[i], 0);
        P[i] = (int)st[ply][FROMP];
        F[i] = (int)st[ply][FROMF];
        occ[P[i]] = 1;
        put_robot(P[i], 1);
    }
}

/* A whole solve: 1 found (found_bound, path), 0 none up to max_bound, -1 budget spent,
 * -2 no memory for the table, -3 max_bound too deep for the stacks. */
int rr_solve(Ctx *c) {
    c->nodes = 0;
    c->found_bound = -1;
    c->found_len = 0;
    memset(c->depth_nodes, 0, sizeof c->depth_nodes);
    if (c->max_bound + 2 > MAX_PLIES)
        return -3;
    bits_max = c->table_bits;
    if (table == NULL || bits_now > bits_max || generation >= 255) {
        int bits = bits_max < START_BITS ? bits_max : START_BITS;
        if (table != NULL && generation >= 255 && bits_now <= bits_max)
            bits = bits_now;  /* the generations ran out: the same size, zeroed */
        uint64_t *fresh = map_table(bits);
        if (fresh == NULL)
            return -2;
        table = fresh;
        bits_now = bits;
        generation = 0;
    }
    generation++;
    entries = 0;
    uint8_t *occ = occbuf + 32;
    memset(occbuf, 0, sizeof occbuf);
    memset(row_bits, 0, sizeof row_bits);
    memset(col_bits, 0, sizeof col_bits);
    for (int i = 0; i < c->n; i++) {
        occ[c->P[i]] = 1;
        put_robot(c->P[i], 1);
    }
    find_wall_stops(c->walls);
    for (int k = 0; k < MAX_PLIES; k++)
        m1_no[k].n = -1;  /* (kept within a solve only: the board may be another) */
    for (int bound = c->first_bound; bound <= c->max_bound; bound++) {
        int64_t before = c->nodes;
        int r = dfs(c, bound, c->h_root, generation);
        if (r > 0) {
            c->found_bound = bound;
            return 1;
        }
        if (r < 0)
            return -1;
        c->depth_nodes[bound] = c->nodes - before;
    }
    return 0;
}

/* for the tests: the table's size (bits of buckets) and the last solve's generation */
void rr_table_info(int32_t *bits, int32_t *gen) {
    *bits = table == NULL ? -1 : bits_now;
    *gen = generation;
}

/* for the tests: the next solve starts a fresh table, as when the generations run out */
void rr_table_expire(void) {
    generation = 255;
}

/* -- the board's tables, as solver.py's Tables builds them (bound, descents) -------------
 * The same numbers, so that the C search needs no table built in Python: a fresh board
 * costs microseconds instead of milliseconds. The names are solver.py's. */

/* Tables._shortest: backwards over the relaxed moves in the directions dirs (a bit
 * each), from the distances in dist; for the transparent robot (clear) past walls that
 * are not solid, one move more each. Costs are whole moves: the cells of cost g are
 * final when g is reached, so one pass over the cells per cost. */
static void shortest(const int32_t *walls, int32_t *dist, int clear, int dirs) {
    int top = -1;
    for (int c = 0; c < CELLS; c++)
        if (dist[c] < UNREACHABLE && dist[c] > top)
            top = dist[c];
    for (int g = 0; g <= top; g++)
        for (int b = 0; b < CELLS; b++) {
            if (dist[b] != g)
                continue;
            for (int d = 0; d < 4; d++) {
                if (!(dirs >> d & 1))
                    continue;
                int step = STEP[d], bit = 1 << d, cost = g + 1;
                for (int a = b - step; a >= 0 && a < CELLS; a -= step) {
                    int w = walls[a];
                    if (w & bit) {
                        if (!clear || w & (bit << 4))
                            break;
                        cost++;
                    }
                    if (cost < dist[a]) {
                        dist[a] = cost;
                        if (cost > top)
                            top = cost;
                    }
                }
            }
        }
}

/* Tables._ray_min */
static void ray_min(const int32_t *walls, const int32_t *values, int clear, int d, int32_t *out) {
    int step = STEP[d], bit = 1 << d, down = d == 1 || d == 2;
    for (int j = 0; j < CELLS; j++) {
        int a = down ? CELLS - 1 - j : j, w = walls[a];
        out[a] = UNREACHABLE;
        if (w & bit) {
            if (!clear || w & (bit << 4))
                continue;
            int v = values[a + step] + 1, o = out[a + step];
            out[a] = 1 + (v < o ? v : o);
        } else {
            int v = values[a + step] + 1, o = out[a + step];
            out[a] = v < o ? v : o;
        }
    }
}

/* Tables._relaxed_distances: out[f][c] by ricochet state f (UNMOVED, ACROSS, ALONG,
 * TURNED) */
void rr_bounds(const int32_t *walls, int goal, int clear, int ricochet, int32_t *out) {
    int32_t *unmoved = out, *across = out + CELLS, *along = out + 2 * CELLS,
            *turned = out + 3 * CELLS;
    int32_t r0[CELLS], r1[CELLS], best[CELLS];
    for (int c = 0; c < CELLS; c++)
        turned[c] = UNREACHABLE;
    turned[goal] = 0;
    shortest(walls, turned, clear, 15);
    if (!ricochet) {
        memcpy(unmoved, turned, sizeof r0);
        memcpy(across, turned, sizeof r0);
        memcpy(along, turned, sizeof r0);
        return;
    }
    /* ACROSS: the other axis is N-S (0, 2), the same E-W (1, 3); ALONG the reverse */
    for (int axis = 1; axis <= 2; axis++) {
        int32_t *to = axis == 1 ? across : along;
        int d0 = axis == 1 ? 0 : 1;
        ray_min(walls, turned, clear, d0, r0);
        ray_min(walls, turned, clear, d0 + 2, r1);
        for (int c = 0; c < CELLS; c++)
            to[c] = r0[c] < r1[c] ? r0[c] : r1[c];
        shortest(walls, to, clear, axis == 1 ? 0xA : 0x5);
    }
    for (int c = 0; c < CELLS; c++)
        best[c] = 0x7FFFFFFF;
    for (int d = 0; d < 4; d++) {
        ray_min(walls, d & 1 ? across : along, clear, d, r0);
        for (int c = 0; c < CELLS; c++)
            if (r0[c] < best[c])
                best[c] = r0[c];
    }
    memcpy(unmoved, best, sizeof best);
}

typedef struct { uint64_t w[4]; } Cells;

static const int32_t *order_h;
static int by_bound(const void *x, const void *y) {
    int a = *(const int *)x, b = *(const int *)y;
    if (order_h[a] != order_h[b])
        return order_h[a] < order_h[b] ? -1 : 1;
    return a < b ? -1 : a > b;  /* (bound, state, cell), as solver.py sorts them */
}

/* Tables.descents for a single non-transparent target robot with the bounds h[f][c]
 * (rr_bounds, clear 0): closer[f][p] bit d: the slide from p in direction d crosses a
 * cell one move closer; reach[f][p]: 32 bytes, bit x of byte x / 8 for cell x. */
void rr_descents(const int32_t *walls, const int32_t *h, const int32_t *after, uint8_t *closer,
                 uint8_t *reach) {
    static Cells ray[4][CELLS], acc_of[4 * CELLS];
    static int order[4 * CELLS];
    for (int d = 0; d < 4; d++) {
        int step = STEP[d], bit = 1 << d, down = d == 1 || d == 2;
        for (int j = 0; j < CELLS; j++) {
            int p = down ? CELLS - 1 - j : j;
            if (walls[p] & bit) {
                memset(&ray[d][p], 0, sizeof(Cells));
            } else {
                ray[d][p] = ray[d][p + step];
                ray[d][p].w[(p + step) >> 6] |= (uint64_t)1 << ((p + step) & 63);
            }
        }
    }
    for (int f = 0; f < 4; f++)
        for (int p = 0; p < CELLS; p++) {
            int want = h[f * CELLS + p] - 1, bits = 0;
            for (int d = 0; d < 4; d++) {
                if (walls[p] & (1 << d))
                    continue;  /* no slide: walls stop it where it stands */
                const int32_t *hg = h + after[f * 4 + d] * CELLS;
                for (int x = p + STEP[d];; x += STEP[d]) {
                    if (hg[x] == want) {
                        bits |= 1 << d;
                        break;
                    }
                    if (walls[x] & (1 << d))
                        break;
                }
            }
            closer[f * CELLS + p] = (uint8_t)bits;
        }
    for (int i = 0; i < 4 * CELLS; i++)
        order[i] = i;
    order_h = h;
    qsort(order, 4 * CELLS, sizeof order[0], by_bound);
    for (int k = 0; k < 4 * CELLS; k++) {
        int idx = order[k], f = idx / CELLS, c = idx % CELLS, v = h[idx];
        Cells acc = {{0, 0, 0, 0}};
        for (int d = 0; d < 4; d++) {
            if (!(closer[idx] >> d & 1))
                continue;
            const Cells *r = &ray[d][c];
            int g = after[f * 4 + d];
            for (int j = 0; j < 4; j++)
                acc.w[j] |= r->w[j];
            for (int x = c + STEP[d];; x += STEP[d]) {  /* the ray's cells one move closer */
                if (h[g * CELLS + x] == v - 1)
                    for (int j = 0; j < 4; j++)
                        acc.w[j] |= acc_of[g * CELLS + x].w[j];
                if (walls[x] & (1 << d))
                    break;
            }
        }
        acc_of[idx] = acc;
        for (int j = 0; j < 32; j++)
            reach[idx * 32 + j] = (uint8_t)(acc.w[j >> 3] >> (8 * (j & 7)));
    }
}

/* reach2[f][p]: the cells a route of the target robot from p in state f can cross when it
 * has one move more than its bound h[f][p] (rr_bounds, clear 0): each slide one move
 * closer, but for one that stays as far. Of a slide to a cell one move closer the cells it
 * crosses and that cell's reach2; of one to a cell as far, the cells it crosses and that
 * cell's reach (rr_descents: no move more left). By bound, from the target out. */
void rr_reach2(const int32_t *walls, const int32_t *h, const int32_t *after,
               const uint8_t *reach, uint8_t *reach2) {
    int top = 0;
    for (int i = 0; i < 4 * CELLS; i++)
        if (h[i] < UNREACHABLE && h[i] > top)
            top = h[i];
    memset(reach2, 0, 4 * CELLS * 32);
    for (int v = 0; v <= top; v++)
        for (int idx = 0; idx < 4 * CELLS; idx++) {
            if (h[idx] != v)
                continue;
            int f = idx / CELLS, p = idx % CELLS;
            uint8_t *out = reach2 + idx * 32;
            for (int d = 0; d < 4; d++) {
                int step = STEP[d], bit = 1 << d, g = after[f * 4 + d], used = 0;
                uint8_t ray[32] = {0};
                if (walls[p] & bit)
                    continue;
                for (int x = p + step;; x += step) {
                    const uint8_t *more = NULL;
                    ray[x >> 3] |= (uint8_t)(1 << (x & 7));
                    if (h[g * CELLS + x] == v - 1)
                        more = reach2 + (g * CELLS + x) * 32;
                    else if (h[g * CELLS + x] == v)
                        more = reach + (g * CELLS + x) * 32;
                    if (more) {
                        used = 1;
                        for (int j = 0; j < 32; j++)
                            out[j] |= more[j];
                    }
                    if (walls[x] & bit)
                        break;
                }
                if (used)
                    for (int j = 0; j < 32; j++)
                        out[j] |= ray[j];
            }
        }
}
