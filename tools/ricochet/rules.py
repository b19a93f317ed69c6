"""Ricochet Robots with Micro Robots' transparent robot: the rules and a claim checker.

The 16x16 board is assembled from one face of each of the four double-sided quadrant
boards, given for the NW, NE, SE and SW quadrants (``Board("1A,2B,3A,4B")``). A cell is
``y * 16 + x``: x is the column 0-15 from the west, y the row 0-15 from the north.

A board is a ``bytearray(256)`` of wall bits per cell: ``1 << d`` for a wall on side ``d``
(N E S W = 0 1 2 3), and ``16 << d`` when that wall is *solid*: the outer edge or the central
barrier, which the transparent robot never passes. Every wall is stored on both cells it
separates. Robots are an ``array("h")`` of six cells (``new_robots``), in the order red,
green, blue, yellow, silver, clear; an absent robot holds ``ABSENT`` (-1), which no cell is.

The transparent ("clear") robot slides like the others and robots block it. When a wall
that is not solid stops it, it may pass through and slide on; each wall passed is one more
move. ``clear E+2`` passes the first two walls it meets. It completes only the vortex, and,
as the rules say in all four languages ("the only target space on which it can land is the
colored vortex"), no move of it may end on a coloured target's cell: such a move is not
legal (ON_TARGET). The other reading, that it may stop there and that does nothing, is the
option ``clear_stops_on_targets=True``.

The ricochet rule (Ricochet Robots' own: "On its way to the target space an active robot
must hit and ricochet off (turn right or left) an obstacle at least once", in the rules of
Alex Randolph's game; on by default, ``ricochet=False`` drops it): the robot that completes
the target must have turned at least once on its way, that is made a move along the other
axis (N-S against E-W) than its own previous move. A robot that stops on the target before
it has turned does not complete it and must go on.

    >>> board = Board("1A,4A,3B,2B")
    >>> robots = parse_robots("red=10,9 green=2,3 blue=11,13 yellow=2,15 clear=12,15")
    >>> claim = parse_moves("clear N, clear W, clear S+1")
    >>> check(board, robots, parse_target("vortex"), claim).reason
    'move 2 is not legal: clear W: the clear robot may land on no target but the vortex'
    >>> verdict = check(board, robots, parse_target("vortex"), claim,
    ...                 clear_stops_on_targets=True)
    >>> verdict.ok, verdict.moves
    (True, 4)
    >>> encode_game(board.faces, robots, VORTEX)
    '0B7P6ZBDXVGFEG'
    >>> board = Board("1B,4A,3A,2B")
    >>> robots = parse_robots("red=0,2 green=6,6 blue=0,10 yellow=1,1")
    >>> check(board, robots, parse_target("yellow hexagon"), parse_moves("yellow E")).reason
    'the yellow robot stops on the yellow hexagon without a ricochet: it never turned (ricochet rule)'
    >>> check(board, robots, parse_target("yellow hexagon"), parse_moves("yellow E"),
    ...       ricochet=False).ok
    True
"""

import sys
from array import array

# Also runs in MicroPython (host_tests: a claim checked there as here). On CPython const is
# the identity, and no module named micropython is looked for: a package of that name
# (type stubs) would cost a fresh command the import of typing.
if sys.implementation.name == "cpython":
    def const(value):
        return value
else:
    from micropython import const

SIZE = const(16)
CELLS = const(256)
ABSENT = const(-1)  # a robot not on the board: no cell is negative

DIRECTIONS = "NESW"
STEP = (-16, 1, 16, -1)

ROBOT_NAMES = ("red", "green", "blue", "yellow", "silver", "clear")
RED = const(0)
SILVER = const(4)
CLEAR = const(5)
ROBOT_COUNT = const(6)

COLOURS = ("red", "green", "blue", "yellow")
SHAPES = ("circle", "triangle", "square", "hexagon")
VORTEX = const(16)  # target index; a coloured target is colour * 4 + shape
TARGET_COUNT = const(17)

