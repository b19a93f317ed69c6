"""Reading the handheld's screens back, as a player would: a count (frame.count) from
the cells of a frame."""

from microrobots import palette as P

DARK = (0, 0, 0)


def cell(frame, i):
    return tuple(frame[3 * i:3 * i + 3])


# Players 1..8 as (r, g, b), as score and claim screens label them (palette.PLAYERS).
PLAYER_RGB = [tuple(P.PLAYERS[3 * p:3 * p + 3]) for p in range(8)]


def read_count(frame, row):
    """``(label, n)`` of the count drawn from ``row``: its label cell, then the tally's
    symbols (palette.TALLY), going on in the next row when this one is full. Raises
    AssertionError when the row is not a count."""
    label = cell(frame, row * 6)
    assert label != DARK, "row %d has no label" % row
    symbols = [cell(frame, row * 6 + c) for c in range(1, 6)]
    if symbols[0] == P.DIM and symbols[1:] == [DARK] * 4:
        return label, 0
    if all(s in P.TALLY for s in symbols) and row < 5 and cell(frame, row * 6 + 6) == DARK:
        more = [cell(frame, row * 6 + 6 + c) for c in range(1, 6)]
        if more[0] in P.TALLY:
            symbols += more
    n = 0
    seen_dark = False
    order = []
    for s in symbols:
        if s == DARK:
            seen_dark = True
            continue
        assert not seen_dark and s in P.TALLY, "row %d: %r is not a tally symbol" % (row, s)
        k = P.TALLY.index(s)
        order.append(k)
        n += P.TALLY_VALUES[k]
    assert order == sorted(order), "row %d: symbols out of order" % row
    return label, n
