"""What the table page asks of the host, as plain functions of JSON-like values.

``serve.py`` turns HTTP requests into these calls; the tests call them directly. Each takes
a dict (the request's JSON body) and returns a dict (the answer), or raises ``BadRequest``
with one line naming what is wrong and where.

    faces()                      the eight quadrant faces, each as if it lay NW (pictures)
    board({"faces": "1A,4A,3B,2B"})            walls and targets of the assembled board
    solve({"faces": ..., "robots": {"red": 153, ...}, "target": "vortex",
           "ricochet": true})                  an optimal solution, each move with its path
    demonstrate({... "moves": [["red", "N", 0], ...], "bid": 5})
                                               a demonstration judged so far, move by move

A cell is ``y * 16 + x`` (x the column from the west, y the row from the north), as in the
rules module. Boards are kept (a few, by faces) so that a second solve on the same board
starts searching at once: the solver's tables live on the board.
"""

import threading

from tools.cli import UsageError  # noqa: F401 - also puts firmware/ on sys.path
from tools.ricochet import solver

# The one import of the rules and the claim checker in the table's code; at the merge it
# moves to the host side (tools/ricochet/), and only this line changes.
from tools.ricochet import rules as rr

MAX_BOARDS = 4  # boards kept with their solver tables, some 10 MB each
MAX_MOVES = 40  # a demonstration or a solve never needs more; a request asking more is bad


class BadRequest(ValueError):
    """A request the page (or anyone) sent that cannot be answered: one line."""


class OutOfNodes(Exception):
    """A solve given a node budget (``node_limit``) searched that many positions first."""


_boards = {}
_lock = threading.Lock()


def _board(faces, prepare=True):
    """The Board for ``faces`` (kept: its solver tables are reused, and built ahead in the
    background unless ``prepare`` is False: the server's own process, which never solves)."""
    try:
        names = rr.parse_faces(faces if isinstance(faces, str) else ",".join(faces))
    except (rr.RicochetError, TypeError) as e:
        raise BadRequest("faces: %s" % e)
    key = ",".join(names)
    with _lock:
        board = _boards.get(key)
        if board is None:
            if len(_boards) >= MAX_BOARDS:
                _boards.pop(next(iter(_boards)))
            board = _boards[key] = rr.Board(names)
            # the solver's tables for every target, built while the table places its robots
            board.prepared = threading.Thread(target=_prepare, args=(board,), daemon=True)
        if prepare and board.prepared.ident is None:
            board.prepared.start()
    return board


def wait_prepared(faces, timeout=None):
    """Wait until the solver's tables for the board of ``faces`` are built (make bench
    measures a solve as a table meets it: after its robots were placed)."""
    _board(faces).prepared.join(timeout)


def _prepare(board):
    for ricochet in (True, False):
        solver.prepare(board, ricochet, compiled=solver.kernel_available())


def faces(_request=None):
    """The eight faces as printed, each as if it lay in the NW quadrant: walls as
    ``[x, y, "NE"]`` and targets as ``[x, y, index]`` (colour * 4 + shape, 16 the vortex)."""
    out = {}
    for name, text in rr.FACES.items():
        walls, targets = [], []
        for token in text.split():
            x, y, code = int(token[0]), int(token[1]), token[2:]
            if code[0] in "NESW":
                walls.append([x, y, code])
            elif code == "v":
                targets.append([x, y, rr.VORTEX])
            else:
                targets.append([x, y, "rgby".index(code[0]) * 4 + "ctsh".index(code[1])])
        out[name] = {"walls": walls, "targets": targets}
    return {"faces": out, "robots": list(rr.ROBOT_NAMES), "colours": list(rr.COLOURS),
            "shapes": list(rr.SHAPES)}


