"""A game's decision log: how each decision is kept in bytes, and written as text.

A decision is three bytes: ``what`` (the player | the verdict code << 3, or ``GIVE_UP``:
nobody found a route) and the claimed count, two bytes, low first. An ILLEGAL_MOVE
decision adds which move was illegal (1-based; 0: not recorded, an old save) in 7-bit
groups, low first (a byte of 128 or more: more follow), so any number fits and most
take one byte. As text (``text``): ``b4o`` is player b (1) claiming 4, correct; ``-``
gave up; after ``i``, the illegal move: ``b4i2``.
"""

from ..compat import const
from .solver import ILLEGAL_MOVE

GIVE_UP = const(255)  # "nobody found a route"
OUTCOME_LETTERS = "oictwb"  # verdict code 0..5 -> letter: correct, illegal move, count
# differs, target missed, waypoint missed, below the optimum


def append(log, what, count, move=0):
    """Add a decision to ``log`` (a bytearray)."""
    log.append(what)
    log.append(count & 0xFF)
    log.append(count >> 8)
    if what != GIVE_UP and what >> 3 == ILLEGAL_MOVE:
        while move >= 128:
            log.append(move & 127 | 128)
            move >>= 7
        log.append(move)


def entry(log, i):
    """The decision at byte ``i`` of ``log``: ``(what, count, move, next i)``."""
    what = log[i]
    count = log[i + 1] | log[i + 2] << 8
    if what == GIVE_UP or what >> 3 != ILLEGAL_MOVE:
        return what, count, 0, i + 3
    move = 0
    shift = 0
    i += 3
    while True:
        b = log[i]
        i += 1
        move |= (b & 127) << shift
        shift += 7
        if b < 128:
            return what, count, move, i


def text(log):
    """The decisions of ``log`` as text."""
    parts = []
    i = 0
    while i < len(log):
        what, count, move, i = entry(log, i)
        if what == GIVE_UP:
            parts.append("-")
        else:
            parts.append("%s%d%s%s" % (chr(97 + (what & 7)), count, OUTCOME_LETTERS[what >> 3],
                                       move or ""))
    return "".join(parts)
