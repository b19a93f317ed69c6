"""The game engine inside the real MicroPython interpreter: same states, little allocation.

Games are scripted under CPython (honest and dishonest claims, giving up, undo); the
same script then runs in ``micropython`` and every state, verdict and revealed route
must be identical.
"""

import json
import os
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import game_mpy
from microrobots.rules.board import Layout
from microrobots.rules.game import Game
from mpy import run_file

# game_mpy.py (beside this file): play() and load() under CPython here, and inside
# MicroPython through its main().
SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "game_mpy.py")


def run_cpython(scripts):
    out = []
    for s in scripts:
        game_mpy.play(s, out.append)
    return json.loads(json.dumps(out))


def run_micropython(command, lines):
    out = run_file(SCRIPT, command, stdin="\n".join(json.dumps(x) for x in lines))
    return [json.loads(line) for line in out.splitlines()]


def layout_spec(rnd):
    if rnd.random() < 0.6:
        side = rnd.choice(["black", "copper"])
        perm = "".join(rnd.sample("ABCD", 4))
        return "%s:%s%s" % (side, perm, "".join(rnd.choice("0123") for _ in range(4)))
    pairs = list(range(36))
    rnd.shuffle(pairs)  # a custom layout: often with unreachable cells
    return [[p // 6 for p in pairs], [p % 6 + 1 for p in pairs]]


def make_script(rnd, steps=25):
    """A game config and actions chosen by watching the game under CPython."""
    spec = layout_spec(rnd)
    cfg = {"layout": spec, "players": rnd.randint(1, 8), "expert": rnd.random() < 0.5,
           "seed": rnd.randrange(2**32), "difficulty": rnd.choice([0, 0, 0, 4, 8])}
    layout = Layout.named(spec) if isinstance(spec, str) else Layout(*spec)
    game = Game(layout, cfg["players"], cfg["expert"], cfg["seed"], cfg["difficulty"])
    actions = []
    for _ in range(steps):
        if game.over:
            act = ["undo"]
        else:
            r = rnd.random()
            route = game.route()
            player = rnd.randrange(game.players)
            if r < 0.5:
                act = ["claim", player, len(route) - 1, route[1:]]
            elif r < 0.6:
                act = ["claim", player, rnd.randrange(game.optimum()), []]
            elif r < 0.7:
                moves = route[1:] + [rnd.randrange(36)]
                act = ["claim", player, len(moves), moves]
            elif r < 0.8:
                act = ["give_up"]
            elif r < 0.85:
                act = ["claim", player, len(route), route[1:]]
            elif r < 0.9:  # a long demonstration, broken at a move past 127 (two log bytes)
                moves = [route[1], route[0]] * 90 + route[1:]
                k = rnd.randrange(128, len(moves))
                moves[k] = moves[k - 1]
                act = ["claim", player, len(moves), moves]
            else:
                act = ["undo"]
        actions.append(act)
        if act[0] == "claim":
            game.claim(act[1], act[2], act[3])
        elif act[0] == "give_up":
            game.give_up()
        else:
            game.undo()
    return {"config": cfg, "actions": actions}


def test_same_games_on_cpython_and_micropython():
    rnd = random.Random(20261129)
    scripts = [make_script(rnd) for _ in range(40)]
    cpython = run_cpython(scripts)
    assert cpython.count(True) >= len(scripts)  # every game reloads and replays
    assert run_micropython("play", scripts) == cpython


@settings(max_examples=8)
@given(seed=st.integers(0, 2**32 - 1))
def test_same_games_on_both_runtimes_hypothesis(seed):
    scripts = [make_script(random.Random(seed), steps=40)]
    assert run_micropython("play", scripts) == run_cpython(scripts)


def test_rng_sequence_matches_the_textbook_xorshift32_on_micropython():
    got = json.loads(run_file(SCRIPT, "rng", "123456789"))
    assert got == json.loads(json.dumps(game_mpy.rng_sample(123456789)))


def test_saved_state_refusals_agree_on_micropython():
    rnd = random.Random(7)
    script = make_script(rnd, steps=20)
    out = []
    game_mpy.play(script, out.append)
    good = out[-4]  # the final to_dict()
    bad = []
    for key in list(good):
        d = dict(good)
        del d[key]
        bad.append(d)
        for value in (None, -1, "x", [1], True, 2.5):
            d = dict(good)
            d[key] = value
            bad.append(d)
    bad.append(dict(good, decisions=good["decisions"][:-1]))
    bad.append(dict(good, extra_field=1))
    bad.append([good])
    expected = []
    for d in bad:
        game_mpy.load(d, expected.append)
    assert sum(isinstance(e, str) for e in expected) > len(bad) * 3 // 4
    assert run_micropython("load", bad) == json.loads(json.dumps(expected))


def test_claims_allocate_little_in_micropython():
    for expert in ("novice", "expert"):
        verdict, query, least, most, mean = json.loads(run_file(SCRIPT, "claims", expert))
        # optimum() and claim_possible() allocate nothing at all.
        assert query == 0
        # A claim allocates the Verdict it returns (an independent copy, as the API
        # promises) and, every few decisions, one more block of the decision log:
        # nothing per move checked and nothing per roll of the next round.
        assert least == 0 and most <= 32 and mean <= 8, (least, most, mean)
        assert verdict <= 64


def test_game_object_fits_a_pico_heap():
    game = json.loads(run_file(SCRIPT, "size"))
    assert game < 4096, game