def board(request, prepare=True):
    """The assembled board: ``walls`` (256 numbers: bit d a wall on side d, N E S W; bit
    4 + d when it is solid), ``targets`` (17 cells, by target index) and ``names``."""
    b = _board(_field(request, "faces"), prepare)
    return {"faces": ",".join(b.faces), "walls": list(b.walls), "targets": list(b.targets),
            "names": [rr.target_name(t) for t in range(rr.TARGET_COUNT)]}


def _field(request, name):
    if not isinstance(request, dict):
        raise BadRequest("the request must be a JSON object")
    if name not in request:
        raise BadRequest("%s is missing" % name)
    return request[name]


def _deal(request, prepare=True):
    """(Board, robots, target) of a request, each checked."""
    b = _board(_field(request, "faces"), prepare)
    given = _field(request, "robots")
    if not isinstance(given, dict):
        raise BadRequest('robots: give {"red": cell, ...}')
    robots = rr.new_robots()
    for name, here in given.items():
        try:
            who = rr.robot_index(str(name))
        except rr.RicochetError as e:
            raise BadRequest("robots: %s" % e)
        if isinstance(here, bool) or not isinstance(here, int) or not 0 <= here < rr.CELLS:
            raise BadRequest("robots: %s: %r is not a cell 0-255" % (rr.ROBOT_NAMES[who], here))
        robots[who] = here
    try:
        rr.validate_robots(robots)
    except rr.RicochetError as e:
        raise BadRequest("robots: %s" % e)
    target = _field(request, "target")
    if isinstance(target, bool) or not isinstance(target, (int, str)):
        raise BadRequest("target: give its name or index 0-16")
    if isinstance(target, int):
        if not 0 <= target < rr.TARGET_COUNT:
            raise BadRequest("target: %d is not an index 0-16" % target)
    else:
        try:
            target = rr.parse_target(target)
        except rr.RicochetError as e:
            raise BadRequest("target: %s" % e)
    return b, robots, target


def _rule(request):
    ricochet = request.get("ricochet", True)
    if not isinstance(ricochet, bool):
        raise BadRequest("ricochet: true or false")
    return ricochet


def _landing(request):
    """The transparent robot's landing: never on a coloured target (the rulebook, the
    default), or ``"clear_stops_on_targets": true``, the other reading."""
    landing = request.get("clear_stops_on_targets", False)
    if not isinstance(landing, bool):
        raise BadRequest("clear_stops_on_targets: true or false")
    return landing


def _path(board, pos, who, d, passes, landing=False):
    """One move as the page animates it; ``pos`` is updated."""
    start = pos[who]
    end = board.slide(pos, who, d, passes, landing)
    passed = []
    here, step, bit = start, rr.STEP[d], 1 << d
    while end >= 0 and here != end:
        if board.walls[here] & bit:
            passed.append(here)  # the wall on side d of this cell is passed
        here += step
    pos[who] = end if end >= 0 else start
    return {"robot": rr.ROBOT_NAMES[who], "dir": rr.DIRECTIONS[d], "passes": passes,
            "from": start, "to": pos[who], "legal": end >= 0, "passed": passed, "text": rr.format_move(who, d, passes)}


def solve(request, node_limit=None):
    """An optimal solution: ``count`` (None when there is none within ``max_moves``), the
    ``moves`` with their paths, ``nodes`` searched, ``seconds`` and ``engine``. With
    ``node_limit``: OutOfNodes when that many positions were searched first."""
    b, robots, target = _deal(request)
    ricochet = _rule(request)
    limit = request.get("max_moves", 30)
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_MOVES:
        raise BadRequest("max_moves: a whole number 1-%d" % MAX_MOVES)
    landing = _landing(request)
    result = solver.solve(b, robots, target, max_moves=limit, ricochet=ricochet,
                          clear_stops_on_targets=landing, node_limit=node_limit)
    if result.count is None and node_limit and getattr(result, "out_of_budget", False):
        raise OutOfNodes("the search gave up after %d positions (the server's budget)"
                         % result.nodes)
    pos = rr.new_robots(robots)
    moves = [_path(b, pos, w, d, k, landing) for w, d, k in result.moves]
    return {"count": result.count, "moves": moves, "nodes": result.nodes,
            "seconds": round(result.seconds, 4), "engine": result.engine,
            "ricochet": ricochet, "clear_stops_on_targets": landing,
            "target": rr.target_name(target)}


