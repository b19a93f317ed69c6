"""A game's text forms (rules/notation.py): saved games and share strings round-trip
exactly and refuse anything damaged in one line; long games (counts above 255, thousands
of rounds folded into a base) keep them small; old formats still load."""

import json
import random

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from microrobots.rules import notation
from microrobots.rules.board import Layout
from microrobots.rules.decisions import OUTCOME_LETTERS
from microrobots.rules.game import (
    FORMAT, KEEP, MAX_CLAIM, VERSION, Game, GameError, GameStateError,
)
from test_game_micropython import make_script, run_cpython, run_micropython
from test_game_play import custom_layouts, named_layouts


def canonical(d):
    """JSON text with sorted keys: equal only when values *and* types agree (1 != true)."""
    return json.dumps(d, sort_keys=True)


@st.composite
def played_games(draw):
    """A game after a few random decisions (some honest, some not)."""
    layout = draw(st.one_of(named_layouts(), custom_layouts()))
    game = Game(layout, draw(st.integers(1, 8)), draw(st.booleans()),
                draw(st.integers(0, 2**32 - 1)), draw(st.sampled_from([0, 0, 5])))
    for _ in range(draw(st.integers(0, 30))):
        if game.over:
            break
        what = draw(st.integers(0, 4))
        player = draw(st.integers(0, game.players - 1))
        if what == 3:
            game.give_up()
        elif what == 4:  # a demonstration that breaks the rules at a drawn move
            route = game.route()
            count = len(route) - 1 + draw(st.sampled_from([0, 0, 2]))
            bad = draw(st.integers(0, len(route) - 2))
            moves = route[1:]
            moves[bad] = route[bad]  # staying put is never a move
            game.claim(player, count, moves)
        else:
            route = game.route()
            count = draw(st.integers(max(0, len(route) - 1 - what), len(route) + 1))
            game.claim(player, count, route[1:])
    return game


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 300) | st.floats(allow_nan=False)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner,
                                                                 max_size=3),
    max_leaves=6)


@st.composite
def mutations(draw, d):
    """A damaged copy of a saved game: truncated, retyped, tweaked, or extended."""
    d = json.loads(json.dumps(d))
    key = draw(st.sampled_from(sorted(d)))
    how = draw(st.sampled_from(["drop", "replace", "nudge", "text", "extra", "list"]))
    if how == "drop":
        del d[key]
    elif how == "replace":
        d[key] = draw(json_values)
    elif how == "nudge" and isinstance(d[key], int) and not isinstance(d[key], bool):
        d[key] += draw(st.sampled_from([-1, 1, 2**32]))
    elif how == "text":
        text = d["decisions"]
        cut = draw(st.integers(0, len(text)))
        d["decisions"] = text[:cut] + draw(st.text("abcdefgh0123456789oictwb-x.", max_size=3)) \
            + text[cut + draw(st.integers(0, 2)):]
    elif how == "extra":
        d[draw(st.text(min_size=1, max_size=8))] = draw(json_values)
    elif how == "list":
        for k in ("tokens", "winners", "layout"):
            if isinstance(d[k], list) and d[k]:
                i = draw(st.integers(0, len(d[k]) - 1))
                d[k][i] = draw(json_values)
                break
    return d


@given(game=played_games())
def test_saved_games_round_trip_exactly(game):
    d = game.to_dict()
    assert json.loads(json.dumps(d)) == d, "JSON-friendly"
    loaded = notation.from_dict(json.loads(json.dumps(d)))
    assert canonical(loaded.to_dict()) == canonical(d)
    # The reloaded game plays on exactly like the original.
    if not game.over:
        assert loaded.give_up() == game.give_up()
        assert canonical(loaded.to_dict()) == canonical(game.to_dict())


@given(game=played_games(), data=st.data())
def test_damaged_saved_games_are_refused_or_identical(game, data):
    original = game.to_dict()
    damaged = data.draw(mutations(original))
    try:
        loaded = notation.from_dict(damaged)
    except GameStateError as e:
        message = str(e)
        assert message.startswith("saved game: ") and "\n" not in message
        event("refused")
        return
    event("accepted")
    # Accepted: then it is a complete, consistent game whose saved form is exactly the
    # dict given (e.g. a count in a decision changed to another that leads to the same
    # state) - never a half-loaded one. An older version number loads and is written anew.
    assert canonical(loaded.to_dict()) == canonical(dict(damaged, version=VERSION))


