"""Searches made visible, one cell at a time: the classroom's breadth-first search and,
to compare, depth-first search, on one puzzle's move graph.

Both searches are the same loop; only the line of waiting cells differs:

- breadth-first: a **queue**, the oldest waiting cell is taken next;
- depth-first: a **stack**, the newest waiting cell is taken next.

A cell is *seen* when a move from a taken cell first reaches it (it joins the line,
with its count of moves along the search's route: one more than the cell it was seen
from), and *visited* when it is taken out of the line and its moves are looked at.
Breadth-first counts are the fewest moves (the solver's distances); depth-first ones
are only the length of the route it happened to take.

    search = Search(solver, start, target, DEPTH_FIRST)   # solver: microrobots Solver
    search.state(k)       # after k cells were taken: see Search.state
    search.route()        # its route to the target, start first ([] if unreachable)
    search.found          # cells taken when the target was seen (-1: never)
    search.next_stop(k, LAYER) / search.prev_stop(k, LAYER)   # stepping by layer

Only ``solver.moves(cell)`` is used (cells in index order), so this runs wherever the
solver does: the web page's MicroPython (tools/sim/web/page.py) and the worksheets
(tools/worksheet.py). It allocates freely: 36 cells, once per puzzle.
"""

BREADTH_FIRST = "bfs"
DEPTH_FIRST = "dfs"
KINDS = (BREADTH_FIRST, DEPTH_FIRST)
CELL = "cell"
LAYER = "layer"
UNITS = (CELL, LAYER)
CELLS = 36


class Search:
    """The whole run of one search from ``start``, kept so any moment can be shown.

    ``order``: the cells in the order they were taken out of the line (visited).
    ``seen``: the cells in the order they were seen (``start`` first).
    ``seen_at[c]``: the moment ``c`` was seen: 0 for ``start``, k for a cell seen from
    the k-th cell taken, -1 if never. ``moves[c]``: its count of moves, -1 if never seen.
    ``parent[c]``: the cell it was seen from (-1 for ``start`` and unseen cells).
    """

    def __init__(self, solver, start, target, kind=BREADTH_FIRST):
        if kind not in KINDS:
            raise ValueError("search: %r is not one of %s" % (kind, ", ".join(KINDS)))
        self.kind = kind
        self.start = start
        self.target = target
        self.order = []
        self.seen = [start]
        self.seen_at = [-1] * CELLS
        self.moves = [-1] * CELLS
        self.parent = [-1] * CELLS
        self.seen_at[start] = 0
        self.moves[start] = 0
        self.found = 0 if start == target else -1
        line = [start]
        head = 0  # the queue's front (breadth-first); the stack takes from the end
        while head < len(line):
            if kind == BREADTH_FIRST:
                cell = line[head]
                head += 1
            else:
                cell = line.pop()
            self.order.append(cell)
            taken = len(self.order)
            for n in solver.moves(cell):
                if self.seen_at[n] < 0:
                    self.seen_at[n] = taken
                    self.moves[n] = self.moves[cell] + 1
                    self.parent[n] = cell
                    self.seen.append(n)
                    line.append(n)
                    if n == target:
                        self.found = taken

    def steps(self):
        """How many cells the whole search takes (its last moment)."""
        return len(self.order)

    def state(self, k):
        """The search after ``k`` cells were taken (0 <= k <= steps()), as a dict:
        ``visited`` (the taken cells, in order), ``current`` (the last one taken, -1 at
        k = 0), ``waiting`` (the line, the cell taken next first), ``new`` (the cells
        seen by this step), ``moves`` (per cell: its count once seen, else -1) and
        ``found`` (whether the target has been seen)."""
        k = max(0, min(k, len(self.order)))
        visited = self.order[:k]
        taken = {}
        for c in visited:
            taken[c] = True
        seen = [c for c in self.seen if self.seen_at[c] <= k]
        waiting = [c for c in seen if c not in taken]
        if self.kind == DEPTH_FIRST:
            waiting.reverse()  # a stack: the newest is taken next
        moves = [self.moves[c] if 0 <= self.seen_at[c] <= k else -1 for c in range(CELLS)]
        return {
            "step": k,
            "visited": visited,
            "current": visited[-1] if visited else -1,
            "waiting": waiting,
            "new": [c for c in seen if k > 0 and self.seen_at[c] == k],
            "moves": moves,
            "found": 0 <= self.found <= k,
        }

    def route(self):
        """The search's route to the target, start first; [] if it never sees it."""
        if self.moves[self.target] < 0:
            return []
        route = [self.target]
        while route[-1] != self.start:
            route.append(self.parent[route[-1]])
        route.reverse()
        return route

    def layer_ends(self):
        """The moments that end a layer: every cell taken has the same count, and the
        next one taken (if any) has a larger count."""
        ends = []
        order = self.order
        for k in range(1, len(order) + 1):
            if k == len(order) or self.moves[order[k]] != self.moves[order[k - 1]]:
                ends.append(k)
        return ends

    def next_stop(self, k, unit=CELL):
        """The moment after ``k`` when stepping by ``unit`` (a cell, or a whole layer)."""
        last = len(self.order)
        if unit == LAYER:
            for end in self.layer_ends():
                if end > k:
                    return end
            return last
        return min(k + 1, last)

    def prev_stop(self, k, unit=CELL):
        """The moment before ``k`` when stepping back by ``unit``."""
        if unit == LAYER:
            best = 0
            for end in self.layer_ends():
                if end < k:
                    best = end
            return best
        return max(k - 1, 0)

    def to_dict(self):
        """What the web page draws from (JSON-ready): the run, the route and its length."""
        route = self.route()
        return {"kind": self.kind, "start": self.start, "target": self.target,
                "order": self.order, "seen": self.seen, "seen_at": self.seen_at,
                "moves": self.moves, "parent": self.parent, "found": self.found,
                "route": route, "length": len(route) - 1 if route else -1,
                "layer_ends": self.layer_ends()}


def edges(solver):
    """Every move of the puzzle's graph once, as ``[a, b]`` with a < b."""
    out = []
    for a in range(CELLS):
        for b in solver.moves(a):
            if a < b:
                out.append([a, b])
    return out
