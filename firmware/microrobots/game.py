"""The referee: rounds, claims, victory tokens, the expert waypoint, undo and saved games.

Pure logic on top of the solver (no hardware, no clock, no ``random``). One game::

    game = Game(Layout.named("black:CADB0312"), players=3, seed=7)
    game.start, game.target          # 5, 19: cells 0..35 (game.waypoint in expert play)
    game.optimum()                   # 3
    game.claim_possible(4)           # True: could anyone demonstrate exactly 4 moves?
    v = game.claim(1, 3, [35, 31, 19])  # player 1 claims 3 and shows the moves
    v.ok, v.reason                   # True, "correct": player 1 takes a token
    game.give_up()                   # round 2, nobody found one: an optimal route
    game.undo()                      # the referee pressed the wrong button
    Game.from_dict(game.to_dict())   # saved after every decision
    Game.replay(game.share())        # "MR2.3.7.black:CADB0312.b3o"

Every decision (a claim or giving up) ends the round: unless the game is over, the
target becomes the next start and a new target (and waypoint) is rolled. The state is
a pure function of the configuration (layout, players, expert, seed, difficulty) and
the decisions, so ``undo`` replays all but the last decision and ``from_dict`` replays
them and refuses a saved state that disagrees with the replay.

The rules, with the tie-break and our reading of "demonstration", are in the README ("The rules") and docs/game.md.
"""

from .board import CELLS, Layout, LayoutError
from .compat import const
from .rng import MAX_SEED, XorShift32
from .solver import (BELOW_OPTIMUM, CORRECT, ILLEGAL_MOVE, UNREACHABLE, WAYPOINT_MISSED, Solver,
                     Verdict)

FORMAT = "microrobots-game"  # to_dict()["format"]: what a saved game is
VERSION = const(2)  # to_dict()["version"]: 2 records which move was illegal; 1 still loads
SHARE_PREFIX = "MR2"  # share strings: format 2 (as version 2); "MR1" still loads
_OLD_SHARE_PREFIX = "MR1"

POOL = const(25)  # victory tokens at the start
WIN_TOKENS = const(5)  # whoever holds this many wins at once
MAX_PLAYERS = const(8)
MAX_CLAIM = const(255)  # a claim is stored in one byte
MAX_DIFFICULTY = const(254)
ROLLS = const(36)  # rolls per target (or waypoint) before a fallback; keeps a round bounded
GIVE_UP = const(255)  # decision log: "nobody found a route"

OUTCOME_LETTERS = "oictwb"  # decision text: verdict code 0..5 -> letter
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"
_STATE_KEYS = ("start", "target", "waypoint", "pool", "tokens", "winners", "over",
               "score", "streak", "best_streak", "extra")
_CONFIG_KEYS = ("format", "version", "layout", "players", "expert", "seed", "difficulty",
                "decisions")


class GameError(ValueError):
    """A request the game cannot take: a bad player, a claim after the end..."""


class GameStateError(GameError):
    """A saved game or share string that is corrupt, truncated or not ours (one line)."""


def penalty_recipient(tokens, claimant):
    """Who receives the token of a wrong ``claimant``: -1 when nobody can.

    The player with the fewest tokens among the others; ties go to the first such
    player after the claimant in seating order, wrapping around.
    """
    n = len(tokens)
    best = -1
    for k in range(1, n):
        p = (claimant + k) % n
        if best < 0 or tokens[p] < tokens[best]:  # strict: the earliest tie stays
            best = p
    return best


def _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def _digits(text):
    """Only ASCII digits, at least one (str.isdigit also accepts a superscript 2)."""
    if not text:
        return False
    for ch in text:
        if not "0" <= ch <= "9":
            return False
    return True


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


