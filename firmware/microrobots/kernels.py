"""The firmware's hot loops, as source text: compat.kernels compiles them at import, as
viper machine code on MicroPython and as plain Python where there is no native emitter
(CircuitPython, the WebAssembly port) or under CPython, then unloads this module, so that
the text does not stay on the heap (a module's constants live as long as the module).

    SOLVER   _bfs, _walk_bfs: breadth-first distances, and walks over (cell, waypoint
             seen, length parity) states (solver.py)
    DISPLAY  _show: a frame through the brightness-and-gamma table and the power cap into
             the LED buffer in wiring order, unless nothing changed (display.py)
"""

SOLVER = '''
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
        base = cell * 10
        end = base + int(degree[cell])
        while base < end:
            n = int(nb[base])
            if int(dist[n]) == 255:
                dist[n] = d
                queue[tail] = n
                tail += 1
            base += 1


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
        base = cell * 10
        end = base + int(degree[cell])
        while base < end:
            n = int(nb[base])
            if seen or n == via:
                t = n + 36 + flip
            else:
                t = n + flip
            if int(dist[t]) == 255:
                dist[t] = d
                queue[tail] = t
                tail += 1
            base += 1
'''

DISPLAY = '''
@micropython.viper
def _show(frame: ptr8, lut: ptr8, nxt: ptr8, written: ptr8, buf: ptr8, dest: ptr16,
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
