"""The firmware's hot loops, as source text: compat.kernels compiles them at import, as
viper machine code on MicroPython and as plain Python where there is no native emitter
(CircuitPython, the WebAssembly port) or under CPython: one text, the same code on every
runtime. The Micro Robots image freezes the same text as a module of viper functions
(tools/picoimage: native_kernels), so that their machine code stays in flash.

    SOLVER   _moves: every cell's moves; _bfs, _walk_bfs: breadth-first distances, and
             walks over (cell, waypoint seen, length parity) states (solver.py)
    DISPLAY  _show: a frame through the brightness-and-gamma table and the power cap into
             the LED buffer in wiring order, unless nothing changed (display.py)
    FRAME    _dim: the whole frame scaled; _board: every cell its die colour at a level;
             _rings: the celebration's rings (frame.py)
"""

SOLVER = '''
@micropython.viper
def _moves(colours: ptr8, numbers: ptr8, nb: ptr8, degree: ptr8):
    """Every cell's moves, in index order: the other cells of its row and column that
    share its colour or its number (at most 10 per cell)."""
    i = 0
    while i < 36:
        r0 = i // 6
        c0 = i % 6
        k = 0
        j = 0
        while j < 36:
            if j != i and (j // 6 == r0 or j % 6 == c0):
                if colours[j] == colours[i] or numbers[j] == numbers[i]:
                    nb[i * 10 + k] = j
                    k += 1
            j += 1
        degree[i] = k
        i += 1


@micropython.viper
def _bfs(nb: ptr8, degree: ptr8, start: int, dist: ptr8, queue: ptr8):
    """Breadth-first distances from ``start`` over the 36 cells."""
    i = 0
    while i < 36:
        dist[i] = 255
        i += 1
    dist[start] = 0
    queue[0] = start
    head = 0
    tail = 1
    while head < tail:
        cell = int(queue[head])
        head += 1
        d = int(dist[cell]) + 1
        i = cell * 10  # cell's neighbours: nb[i:end]
        end = i + int(degree[cell])
        while i < end:
            n = int(nb[i])
            if int(dist[n]) == 255:
                dist[n] = d
                queue[tail] = n
                tail += 1
            i += 1


@micropython.viper
def _walk_bfs(nb: ptr8, degree: ptr8, start: int, via: int, dist: ptr8, queue: ptr8):
    """Shortest walks over states (cell, waypoint seen, length parity).

    State s = cell + 36 * seen + 72 * parity. ``via`` < 0 means no waypoint
    (every state counts as seen).
    """
    i = 0
    while i < 144:
        dist[i] = 255
        i += 1
    s = start
    if via < 0 or start == via:
        s += 36
    dist[s] = 0
    queue[0] = s
    head = 0
    tail = 1
    while head < tail:
        s = int(queue[head])
        head += 1
        d = int(dist[s]) + 1
        if d > 254:
            d = 254  # cannot happen with 144 states; keeps the byte from wrapping
        cell = s % 36
        seen = (s // 36) % 2
        flip = 72 - (s // 72) * 72  # parity of the next state
        i = cell * 10  # cell's neighbours: nb[i:end]
        end = i + int(degree[cell])
        while i < end:
            n = int(nb[i])
            if seen or n == via:
                t = n + 36 + flip
            else:
                t = n + flip
            if int(dist[t]) == 255:
                dist[t] = d
                queue[tail] = t
                tail += 1
            i += 1
'''

DISPLAY = '''
@micropython.viper
def _show(frame: ptr8, lut: ptr8, nxt: ptr8, written: ptr8, buf: ptr8, dest: ptr8,
          cap: int, fresh: int) -> int:
    total = 0
    i = 0
    while i < 108:
        v = int(lut[frame[i]])
        nxt[i] = v
        total += v
        i += 1
    capped = 0
    if total > cap:
        whole = total
        total = 0
        i = 0
        while i < 108:
            v = int(nxt[i]) * cap // whole
            nxt[i] = v
            total += v
            i += 1
        capped = 65536
    if not fresh:
        i = 0
        while i < 108:
            if nxt[i] != written[i]:
                break
            i += 1
        if i == 108:
            return -1
    i = 0
    while i < 108:
        v = nxt[i]
        written[i] = v
        buf[dest[i]] = v
        i += 1
    return total + capped
'''

FRAME = '''
@micropython.viper
def _dim(frame: ptr8, level: int):
    i = 0
    while i < 108:
        frame[i] = int(frame[i]) * level // 255
        i += 1


@micropython.viper
def _board(frame: ptr8, colours: ptr8, pal: ptr8, level: int):
    i = 0
    while i < 36:
        c = int(colours[i]) * 3
        j = i * 3
        frame[j] = int(pal[c]) * level // 255
        frame[j + 1] = int(pal[c + 1]) * level // 255
        frame[j + 2] = int(pal[c + 2]) * level // 255
        i += 1


@micropython.viper
def _rings(frame: ptr8, cell: int, step: int, table: ptr8):
    r0 = cell // 6
    c0 = cell % 6
    i = 0
    while i < 36:
        dr = i // 6 - r0
        dc = i % 6 - c0
        if dr < 0:
            dr = 0 - dr
        if dc < 0:
            dc = 0 - dc
        d = dc if dc > dr else dr
        phase = (step + 6 - d) % 6
        if phase < 2:
            level = 255 if phase == 0 else 60
            k = (1 + (step + d) % 7) * 3
            j = i * 3
            frame[j] = int(table[k]) * level // 255
            frame[j + 1] = int(table[k + 1]) * level // 255
            frame[j + 2] = int(table[k + 2]) * level // 255
        i += 1
'''