def _moves(request):
    given = _field(request, "moves")
    if not isinstance(given, list) or len(given) > MAX_MOVES:
        raise BadRequest("moves: a list of at most %d [robot, direction, passes]" % MAX_MOVES)
    moves = []
    for n, move in enumerate(given, 1):
        if (not isinstance(move, list) or len(move) != 3 or not isinstance(move[0], str)
                or not isinstance(move[1], str) or isinstance(move[2], bool)
                or not isinstance(move[2], int) or not 0 <= move[2] < rr.SIZE):
            raise BadRequest("moves: move %d: give [robot, direction, passes 0-15]" % n)
        try:
            who = rr.robot_index(move[0])
        except rr.RicochetError as e:
            raise BadRequest("moves: move %d: %s" % (n, e))
        d = rr.DIRECTIONS.find(move[1].upper())
        if len(move[1]) != 1 or d < 0:
            raise BadRequest("moves: move %d: direction must be N, E, S or W" % n)
        moves.append((who, d, move[2]))
    return moves


def demonstrate(request):
    """A demonstration judged as far as it has gone, as the handheld's referee does:
    stopped on the first broken rule. ``state`` is ``"going"`` (go on), ``"won"`` (the
    target completed within the bid) or ``"failed"``; ``reason`` one sentence;
    ``moves`` the moves so far with their paths (as ``solve``'s); ``count`` the moves
    made, passes included; ``robots`` where the robots stand now."""
    b, robots, target = _deal(request, prepare=False)  # (no search: no tables)
    ricochet = _rule(request)
    bid = _field(request, "bid")
    if isinstance(bid, bool) or not isinstance(bid, int) or not 1 <= bid <= MAX_MOVES:
        raise BadRequest("bid: a whole number 1-%d" % MAX_MOVES)
    moves = _moves(request)
    landing = _landing(request)
    verdict = rr.check(b, robots, target, moves, ricochet=ricochet,
                       clear_stops_on_targets=landing) if moves else None
    if verdict is not None and verdict.code == rr.ILLEGAL_MOVE:
        moves = moves[:verdict.move]  # the client never sends more after one
    pos = rr.new_robots(robots)
    paths = [_path(b, pos, w, d, k, landing) for w, d, k in moves]
    count = verdict.moves if verdict else 0
    if verdict is None:
        state, reason = "going", "bid %s: show it move by move" % rr.plural(bid, "move")
    elif verdict.code == rr.ILLEGAL_MOVE:
        state, reason = "failed", verdict.reason
    elif verdict.code == rr.CORRECT:
        if count <= bid:
            state, reason = "won", verdict.reason
        else:
            state = "failed"
            reason = "%s reaches the %s in %s, over the bid of %d" % (
                rr.ROBOT_NAMES[moves[-1][0]], rr.target_name(target), rr.plural(count, "move"),
                bid)
    elif verdict.code == rr.REACHED_EARLY:  # a client that went on after the end
        raise BadRequest("moves: the target was completed by move %d already" % verdict.move)
    elif count >= bid:
        state = "failed"
        reason = "%s made, the bid was %d: %s" % (rr.plural(count, "move"), bid, verdict.reason)
    else:
        state = "going"
        reason = "%s of %d" % (rr.plural(count, "move"), bid)
        if verdict.code == rr.NO_RICOCHET:
            reason += "; %s, it does not count" % verdict.reason
    return {"state": state, "reason": reason, "count": count, "moves": paths,
            "robots": {rr.ROBOT_NAMES[w]: pos[w] for w in range(rr.ROBOT_COUNT)
                       if pos[w] != rr.ABSENT}}


ROUTES = {"faces": faces, "board": board, "solve": solve, "demonstrate": demonstrate}
