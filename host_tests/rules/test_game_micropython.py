"""The game engine inside the real MicroPython interpreter: same states, little allocation.

Games are scripted under CPython (honest and dishonest claims, giving up, undo); the
same script then runs in ``micropython`` and every state, verdict and revealed route
must be identical.
"""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from microrobots.rules.board import Layout
from microrobots.rules.game import Game
from mpy import run

# Runs unchanged under CPython (exec) and MicroPython: a script in, results out through
# emit() one at a time (a Pico-sized heap cannot hold a whole game's history).
DRIVER = """
import json
from microrobots.rules.board import Layout
from microrobots.rules import notation
from microrobots.rules.game import Game, GameStateError


def make_layout(spec):
    if isinstance(spec, str):
        return Layout.named(spec)
    return Layout(spec[0], spec[1])


def play(script, emit):
    cfg = script["config"]
    game = Game(make_layout(cfg["layout"]), cfg["players"], cfg["expert"], cfg["seed"],
                cfg["difficulty"])
    emit(game.to_dict())
    for act in script["actions"]:
        if act[0] == "claim":
            v = game.claim(act[1], act[2], act[3])
            emit([v.code, v.move, v.ok, v.reason])
        elif act[0] == "give_up":
            emit(game.give_up())
        else:
            emit(game.undo())
        emit(game.to_dict())
        emit([game.optimum(), game.notice, game.rerolls])
    emit(notation.share(game))
    again = notation.from_dict(game.to_dict()).to_dict() == game.to_dict()
    emit(again and notation.replay(notation.share(game)).to_dict() == game.to_dict())


def load(d):
    try:
        return notation.from_dict(d).to_dict()
    except GameStateError as e:
        return "refused: " + str(e).split(":")[0]
"""

MPY_MAIN = """
import gc
import sys


def emit(x):
    print(json.dumps(x))


for line in sys.stdin:
    if line.strip():
        %s(json.loads(line), emit)
        gc.collect()
"""


def run_cpython(scripts):
    space = {}
    exec(DRIVER, space)
    out = []
    for s in scripts:
        space["play"](s, out.append)
    return json.loads(json.dumps(out))


def run_micropython(scripts):
    out = run(DRIVER + MPY_MAIN % "play", stdin="\n".join(json.dumps(s) for s in scripts))
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
    assert run_micropython(scripts) == cpython


@settings(max_examples=8)
@given(seed=st.integers(0, 2**32 - 1))
def test_same_games_on_both_runtimes_hypothesis(seed):
    scripts = [make_script(random.Random(seed), steps=40)]
    assert run_micropython(scripts) == run_cpython(scripts)


def test_rng_sequence_matches_the_textbook_xorshift32_on_micropython():
    code = (
        "from microrobots.rules.rng import XorShift32\n"
        "r = XorShift32(123456789)\n"
        "def next32():\n"
        "    r._step()\n"
        "    return r.hi << 16 | r.lo\n"
        "print(r.hi, r.lo, [next32() for _ in range(50)], [r.below(6) + 1 for _ in range(200)])\n")
    from microrobots.rules.rng import XorShift32
    r = XorShift32(123456789)
    first = (r.hi, r.lo)
    values = []
    for _ in range(50):
        r._step()
        values.append(r.hi << 16 | r.lo)
    expected = "%d %d %r %r" % (first + (values, [r.below(6) + 1 for _ in range(200)]))
    assert run(code).strip() == expected


def test_saved_state_refusals_agree_on_micropython():
    rnd = random.Random(7)
    script = make_script(rnd, steps=20)
    space = {}
    exec(DRIVER, space)
    out = []
    space["play"](script, out.append)
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
    expected = [space["load"](d) for d in bad]
    assert sum(isinstance(e, str) for e in expected) > len(bad) * 3 // 4
    code = DRIVER + MPY_MAIN % "(lambda d, emit: emit(load(d)))"
    out = run(code, stdin="\n".join(json.dumps(d) for d in bad))
    assert [json.loads(line) for line in out.splitlines()] == expected


ALLOC = """
import gc
from microrobots.rules.board import Layout
from microrobots.rules import notation
from microrobots.rules.game import Game
from microrobots.rules.solver import Verdict


def size_of_verdict():
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    v = Verdict(0, 0)
    b = gc.mem_alloc()
    gc.enable()
    return b - a


def measure(game):
    verdict = size_of_verdict()
    worst_query = 0
    extras = []
    for k in range(60):
        route = game.route()
        moves = route[1:]
        count = len(moves)
        honest = k % 3 != 0
        gc.collect()
        gc.disable()
        a = gc.mem_alloc()
        opt = game.optimum()
        possible = game.claim_possible(count)
        b = gc.mem_alloc()
        v = game.claim(k % 4, count if honest else opt - 1, moves)
        c = gc.mem_alloc()
        gc.enable()
        assert possible and v.ok == honest
        worst_query = max(worst_query, b - a)
        if game.over:  # the winners list: once per game
            game.undo()
            game.give_up()
        else:
            extras.append(c - b - verdict)
    print(verdict, worst_query, min(extras), max(extras), sum(extras) // len(extras))


measure(Game(Layout.named("black:CADB0312"), players=4, expert=EXPERT, seed=42))
"""


def test_claims_allocate_little_in_micropython():
    for expert in ("False", "True"):
        verdict, query, least, most, mean = (int(x) for x in run(ALLOC.replace("EXPERT", expert)).split())
        # optimum() and claim_possible() allocate nothing at all.
        assert query == 0
        # A claim allocates the Verdict it returns (an independent copy, as the API
        # promises) and, every few decisions, one more block of the decision log:
        # nothing per move checked and nothing per roll of the next round.
        assert least == 0 and most <= 32 and mean <= 8, (least, most, mean)
        assert verdict <= 64


def test_game_object_fits_a_pico_heap():
    code = (
        "import gc\ngc.collect()\na = gc.mem_alloc()\n"
        "from microrobots.rules.board import Layout\nfrom microrobots.rules.game import Game\n"
        "gc.collect()\nb = gc.mem_alloc()\n"
        "g = Game(Layout.named('copper:ABCD0000'), players=8, expert=True)\n"
        "gc.collect()\nc = gc.mem_alloc()\nprint(b - a, c - b)\n")
    modules, game = (int(x) for x in run(code).split())
    assert game < 4096, game
