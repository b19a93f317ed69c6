"""The Micro Robots board: 36 dice faces on a 6x6 grid.

Cells are numbered 0..35 row-major (``row * 6 + col``). Each cell holds one die face:
a colour (0..5 in the order blue, yellow, green, red, pink, white) and a number 1..6.
Every colour-number pair occurs exactly once.

A layout comes from text (six lines of six tokens such as ``G3``), from the game's four
double-sided 3x3 boards (``Layout.from_tiles("black", "CADB0312")``), or from a short
name (``Layout.named("copper:ABCD0000")``).
"""

from ..compat import const

SIZE = const(6)
CELLS = const(36)

_COLOUR_LETTERS = const("BYGRPW")
COLOUR_NAMES = ("blue", "yellow", "green", "red", "pink", "white")
SIDES = ("black", "copper")

# The four boards of each side as printed, row-major, boards A-D.
# Only the relative orientation of each tile matters to a table: turns are counted
# clockwise from these transcriptions.
TILES = {
    "black": (
        "W6 B6 B2 R3 Y4 W3 B3 G4 W5",
        "P5 P2 P3 R6 R4 Y3 B4 G5 G3",
        "B1 R2 W4 W1 G2 G6 Y2 W2 P4",
        "P1 Y6 Y1 Y5 B5 R5 P6 R1 G1",
    ),
    "copper": (
        "P2 G3 P4 W4 W5 W1 P1 G5 G4",
        "W3 G2 R5 G1 W2 G6 Y3 Y1 R1",
        "B2 Y6 P5 B4 W6 P6 B3 Y4 B1",
        "P3 R6 R2 B6 Y2 R3 B5 Y5 R4",
    ),
}

DEFAULT_LAYOUT = "black:ABCD0000"


class LayoutError(ValueError):
    """A layout, tile code or cell token that cannot be understood."""


def parse_cell(text):
    """Return ``(colour, number)`` for a cell token.

    Accepts ``G3``, ``g3``, ``3-green`` and ``green-3``. Raises LayoutError.
    """
    t = text.strip().lower()
    if "-" in t:
        a, _, b = t.partition("-")
        if a.isdigit():
            a, b = b, a
        if a not in COLOUR_NAMES:
            raise LayoutError("unknown colour %r in %r" % (a, text))
        colour = COLOUR_NAMES.index(a)
        num = b
    else:
        if len(t) < 2 or t[0].upper() not in _COLOUR_LETTERS:
            raise LayoutError("unknown colour in %r (use B Y G R P W)" % text)
        colour = _COLOUR_LETTERS.index(t[0].upper())
        num = t[1:]
    if not (len(num) == 1 and "1" <= num <= "6"):
        raise LayoutError("unknown number in %r (use 1-6)" % text)
    return colour, int(num)


def cell_token(colour, number):
    """The short token of a die face, e.g. ``G3``."""
    return _COLOUR_LETTERS[colour] + str(number)


# Where die k (row-major) of a printed board lies, as row * 6 + column within its
# quadrant, after 0-3 clockwise quarter turns (a turn takes row r, column c to row c,
# column 2 - r): entry turns * 9 + k. (from_tiles; the settings' guide draws with it)
TURNED = (b"\x00\x01\x02\x06\x07\x08\x0c\x0d\x0e"  # as printed
          b"\x02\x08\x0e\x01\x07\x0d\x00\x06\x0c"  # one turn
          b"\x0e\x0d\x0c\x08\x07\x06\x02\x01\x00"  # two
          b"\x0c\x06\x00\x0d\x07\x01\x0e\x08\x02")  # three
_DICE = {}  # side -> dice(side)


def dice(side):
    """The dice of the four printed boards of ``side``: 36 bytes, board A's 9 first,
    each ``colour << 3 | number`` (made once per side, then kept)."""
    dice = _DICE.get(side)
    if dice is None:
        dice = _DICE[side] = bytearray(36)
        for k, token in enumerate(" ".join(TILES[side]).split()):
            colour, number = parse_cell(token)
            dice[k] = colour << 3 | number
    return dice


