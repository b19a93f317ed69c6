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
    game.to_dict()                   # saved after every decision (notation.from_dict reads it)

Every decision (a claim or giving up) ends the round: unless the game is over, the
target becomes the next start and a new target (and waypoint) is rolled. The state is
a pure function of the configuration (layout, players, expert, seed, difficulty) and
the decisions, so ``undo`` replays all but the last decision and notation.from_dict
replays them and refuses a saved state that disagrees with the replay.

The rules, with the tie-break and our reading of "demonstration", are in the README ("The rules") and docs/game.md.
The text forms read back, checked (share strings, saved games) are notation.py; the dice
of a round rolls.py; the decision log's bytes decisions.py.
"""

from .board import CELLS, Layout
from ..compat import const
from .decisions import GIVE_UP, append, entry, text
from .rng import MAX_SEED, XorShift32
from .rolls import RollError, Round, roll_start
from .solver import BELOW_OPTIMUM, CORRECT, Solver, Verdict

FORMAT = "microrobots-game"  # to_dict()["format"]: what a saved game is
# to_dict()["version"]: 2 records which move was illegal, counts up to 65535 and a folded
# game's base; 1 still loads
VERSION = const(2)

POOL = const(25)  # victory tokens at the start
WIN_TOKENS = const(5)  # whoever holds this many wins at once
_MAX_PLAYERS = const(8)
MAX_CLAIM = const(65535)  # a claim's count is stored in two bytes: a solo walk may be long
_MAX_DIFFICULTY = const(254)
KEEP = const(32)  # the log keeps KEEP..2*KEEP-1 decisions; older ones fold into the base


class BoardState:
    """A game's state at the start of a round, before its rolls: what the kept decisions
    replay from (``Game.base``, after old decisions were folded; see "Bounded memory").
    ``folded``: the decisions before it; ``rng_hi``, ``rng_lo``: the generator's state;
    then the round's start, the pool, the tokens (a tuple), and solo's counts."""

    def __init__(self, folded, rng_hi, rng_lo, start, pool, tokens, score, streak,
                 best_streak, extra, last_extra):
        self.folded = folded
        self.rng_hi = rng_hi
        self.rng_lo = rng_lo
        self.start = start
        self.pool = pool
        self.tokens = tokens
        self.score = score
        self.streak = streak
        self.best_streak = best_streak
        self.extra = extra
        self.last_extra = last_extra

    def __eq__(self, other):
        return isinstance(other, BoardState) and self.fields() == other.fields()

    def fields(self):
        """Every field, in the order ``__init__`` takes them (for tests and tools)."""
        return (self.folded, self.rng_hi, self.rng_lo, self.start, self.pool, self.tokens,
                self.score, self.streak, self.best_streak, self.extra, self.last_extra)


class GameError(ValueError):
    """A request the game cannot take: a bad player, a claim after the end..."""


class GameStateError(GameError):
    """A saved game or share string that is corrupt, truncated or not ours (one line)."""


def penalty_recipient(tokens, player):
    """Who receives the token of ``player``, whose claim was wrong: -1 when nobody can.

    The player with the fewest tokens among the others; ties go to the first such
    player after the claimant in seating order, wrapping around.
    """
    n = len(tokens)
    best = -1
    for k in range(1, n):
        p = (player + k) % n
        if best < 0 or tokens[p] < tokens[best]:  # strict: the earliest tie stays
            best = p
    return best


def _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


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
    (a sentence for the player when a custom layout forced rerolls, else None);
    ``folded``, the decisions folded into the base (see "Bounded memory" below).

    Bounded memory: a solo game, or a classroom left running, never ends, so the game
    keeps only its latest decisions: when 2 * KEEP are kept, the oldest KEEP are folded
    into a *base* (the state after them: the generator's state, the start, tokens and
    statistics) and dropped. ``undo`` reaches back to the base (KEEP decisions at least),
    saved games and share strings carry the base, and every query stays as fast as in
    a fresh game.
    """

    def __init__(self, layout, players=2, expert=False, seed=0, difficulty=0, solver=None):
        if not isinstance(layout, Layout):
            raise GameError("layout must be a board.Layout, not %r" % (layout,))
        if not _is_int(players) or not 1 <= players <= _MAX_PLAYERS:
            raise GameError("players must be 1 to %d, not %r" % (_MAX_PLAYERS, players))
        if not _is_int(seed) or not 0 <= seed <= MAX_SEED:
            raise GameError("seed must be an int from 0 to %d, not %r" % (MAX_SEED, seed))
        if not _is_int(difficulty) or not 0 <= difficulty <= _MAX_DIFFICULTY:
            raise GameError("difficulty must be 0 to %d moves, not %r"
                            % (_MAX_DIFFICULTY, difficulty))
        self.layout = layout
        self.solver = solver if solver is not None and solver.layout == layout \
            else Solver(layout)
        self.players = players
        self.expert = bool(expert)
        self.seed = seed
        self.difficulty = difficulty
        self._rng = XorShift32(seed)
        self._rolled = Round()  # this round's rolls (rolls.py), the same object every round
        # Three bytes per decision, player | code << 3 (or GIVE_UP) and the count (two
        # bytes); an illegal move adds which move it was (1-based; 0: not recorded, an
        # old save), see _entry.
        self._log = bytearray()
        self._base = None  # the state the log starts from; None: the seed's first round
        self._checkpoint = None  # the state after the first KEEP kept decisions
        self.folded = 0
        self.keep = KEEP  # decisions kept at least (tests lower it to fold often)
        self._reset()

    # -- rounds ---------------------------------------------------------------
    def _reset(self):
        """The state before the first kept decision: the base, or fresh tokens, a rolled
        start and round 1."""
        self._made = 0  # decisions in the log
        self.winners = []
        self.over = False
        self._checkpoint = None
        base = self._base
        if base is not None:
            self.folded = base.folded
            self._rng.hi = base.rng_hi
            self._rng.lo = base.rng_lo
            self.start = base.start
            self.pool = base.pool
            self.tokens = list(base.tokens)
            self.score = base.score
            self.streak = base.streak
            self.best_streak = base.best_streak
            self.extra = base.extra
            self.last_extra = base.last_extra
            self._roll_round()
            return
        self._rng.seed(self.seed)
        self.folded = 0
        self.pool = POOL
        self.tokens = [0] * self.players
        self.score = 0
        self.streak = 0
        self.best_streak = 0
        self.extra = 0
        self.last_extra = 0
        try:
            self.start, dead_starts = roll_start(self._rng, self.layout, self.solver)
        except RollError as error:
            raise GameError(str(error))
        self._roll_round()
        if dead_starts:
            text = "custom layout: the rolled start had no move; rerolled"
            self.notice = text if self.notice is None else text + "; " + self.notice

    def _snapshot(self):
        """This round's state before its rolls, as a base (see _reset)."""
        return BoardState(self.folded + self._made, self._round_hi, self._round_lo,
                          self.start, self.pool, tuple(self.tokens), self.score, self.streak,
                          self.best_streak, self.extra, self.last_extra)

    def _fold(self):
        """Drop the oldest ``keep`` decisions: the state after them becomes the base."""
        i = 0
        for _ in range(self.keep):
            i = entry(self._log, i)[3]
        self._base = self._checkpoint
        self.folded = self._base.folded
        self._log = self._log[i:]
        self._made -= self.keep
        self._checkpoint = self._snapshot()

    def _roll_round(self):
        """Roll this round's target (and waypoint) from ``start`` (rolls.py)."""
        self._round_hi = self._rng.hi  # a base taken in this round rolls it again from here
        self._round_lo = self._rng.lo
        rolled = self._rolled
        try:
            rolled.roll(self._rng, self.layout, self.solver, self.start, self.difficulty,
                        self.expert)
        except RollError as error:
            raise GameError(str(error))
        self.target = rolled.target
        self.waypoint = rolled.waypoint
        self._optimum = rolled.optimum
        self.rerolls = rolled.rerolls
        self.notice = rolled.notice

    # -- questions ------------------------------------------------------------
    def optimum(self):
        """The fewest moves for this round (start, waypoint first in expert play, target)."""
        return self._optimum

    def claim_possible(self, count):
        """Could a demonstration of exactly ``count`` moves succeed this round?"""
        if not _is_int(count) or count < self._optimum:
            return False
        if count == self._optimum:  # an optimal route: no search needed (the common claim)
            return True
        return self.solver.walk_exists(self.start, self.target, count, self.waypoint)

    def route(self):
        """One optimal route for this round, start first (without ending the round)."""
        return self.solver.path(self.start, self.target, self.waypoint)

    @property
    def round(self):
        """The round being played, from 1 (after the game ends: the last round played)."""
        return self.folded + self._made + (0 if self.over else 1)

    def decisions(self):
        """The kept decisions (those after the base; all of them when ``folded`` is 0):
        ``(player, count, verdict)``, a new solver.Verdict each (its ``move`` names the
        illegal move; 0 when an old save did not record it); ``(None, 0, None)`` when
        nobody found a route."""
        out = []
        i = 0
        while i < len(self._log):
            what, count, move, i = entry(self._log, i)
            if what == GIVE_UP:
                out.append((None, 0, None))
            else:
                out.append((what & 7, count, Verdict(what >> 3, move)))
        return out

    def rewound(self):
        """A new Game at this one's base: before the kept decisions (for replay tools)."""
        game = Game(self.layout, self.players, self.expert, self.seed, self.difficulty,
                    self.solver)
        if self._base is not None:
            game.rebase(self._base)
        return game

    @property
    def base(self):
        """The state the kept decisions start from (see "Bounded memory"): a
        ``BoardState``, or None."""
        return self._base

    def rebase(self, base):
        """Start again from ``base`` (as ``base`` gives it), every decision forgotten;
        notation.py checks a base read from text before it comes here."""
        self._base = base
        self._log = bytearray()
        self._reset()

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
        self._check_count(player, count)
        if count < self._optimum:
            verdict = Verdict(BELOW_OPTIMUM)
        else:
            if len(moves) > count + 1:  # one move past the claim, the count is wrong already
                moves = moves[:count + 1]
            verdict = self.solver.check(self.start, self.target, moves, count,
                                        self.waypoint).copy()
        self.decide(player | verdict.code << 3, count, verdict.move)
        return verdict

    def solved(self, count):
        """Solo: the robot reached the target (after the waypoint) in ``count`` moves that
        the caller checked one by one; a correct claim for player 0.

        For walks too long to keep in memory: nothing is checked but that such a walk
        can exist (GameError if not). Returns the Verdict, as ``claim`` does.
        """
        self._check_count(0, count)
        if not self.claim_possible(count):
            raise GameError("no walk of %d moves reaches the target" % count)
        self.decide(CORRECT << 3, count)
        return Verdict(CORRECT)

    def _check_count(self, player, count):
        self._check_playing(player)
        if not _is_int(count) or not 0 <= count <= MAX_CLAIM:
            raise GameError("a claim is 0 to %d moves, not %r" % (MAX_CLAIM, count))

    def give_up(self):
        """Nobody found a route: returns an optimal one (cells, start first); no token moves."""
        self._check_playing()
        route = self.solver.path(self.start, self.target, self.waypoint)
        self.decide(GIVE_UP, 0)
        return route

    def decide(self, what, count, move=0):
        """Make a decision as the log keeps it (decisions.py: ``what`` is the player |
        the verdict code << 3, or GIVE_UP), unchecked: for notation.py, which checks a
        decision read from text first, and for undo."""
        append(self._log, what, count, move)
        self._made += 1
        if what == GIVE_UP:
            self.streak = 0
        else:
            self._settle(what & 7, what >> 3, count)
        if not self.over:
            self.start = self.target
            self._roll_round()
            if self._made == self.keep:
                self._checkpoint = self._snapshot()
            elif self._made >= 2 * self.keep:
                self._fold()

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

    def _end(self, player):
        """The game is over: ``player`` won, or (-1) everyone holding the most tokens."""
        self.over = True
        if player >= 0:
            self.winners = [player]
        else:
            most = max(self.tokens)
            self.winners = [p for p in range(self.players) if self.tokens[p] == most]

    def undo(self):
        """Take back the last decision exactly; False when there is none (or only folded
        ones: undo reaches back ``keep`` decisions at least)."""
        log = self._log
        if not log:
            return False
        last = i = 0
        while i < len(log):  # where the last decision starts
            last = i
            i = entry(self._log, i)[3]
        self._log = bytearray()
        self._reset()
        i = 0
        while i < last:  # replay the others
            what, count, move, i = entry(log, i)
            self.decide(what, count, move)
        return True

    # -- text forms (reading them back, checked: notation.py) ------------------
    def decision_text(self):
        """The decisions as text: ``b4o`` is player b (1) claiming 4, correct; ``-`` gave up
        (decisions.text)."""
        return text(self._log)

    def to_dict(self):
        """The game as a small JSON-friendly dict (see docs/game.md, "Saved games")."""
        name = self.layout.name
        if name is None:
            name = [self.layout.token(i) for i in range(CELLS)]
        d = {
            "format": FORMAT, "version": VERSION, "layout": name,
            "players": self.players, "expert": self.expert, "seed": self.seed,
            "difficulty": self.difficulty, "decisions": self.decision_text(),
            "start": self.start, "target": self.target, "waypoint": self.waypoint,
            "pool": self.pool, "tokens": list(self.tokens), "winners": list(self.winners),
            "over": self.over, "score": self.score, "streak": self.streak,
            "best_streak": self.best_streak, "extra": self.extra,
        }
        b = self._base
        if b is not None:
            d["base"] = {"round": b.folded, "rng": [b.rng_hi, b.rng_lo], "start": b.start,
                         "pool": b.pool, "tokens": list(b.tokens), "score": b.score,
                         "streak": b.streak, "best_streak": b.best_streak,
                         "extra": b.extra, "last_extra": b.last_extra}
        return d
