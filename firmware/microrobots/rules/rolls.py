"""The dice of a round: the start, the target and the expert's waypoint, rolled.

Two dice, a colour die and a number die, name one cell. A target is rerolled while it
is the start or cannot be reached from it, and (solo) while it needs fewer moves than
the difficulty asks, up to ``ROLLS`` times: a round stays bounded, then the farthest
target rolled is used (or, on a custom layout where rolls keep missing, one picked
uniformly among the reachable cells). The generator's sequence is part of the saved
game: change nothing here without a new format version (game.py).
"""

from .board import CELLS
from ..compat import const
from .solver import UNREACHABLE

ROLLS = const(36)  # rolls per target (or waypoint) before a fallback


class RollError(ValueError):
    """A layout on which no round can be rolled."""


def roll_cell(rng, layout):
    """Two dice, a colour die and a number die: the one cell with that face."""
    colour = rng.below(6)
    number = rng.below(6) + 1
    return layout.cell_of(colour, number)


def roll_start(rng, layout, solver):
    """``(cell, rerolls)``: a start that has a legal move, and how many rolls had none."""
    dead = 0
    for _ in range(ROLLS):
        cell = roll_cell(rng, layout)
        if solver.degree(cell) > 0:
            return cell, dead
        dead += 1
    live = 0
    for c in range(CELLS):
        if solver.degree(c) > 0:
            live += 1
    if live == 0:
        raise RollError("layout: no cell has a legal move; nothing to play")
    k = rng.below(live)
    for c in range(CELLS):
        if solver.degree(c) > 0:
            if k == 0:
                return c, dead
            k -= 1


def _pick(rng, dist, a, b):
    """A uniformly rolled reachable cell other than ``a`` and ``b``, or -1."""
    count = 0
    for c in range(CELLS):
        if c != a and c != b and dist[c] != UNREACHABLE:
            count += 1
    if count == 0:
        return -1
    k = rng.below(count)
    for c in range(CELLS):
        if c != a and c != b and dist[c] != UNREACHABLE:
            if k == 0:
                return c
            k -= 1


class Round:
    """A round's rolls, kept in one object that every round reuses (a round rolls
    without allocating): ``target``, ``waypoint`` (None unless expert), ``optimum``
    (fewest moves), ``rerolls`` of the target and ``notice``, a sentence for the player
    when a custom layout forced rerolls, else None."""

    def __init__(self):
        self.target = self.optimum = self.rerolls = 0
        self.waypoint = self.notice = None

    def roll(self, rng, layout, solver, start, want, expert):
        """Roll the round from ``start``; ``want``: the fewest moves a target should need."""
        dist = solver.distances(start)  # reused buffer: read before the next query
        best = -1
        best_d = 0
        unreachable = 0
        rolls = 0
        while rolls < ROLLS:
            cell = roll_cell(rng, layout)
            rolls += 1
            if cell == start:
                continue
            d = dist[cell]
            if d == UNREACHABLE:
                unreachable += 1
                continue
            if d > best_d:  # the first of the farthest rolled, for the difficulty fallback
                best = cell
                best_d = d
            if d >= want:
                break
        if best < 0:
            best = _pick(rng, dist, start, start)
            if best < 0:
                raise RollError("layout: no cell can be reached from %s" % layout.token(start))
        target = best
        rerolls = rolls - 1
        waypoint = None
        no_waypoint = False
        optimum = dist[target]
        if expert:
            via = -1
            rolls = 0
            while rolls < ROLLS:
                cell = roll_cell(rng, layout)
                rolls += 1
                if cell == start or cell == target:
                    continue
                if dist[cell] == UNREACHABLE:
                    unreachable += 1
                    continue
                via = cell
                break
            if via < 0:
                via = _pick(rng, dist, start, target)
            if via < 0:
                no_waypoint = True
            else:
                waypoint = via
                optimum = dist[via] + solver.distances(via)[target]
        notice = None
        if unreachable or no_waypoint:  # a custom layout forced the rolls (allocates; rare)
            parts = []
            if unreachable:
                parts.append("custom layout: %d rolled cell%s cannot be reached from %s; "
                             "rerolled" % (unreachable, "" if unreachable == 1 else "s",
                                           layout.token(start)))
            if no_waypoint:
                parts.append("custom layout: no waypoint can be reached from %s; this round "
                             "has none" % layout.token(start))
            notice = "; ".join(parts)
        self.target = target
        self.waypoint = waypoint
        self.optimum = optimum
        self.rerolls = rerolls
        self.notice = notice
