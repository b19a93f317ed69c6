"""A game's text forms: decisions, share strings and saved games read back, checked;
share strings written. The formats are described in docs/game.md::

    notation.from_dict(game.to_dict())   # the same game, replayed and checked
    notation.replay(notation.share(game))  # "MR2.3.7.black:CADB0312.b3o"
    notation.apply(game, "b3o-")         # decisions made from text

They depend on game.py; the game knows nothing of them. Reading a saved game replays
its decisions: ``loading`` does it in pieces, so that the app's frame loop can step it
between frames.
"""

from .board import CELLS, Layout, LayoutError
from .decisions import GIVE_UP, OUTCOME_LETTERS
from ..compat import const
from .game import (
    FORMAT, MAX_CLAIM, POOL, VERSION, WIN_TOKENS, BoardState, Game, GameError,
    GameStateError, _is_int,
)
from .solver import BELOW_OPTIMUM, CORRECT, ILLEGAL_MOVE, WAYPOINT_MISSED

SHARE_PREFIX = "MR2"  # share strings: format 2 (as version 2); "MR1" still loads
_OLD_SHARE_PREFIX = "MR1"
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"  # a custom layout's cells in a share string
_REPLAYED_A_FRAME = const(4)  # decisions replayed between two yields of loading()

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


def finish(work):
    """Run ``work`` (a generator: long work in pieces) to its end; what it returns."""
    try:
        while True:
            next(work)
    except StopIteration as done:
        return done.value


def apply(game, text, where="decisions"):
    """Make the decisions written in ``text`` (as ``game.decision_text()`` writes them).

    For replays and tools: ``apply(game, "b3o-")``. Each decision must be one that
    could have happened (a claim's outcome agrees with its count and the optimum);
    GameStateError names the first one that could not, with ``where`` in front.
    Decisions before it stay made.
    """
    finish(applying(game, text, where))


def applying(game, text, where="decisions"):
    """``apply`` in pieces: a generator that yields every few decisions."""
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
        if k % _REPLAYED_A_FRAME == 0:
            yield
        if game.over:
            raise GameStateError("%s: decision %d comes after the end of the game" % (where, k))
        ch = text[i]
        if ch == "-":
            game.decide(GIVE_UP, 0)
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
        low = count < game.optimum()
        if (code == BELOW_OPTIMUM) != low or (
                code == CORRECT and not game.claim_possible(count)):
            raise GameStateError("%s: decision %d: outcome %r cannot follow a claim of %d"
                                 " (optimum %d)" % (where, k, letter, count, game.optimum()))
        if code == WAYPOINT_MISSED and game.waypoint is None:
            raise GameStateError("%s: decision %d: no waypoint this round" % (where, k))
        game.decide(player | code << 3, count, move)
        i = j


def replay(text):
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
        game = Game(layout, int(opts[:j]), expert, int(parts[2]), difficulty)
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
    game.rebase(BoardState(folded, rng[0], rng[1], start, pool, tuple(tokens), score, streak,
                           best, extra, last))


def from_dict(d, solver=None):
    """The game a ``game.to_dict()`` describes, or GameStateError (one line); never
    half-loaded.

    The decisions are replayed from the configuration (and the base, when a long
    game folded its oldest decisions) and every saved state field must agree.
    ``solver``: one to share, used when it is for the saved game's layout.
    """
    return finish(loading(d, solver))


def loading(d, solver=None):
    """``from_dict`` in pieces, for the app's frame loop: a generator that yields after
    reading the configuration and every few decisions replayed, and returns the game."""
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
    yield
    for key in ("players", "seed", "difficulty"):
        if not _is_int(d[key]):
            raise GameStateError("%s: %s must be an integer, not %s" % (where, key, _short(d[key])))
    if not isinstance(d["expert"], bool):
        raise GameStateError("%s: expert must be true or false, not %s" % (where, _short(d["expert"])))
    try:
        game = Game(layout, d["players"], d["expert"], d["seed"], d["difficulty"], solver)
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
    yield from applying(game, d["decisions"], where)  # in canonical form, or refused
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
        layout = Layout.parse("\n".join(rows))
    except LayoutError as e:
        raise GameStateError("%s: layout: %s" % (where, e))
    for i in range(CELLS):
        if layout.token(i) != value[i]:
            raise GameStateError("%s: layout cell %d should be written %r"
                                 % (where, i, layout.token(i)))
    return layout


def share(game):
    """A short text that replays ``game``:
    ``MR2.<players>[x][d<N>].<seed>.<layout>[.@<base>][.<decisions>]``.

    ``x`` marks expert play, ``d4`` a difficulty of 4; the layout is its name
    (``black:CADB0312``) or 36 base-36 characters for a custom one. A game that
    folded old decisions writes its base (see docs/game.md) before the kept ones.
    """
    opts = "%d%s%s" % (game.players, "x" if game.expert else "",
                       "d%d" % game.difficulty if game.difficulty else "")
    name = game.layout.name
    if name is None:
        lay = game.layout
        name = "".join(_BASE36[lay.colours[i] * 6 + lay.numbers[i] - 1] for i in range(CELLS))
    text = "%s.%s.%d.%s" % (SHARE_PREFIX, opts, game.seed, name)
    b = game.base
    if b is not None:
        text += ".@%d:%04x%04x:%d:%d:%s:%d:%d:%d:%d:%d" % (
            b.folded, b.rng_hi, b.rng_lo, b.start, b.pool, "".join(str(t) for t in b.tokens),
            b.score, b.streak, b.best_streak, b.extra, b.last_extra)
    decisions = game.decision_text()
    return text + "." + decisions if decisions else text
