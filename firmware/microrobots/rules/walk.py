"""The robot's walk in a solo round: where it stands, how far it went, what B takes back.

A walk may be as long as the player likes (up to ``game.MAX_CLAIM`` moves), but the
memory is fixed: the last ``_UNDO`` (100) positions are kept in a ring, so B takes back up to
``_UNDO`` (100) moves and nothing grows while the player wanders::

    walk = Walk()
    walk.start(cell, waypoint)   # a new round (waypoint -1: none)
    walk.step(cell)              # a move the caller checked; False when the walk is full
    walk.undo()                  # False when nothing (more) can be taken back
    walk.robot, walk.count, walk.seen, walk.moves()
    walk.to_saved(); walk.restore(saved, start, waypoint, is_move)
"""

from ..compat import const
from .game import MAX_CLAIM

_UNDO = const(100)  # moves B can take back


class Walk:
    def __init__(self):
        self._ring = bytearray(_UNDO + 1)  # positions; _ring[_head] is the robot
        self.start(0, -1)

    def start(self, cell, waypoint):
        """The robot on ``cell``, no move made; ``waypoint`` -1 when there is none."""
        self.count = 0  # moves made
        self.kept = 0  # moves that can be taken back
        self._head = 0
        self._ring[0] = cell
        self.waypoint = waypoint
        self._seen_at = 0 if waypoint < 0 or cell == waypoint else -1  # first visit's move

    @property
    def robot(self):
        return self._ring[self._head]

    @property
    def seen(self):
        """The waypoint was visited (or there is none)."""
        return self._seen_at >= 0

    def full(self):
        return self.count >= MAX_CLAIM

    def step(self, cell):
        """Move the robot to ``cell`` (legal: the caller checked); False when full."""
        if self.count >= MAX_CLAIM:
            return False
        self.count += 1
        self._head = (self._head + 1) % (_UNDO + 1)
        self._ring[self._head] = cell
        if self.kept < _UNDO:
            self.kept += 1
        if self._seen_at < 0 and cell == self.waypoint:
            self._seen_at = self.count
        return True

    def undo(self):
        """Take the last move back; False when there is none that can be."""
        if self.kept == 0:
            return False
        self.kept -= 1
        self.count -= 1
        self._head = (self._head - 1) % (_UNDO + 1)
        if self._seen_at > self.count:
            self._seen_at = -1
        return True

    def trail(self):
        """The kept positions, oldest first: ``kept + 1`` cells ending on the robot."""
        n = _UNDO + 1
        return [self._ring[(self._head - k) % n] for k in range(self.kept, -1, -1)]

    def moves(self):
        """The moves that can be taken back, as the cells they went to, oldest first."""
        return self.trail()[1:]

    # -- saved form -------------------------------------------------------------
    def to_saved(self):
        """A JSON-friendly dict for solo.json."""
        return {"trail": self.trail(), "walked": self.count, "seen": self._seen_at}

    def restore(self, saved, start, waypoint, is_move):
        """Back to a walk from ``to_saved()`` (or the older ``{"moves": [...]}``, cells
        after ``start``). ``is_move(a, b)``: the rules. A damaged walk keeps its good part:
        False is returned when anything had to be dropped."""
        self.start(start, waypoint)
        trail = saved.get("trail")
        walked = saved.get("walked")
        if trail is None:  # the first format: every move from the start
            moves = saved.get("moves")
            if not isinstance(moves, list):
                return moves is None
            for cell in moves:
                if not (isinstance(cell, int) and is_move(self.robot, cell)) or \
                        not self.step(cell):
                    return False
            return True
        ok = isinstance(trail, list) and 0 < len(trail) <= _UNDO + 1 and isinstance(walked, int) \
            and not isinstance(walked, bool) and len(trail) - 1 <= walked <= MAX_CLAIM
        if ok:
            for cell in trail:
                ok = ok and isinstance(cell, int) and 0 <= cell < 36
        if ok:
            ok = trail[0] == start if walked == len(trail) - 1 else True
        for k in range(1, len(trail) if ok else 0):
            ok = ok and is_move(trail[k - 1], trail[k])
        if not ok:
            return False
        # Only the kept part is known: the walk continues from its oldest kept cell.
        self._ring[0] = trail[0]
        self.count = walked - (len(trail) - 1)
        seen = saved.get("seen")
        if waypoint >= 0 and isinstance(seen, int) and 1 <= seen <= self.count:
            self._seen_at = seen
        elif waypoint >= 0 and trail[0] == waypoint and self.count > 0:
            self._seen_at = self.count  # visited at the latest when it stood there
        self.kept = 0
        for cell in trail[1:]:
            self.step(cell)
        return True
