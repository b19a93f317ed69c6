"""Layouts for tests: hypothesis strategies and brute-force references of the rules.

The references are deliberately naive re-readings of the rules, sharing no code with
firmware/microrobots/rules/solver.py.
"""

import itertools

from hypothesis import strategies as st

from microrobots.rules.board import Layout
from microrobots.rules.solver import Solver

PAIRS = [(c, n) for c in range(6) for n in range(1, 7)]


def layout_from_pairs(pairs):
    return Layout(bytearray(p[0] for p in pairs), bytearray(p[1] for p in pairs))


def layout_with_a_dead_cell():
    """A custom layout with a cell no move leaves (two faces of a tile layout swapped):
    ``(layout, its dead cells, the cells with one move)``."""
    base = Layout.named("black:ABCD0000")
    pairs = [base.colours[i] * 6 + base.numbers[i] - 1 for i in range(36)]
    for a, b in itertools.combinations(range(36), 2):
        p = list(pairs)
        p[a], p[b] = p[b], p[a]
        lay = Layout([x // 6 for x in p], [x % 6 + 1 for x in p])
        solver = Solver(lay)
        dead = [c for c in range(36) if solver.degree(c) == 0]
        if dead:
            return lay, dead, [c for c in range(36) if solver.degree(c) == 1]
    raise AssertionError("no two swapped faces cut a cell off")


@st.composite
def shuffled_layouts(draw):
    """Any of the 36! layouts: almost always connected."""
    return layout_from_pairs(draw(st.permutations(PAIRS)))


@st.composite
def affine_layouts(draw):
    """colour = a*r + b*c, number = d*r + e*c (mod 6), relabelled: many are split into
    several islands, so unreachable pairs are common."""
    invertible = [(a, b, d, e) for a in range(6) for b in range(6) for d in range(6)
                  for e in range(6) if (a * e - b * d) % 6 in (1, 5)]
    a, b, d, e = draw(st.sampled_from(invertible))
    colours = draw(st.permutations(range(6)))
    numbers = draw(st.permutations(range(1, 7)))
    pairs = [(colours[(a * r + b * c) % 6], numbers[(d * r + e * c) % 6])
             for r in range(6) for c in range(6)]
    return layout_from_pairs(pairs)


@st.composite
def tile_layouts(draw):
    side = draw(st.sampled_from(["black", "copper"]))
    order = "".join(draw(st.permutations("ABCD")))
    turns = "".join(draw(st.lists(st.sampled_from("0123"), min_size=4, max_size=4)))
    return Layout.from_tiles(side, order + turns)


@st.composite
def isolated_layouts(draw):
    """``(layout, cell)``: a custom layout on which ``cell`` has no legal move (no other die
    of its row or column shares its colour or number); others may be cut off too."""
    cell = draw(st.integers(0, 35))
    colour, number = draw(st.sampled_from(PAIRS))
    r, c = divmod(cell, 6)
    peers = [i for i in range(36) if i != cell and (i // 6 == r or i % 6 == c)]
    strangers = [p for p in PAIRS if p[0] != colour and p[1] != number]  # 25 pairs
    chosen = draw(st.permutations(strangers))[:len(peers)]
    rest = draw(st.permutations([p for p in PAIRS if p != (colour, number) and p not in chosen]))
    pairs = [None] * 36
    pairs[cell] = (colour, number)
    for i, p in zip(peers, chosen):
        pairs[i] = p
    others = iter(rest)
    for i in range(36):
        if pairs[i] is None:
            pairs[i] = next(others)
    return layout_from_pairs(pairs), cell


layouts = st.one_of(shuffled_layouts(), affine_layouts(), tile_layouts(),
                    isolated_layouts().map(lambda pair: pair[0]))
cells = st.integers(0, 35)


def legal(layout, a, b):
    """The rule, read literally: same row or column, another cell, same colour or number."""
    ra, ca = divmod(a, 6)
    rb, cb = divmod(b, 6)
    return (a != b and (ra == rb or ca == cb)
            and (layout.colour(a) == layout.colour(b) or layout.number(a) == layout.number(b)))


def neighbours(layout, a):
    return [b for b in range(36) if legal(layout, a, b)]


def reference_distances(layout, start):
    """Distances by repeated relaxation (Bellman-Ford); None = unreachable."""
    dist = [None] * 36
    dist[start] = 0
    changed = True
    while changed:
        changed = False
        for a in range(36):
            if dist[a] is None:
                continue
            for b in neighbours(layout, a):
                if dist[b] is None or dist[b] > dist[a] + 1:
                    dist[b] = dist[a] + 1
                    changed = True
    return dist


def all_walks(layout, start, n):
    """Every walk of exactly n moves from start, as tuples of cells after start."""
    nb = [neighbours(layout, a) for a in range(36)]
    walks = [()]
    for _ in range(n):
        walks = [w + (b,) for w in walks for b in nb[w[-1] if w else start]]
    return walks


def reference_walk_exists(layout, start, target, n, via=None):
    for w in all_walks(layout, start, n):
        ends = w[-1] if w else start
        visited = (start,) + w
        if ends == target and (via is None or via in visited):
            return True
    return False


def reference_walk_layers(layout, start, target, n, via=None):
    """Exact-length walks by stepping the set of reachable (cell, waypoint seen) states."""
    nb = [neighbours(layout, a) for a in range(36)]
    states = {(start, via is None or start == via)}
    for _ in range(n):
        states = {(b, seen or b == via) for a, seen in states for b in nb[a]}
    return (target, True) in states