class Game:
    """One game of Micro Robots on ``layout`` (a board.Layout) for 1..8 ``players``.

    ``expert`` adds the waypoint; ``seed`` (0..0xFFFFFFFF) fixes every roll;
    ``difficulty`` is the fewest optimal moves a rolled target should need (for solo
    play; rerolls are bounded, then the farthest target rolled is used). ``solver``
    may pass an existing Solver for the same layout.

    Attributes (read them, do not write them): ``start``, ``target``, ``waypoint``
    (None unless expert), ``pool``, ``tokens`` (one count per player), ``winners``
    (player indices; empty while the game runs), ``over``; solo statistics ``score``
    (rounds solved), ``streak``, ``best_streak``, ``extra`` (moves over the optimum,
    summed over solved rounds), ``last_extra``; this round's ``rerolls`` and ``notice``
    (a sentence for the player when a custom layout forced rerolls, else None).
    """

    def __init__(self, layout, players=2, expert=False, seed=0, difficulty=0, solver=None):
        if not isinstance(layout, Layout):
            raise GameError("layout must be a board.Layout, not %r" % (layout,))
        if not _is_int(players) or not 1 <= players <= MAX_PLAYERS:
            raise GameError("players must be 1 to %d, not %r" % (MAX_PLAYERS, players))
        if not _is_int(seed) or not 0 <= seed <= MAX_SEED:
            raise GameError("seed must be an int from 0 to %d, not %r" % (MAX_SEED, seed))
        if not _is_int(difficulty) or not 0 <= difficulty <= MAX_DIFFICULTY:
            raise GameError("difficulty must be 0 to %d moves, not %r"
                            % (MAX_DIFFICULTY, difficulty))
        self.layout = layout
        self.solver = solver if solver is not None and solver.layout == layout \
            else Solver(layout)
        self.players = players
        self.expert = bool(expert)
        self.seed = seed
        self.difficulty = difficulty
        self._rng = XorShift32(seed)
        # Two bytes per decision, player | code << 3 (or GIVE_UP) and the count; an illegal
        # move adds which move it was (1-based; 0: not recorded, an old save), see _entry.
        self._log = bytearray()
        self._reset()

    # -- rounds ---------------------------------------------------------------
    def _reset(self):
        """The state before the first decision: fresh tokens, start rolled, round 1."""
        self._rng.seed(self.seed)
        self.pool = POOL
        self._made = 0  # decisions in the log
        self.tokens = [0] * self.players
        self.winners = []
        self.over = False
        self.score = 0
        self.streak = 0
        self.best_streak = 0
        self.extra = 0
        self.last_extra = 0
        self.start = self._roll_start()
        self._roll_round()
        if self._dead_starts:
            text = "custom layout: the rolled start had no move; rerolled"
            self.notice = text if self.notice is None else text + "; " + self.notice

    def _roll_cell(self):
        """Two dice, a colour die and a number die: the one cell with that face."""
        colour = self._rng.below(6)
        number = self._rng.below(6) + 1
        return self.layout.cell_of(colour, number)

    def _roll_start(self):
        solver = self.solver
        self._dead_starts = 0
        for _ in range(ROLLS):
            cell = self._roll_cell()
            if solver.degree(cell) > 0:
                return cell
            self._dead_starts += 1
        live = 0
        for c in range(CELLS):
            if solver.degree(c) > 0:
                live += 1
        if live == 0:
            raise GameError("layout: no cell has a legal move; nothing to play")
        k = self._rng.below(live)
        for c in range(CELLS):
            if solver.degree(c) > 0:
                if k == 0:
                    return c
                k -= 1

    def _pick(self, dist, a, b):
        """A uniformly rolled reachable cell other than ``a`` and ``b``, or -1."""
        count = 0
        for c in range(CELLS):
            if c != a and c != b and dist[c] != UNREACHABLE:
                count += 1
        if count == 0:
            return -1
        k = self._rng.below(count)
        for c in range(CELLS):
            if c != a and c != b and dist[c] != UNREACHABLE:
                if k == 0:
                    return c
                k -= 1

    def _roll_round(self):
        """Roll this round's target (and waypoint) from ``start``; compute the optimum."""
        start = self.start
        dist = self.solver.distances(start)  # reused buffer: read before the next query
        want = self.difficulty
        best = -1
        best_d = 0
        unreachable = 0
        rolls = 0
        while rolls < ROLLS:
            cell = self._roll_cell()
            rolls += 1
            if cell == start:
                continue
            d = dist[cell]
            if d == UNREACHABLE:
                unreachable += 1
                continue
            if d > best_d:  # the first of the farthest rolled, for the difficulty fallback
                best = cell
                best_d = d
            if d >= want:
                break
        if best < 0:
            best = self._pick(dist, start, start)
            if best < 0:
                raise GameError("layout: no cell can be reached from %s"
                                % self.layout.token(start))
        self.target = target = best
        self.rerolls = rolls - 1
        no_waypoint = False
        if self.expert:
            via = -1
            rolls = 0
            while rolls < ROLLS:
                cell = self._roll_cell()
                rolls += 1
                if cell == start or cell == target:
                    continue
                if dist[cell] == UNREACHABLE:
                    unreachable += 1
                    continue
                via = cell
                break
            if via < 0:
                via = self._pick(dist, start, target)
            if via < 0:
                no_waypoint = True
                self.waypoint = None
                self._optimum = dist[target]
            else:
                self.waypoint = via
                first = dist[via]
                self._optimum = first + self.solver.distances(via)[target]
        else:
            self.waypoint = None
            self._optimum = dist[target]
        self.notice = None
        if unreachable or no_waypoint:
            self._explain(unreachable, no_waypoint)

    def _explain(self, unreachable, no_waypoint):
        """The notice for a round whose rolls a custom layout forced (allocates; rare)."""
        parts = []
        if unreachable:
            parts.append("custom layout: %d rolled cell%s cannot be reached from %s; rerolled"
                         % (unreachable, "" if unreachable == 1 else "s",
                            self.layout.token(self.start)))
        if no_waypoint:
            parts.append("custom layout: no waypoint can be reached from %s; this round has none"
                         % self.layout.token(self.start))
        self.notice = "; ".join(parts)

    # -- questions ------------------------------------------------------------
    def optimum(self):
        """The fewest moves for this round (start, waypoint first in expert play, target)."""
        return self._optimum

    def claim_possible(self, count):
        """Could a demonstration of exactly ``count`` moves succeed this round?"""
        if not _is_int(count) or count < self._optimum:
            return False
        return self.solver.walk_exists(self.start, self.target, count, self.waypoint)

    def route(self):
        """One optimal route for this round, start first (without ending the round)."""
        return self.solver.path(self.start, self.target, self.waypoint)

    @property
    def last_roll(self):
        """The dice that named the target: ``(colour 0..5, number 1..6)``."""
        return (self.layout.colour(self.target), self.layout.number(self.target))

    @property
    def waypoint_roll(self):
        """The dice that named the waypoint, or None."""
        w = self.waypoint
        return None if w is None else (self.layout.colour(w), self.layout.number(w))

    @property
    def round(self):
        """The round being played, from 1 (after the game ends: the last round played)."""
        return self._made + (0 if self.over else 1)

    def decisions(self):
        """Every decision so far: ``(player, count, verdict)``, a new solver.Verdict each
        (its ``move`` names the illegal move; 0 when an old save did not record it);
        ``(None, 0, None)`` when nobody found a route."""
        out = []
        i = 0
        while i < len(self._log):
            what, count, move, i = self._entry(i)
            if what == GIVE_UP:
                out.append((None, 0, None))
            else:
                out.append((what & 7, count, Verdict(what >> 3, move)))
        return out

    def _entry(self, i):
        """The decision at byte ``i`` of the log: ``(what, count, move, next i)``.

        The illegal move's number follows an ILLEGAL_MOVE entry in 7-bit groups, low first
        (a byte of 128 or more: more follow), so any number fits and most take one byte.
        """
        log = self._log
        what = log[i]
        if what != GIVE_UP and what >> 3 == ILLEGAL_MOVE:
            move, end = _read_number(log, i + 2)
            return what, log[i + 1], move, end
        return what, log[i + 1], 0, i + 2

    # -- decisions ------------------------------------------------------------
    def _check_playing(self, player=0):
        if self.over:
            raise GameError("the game is over; undo or start a new game")
        if not _is_int(player) or not 0 <= player < self.players:
            raise GameError("player must be 0 to %d, not %r" % (self.players - 1, player))

    def claim(self, player, count, moves=()):
        """Player ``player`` claims ``count`` moves and demonstrates ``moves``.

        ``moves`` are the cells after the start (ignored when the claim is below the
        optimum: it fails at once). Returns a new Verdict (``ok``, ``code``, ``move``,
        ``reason``); the tokens move and the next round is rolled.
        """
        self._check_playing(player)
        if not _is_int(count) or not 0 <= count <= MAX_CLAIM:
            raise GameError("a claim is 0 to %d moves, not %r" % (MAX_CLAIM, count))
        if count < self._optimum:
            verdict = Verdict(BELOW_OPTIMUM)
        else:
            if len(moves) > count + 1:  # one move past the claim, the count is wrong already
                moves = moves[:count + 1]
            verdict = self.solver.check(self.start, self.target, moves, count,
                                        self.waypoint).copy()
        self._decide(player | verdict.code << 3, count, verdict.move)
        return verdict

    def give_up(self):
        """Nobody found a route: returns an optimal one (cells, start first); no token moves."""
        self._check_playing()
        route = self.solver.path(self.start, self.target, self.waypoint)
        self._decide(GIVE_UP, 0)
        return route

    def _decide(self, what, count, move=0):
        log = self._log
        log.append(what)
        log.append(count)
        if what != GIVE_UP and what >> 3 == ILLEGAL_MOVE:
            while move >= 128:
                log.append(move & 127 | 128)
                move >>= 7
            log.append(move)
        self._made += 1
        if what == GIVE_UP:
            self.streak = 0
        else:
            self._settle(what & 7, what >> 3, count)
        if not self.over:
            self.start = self.target
            self._roll_round()

    def _settle(self, player, code, count):
        """Move the tokens for a claim's outcome; end the game when a rule says so."""
        tokens = self.tokens
        if code == CORRECT:
            self.score += 1
            self.streak += 1
            self.best_streak = max(self.best_streak, self.streak)
            self.last_extra = count - self._optimum
            self.extra += self.last_extra
        else:
            self.streak = 0
        if self.players == 1:
            return  # solo play keeps score instead of tokens
        if code == CORRECT:
            self.pool -= 1
            tokens[player] += 1
            if tokens[player] >= WIN_TOKENS:
                self._end(player)
            elif self.pool == 0:
                self._end(-1)
        elif tokens[player] > 0:
            to = penalty_recipient(tokens, player)
            tokens[player] -= 1
            tokens[to] += 1
            if tokens[to] >= WIN_TOKENS:
                self._end(to)

    def _end(self, winner):
        """The game is over: ``winner``, or (-1) everyone holding the most tokens."""
        self.over = True
        if winner >= 0:
            self.winners = [winner]
        else:
            most = max(self.tokens)
            self.winners = [p for p in range(self.players) if self.tokens[p] == most]

    def undo(self):
        """Take back the last decision exactly; False when there is none."""
        log = self._log
        if not log:
            return False
        last = i = 0
        while i < len(log):  # where the last decision starts
            last = i
            i = self._entry(i)[3]
        self._log = bytearray()
        self._reset()
        i = 0
        while i < last:  # replay the others; most are two bytes
            what = log[i]
            move = 0
            if what != GIVE_UP and what >> 3 == ILLEGAL_MOVE:
                move, end = _read_number(log, i + 2)
            else:
                end = i + 2
            self._decide(what, log[i + 1], move)
            i = end
        return True

    # -- text forms -------------------------------------------------------------
    def decision_text(self):
        """The decisions as text: ``b4o`` is player b (1) claiming 4, correct; ``-`` gave up.

        Outcome letters: o correct, i illegal move, c count differs, t target missed,
        w waypoint missed, b below the optimum. After ``i``, which move was illegal:
        ``b4i2`` (older saves wrote a bare ``i``).
        """
        parts = []
        i = 0
        while i < len(self._log):
            what, count, move, i = self._entry(i)
            if what == GIVE_UP:
                parts.append("-")
            else:
                parts.append("%s%d%s%s" % (chr(97 + (what & 7)), count, OUTCOME_LETTERS[what >> 3],
                                           move or ""))
        return "".join(parts)

    def apply(self, text, where="decisions"):
        """Make the decisions written in ``text`` (as ``decision_text()`` writes them).

        For replays and tools: ``game.apply("b3o-")``. Each decision must be one that
        could have happened (a claim's outcome agrees with its count and the optimum);
        GameStateError names the first one that could not, with ``where`` in front.
        Decisions before it stay made.
        """
        if not isinstance(text, str):
            raise GameStateError("%s: decisions must be text, not %r" % (where, text))
        i = 0
        n = len(text)
        k = 0
        while i < n:
            k += 1
            if self.over:
                raise GameStateError("%s: decision %d comes after the end of the game" % (where, k))
            ch = text[i]
            if ch == "-":
                self._decide(GIVE_UP, 0)
                i += 1
                continue
            player = ord(ch) - 97
            if not 0 <= player < self.players:
                raise GameStateError("%s: decision %d: %r is not %s" % (
                    where, k, ch, "the one player, a" if self.players == 1
                    else "one of the %d players" % self.players))
            j = i + 1
            while j < n and "0" <= text[j] <= "9":
                j += 1
            if j == i + 1 or j - i > 4:
                raise GameStateError("%s: decision %d: bad move count" % (where, k))
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
                    move = int(text[m:j]) if j - m < 5 else 0
                    if not 1 <= move <= count + 1:
                        raise GameStateError("%s: decision %d: the illegal move must be 1 to %d,"
                                             " not %s" % (where, k, count + 1, text[m:j]))
            low = count < self._optimum
            if (code == BELOW_OPTIMUM) != low or (
                    code == CORRECT and not self.claim_possible(count)):
                raise GameStateError("%s: decision %d: outcome %r cannot follow a claim of %d"
                                     " (optimum %d)" % (where, k, letter, count, self._optimum))
            if code == WAYPOINT_MISSED and self.waypoint is None:
                raise GameStateError("%s: decision %d: no waypoint this round" % (where, k))
            self._decide(player | code << 3, count, move)
            i = j

    def share(self):
        """A short text that replays this game: ``MR2.<players>[x][d<N>].<seed>.<layout>[.<decisions>]``.

        ``x`` marks expert play, ``d4`` a difficulty of 4; the layout is its name
        (``black:CADB0312``) or 36 base-36 characters for a custom one.
        """
        opts = "%d%s%s" % (self.players, "x" if self.expert else "",
                           "d%d" % self.difficulty if self.difficulty else "")
        name = self.layout.name
        if name is None:
            lay = self.layout
            name = "".join(_BASE36[lay.colours[i] * 6 + lay.numbers[i] - 1] for i in range(CELLS))
        text = "%s.%s.%d.%s" % (SHARE_PREFIX, opts, self.seed, name)
        decisions = self.decision_text()
        return text + "." + decisions if decisions else text

    @classmethod
    def replay(cls, text):
        """The game a ``share()`` string describes, replayed; GameStateError if it is bad."""
        where = "share string"
        if not isinstance(text, str):
            raise GameStateError("%s: expected text, not %r" % (where, text))
        parts = text.strip().split(".")
        if parts[0] not in (SHARE_PREFIX, _OLD_SHARE_PREFIX) or not 4 <= len(parts) <= 5:
            raise GameStateError("%s: expected %s.<players>.<seed>.<layout>[.<decisions>], got %r"
                                 % (where, SHARE_PREFIX, text[:40]))
        opts = parts[1]
        j = 0
        while j < len(opts) and "0" <= opts[j] <= "9":
            j += 1
        expert = opts[j:j + 1] == "x"
        rest = opts[j + 1:] if expert else opts[j:]
        if j != 1 or (rest and (rest[0] != "d" or not _digits(rest[1:]))):
            raise GameStateError("%s: bad options %r (players, then x, then d<difficulty>)"
                                 % (where, opts))
        difficulty = int(rest[1:]) if rest else 0
        if not _digits(parts[2]):
            raise GameStateError("%s: bad seed %r" % (where, parts[2]))
        layout = _share_layout(parts[3], where)
        try:
            game = cls(layout, int(opts[:j]), expert, int(parts[2]), difficulty)
        except GameError as e:
            raise GameStateError("%s: %s" % (where, e))
        game.apply(parts[4] if len(parts) == 5 else "", where)
        return game

    # -- saved games ------------------------------------------------------------
    def to_dict(self):
        """The game as a small JSON-friendly dict (see docs/game.md, "Saved games")."""
        name = self.layout.name
        if name is None:
            name = [self.layout.token(i) for i in range(CELLS)]
        return {
            "format": FORMAT, "version": VERSION, "layout": name,
            "players": self.players, "expert": self.expert, "seed": self.seed,
            "difficulty": self.difficulty, "decisions": self.decision_text(),
            "start": self.start, "target": self.target, "waypoint": self.waypoint,
            "pool": self.pool, "tokens": list(self.tokens), "winners": list(self.winners),
            "over": self.over, "score": self.score, "streak": self.streak,
            "best_streak": self.best_streak, "extra": self.extra,
        }

    @classmethod
    def from_dict(cls, d):
        """The game a ``to_dict()`` describes, or GameStateError (one line); never half-loaded.

        The decisions are replayed from the configuration and every saved state field
        must agree with the replay.
        """
        where = "saved game"
        if not isinstance(d, dict):
            raise GameStateError("%s: expected a JSON object, not %s" % (where, type(d).__name__))
        fmt = d.get("format")
        if fmt != FORMAT:
            raise GameStateError("%s: not a Micro Robots game (format %r)" % (where, fmt))
        version = d.get("version")
        if not _is_int(version) or version < 1:
            raise GameStateError("%s: bad format version %r" % (where, version))
        if version > VERSION:
            raise GameStateError("%s: format version %d is newer than this firmware reads (%d)"
                                 % (where, version, VERSION))
        for key in _CONFIG_KEYS + _STATE_KEYS:
            if key not in d:
                raise GameStateError("%s: truncated, %r is missing" % (where, key))
        if len(d) != len(_CONFIG_KEYS) + len(_STATE_KEYS):
            for key in d:
                if key not in _CONFIG_KEYS and key not in _STATE_KEYS:
                    raise GameStateError("%s: unknown field %r" % (where, key))
        layout = _saved_layout(d["layout"], where)
        for key in ("players", "seed", "difficulty"):
            if not _is_int(d[key]):
                raise GameStateError("%s: %s must be an integer, not %r" % (where, key, d[key]))
        if not isinstance(d["expert"], bool):
            raise GameStateError("%s: expert must be true or false, not %r" % (where, d["expert"]))
        try:
            game = cls(layout, d["players"], d["expert"], d["seed"], d["difficulty"])
        except GameError as e:
            raise GameStateError("%s: %s" % (where, e))
        game.apply(d["decisions"], where)
        mine = game.to_dict()
        if mine["decisions"] != d["decisions"]:
            raise GameStateError("%s: decisions %r should be written %r"
                                 % (where, d["decisions"][:40], mine["decisions"][:40]))
        for key in _STATE_KEYS:
            if not _same(d[key], mine[key]):
                raise GameStateError("%s: %s is %r but its decisions give %r"
                                     % (where, key, d[key], mine[key]))
        return game


def _read_number(log, i):
    """``(number, next i)``: a number written in 7-bit groups from ``log[i]`` (see _entry)."""
    n = 0
    shift = 0
    while True:
        b = log[i]
        i += 1
        n |= (b & 127) << shift
        shift += 7
        if b < 128:
            return n, i


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
        raise GameStateError("%s: layout %r should be written %r" % (where, text, layout.name))
    return layout


def _saved_layout(value, where):
    if isinstance(value, str):
        layout = _share_layout(value, where) if ":" in value else None
        if layout is None:
            raise GameStateError("%s: layout %r is not a name like black:CADB0312" % (where, value))
        return layout
    if not isinstance(value, list) or len(value) != CELLS:
        raise GameStateError("%s: layout must be a name or a list of 36 cells" % where)
    for tok in value:
        if not isinstance(tok, str):
            raise GameStateError("%s: layout cell %r is not text" % (where, tok))
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
