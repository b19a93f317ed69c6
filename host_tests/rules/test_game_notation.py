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