def test_specific_damage_is_named():
    game = Game(Layout.named("black:CADB0312"), players=3, seed=5)
    route = game.route()
    game.claim(1, len(route) - 1, route[1:])
    game.give_up()
    d = game.to_dict()
    cases = {
        "not a Micro Robots game": dict(d, format="chess"),
        "newer than this firmware": dict(d, version=VERSION + 1),
        "'pool' is missing": {k: v for k, v in d.items() if k != "pool"},
        "unknown field 'x'": dict(d, x=1),
        "pool is 25 but its decisions give 24": dict(d, pool=25),
        "tokens is [0, 1, 1]": dict(d, tokens=[0, 1, 1]),
        "over is 0": dict(d, over=0),
        "players must be an integer": dict(d, players=3.0),
        "expert must be true or false": dict(d, expert=0),
        "layout: unknown side": dict(d, layout="wood:ABCD0000"),
        "is not one of the 3 players": dict(d, decisions="d3o-"),
        "comes after the end": None,
        "expected a JSON object": [d],
    }
    ended = Game(Layout.named("black:ABCD0000"), players=2, seed=1)
    while not ended.over:
        r = ended.route()
        ended.claim(0, len(r) - 1, r[1:])
    late = ended.to_dict()
    late["decisions"] += "-"
    cases["comes after the end"] = late
    for expected, bad in cases.items():
        with pytest.raises(GameStateError) as err:
            notation.from_dict(bad)
        assert expected in str(err.value), (expected, str(err.value))
    assert d["format"] == FORMAT