QUADRANTS = ("NW", "NE", "SE", "SW")
CENTRE = (0x77, 0x78, 0x87, 0x88)

# The eight faces as printed, each as if it lay in the NW quadrant (tools/ricochet/
# quadrants.txt has them in long form; a test keeps the two in step).
# A token is the cell's x and y digits, then either its walls (sides from N E S W) or a
# target: colour r g b y and shape c t s h (circle triangle square hexagon), or v (vortex).
FACES = {
    "1A": "10E 41NW 41rc 12NE 12gt 63SE 63yh 05S 36SW 36bs 77NESW",
    "2A": "30E 51SE 51gh 12SW 12rs 03S 64NW 64yc 26NE 26bt 77NESW",
    "3A": "30E 52SE 52bh 04S 24NE 24gc 75SW 75rt 16NW 16ys 77NESW",
    "4A": "30E 61SW 61bc 13NE 13yt 54NW 54gs 25SE 25rh 75SE 75v 06S 77NESW",
    "1B": "40E 61SE 61yh 12NW 12gt 05S 65NE 65bs 36SW 36rc 77NESW",
    "2B": "40E 21NW 21yc 63SW 63bt 04S 45NE 45rs 16SE 16gh 77NESW",
    "3B": "30E 11SW 11rt 62NE 62gc 24SE 24bh 05S 75NW 75ys 77NESW",
    "4B": "40E 21SE 21rh 13SW 13gs 04S 64NW 64yt 56NE 56bc 37SE 37v 77NESW",
}

# Verdict codes
CORRECT = const(0)
ILLEGAL_MOVE = const(1)
TARGET_MISSED = const(2)
REACHED_EARLY = const(3)
NO_RICOCHET = const(4)   # the right robot ends on the target but never turned

# How a robot has moved so far, for the ricochet rule (see after_move)
UNMOVED = const(0)
ACROSS = const(1)   # its moves so far were all E or W
ALONG = const(2)    # all N or S
TURNED = const(3)   # it has turned at least once

# Why a slide cannot be made (negative results of Board.slide)
NO_MOVE = const(-1)      # the robot would not leave its cell
CANNOT_PASS = const(-2)  # it meets fewer passable walls than asked
NOT_CLEAR = const(-3)    # only the transparent robot passes walls
NOT_PLACED = const(-4)   # that robot is not on the board
ON_TARGET = const(-5)    # the clear robot would land on a coloured target (the rulebook)


class RicochetError(ValueError):
    """Input that cannot be understood: a face, robot, target, move or game ID."""


def new_robots(cells=None):
    """Six robot cells as an ``array("h")``: ``cells`` copied, or every robot ABSENT."""
    return array("h", cells if cells is not None else (ABSENT,) * ROBOT_COUNT)


def after_move(state, d):
    """A robot's ricochet state (UNMOVED, ACROSS, ALONG, TURNED) after it moves in ``d``.

    A turn is a move along the other axis than the robot's own previous move, whatever the
    other robots did in between; moving back the way it came is not a turn.
    """
    axis = ACROSS if d & 1 else ALONG
    if state == TURNED or (state != UNMOVED and state != axis):
        return TURNED
    return axis


def cell(x, y):
    return y * SIZE + x


def xy(c):
    return c % SIZE, c // SIZE


