"""Reading a game back from text, checked: decisions, share strings, saved games; and
writing a share string, and reading a layout written as text.

``Game.apply``, ``Game.replay``, ``Game.from_dict``, ``Game.share`` and ``Layout.parse``
hand over to the functions here (game.py writes a saved game and the decisions itself). Only loading a game needs them, at boot or when
a mode comes back from the menu, so the app unloads this module afterwards: on a Pico
its code would otherwise sit in the heap between two loads. The formats are described
in docs/game.md.
"""

from .board import CELLS, SIZE, Layout, LayoutError, cell_token, parse_cell
from .compat import const
from .game import (
    _BASE36, _OLD_SHARE_PREFIX, FORMAT, GIVE_UP, MAX_CLAIM, OUTCOME_LETTERS, POOL, SHARE_PREFIX,
    VERSION, WIN_TOKENS, GameError, GameStateError, _is_int,
)
from .solver import BELOW_OPTIMUM, CORRECT, ILLEGAL_MOVE, WAYPOINT_MISSED

_STATE_KEYS = ("start", "target", "waypoint", "pool", "tokens", "winners", "over",
               "score", "streak", "best_streak", "extra")
_BASE_KEYS = ("round", "rng", "start", "pool", "tokens", "score", "streak", "best_streak",
              "extra", "last_extra")
_CONFIG_KEYS = ("format", "version", "layout", "players", "expert", "seed", "difficulty",
                "decisions")
# The most decisions read from one text. The firmware writes fewer than 64 (older ones
# fold into the base, see docs/game.md); older saves and share strings kept every
# decision, and no game reaches 1,000 rounds. A decision takes 1 to 13 characters, so a
# longer text is refused before any is made: 100 KB of "-" costs nothing.
MAX_DECISIONS = const(1000)
_MAX_DECISION_CHARS = const(13)


def _digits(text):
    """Only ASCII digits, one to ten of them (str.isdigit also accepts a superscript 2;
    no number of a share string has more, and int() of thousands would be slow)."""
    if not text or len(text) > 10:
        return False
    for ch in text:
        if not "0" <= ch <= "9":
            return False
    return True


def _short(value):
    """``repr(value)`` cut to 40 characters, for a one-line message."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _same(a, b):
    """Equal and of the same types (so 1 != True != 1.0), lists element by element."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        if len(a) != len(b):
            return False
        for i in range(len(a)):
            if not _same(a[i], b[i]):
                return False
        return True
    return a == b


def apply(game, text, where="decisions", pause=None):
    """Make the decisions written in ``text`` (as ``decision_text()`` writes them).

    For replays and tools: ``apply(game, "b3o-")``. Each decision must be one that
    could have happened (a claim's outcome agrees with its count and the optimum);
    GameStateError names the first one that could not, with ``where`` in front.
    Decisions before it stay made. ``pause``: called before each decision.
    """
    if not isinstance(text, str):
        raise GameStateError("%s: decisions must be text, not %s" % (where, _short(text)))
    i = 0
    n = len(text)
    k = 0
    if n > MAX_DECISIONS * _MAX_DECISION_CHARS:
        raise GameStateError("%s: over %d decisions" % (where, MAX_DECISIONS))
    while i < n:
        k += 1
        if k > MAX_DECISIONS:
            raise GameStateError("%s: over %d decisions" % (where, MAX_DECISIONS))
        if pause is not None:
            pause()
        if game.over:
            raise GameStateError("%s: decision %d comes after the end of the game" % (where, k))
        ch = text[i]
        if ch == "-":
            game._decide(GIVE_UP, 0)
            i += 1
            continue
        player = ord(ch) - 97
        if not 0 <= player < game.players:
            raise GameStateError("%s: decision %d: %r is not %s" % (
                where, k, ch, "the one player, a" if game.players == 1
                else "one of the %d players" % game.players))
        j = i + 1
        while j < n and "0" <= text[j] <= "9":
            j += 1
        if j == i + 1 or j - i > 6:
            raise GameStateError("%s: decision %d: bad move count" % (where, k))
        _canonical(text, i + 1, j, where, k)
        count = int(text[i + 1:j])
        code = OUTCOME_LETTERS.find(text[j]) if j < n else -1
        if count > MAX_CLAIM or code < 0:
            raise GameStateError("%s: decision %d: bad move count or outcome" % (where, k))
        letter = text[j]
        j += 1
        move = 0
        if code == ILLEGAL_MOVE:  # which move: 1 to one past the claim (none: an old save)
            m = j
            while j < n and "0" <= text[j] <= "9":
                j += 1
            if j > m:
                move = int(text[m:j]) if j - m <= len(str(count + 1)) else 0
                if not 1 <= move <= count + 1:
                    raise GameStateError("%s: decision %d: the illegal move must be 1 to %d,"
                                         " not %s" % (where, k, count + 1, text[m:j]))
                _canonical(text, m, j, where, k)
        low = count < game._optimum
        if (code == BELOW_OPTIMUM) != low or (
                code == CORRECT and not game.claim_possible(count)):
            raise GameStateError("%s: decision %d: outcome %r cannot follow a claim of %d"
                                 " (optimum %d)" % (where, k, letter, count, game._optimum))
        if code == WAYPOINT_MISSED and game.waypoint is None:
            raise GameStateError("%s: decision %d: no waypoint this round" % (where, k))
        game._decide(player | code << 3, count, move)
        i = j


