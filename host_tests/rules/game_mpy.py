"""The game engine on both runtimes: imported by rules/test_game_micropython.py under
CPython, run by it inside MicroPython (``main``: the command in argv, games or saved
states as JSON lines on stdin, results as JSON lines on stdout one at a time: a
Pico-sized heap cannot hold a whole game's history)."""

import gc
import json
import sys

from microrobots.rules import notation
from microrobots.rules.board import Layout
from microrobots.rules.game import Game, GameStateError
from microrobots.rules.rng import XorShift32
from microrobots.rules.solver import Verdict


def make_layout(spec):
    if isinstance(spec, str):
        return Layout.named(spec)
    return Layout(spec[0], spec[1])


def play(script, emit):
    """Play ``script`` (a config and actions); ``emit`` every state, verdict and result."""
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


def load(d, emit):
    """``emit`` the saved state ``d`` as reloaded, or the first words of its refusal."""
    try:
        emit(notation.from_dict(d).to_dict())
    except GameStateError as e:
        emit("refused: " + str(e).split(":")[0])


def rng_sample(seed):
    """The generator's first state, 50 raw 32-bit values, then 200 dice."""
    r = XorShift32(seed)
    first = [r.hi, r.lo]
    values = []
    for _ in range(50):
        r._step()
        values.append(r.hi << 16 | r.lo)
    return [first, values, [r.below(6) + 1 for _ in range(200)]]


def size_of_verdict():
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    Verdict(0, 0)
    b = gc.mem_alloc()
    gc.enable()
    return b - a


def claim_allocations(expert):
    """Bytes allocated over 60 claims: ``[verdict, worst query, least, most, mean extra]``
    (a query: optimum() and claim_possible(); extra: a claim's beyond its Verdict)."""
    game = Game(Layout.named("black:CADB0312"), players=4, expert=expert, seed=42)
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
    return [verdict, worst_query, min(extras), max(extras), sum(extras) // len(extras)]


def game_size():
    """Bytes a game object holds (eight players, expert)."""
    gc.collect()
    a = gc.mem_alloc()
    g = Game(Layout.named("copper:ABCD0000"), players=8, expert=True)
    gc.collect()
    size = gc.mem_alloc() - a
    del g
    return size


def emit(x):
    print(json.dumps(x))


def main():
    command = sys.argv[1]
    if command in ("play", "load"):
        each = play if command == "play" else load
        for line in sys.stdin:
            if line.strip():
                each(json.loads(line), emit)
                gc.collect()
    elif command == "rng":
        emit(rng_sample(int(sys.argv[2])))
    elif command == "claims":
        emit(claim_allocations(sys.argv[2] == "expert"))
    elif command == "size":
        emit(game_size())