class Layout:
    """Which die face lies on each of the 36 cells.

    ``colours`` and ``numbers`` are bytearrays indexed by cell. ``name`` is the
    compact ``side:CODE`` form when the layout was built from the game's tiles,
    else ``None``.
    """

    def __init__(self, colours, numbers, name=None):
        self.colours = bytearray(colours)
        self.numbers = bytearray(numbers)
        self.name = name
        # cell by pair, so index() is a lookup: slot colour*6 + number-1
        self._where = bytearray(CELLS)
        for i in range(CELLS):
            self._where[self.colours[i] * 6 + self.numbers[i] - 1] = i

    # -- construction -------------------------------------------------------
    @classmethod
    def parse(cls, text):
        """Read six lines of six tokens; ``#`` starts a comment.

        Errors name the line (1-based, as in the text) and column (1-6).
        """
        colours = bytearray()
        numbers = bytearray()
        seen = {}
        row = 0
        for lineno, line in enumerate(text.split("\n"), 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if "," in line:  # a spreadsheet's CSV: the commonest wrong file
                raise LayoutError("line %d: a comma; separate the 6 cells with spaces, not "
                                  "commas" % lineno)
            tokens = line.split()
            if row == SIZE:
                raise LayoutError("line %d: more than 6 rows" % lineno)
            if len(tokens) != SIZE:
                raise LayoutError("line %d: %d cell%s, expected 6"
                                  % (lineno, len(tokens), "" if len(tokens) == 1 else "s"))
            for col, tok in enumerate(tokens, 1):
                try:
                    colour, number = parse_cell(tok)
                except LayoutError as e:
                    raise LayoutError("line %d, column %d: %s" % (lineno, col, e))
                key = colour * 6 + number - 1
                if key in seen:
                    raise LayoutError(
                        "line %d, column %d: %s appears twice (first at %s); missing: %s"
                        % (lineno, col, cell_token(colour, number), seen[key],
                           _missing(text)))
                seen[key] = "line %d, column %d" % (lineno, col)
                colours.append(colour)
                numbers.append(number)
            row += 1
        if row < SIZE:
            raise LayoutError("only %d row%s, expected 6" % (row, "" if row == 1 else "s"))
        return cls(colours, numbers)

    @classmethod
    def from_tiles(cls, side, arrangement):
        """Assemble the four boards of ``side`` ("black" or "copper").

        ``arrangement`` is 8 characters: the boards in the top-left, top-right,
        bottom-left and bottom-right quadrants (a permutation of ``ABCD``), then
        each quadrant's clockwise quarter turns (0-3). ``ABCD0000`` is each board
        as transcribed.
        """
        side = side.strip().lower()
        if side not in TILES:
            raise LayoutError("unknown side %r (use black or copper)" % side)
        code = arrangement.strip().upper()
        if (len(code) != 8 or sorted(code[:4]) != ["A", "B", "C", "D"]
                or any(ch not in "0123" for ch in code[4:])):
            raise LayoutError(
                "bad arrangement %r: 4 boards (a permutation of ABCD) then 4 turns 0-3, "
                "e.g. CADB0312" % arrangement)
        colours = bytearray(CELLS)
        numbers = bytearray(CELLS)
        faces = dice(side)
        for q in range(4):
            board = (ord(code[q]) - 65) * 9
            place = (ord(code[4 + q]) - 48) * 9
            corner = (q // 2) * 18 + (q % 2) * 3
            for k in range(9):
                i = corner + TURNED[place + k]
                d = faces[board + k]
                colours[i] = d >> 3
                numbers[i] = d & 7
        return cls(colours, numbers, side + ":" + code)

    @classmethod
    def named(cls, name):
        """A layout from its compact name: ``black:CADB0312`` or just ``copper``."""
        side, _, code = name.strip().partition(":")
        return cls.from_tiles(side, code or "ABCD0000")

    # -- queries ------------------------------------------------------------
    def colour(self, i):
        """Colour of cell ``i``: 0..5 for B Y G R P W."""
        return self.colours[i]

    def number(self, i):
        """Number (1..6) of cell ``i``."""
        return self.numbers[i]

    def token(self, i):
        """The cell's die as a token, e.g. ``G3``."""
        return cell_token(self.colours[i], self.numbers[i])

    def index(self, token):
        """The cell holding a die given as ``G3``, ``3-green`` or ``green-3``."""
        colour, number = parse_cell(token)
        return self._where[colour * 6 + number - 1]

    def cell_of(self, colour, number):
        """The cell holding the die (colour, number): what two dice roll."""
        return self._where[colour * 6 + number - 1]

    def __eq__(self, other):
        return (isinstance(other, Layout) and self.colours == other.colours
                and self.numbers == other.numbers)

    def __str__(self):
        rows = []
        for r in range(SIZE):
            rows.append(" ".join(self.token(r * SIZE + c) for c in range(SIZE)))
        return "\n".join(rows) + "\n"

    def __repr__(self):
        return "Layout.named(%r)" % self.name if self.name else "Layout.parse(%r)" % str(self)


def _missing(text):
    """Pairs absent from the whole text, to help fix a duplicated one."""
    present = set()
    for line in text.split("\n"):
        for tok in line.split("#", 1)[0].split():
            try:
                c, n = parse_cell(tok)
            except LayoutError:
                continue
            present.add(c * 6 + n - 1)
    gone = [cell_token(k // 6, k % 6 + 1) for k in range(CELLS) if k not in present]
    return " ".join(gone) if gone else "none"