def test_custom_layouts_are_saved_as_their_36_cells():
    faces = ["BYGRPW"[i // 6] + str(i % 6 + 1) for i in range(36)]
    faces = faces[7:] + faces[:7]  # any 36 distinct faces make a custom layout
    layout = Layout.parse("\n".join(" ".join(faces[r * 6:r * 6 + 6]) for r in range(6)))
    assert layout.name is None
    game = Game(layout, players=2, seed=3)
    d = game.to_dict()
    assert d["layout"] == faces
    assert notation.from_dict(d).layout == layout
    with pytest.raises(GameStateError, match="should be written"):
        notation.from_dict(dict(d, layout=[t.lower() for t in d["layout"]]))
    with pytest.raises(GameStateError, match="layout"):
        notation.from_dict(dict(d, layout=d["layout"][:35]))
    with pytest.raises(GameStateError, match="G2 appears twice"):
        notation.from_dict(dict(d, layout=["G2"] + d["layout"][1:]))


@given(game=played_games())
def test_share_strings_replay_the_game(game):
    text = notation.share(game)
    assert text.startswith("MR2.") and " " not in text
    replayed = notation.replay(text)
    assert canonical(replayed.to_dict()) == canonical(game.to_dict())
    assert notation.share(replayed) == text


@given(game=played_games(), data=st.data())
def test_damaged_share_strings_are_refused_or_consistent(game, data):
    text = notation.share(game)
    cut = data.draw(st.integers(0, len(text)))
    damaged = text[:cut] + data.draw(st.text("MR12.:x-d0123456789abcdefghoictwBCD", max_size=3)) \
        + text[cut + data.draw(st.integers(0, 3)):]
    try:
        replayed = notation.replay(damaged)
    except GameStateError as e:
        assert str(e).startswith("share string: ") and "\n" not in str(e)
        return
    assert canonical(notation.replay(notation.share(replayed)).to_dict()) == canonical(replayed.to_dict())


def test_share_string_format():
    game = Game(Layout.named("copper:DCBA0123"), players=3, expert=True, seed=77, difficulty=4)
    assert notation.share(game) == "MR2.3xd4.77.copper:DCBA0123"
    game.give_up()
    r = game.route()
    game.claim(2, len(r) - 1, r[1:])
    game.claim(0, 0, [])
    assert notation.share(game) == "MR2.3xd4.77.copper:DCBA0123.-c%doa0b" % (len(r) - 1)
    for bad in ("", "MR3.3.1.black:ABCD0000", "MR0.3.1.black:ABCD0000", "MR1.9.1.black:ABCD0000", "MR1.3.-1.black",
                "MR1.3.1.black:ABCD000", "MR1.2.1.black:ABCD0000.z3o", "MR1.2y.1.black:ABCD0000",
                "MR1.2.1." + "0" * 36, None):
        with pytest.raises(GameStateError):
            notation.replay(bad)


def test_undo_restores_the_saved_form_exactly():
    game = Game(Layout.named("black:BCDA2222"), players=4, expert=True, seed=9)
    states = [game.to_dict()]
    for k in range(12):
        if k % 3 == 2:
            game.give_up()
        else:
            r = game.route()
            game.claim(k % 4, len(r) - 1 + (k % 2), r[1:])
        states.append(game.to_dict())
    while states:
        assert game.to_dict() == states.pop()
        game.undo()
    assert not game.undo()


def test_decisions_must_be_written_as_saved():
    game = Game(Layout.named("black:ABCD0000"), players=2, seed=4)
    r = game.route()
    game.claim(1, len(r) - 1, r[1:])
    d = game.to_dict()
    padded = dict(d, decisions="b0%do" % (len(r) - 1))
    with pytest.raises(GameStateError, match="should be written"):
        notation.from_dict(padded)


# -- which move was illegal (format 2) ---------------------------------------------------------

def illegal_at(game, k, extra=0):
    """A demonstration of the optimum (+ ``extra`` moves) whose move ``k`` stays put."""
    route = game.route()
    moves = route[1:]
    for _ in range(extra // 2):
        moves = [route[1], route[0]] + moves
    moves[k - 1] = route[0] if k == 1 else moves[k - 2]
    return len(moves), moves


@pytest.mark.parametrize("k, extra", [(1, 0), (2, 0), (3, 2), (150, 198)])
def test_the_illegal_move_is_kept_in_every_form(k, extra):
    game = Game(Layout.named("black:CADB0312"), players=3, seed=5)
    count, moves = illegal_at(game, k, extra)
    verdict = game.claim(1, count, moves)
    assert (verdict.code, verdict.move, verdict.reason) == (1, k, "move %d is not legal" % k)
    game.give_up()
    player, claimed, kept = game.decisions()[0]
    assert (player, claimed, kept.code, kept.move, kept.reason) == (1, count, 1, k, verdict.reason)
    assert game.decision_text() == "b%di%d-" % (count, k)
    assert game.to_dict()["version"] == 2 and notation.share(game).startswith("MR2.")
    for again in (notation.replay(notation.share(game)), notation.from_dict(json.loads(json.dumps(game.to_dict())))):
        assert again.decisions()[0][2].move == k and again.to_dict() == game.to_dict()
    assert game.undo() and game.decisions()[0][2].move == k  # undo replays the log
    assert game.undo() and game.decisions() == []


def test_old_saves_and_share_strings_without_the_move_still_load():
    game = Game(Layout.named("black:CADB0312"), players=3, seed=5)
    count, moves = illegal_at(game, 2)
    game.claim(1, count, moves)
    new = game.to_dict()
    old = dict(new, version=1, decisions="b%di" % count)  # as version 1 wrote it
    loaded = notation.from_dict(old)
    verdict = loaded.decisions()[0][2]
    assert (verdict.code, verdict.move, verdict.reason) == (1, 0, "a move is not legal")
    assert loaded.to_dict() == dict(old, version=2)  # re-saved in the new version as it is
    shared = notation.replay("MR1.3.5.black:CADB0312.b%di" % count)
    assert shared.to_dict() == loaded.to_dict() and notation.share(shared).startswith("MR2.")
    assert notation.replay(notation.share(game).replace("MR2.", "MR1.", 1)).to_dict() == new


@pytest.mark.parametrize("move, ok", [("0", False), ("1", True), ("4", True), ("5", False),
                                      ("00001", False), ("99999", False)])
def test_the_illegal_move_is_one_to_one_past_the_claim(move, ok):
    game = Game(Layout.named("black:CADB0312"), players=3, seed=5)
    text = "MR2.3.5.black:CADB0312.b3i%s" % move  # a claim of 3, at or above the optimum
    assert game.optimum() <= 3
    if ok:
        assert notation.replay(text).decisions()[0][2].move == int(move)
    else:
        with pytest.raises(GameStateError, match="the illegal move must be 1 to 4"):
            notation.replay(text)


def test_a_demonstration_is_judged_up_to_one_move_past_the_claim():
    game = Game(Layout.named("black:CADB0312"), players=3, seed=5)
    route = game.route()
    count = len(route) - 1
    moves = route[1:] + [route[-2], route[-2]]  # one legal move too many, then an illegal one
    verdict = game.claim(0, count, moves)
    assert (verdict.code, verdict.move) == (2, 0)  # the count is wrong before the bad move
    game.undo()
    verdict = game.claim(0, count, route[1:-1] + [route[-2]])  # last move stays put
    assert (verdict.code, verdict.move) == (1, count)


# -- decisions that cannot have happened (mutants that lived) ----------------------------------

def test_a_correct_claim_needs_a_walk_of_exactly_that_length():
    fresh = Game(Layout.named("black:ABCD0000"), players=2, seed=11)
    assert fresh.optimum() == 1 and not fresh.claim_possible(2) and fresh.claim_possible(3)
    with pytest.raises(GameStateError, match="outcome 'o' cannot follow a claim of 2"):
        notation.replay("MR1.2.11.black:ABCD0000.a2o")
    with pytest.raises(GameStateError, match="decision 1: outcome 'o' cannot follow"):
        notation.apply(fresh, "a2o")
    assert fresh.decisions() == []
    good = Game(Layout.named("black:ABCD0000"), players=2, seed=11)
    notation.apply(good, "a3o")
    saved = dict(good.to_dict(), decisions="a2o")
    with pytest.raises(GameStateError, match="outcome 'o' cannot follow a claim of 2"):
        notation.from_dict(saved)
    assert notation.replay("MR1.2.11.black:ABCD0000.a2c").decisions()[0][2].code == 2


STATE = ("start", "target", "waypoint", "pool", "tokens", "winners", "over", "score",
         "streak", "best_streak", "extra")


def state(game):
    d = game.to_dict()
    return [d[k] for k in STATE] + [game.optimum(), game.round, game.last_extra, game.notice]


def decide(game, rnd):
    """One random decision: honest (sometimes long), wrong, below the optimum, or given up."""
    route = game.route()
    r = rnd.random()
    player = rnd.randrange(game.players)
    if r < 0.15:
        game.give_up()
    elif r < 0.25 and game.optimum() > 0:
        game.claim(player, rnd.randrange(game.optimum()), [])
    elif r < 0.35:
        game.claim(player, len(route), route[1:])  # a count that differs
    elif r < 0.45:  # an illegal move (standing still), now and then after 400 good ones
        moves = [route[1], route[0]] * rnd.choice([0, 1, 200]) + [route[0]]
        game.claim(player, len(moves) + rnd.randrange(3), moves)
    else:
        bounce = rnd.choice([0, 0, 0, 1, 200])  # now and then a walk of 400 moves more
        moves = [route[1], route[0]] * bounce + route[1:]
        game.claim(player, len(moves), moves)


def test_a_claim_above_255_moves_is_kept_saved_and_shared():
    game = Game(Layout.named("black:ABCD0000"), players=1, seed=3)
    route = game.route()
    moves = [route[1], route[0]] * 150 + route[1:]
    assert game.claim(0, len(moves), moves).ok
    count = len(moves)
    assert count > 255 and [(p, c, v.code) for p, c, v in game.decisions()] == [(0, count, 0)]
    assert game.extra == 300 and game.decision_text() == "a%do" % count
    d = json.loads(json.dumps(game.to_dict()))
    assert d["version"] == 2 and "base" not in d
    assert notation.from_dict(d).to_dict() == game.to_dict()
    assert notation.replay(notation.share(game)).to_dict() == game.to_dict()
    far = Game(Layout.named("black:ABCD0000"), players=1, seed=3)
    assert far.solved(MAX_CLAIM - 1 if far.optimum() % 2 != MAX_CLAIM % 2 else MAX_CLAIM).ok
    assert notation.replay(notation.share(far)).to_dict() == far.to_dict()
    with pytest.raises(GameError):
        far.solved(MAX_CLAIM + 1)
    with pytest.raises(GameStateError, match="bad move count"):
        notation.replay("MR1.1.3.black:ABCD0000.a%do" % (MAX_CLAIM + 1))


def test_solved_accepts_only_walks_that_can_exist():
    game = Game(Layout.named("black:ABCD0000"), players=1, seed=3)
    opt = game.optimum()
    with pytest.raises(GameError, match="no walk of"):
        game.solved(opt - 1)
    assert game.decision_text() == ""
    assert game.solved(opt + 2).ok and game.extra == 2 and game.score == 1


def test_saves_and_share_strings_of_the_first_format_still_load():
    # Written by the firmware before claims could exceed 255 (docs/game.md's example).
    old = {"format": "microrobots-game", "version": 1, "layout": "black:CADB0312",
           "players": 3, "expert": True, "seed": 2026, "difficulty": 0, "decisions": "b9ob3b-",
           "start": 25, "target": 15, "waypoint": 8, "pool": 24, "tokens": [0, 0, 1],
           "winners": [], "over": False, "score": 1, "streak": 0, "best_streak": 1, "extra": 0}
    game = notation.from_dict(old)
    assert game.to_dict() == dict(old, version=2)
    assert notation.replay("MR1.3x.2026.black:CADB0312.b9ob3b-").to_dict() == dict(old, version=2)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(1, 8), expert=st.booleans(),
       keep=st.sampled_from([1, 2, 3, 5, KEEP]), n=st.integers(1, 120))
def test_a_long_game_folds_its_history_and_plays_exactly_as_without(seed, players, expert,
                                                                    keep, n):
    rnd = random.Random(seed)
    layout = Layout.named("black:CADB0312")
    game = Game(layout, players, expert, seed)
    game.keep = keep
    full = Game(layout, players, expert, seed)
    full.keep = 10**9  # the same game, never folded
    states = [state(full)]
    for i in range(n):
        if full.over:
            break
        decide(full, rnd)
        player, count, verdict = full.decisions()[-1]
        notation.apply(game, one(player, count, verdict))
        assert state(game) == state(full)
        assert len(game.decisions()) < 2 * keep + game.over
        assert game.folded + len(game.decisions()) == i + 1
        states.append(state(full))
    d = json.loads(json.dumps(game.to_dict()))
    assert (game.folded > 0) == ("base" in d)
    loaded = notation.from_dict(d)
    assert state(loaded) == state(full) and loaded.to_dict() == d
    replayed = notation.replay(notation.share(game))
    assert state(replayed) == state(full) and notation.share(replayed) == notation.share(game)
    rewound = game.rewound()
    assert rewound.round == game.folded + 1 and rewound.decisions() == []
    notation.apply(rewound, game.decision_text())
    assert rewound.to_dict() == d
    # undo reaches back to the base, exactly, and no further
    kept = len(game.decisions())
    for _ in range(kept):
        states.pop()
        assert game.undo()
        assert state(game) == states[-1]
    assert not game.undo() and game.round == game.folded + 1
    assert game.folded == 0 or kept >= keep


def test_thousands_of_rounds_stay_small():
    game = Game(Layout.named("copper:DCBA0123"), players=1, expert=True, seed=11)
    rnd = random.Random(5)
    biggest = 0
    for _ in range(3000):
        decide(game, rnd)
        biggest = max(biggest, len(json.dumps(game.to_dict())))
    assert game.round == 3001 and game.folded >= 3000 - 2 * KEEP
    assert len(game.decisions()) < 2 * KEEP
    assert biggest < 1200, "a saved solo game stays about a kilobyte"
    assert notation.from_dict(game.to_dict()).to_dict() == game.to_dict()


def test_damaged_bases_are_refused_in_one_line():
    game = Game(Layout.named("black:CADB0312"), players=3, seed=5)
    game.keep = 2
    rnd = random.Random(1)
    while game.folded == 0 or game.over:
        if game.over:
            game = Game(Layout.named("black:CADB0312"), players=3, seed=rnd.randrange(99))
            game.keep = 2
        decide(game, rnd)
    d = game.to_dict()
    base = d["base"]
    bad = {
        "round": [0, -1, 1.0, None],
        "rng": [[0, 0], [1], [1, 70000], "12", [1, True]],
        "start": [36, -1, "G3"],
        "pool": [0, 26, base["pool"] + 1],
        "tokens": [[0, 0], [5, 0, 0], [0, 0, 0, 0], base["tokens"][:-1] + [9]],
        "score": [-1, base["round"] + 1],
        "streak": [base["best_streak"] + 1],
        "last_extra": [base["extra"] + 1],
    }
    for key, values in bad.items():
        for v in values:
            damaged = json.loads(json.dumps(d))
            damaged["base"][key] = v
            with pytest.raises(GameStateError) as err:
                notation.from_dict(damaged)
            assert str(err.value).startswith("saved game: ") and "\n" not in str(err.value)
    for damaged in (dict(d, base=None), dict(d, base=[1]), dict(d, version=1),
                    dict(d, base={k: v for k, v in base.items() if k != "pool"})):
        with pytest.raises(GameStateError):
            notation.from_dict(damaged)
    text = notation.share(game)
    at = text.index(".@")
    for cut in (text[:at] + ".@1:2" + text[text.index(".", at + 1):], text.replace(".@", ".@x")):
        with pytest.raises(GameStateError, match="share string: "):
            notation.replay(cut)


def test_long_games_agree_on_micropython():
    rnd = random.Random(77)
    scripts = [make_script(rnd, steps=160) for _ in range(4)]
    assert run_micropython("play", scripts) == run_cpython(scripts)


def one(player, count, verdict):
    if player is None:
        return "-"
    return "%s%d%s%s" % (chr(97 + player), count, OUTCOME_LETTERS[verdict.code],
                         verdict.move or "")


def test_numbers_in_decisions_are_written_one_way():
    game = Game(Layout.named("black:CADB0312"), players=3, seed=5)
    assert game.optimum() <= 10
    for bad in ("b010o", "b10i01", "b00b"):
        with pytest.raises(GameStateError, match="should be written"):
            notation.replay("MR2.3.5.black:CADB0312." + bad)
    assert notation.replay("MR2.3.5.black:CADB0312.b10i1").decisions()[0][2].move == 1


# -- the one line each refusal gives, word for word (issue 37: mutants that lived) ------------

def refused(read, *args):
    """The line ``read(*args)`` refuses with (a GameStateError), or None if it reads."""
    try:
        read(*args)
    except GameStateError as e:
        return str(e)
    return None


SHARE_REFUSALS = [
    (None, "share string: expected text, not None"),
    (5, "share string: expected text, not 5"),
    ("X" * 13200, "share string: expected MR2.<players>.<seed>.<layout>[.<decisions>], got '%s'"
     % ("X" * 40)),  # the longest text read: refused for what it says, cut to 40
    ("X" * 13201, "share string: over 1000 decisions"),  # one more: refused for its length
    ("MR9.this share string is far too long to show whole",
     "share string: expected MR2.<players>.<seed>.<layout>[.<decisions>], got "
     "'MR9.this share string is far too long to'"),
    ("MR2.1.1.black:ABCD0000.-.-", "share string: expected MR2.<players>.<seed>.<layout>"
     "[.<decisions>], got 'MR2.1.1.black:ABCD0000.-.-'"),
    ("MR2.3..black:ABCD0000", "share string: bad seed ''"),
    ("MR2.3.1A.black:ABCD0000", "share string: bad seed '1A'"),
    ("MR2.3.12345678901.black:ABCD0000", "share string: bad seed '12345678901'"),
    ("MR2.3.4294967296.black:ABCD0000",
     "share string: seed must be an int from 0 to 4294967295, not 4294967296"),
    ("MR2.y.1.black:ABCD0000", "share string: bad options 'y' (players, then x, then d<difficulty>)"),
    ("MR2.A.1.black:ABCD0000", "share string: bad options 'A' (players, then x, then d<difficulty>)"),
    ("MR2.12.1.black:ABCD0000", "share string: bad options '12' (players, then x, then d<difficulty>)"),
    ("MR2.3y5.1.black:ABCD0000",
     "share string: bad options '3y5' (players, then x, then d<difficulty>)"),
    ("MR2.0.1.black:ABCD0000", "share string: players must be 1 to 8, not 0"),
    ("MR2.9.1.black:ABCD0000", "share string: players must be 1 to 8, not 9"),
    ("MR2.2.1.black:ABCD0000.z3o", "share string: decision 1: 'z' is not one of the 2 players"),
    ("MR2.2.1.black:ABCD0000.-z", "share string: decision 2: 'z' is not one of the 2 players"),
    ("MR2.3.5.black:CADB0312.b010o", "share string: decision 1: '010' should be written '10'"),
    ("MR2.1.5.black:CADB0312.b3o", "share string: decision 1: 'b' is not the one player, a"),
    ("MR2.2.5.black:CADB0312.c3o", "share string: decision 1: 'c' is not one of the 2 players"),
    ("MR2.3.5.black:CADB0312.a123456o", "share string: decision 1: bad move count"),
    ("MR2.3.5.black:CADB0312.a3", "share string: decision 1: bad move count or outcome"),
    ("MR2.3.5.black:CADB0312.a65536c", "share string: decision 1: bad move count or outcome"),
    ("MR2.3.5.black:CADB0312.b3iA", "share string: decision 2: 'A' is not one of the 3 players"),
    ("MR2.3.5.black:CADB0312.b3i5",
     "share string: decision 1: the illegal move must be 1 to 4, not 5"),
    ("MR2.3.5.black:CADB0312.b10i01", "share string: decision 1: '01' should be written '1'"),
    ("MR2.2.11.black:ABCD0000.a2o",
     "share string: decision 1: outcome 'o' cannot follow a claim of 2 (optimum 1)"),
    ("MR2.2.1.black:" + "A" * 30,  # 36 characters, but a name: read as one
     "share string: layout: bad arrangement '%s': 4 boards (a permutation of ABCD) then 4 "
     "turns 0-3, e.g. CADB0312" % ("A" * 30)),
]


@pytest.mark.parametrize("text, line", SHARE_REFUSALS)
def test_each_bad_share_string_is_refused_with_its_own_line(text, line):
    assert refused(notation.replay, text) == line


def test_the_players_and_seeds_at_the_edges_of_a_share_string_are_read():
    for players in (1, 8):
        assert notation.replay("MR2.%d.1.black:ABCD0000" % players).players == players
    assert notation.replay("MR2.2.4294967295.black:ABCD0000").seed == 4294967295


def test_a_share_string_without_a_difficulty_writes_none():
    game = Game(Layout.named("copper:DCBA0123"), players=3, seed=77)
    assert notation.share(game) == "MR2.3.77.copper:DCBA0123"
    assert notation.share(Game(Layout.named("copper:DCBA0123"), 1, True, 77)) == \
        "MR2.1x.77.copper:DCBA0123"


def test_decisions_a_tool_applies_are_counted_and_named_as_decisions():
    game = Game(Layout.named("black:ABCD0000"), players=2, seed=1)
    assert refused(notation.apply, game, "z3o") == \
        "decisions: decision 1: 'z' is not one of the 2 players"
    assert refused(notation.apply, game, "--z") == \
        "decisions: decision 3: 'z' is not one of the 2 players"
    assert refused(notation.finish, notation.applying(game, "z")) == \
        "decisions: decision 1: 'z' is not one of the 2 players", "in pieces: the same line"
    game.undo()
    game.undo()
    # 13,000 characters (1,000 of the longest decisions) are read, one more is not
    assert refused(notation.apply, game, "z" + "-" * 12999) == \
        "decisions: decision 1: 'z' is not one of the 2 players"
    assert refused(notation.apply, game, "-" * 13000 + "z") == "decisions: over 1000 decisions"
    assert game.decisions() == [], "refused before any decision is made"


def test_a_thousand_decisions_are_read_and_one_more_is_refused():
    solo = Game(Layout.named("black:ABCD0000"), players=1, seed=1)
    notation.apply(solo, "-" * 1000)
    assert solo.round == 1001
    solo = Game(Layout.named("black:ABCD0000"), players=1, seed=1)
    assert refused(notation.apply, solo, "-" * 1001) == "decisions: over 1000 decisions"


def folded_game():
    """A 3-player game that folded its oldest decisions into a base (keep = 2)."""
    rnd = random.Random(1)
    game = Game(Layout.named("black:CADB0312"), players=3, seed=5)
    game.keep = 2
    while game.folded == 0 or game.over:
        if game.over:
            game = Game(Layout.named("black:CADB0312"), players=3, seed=rnd.randrange(99))
            game.keep = 2
        decide(game, rnd)
    return game


def test_a_folded_game_shares_its_base_and_replays_exactly():
    game = folded_game()
    text = notation.share(game)
    b = game.base
    assert ".@%d:%04x%04x:" % (b.folded, b.rng_hi, b.rng_lo) in text
    assert any(ch in "abcdef" for ch in "%04x%04x" % (b.rng_hi, b.rng_lo)), "hex, not decimal"
    again = notation.replay(text)
    assert again.base == game.base and again.to_dict() == game.to_dict()
    # the base alone, before any kept decision (a rewound game): five parts, still a base
    rewound = game.rewound()
    alone = notation.share(rewound)
    assert alone.count(".") == 4 and ".@" in alone
    assert notation.replay(alone).to_dict() == rewound.to_dict()
    assert refused(notation.replay, text + ".-") == (
        "share string: expected MR2.<players>.<seed>.<layout>[.<decisions>], got %r"
        % text[:40])


def test_each_bad_base_of_a_share_string_is_refused_with_its_own_line():
    text = notation.share(folded_game())
    at = text.index(".@") + 1
    end = text.index(".", at)
    fields = text[at + 1:end].split(":")

    def with_field(k, value):
        f = list(fields)
        f[k] = value
        base = "@" + ":".join(f)
        return text[:at] + base + text[end:], base

    for k, value in ((1, "0000000g"), (1, "1234abc"), (4, "00"), (4, "0000"), (0, "x")):
        damaged, base = with_field(k, value)
        assert refused(notation.replay, damaged) == "share string: bad base %r" % base[:40]
    damaged, base = with_field(4, "0" * 40)
    assert len(base) > 41
    assert refused(notation.replay, damaged) == "share string: bad base %r" % base[:40]
    damaged, _ = with_field(2, "36")
    assert refused(notation.replay, damaged) == "share string: base: bad start cell 36"
    damaged, _ = with_field(4, "500")
    assert refused(notation.replay, damaged) == "share string: base: bad tokens [5, 0, 0]"
    later = text[:end] + ".z"
    assert refused(notation.replay, later) == \
        "share string: decision 1: 'z' is not one of the 3 players"


def saved():
    """A 3-player save of two decisions (one of them a correct claim)."""
    game = Game(Layout.named("black:CADB0312"), players=3, seed=5)
    route = game.route()
    game.claim(1, len(route) - 1, route[1:])
    game.give_up()
    return game.to_dict()


def custom_saved():
    faces = ["BYGRPW"[i // 6] + str(i % 6 + 1) for i in range(36)]
    layout = Layout.parse("\n".join(" ".join(faces[r * 6:r * 6 + 6]) for r in range(6)))
    return Game(layout, players=3, seed=5).to_dict()


def test_each_bad_saved_game_is_refused_with_its_own_line():
    d = saved()
    c = custom_saved()
    cases = [
        ([d], "saved game: expected a JSON object, not list"),
        (dict(d, format="chess"), "saved game: not a Micro Robots game (format 'chess')"),
        (dict(d, version=0), "saved game: bad format version 0"),
        (dict(d, version="2"), "saved game: bad format version '2'"),
        (dict(d, version=VERSION + 1),
         "saved game: format version 3 is newer than this firmware reads (2)"),
        (dict(d, players=3.0), "saved game: players must be an integer, not 3.0"),
        (dict(d, players=9), "saved game: players must be 1 to 8, not 9"),
        (dict(d, tokens=d["tokens"] + [0]),
         "saved game: tokens is [0, 1, 0, 0] but its decisions give [0, 1, 0]"),
        (dict(d, tokens=d["tokens"][:2]),
         "saved game: tokens is [0, 1] but its decisions give [0, 1, 0]"),
        (dict(d, winners=[1]), "saved game: winners is [1] but its decisions give []"),
        (dict(d, version=1, base={}), "saved game: unknown field 'base'"),
        (dict(d, layout="wood"), "saved game: layout 'wood' is not a name like black:CADB0312"),
        (dict(d, layout="0123456789abcdefghijklmnopqrstuvwxyz"),
         "saved game: layout '0123456789abcdefghijklmnopqrstuvwxyz' is not a name like "
         "black:CADB0312"),  # a share string's custom layout is not a save's
        (dict(d, layout="wood:ABCD0000"),
         "saved game: layout: unknown side 'wood' (use black or copper)"),
        (dict(d, layout=5), "saved game: layout must be a name or a list of 36 cells"),
        (dict(c, layout=c["layout"][:35]), "saved game: layout must be a name or a list of 36 cells"),
        (dict(c, layout=c["layout"] + ["B1"]),
         "saved game: layout must be a name or a list of 36 cells"),
        (dict(c, layout=c["layout"][:7] + [7] + c["layout"][8:]),
         "saved game: layout cell 7 is not text"),
        (dict(c, layout=["G2"] + c["layout"][1:]),
         "saved game: layout: line 3, column 2: G2 appears twice (first at line 1, column 1); "
         "missing: B1"),
        (dict(c, layout=["b1"] + c["layout"][1:]), "saved game: layout cell 0 should be written 'B1'"),
    ]
    for bad, line in cases:
        assert refused(notation.from_dict, bad) == line, line
    assert refused(notation.from_dict, c) is None


def test_each_bad_field_of_a_folded_save_is_refused_with_its_own_line():
    d = json.loads(json.dumps(folded_game().to_dict()))
    assert list(d)[-1] == "base" and refused(notation.from_dict, d) is None
    base = d["base"]
    no_pool = {k: v for k, v in base.items() if k != "pool"}
    cases = [
        (dict(d, x=1), "saved game: unknown field 'x'"),  # after the base: the base is known
        (dict(d, base=[1]), "saved game: base must be an object of 10 fields"),
        (dict(d, base=no_pool), "saved game: base must be an object of 10 fields"),
        (dict(d, base=dict(no_pool, x=1)), "saved game: base: 'pool' is missing"),
        (dict(d, base=dict(base, start=36)), "saved game: base: bad start cell 36"),
    ]
    for bad, line in cases:
        assert refused(notation.from_dict, bad) == line, line


def test_the_largest_count_a_decision_can_hold_is_read():
    game = notation.replay("MR2.3.5.black:CADB0312.a65535c")
    assert game.decision_text() == "a65535c" and game.decisions()[0][1] == MAX_CLAIM


def test_a_decision_after_the_end_is_refused_with_its_number():
    ended = Game(Layout.named("black:ABCD0000"), players=2, seed=1)
    while not ended.over:
        r = ended.route()
        ended.claim(0, len(r) - 1, r[1:])
    late = dict(ended.to_dict(), decisions=ended.decision_text() + "-")
    k = len(ended.decisions()) + 1
    assert refused(notation.from_dict, late) == \
        "saved game: decision %d comes after the end of the game" % k


@pytest.mark.parametrize("n", [0, 1, 3, 4, 5, 8, 13])
def test_a_save_is_read_in_pieces_of_a_few_decisions(n):
    """loading() hands the frame loop back once after the configuration, then once every
    _REPLAYED_A_FRAME decisions: a long save never holds a frame for all of its replay."""
    game = Game(Layout.named("black:ABCD0000"), players=1, seed=1)
    for _ in range(n):
        game.give_up()
    pieces = 0
    work = notation.loading(game.to_dict())
    try:
        while True:
            next(work)
            pieces += 1
    except StopIteration as done:
        assert done.value.to_dict() == game.to_dict()
    assert pieces == 1 + n // notation._REPLAYED_A_FRAME


BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def test_a_custom_layout_in_a_share_string_is_read_cell_by_cell():
    """Character v of 36 (base 36) is the die of colour v // 6 (B Y G R P W), number
    v % 6 + 1: here each cell holds the face of the next one of the ordered board."""
    text = BASE36[7:] + BASE36[:7]
    game = notation.replay("MR2.2.1." + text)
    for i in range(36):
        v = BASE36.index(text[i])
        assert game.layout.token(i) == "BYGRPW"[v // 6] + str(v % 6 + 1)
    assert notation.share(game) == "MR2.2.1." + text


@pytest.mark.parametrize("layout, line", [
    (BASE36[:35] + "A", "share string: bad custom layout at cell 35"),
    (BASE36[:35] + "0", "share string: bad custom layout at cell 35"),  # twice
    (BASE36[:5] + "!" + BASE36[6:], "share string: bad custom layout at cell 5"),
    ("BLACK:CADB0312", "share string: layout 'BLACK:CADB0312' should be written 'black:CADB0312'"),
    ("wood:ABCD0000", "share string: layout: unknown side 'wood' (use black or copper)"),
    ("black", "share string: layout 'black' should be written 'black:ABCD0000'"),
    ("black:AACD0000", "share string: layout: bad arrangement 'AACD0000': 4 boards (a "
                       "permutation of ABCD) then 4 turns 0-3, e.g. CADB0312"),
])
def test_each_bad_layout_of_a_share_string_is_refused_with_its_own_line(layout, line):
    assert refused(notation.replay, "MR2.2.1." + layout) == line