def replay(cls, text):
    """The game a ``share()`` string describes, replayed; GameStateError if it is bad."""
    where = "share string"
    if not isinstance(text, str):
        raise GameStateError("%s: expected text, not %s" % (where, _short(text)))
    if len(text) > MAX_DECISIONS * _MAX_DECISION_CHARS + 200:  # (the rest: under 200)
        raise GameStateError("%s: over %d decisions" % (where, MAX_DECISIONS))
    parts = text.strip().split(".")
    base = parts[4] if len(parts) > 4 and parts[4][:1] == "@" else None
    if parts[0] not in (SHARE_PREFIX, _OLD_SHARE_PREFIX) or not 4 <= len(parts) <= (
            6 if base else 5):
        raise GameStateError("%s: expected %s.<players>.<seed>.<layout>[.<decisions>], got %r"
                             % (where, SHARE_PREFIX, text[:40]))
    opts = parts[1]
    j = 0
    while j < len(opts) and "0" <= opts[j] <= "9":
        j += 1
    expert = opts[j:j + 1] == "x"
    rest = opts[j + 1:] if expert else opts[j:]
    if j != 1 or (rest and (rest[0] != "d" or not _digits(rest[1:]))):
        raise GameStateError("%s: bad options %s (players, then x, then d<difficulty>)"
                             % (where, _short(opts)))
    difficulty = int(rest[1:]) if rest else 0
    if not _digits(parts[2]):
        raise GameStateError("%s: bad seed %s" % (where, _short(parts[2])))
    layout = _share_layout(parts[3], where)
    try:
        game = cls(layout, int(opts[:j]), expert, int(parts[2]), difficulty)
    except GameError as e:
        raise GameStateError("%s: %s" % (where, e))
    if base is not None:
        fields = base[1:].split(":")
        ok = len(fields) == 10 and len(fields[1]) == 8 and len(fields[4]) == game.players
        for k in range(10):
            ok = ok and (k == 1 or _digits(fields[k]))
        if ok:
            try:
                rng = int(fields[1], 16)
            except ValueError:
                ok = False
        if not ok:
            raise GameStateError("%s: bad base %r" % (where, base[:40]))
        set_base(game, int(fields[0]), [rng >> 16, rng & 0xFFFF], int(fields[2]),
                       int(fields[3]), [int(t) for t in fields[4]], int(fields[5]),
                       int(fields[6]), int(fields[7]), int(fields[8]), int(fields[9]),
                       where)
    apply(game, parts[-1] if len(parts) == (6 if base else 5) else "", where)
    return game


