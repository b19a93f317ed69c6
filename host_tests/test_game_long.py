"""Long games: counts above 255, thousands of rounds in bounded memory, old saves still load."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from microrobots.rules.board import Layout
from microrobots.rules import notation
from microrobots.rules.decisions import OUTCOME_LETTERS
from microrobots.rules.game import KEEP, MAX_CLAIM, Game, GameError, GameStateError
from test_game_mpy import make_script, run_cpython, run_micropython

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
    assert run_micropython(scripts) == run_cpython(scripts)


def one(player, count, verdict):
    if player is None:
        return "-"
    return "%s%d%s%s" % (chr(97 + player), count, OUTCOME_LETTERS[verdict.code],
                         verdict.move or "")


def test_replay_tool_numbers_the_rounds_of_a_folded_game(capsys):
    from tools import replay

    game = Game(Layout.named("black:ABCD0000"), players=2, seed=7)
    for _ in range(70):
        game.give_up()
    assert replay.main([notation.share(game)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("round %d: " % (game.folded + 1))
    assert lines[-1].startswith("round 71: ") and lines[-1].endswith("being played")
    assert len(lines) == 1 + len(game.decisions()) + 1


def test_numbers_in_decisions_are_written_one_way():
    game = Game(Layout.named("black:CADB0312"), players=3, seed=5)
    assert game.optimum() <= 10
    for bad in ("b010o", "b10i01", "b00b"):
        with pytest.raises(GameStateError, match="should be written"):
            notation.replay("MR2.3.5.black:CADB0312." + bad)
    assert notation.replay("MR2.3.5.black:CADB0312.b10i1").decisions()[0][2].move == 1
