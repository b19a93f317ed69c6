"""The straightforward way to solve Micro Robots, kept for comparison in `make bench`.

Plain bytearray BFS that scans the row and the column of each cell for legal moves at every
step, and exact-length walks stepped one move at a time. Runs under MicroPython and
CPython. The firmware's solver (firmware/microrobots/rules/solver.py) answers the same queries.
"""


def distances(colours, numbers, start, dist, queue):
    for i in range(36):
        dist[i] = 255
    dist[start] = 0
    queue[0] = start
    head, tail = 0, 1
    while head < tail:
        a = queue[head]
        head += 1
        r, c = a // 6, a % 6
        for k in range(12):  # the row's six cells, then the column's
            b = r * 6 + k if k < 6 else (k - 6) * 6 + c
            if b != a and dist[b] == 255 and (
                    colours[b] == colours[a] or numbers[b] == numbers[a]):
                dist[b] = dist[a] + 1
                queue[tail] = b
                tail += 1
    return dist


def walk_exists(colours, numbers, start, target, n, via, cur, nxt):
    """Step the set of (cell, waypoint seen) states n times; cur/nxt are bytearray(72)."""
    for i in range(72):
        cur[i] = 0
    cur[start + (36 if via < 0 or start == via else 0)] = 1
    for _ in range(n):
        for i in range(72):
            nxt[i] = 0
        for s in range(72):
            if cur[s]:
                a = s % 36
                seen = s >= 36
                r, c = a // 6, a % 6
                for k in range(12):
                    b = r * 6 + k if k < 6 else (k - 6) * 6 + c
                    if b != a and (colours[b] == colours[a] or numbers[b] == numbers[a]):
                        nxt[b + (36 if seen or b == via else 0)] = 1
        cur, nxt = nxt, cur
    return cur[target + 36] == 1