def set_base(game, folded, rng, start, pool, tokens, score, streak, best, extra, last,
              where):
    """Start this fresh game from a base read from a file or a share string; checks
    what can be checked without its history (GameStateError)."""
    ok = True
    for v in (folded, start, pool, score, streak, best, extra, last):
        ok = ok and _is_int(v) and v >= 0
    ok = ok and isinstance(rng, list) and len(rng) == 2
    ok = ok and isinstance(tokens, list) and len(tokens) == game.players
    if ok:
        for v in rng + tokens:
            ok = ok and _is_int(v) and v >= 0
    if not ok:
        raise GameStateError("%s: base: a field has the wrong type or sign" % where)
    why = None
    if folded < 1:
        why = "round must be 1 or more"
    elif rng[0] > 0xFFFF or rng[1] > 0xFFFF or rng[0] == rng[1] == 0:
        why = "bad generator state"
    elif start >= CELLS or game.solver.degree(start) == 0:
        why = "bad start cell %r" % start
    elif max(tokens) >= WIN_TOKENS or (game.players == 1 and (pool != POOL or tokens[0])):
        why = "bad tokens %r" % tokens
    elif game.players > 1 and (pool == 0 or pool + sum(tokens) != POOL):
        why = "pool %d and tokens %r do not add up to %d" % (pool, tokens, POOL)
    elif not streak <= best <= score <= folded or last > extra:
        why = "inconsistent statistics"
    if why is not None:
        raise GameStateError("%s: base: %s" % (where, why))
    game._base = (folded, rng[0], rng[1], start, pool, tuple(tokens), score, streak, best,
                  extra, last)
    game._log = bytearray()
    game._reset()


def from_dict(cls, d, solver=None, pause=None):
    """The game a ``to_dict()`` describes, or GameStateError (one line); never half-loaded.

    The decisions are replayed from the configuration (and the base, when a long
    game folded its oldest decisions) and every saved state field must agree.
    """
    where = "saved game"
    if not isinstance(d, dict):
        raise GameStateError("%s: expected a JSON object, not %s" % (where, type(d).__name__))
    fmt = d.get("format")
    if fmt != FORMAT:
        raise GameStateError("%s: not a Micro Robots game (format %s)" % (where, _short(fmt)))
    version = d.get("version")
    if not _is_int(version) or version < 1:
        raise GameStateError("%s: bad format version %s" % (where, _short(version)))
    if version > VERSION:
        raise GameStateError("%s: format version %d is newer than this firmware reads (%d)"
                             % (where, version, VERSION))
    based = version >= 2 and "base" in d
    for key in _CONFIG_KEYS + _STATE_KEYS:
        if key not in d:
            raise GameStateError("%s: truncated, %r is missing" % (where, key))
    if len(d) != len(_CONFIG_KEYS) + len(_STATE_KEYS) + based:
        for key in d:
            if key not in _CONFIG_KEYS and key not in _STATE_KEYS and not (
                    based and key == "base"):
                raise GameStateError("%s: unknown field %s" % (where, _short(key)))
    layout = _saved_layout(d["layout"], where)
    if pause is not None:
        pause()
    for key in ("players", "seed", "difficulty"):
        if not _is_int(d[key]):
            raise GameStateError("%s: %s must be an integer, not %s" % (where, key, _short(d[key])))
    if not isinstance(d["expert"], bool):
        raise GameStateError("%s: expert must be true or false, not %s" % (where, _short(d["expert"])))
    try:
        game = cls(layout, d["players"], d["expert"], d["seed"], d["difficulty"], solver)
    except GameError as e:
        raise GameStateError("%s: %s" % (where, e))
    if based:
        b = d["base"]
        if not isinstance(b, dict) or len(b) != len(_BASE_KEYS):
            raise GameStateError("%s: base must be an object of %d fields"
                                 % (where, len(_BASE_KEYS)))
        for key in _BASE_KEYS:
            if key not in b:
                raise GameStateError("%s: base: %r is missing" % (where, key))
        set_base(game, b["round"], b["rng"], b["start"], b["pool"], b["tokens"],
                       b["score"], b["streak"], b["best_streak"], b["extra"],
                       b["last_extra"], where)
    apply(game, d["decisions"], where, pause)  # in canonical form, or refused
    if pause is not None:
        pause()
    mine = game.to_dict()
    for key in _STATE_KEYS:
        if not _same(d[key], mine[key]):
            raise GameStateError("%s: %s is %s but its decisions give %s"
                                 % (where, key, _short(d[key]), _short(mine[key])))
    return game