def cell_name(c):
    return "(%d,%d)" % (c % SIZE, c // SIZE)


def turn(x, y, turns):
    """(x, y) of the 16x16 board after ``turns`` clockwise quarter turns."""
    for _ in range(turns & 3):
        x, y = SIZE - 1 - y, x
    return x, y


def parse_faces(text):
    """``"1A,2B,3A,4B"`` -> tuple of four face names for NW, NE, SE, SW.

    Each of the boards 1-4 must be used once, on side A or B.
    """
    parts = [p.strip().upper() for p in text.replace(" ", ",").split(",") if p.strip()]
    if len(parts) != 4:
        raise RicochetError("faces %r: give four, for NW,NE,SE,SW, e.g. 1A,2B,3A,4B" % text)
    used = ""
    for p in parts:
        if p not in FACES:
            raise RicochetError("unknown face %r (use 1A-4A or 1B-4B)" % p)
        if p[0] in used:
            raise RicochetError("faces %r: board %s is used twice" % (text, p[0]))
        used += p[0]
    return tuple(parts)


class Board:
    """Walls and targets of an assembled 16x16 board.

    ``walls`` is a bytearray(256) (see the module doc); ``targets`` a bytearray(17)
    giving the cell of each target index (colour * 4 + shape, or VORTEX).
    """

    def __init__(self, faces):
        faces = parse_faces(faces if isinstance(faces, str) else ",".join(faces))
        self.faces = faces
        walls = bytearray(CELLS)
        targets = bytearray(b"\xff" * TARGET_COUNT)
        self.walls = walls
        self.targets = targets
        # 1 on each coloured target's cell: where the clear robot may not land
        self.coloured = bytearray(CELLS)
        for quadrant in range(4):
            for token in FACES[self.faces[quadrant]].split():
                x, y = turn(int(token[0]), int(token[1]), quadrant)
                here = y * SIZE + x
                code = token[2:]
                if code[0] in "NESW":
                    for side in code:
                        self._wall(here, ("NESW".index(side) + quadrant) & 3, 0)
                elif code == "v":
                    targets[VORTEX] = here
                else:
                    targets["rgby".index(code[0]) * 4 + "ctsh".index(code[1])] = here
                    self.coloured[here] = 1
        for i in range(SIZE):  # the outer edge
            self._wall(i, 0, 1)
            self._wall(i * SIZE + SIZE - 1, 1, 1)
            self._wall((SIZE - 1) * SIZE + i, 2, 1)
            self._wall(i * SIZE, 3, 1)
        for c in CENTRE:
            for d in range(4):
                self._wall(c, d, 1)
        for t in range(TARGET_COUNT):
            if targets[t] == 0xFF:
                raise RicochetError("faces %s: no %s target" % (",".join(self.faces), target_name(t)))

    def _wall(self, here, d, solid):
        bits = (17 if solid else 1) << d
        self.walls[here] |= bits
        x, y = here % SIZE, here // SIZE
        if d == 0:
            y -= 1
        elif d == 1:
            x += 1
        elif d == 2:
            y += 1
        else:
            x -= 1
        if 0 <= x < SIZE and 0 <= y < SIZE:
            self.walls[y * SIZE + x] |= bits << 2 if d < 2 else bits >> 2

    def wall(self, here, d):
        """True when cell ``here`` has a wall on side ``d`` (0-3 = N E S W)."""
        return bool(self.walls[here] & (1 << d))

    def solid(self, here, d):
        """True when that wall is the outer edge or the central barrier."""
        return bool(self.walls[here] & (16 << d))

    def slide(self, robots, who, d, passes=0, clear_stops_on_targets=False):
        """Where robot ``who`` stops sliding in direction ``d`` after passing ``passes``
        walls, or a negative code: NO_MOVE, CANNOT_PASS, NOT_CLEAR, NOT_PLACED, ON_TARGET
        (the clear robot would end on a coloured target, unless ``clear_stops_on_targets``).

        Allocates nothing; ``robots`` is not changed.
        """
        start = robots[who]
        if start == ABSENT:
            return NOT_PLACED
        if passes and who != CLEAR:
            return NOT_CLEAR
        walls = self.walls
        step = STEP[d]
        bit = 1 << d
        here = start
        while True:
            w = walls[here]
            if w & bit:
                if not passes or w & (bit << 4):
                    break
                passing = True
            else:
                passing = False
            nxt = here + step
            blocked = False
            for i in range(ROBOT_COUNT):
                if robots[i] == nxt:
                    blocked = True
                    break
            if blocked:
                break
            if passing:
                passes -= 1
            here = nxt
        if passes:
            return CANNOT_PASS
        if here == start:
            return NO_MOVE
        if who == CLEAR and self.coloured[here] and not clear_stops_on_targets:
            return ON_TARGET
        return here

    def completes(self, who, here, target):
        """True when robot ``who`` stopping on ``here`` completes ``target``."""
        if self.targets[target] != here:
            return False
        if target == VORTEX:
            return True
        return who == target >> 2

    def target_at(self, here):
        """Index of the target on cell ``here``, or -1."""
        for t in range(TARGET_COUNT):
            if self.targets[t] == here:
                return t
        return -1


def plural(n, word):
    """``plural(1, "move")`` -> "1 move", ``plural(4, "move")`` -> "4 moves"."""
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def target_name(t):
    if t == VORTEX:
        return "vortex"
    return COLOURS[t >> 2] + " " + SHAPES[t & 3]


def parse_target(text):
    """``"red circle"`` or ``"vortex"`` -> target index."""
    words = text.lower().replace("-", " ").replace("_", " ").split()
    if words in (["vortex"], ["any", "vortex"], ["any"]):
        return VORTEX
    if len(words) == 2 and words[0] in COLOURS and words[1] in SHAPES:
        return COLOURS.index(words[0]) * 4 + SHAPES.index(words[1])
    raise RicochetError("unknown target %r (use e.g. \"red circle\" or vortex)" % text)


def robot_index(name):
    n = name.strip().lower()
    for i in range(ROBOT_COUNT):
        if n == ROBOT_NAMES[i] or (len(n) == 1 and n == ROBOT_NAMES[i][0]):
            return i
    if n in ("transparent", "x"):
        return CLEAR
    raise RicochetError("unknown robot %r (use red green blue yellow silver clear)" % name)


def _coordinate(text, what):
    try:
        v = int(text)
    except ValueError:
        v = -1
    if not 0 <= v < SIZE:
        raise RicochetError("%s: %r is not a coordinate 0-15" % (what, text))
    return v


def parse_robots(text):
    """``"red=X,Y green=X,Y blue=X,Y yellow=X,Y [silver=X,Y] [clear=X,Y]"`` -> bytearray(6).

    Red, green, blue and yellow are required; no two robots may share a cell and none may
    stand in the central barrier.
    """
    robots = new_robots()
    for item in text.split():
        name, eq, where = item.partition("=")
        if not eq:
            raise RicochetError("robot %r: write NAME=X,Y" % item)
        who = robot_index(name)
        if robots[who] != ABSENT:
            raise RicochetError("robot %s is placed twice" % ROBOT_NAMES[who])
        parts = where.split(",")
        if len(parts) != 2:
            raise RicochetError("robot %r: write NAME=X,Y" % item)
        here = cell(_coordinate(parts[0], item), _coordinate(parts[1], item))
        if here in CENTRE:
            raise RicochetError("robot %s at %s is inside the central barrier"
                                % (ROBOT_NAMES[who], cell_name(here)))
        robots[who] = here
    validate_robots(robots)
    return robots


def validate_robots(robots):
    """Raise RicochetError unless ``robots`` is a legal placement."""
    for who in range(ROBOT_COUNT):
        here = robots[who]
        if here == ABSENT:
            if who < SILVER:
                raise RicochetError("robot %s is missing" % ROBOT_NAMES[who])
            continue
        if not 0 <= here < CELLS:
            raise RicochetError("robot %s: %d is not a cell 0-255" % (ROBOT_NAMES[who], here))
        if here in CENTRE:
            raise RicochetError("robot %s at %s is inside the central barrier"
                                % (ROBOT_NAMES[who], cell_name(here)))
        for other in range(who):
            if robots[other] == here:
                raise RicochetError("robots %s and %s are both at %s"
                                    % (ROBOT_NAMES[other], ROBOT_NAMES[who], cell_name(here)))


def format_robots(robots):
    out = []
    for who in range(ROBOT_COUNT):
        if robots[who] != ABSENT:
            out.append("%s=%d,%d" % ((ROBOT_NAMES[who],) + xy(robots[who])))
    return " ".join(out)


def parse_moves(text):
    """``"red N, clear E+1, green S"`` -> list of (robot, direction, passes).

    Moves are separated by commas (or semicolons); ``+k`` after the direction lets the
    transparent robot pass the first k walls it meets.
    """
    moves = []
    for n, item in enumerate(text.replace(";", ",").split(","), 1):
        words = item.replace("+", " +").split()
        if not words:
            continue
        if len(words) == 3 and words[2][0] == "+":
            count = words[2][1:]
        elif len(words) == 2:
            count = "0"
        else:
            raise RicochetError("move %d %r: write ROBOT DIR[+k], e.g. red N or clear E+1"
                                % (n, item.strip()))
        who = robot_index(words[0])
        d = DIRECTIONS.find(words[1].upper())
        if len(words[1]) != 1 or d < 0:
            raise RicochetError("move %d %r: direction must be N, E, S or W" % (n, item.strip()))
        if not _digits(count):
            raise RicochetError("move %d %r: +k needs a number" % (n, item.strip()))
        passes = int(count)
        if passes and who != CLEAR:
            raise RicochetError("move %d %r: only the clear robot passes walls"
                                % (n, item.strip()))
        moves.append((who, d, passes))
    return moves


def _digits(text):
    """One to three ASCII digits (str.isdigit also takes "²", which int() refuses)."""
    if not 1 <= len(text) <= 3:
        return False
    for ch in text:
        if not "0" <= ch <= "9":
            return False
    return True


def format_move(who, d, passes):
    text = "%s %s" % (ROBOT_NAMES[who], DIRECTIONS[d])
    return text + "+%d" % passes if passes else text


class Verdict:
    """The outcome of checking a claim: ``ok``, the ``moves`` it counts (slides plus
    walls passed), a ``code`` and, when it fails, the 1-based ``move`` at fault.
    ``ricochet`` says whether the ricochet rule was in force; ``reason`` is one sentence
    for the player.
    """

    def __init__(self, code, moves, move=0, detail="", ricochet=True):
        self.code = code
        self.moves = moves
        self.move = move
        self.detail = detail
        self.ricochet = ricochet

    @property
    def ok(self):
        return self.code == CORRECT

    @property
    def reason(self):
        if self.code == CORRECT:
            return "correct: %s" % self.detail
        if self.code == ILLEGAL_MOVE:
            return "move %d is not legal: %s" % (self.move, self.detail)
        if self.code == REACHED_EARLY:
            return "the target is already reached after move %d: %s" % (self.move, self.detail)
        if self.code == NO_RICOCHET:
            return "%s without a ricochet: it never turned (ricochet rule)" % self.detail
        return "the target is not reached: %s" % self.detail

    def __repr__(self):
        return "<Verdict %s>" % self.reason


_WHY = {
    NO_MOVE: "the robot does not move",
    CANNOT_PASS: "the clear robot cannot pass that many walls",
    NOT_CLEAR: "only the clear robot passes walls",
    NOT_PLACED: "that robot is not on the board",
    ON_TARGET: "the clear robot may land on no target but the vortex",
}


def check(board, robots, target, moves, ricochet=True, clear_stops_on_targets=False):
    """Check a claimed solution: ``moves`` is a list of (robot, direction, passes).

    The claim is correct when every move is legal and its last move, and no earlier
    one, completes ``target``. Under the ricochet rule (``ricochet=True``, the default) a
    robot completes the target only once it has turned (see ``after_move``); stopping
    there before does not count. A move of the clear robot that ends on a coloured
    target is not legal, unless ``clear_stops_on_targets`` (the other reading: it may stop
    there, which does nothing). ``robots`` is not changed.
    """
    pos = new_robots(robots)
    state = bytearray(ROBOT_COUNT)  # UNMOVED
    total = 0
    for move in moves:
        total += 1 + move[2]
    name = target_name(target)
    for n in range(len(moves)):
        who, d, passes = moves[n]
        here = board.slide(pos, who, d, passes, clear_stops_on_targets)
        if here < 0:
            return Verdict(ILLEGAL_MOVE, total, n + 1,
                           "%s: %s" % (format_move(who, d, passes), _WHY[here]), ricochet)
        pos[who] = here
        state[who] = after_move(state[who], d)
        if board.completes(who, here, target):
            if ricochet and state[who] != TURNED:
                if n + 1 == len(moves):
                    return Verdict(NO_RICOCHET, total, n + 1, "the %s robot stops on the %s"
                                   % (ROBOT_NAMES[who], name), ricochet)
                continue
            if n + 1 < len(moves):
                return Verdict(REACHED_EARLY, total, n + 1,
                               "%s stops on the %s" % (ROBOT_NAMES[who], name), ricochet)
            return Verdict(CORRECT, total, n + 1, "%s reaches the %s in %s"
                           % (ROBOT_NAMES[who], name, plural(total, "move")), ricochet)
    spot = board.targets[target]
    if target == VORTEX:
        detail = "no robot stops on the vortex at %s" % cell_name(spot)
    else:
        who = target >> 2
        detail = "%s ends at %s, the %s is at %s" % (
            ROBOT_NAMES[who], cell_name(pos[who]), name, cell_name(spot))
    return Verdict(TARGET_MISSED, total, len(moves), detail, ricochet)


# -- game IDs: one short string for faces, robots and target ------------------------------
_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32: no I L O U
_ID_DIGITS = const(13)


def _permutations():
    out = []
    for a in "1234":
        for b in "1234":
            for c in "1234":
                for d in "1234":
                    if len(set(a + b + c + d)) == 4:
                        out.append(a + b + c + d)
    return out


def encode_game(faces, robots, target):
    """The game ID (14 characters) of a deal; ``decode_game`` reverses it."""
    if isinstance(faces, str):
        faces = parse_faces(faces)
    order = "".join(f[0] for f in faces)
    sides = 0
    for q in range(4):
        sides = sides * 2 + (faces[q][1] == "B")
    v = (_permutations().index(order) * 16 + sides) * TARGET_COUNT + target
    for who in range(ROBOT_COUNT):
        here = robots[who]
        if who < SILVER:
            v = v * 256 + here
        else:
            v = v * 257 + (256 if here == ABSENT else here)
    check_digit = v % 31
    text = ""
    for _ in range(_ID_DIGITS):
        text = _ALPHABET[v & 31] + text
        v >>= 5
    return text + _ALPHABET[check_digit]


def decode_game(text):
    """Game ID -> (faces, robots, target). Raises RicochetError naming the problem."""
    t = text.strip().upper().replace("-", "").replace("O", "0").replace("I", "1").replace("L", "1")
    if len(t) != _ID_DIGITS + 1:
        raise RicochetError("game ID %r: expected 14 characters" % text)
    v = 0
    for ch in t[:-1]:
        d = _ALPHABET.find(ch)
        if d < 0:
            raise RicochetError("game ID %r: %r is not a game ID character" % (text, ch))
        v = v * 32 + d
    if _ALPHABET.find(t[-1]) != v % 31:
        raise RicochetError("game ID %r: check character does not match (a typo?)" % text)
    robots = new_robots()
    for who in range(ROBOT_COUNT - 1, -1, -1):
        if who < SILVER:
            v, here = divmod(v, 256)
        else:
            v, here = divmod(v, 257)
            if here == 256:
                here = ABSENT
        robots[who] = here
    v, target = divmod(v, TARGET_COUNT)
    perm, sides = divmod(v, 16)
    if perm >= 24:
        raise RicochetError("game ID %r: not a deal" % text)
    order = _permutations()[perm]
    faces = tuple(order[q] + "AB"[(sides >> (3 - q)) & 1] for q in range(4))
    try:
        validate_robots(robots)
    except RicochetError as e:
        raise RicochetError("game ID %r: %s" % (text, e))
    return faces, robots, target