def _canonical(text, i, j, where, k):
    """Digits ``text[i:j]`` as decision_text() writes them: no leading zero."""
    if text[i] == "0" and j > i + 1:
        raise GameStateError("%s: decision %d: %r should be written %r"
                             % (where, k, text[i:j], str(int(text[i:j]))))


def _share_layout(text, where):
    if len(text) == CELLS and ":" not in text:
        colours = bytearray(CELLS)
        numbers = bytearray(CELLS)
        seen = bytearray(CELLS)
        for i in range(CELLS):
            v = _BASE36.find(text[i])
            if v < 0 or seen[v]:
                raise GameStateError("%s: bad custom layout at cell %d" % (where, i))
            seen[v] = 1
            colours[i] = v // 6
            numbers[i] = v % 6 + 1
        return Layout(colours, numbers)
    try:
        layout = Layout.named(text)
    except LayoutError as e:
        raise GameStateError("%s: layout: %s" % (where, e))
    if layout.name != text:
        raise GameStateError("%s: layout %s should be written %r" % (where, _short(text), layout.name))
    return layout


def _saved_layout(value, where):
    if isinstance(value, str):
        layout = _share_layout(value, where) if ":" in value else None
        if layout is None:
            raise GameStateError("%s: layout %s is not a name like black:CADB0312" % (where, _short(value)))
        return layout
    if not isinstance(value, list) or len(value) != CELLS:
        raise GameStateError("%s: layout must be a name or a list of 36 cells" % where)
    for tok in value:
        if not isinstance(tok, str):
            raise GameStateError("%s: layout cell %s is not text" % (where, _short(tok)))
    rows = [" ".join(value[r * 6:r * 6 + 6]) for r in range(6)]
    try:
        layout = parse_layout(Layout, "\n".join(rows))
    except LayoutError as e:
        raise GameStateError("%s: layout: %s" % (where, e))
    for i in range(CELLS):
        if layout.token(i) != value[i]:
            raise GameStateError("%s: layout cell %d should be written %r"
                                 % (where, i, layout.token(i)))
    return layout


def share(game):
    """``game.share()``: the share string that replays ``game`` (see Game.share)."""
    opts = "%d%s%s" % (game.players, "x" if game.expert else "",
                       "d%d" % game.difficulty if game.difficulty else "")
    name = game.layout.name
    if name is None:
        lay = game.layout
        name = "".join(_BASE36[lay.colours[i] * 6 + lay.numbers[i] - 1] for i in range(CELLS))
    text = "%s.%s.%d.%s" % (SHARE_PREFIX, opts, game.seed, name)
    b = game._base
    if b is not None:
        text += ".@%d:%04x%04x:%d:%d:%s:%d:%d:%d:%d:%d" % (
            b[0], b[1], b[2], b[3], b[4], "".join(str(t) for t in b[5]), b[6], b[7], b[8],
            b[9], b[10])
    decisions = game.decision_text()
    return text + "." + decisions if decisions else text


def parse_layout(cls, text):
    """``cls.parse(text)`` (board.Layout.parse): six lines of six tokens, ``#`` starts a
    comment; errors name the line (1-based, as in the text) and column (1-6)."""
    colours = bytearray()
    numbers = bytearray()
    seen = {}
    row = 0
    for lineno, line in enumerate(text.split("\n"), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if "," in line:  # a spreadsheet's CSV: the commonest wrong file
            raise LayoutError("line %d: a comma; separate the 6 cells with spaces, not commas"
                              % lineno)
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


