"""Game engine figures for `make bench`: what a claim, an undo and a reload cost inside the
micropython interpreter (time and heap), and how big a game is in RAM and on flash."""

import subprocess

from tools.cli import ROOT, micropython_command

MP_SCRIPT = r"""
import sys, gc, json, time
sys.path.insert(0, "firmware")
gc.collect(); m0 = gc.mem_alloc()
from microrobots.rules.board import Layout
from microrobots.rules import notation
from microrobots.rules.game import Game
from microrobots.rules.solver import Verdict
gc.collect(); m1 = gc.mem_alloc()
lay = Layout.named("black:CADB0312")
gc.collect(); m2 = gc.mem_alloc()
game = Game(lay, players=8, expert=True, seed=1)
gc.collect(); m3 = gc.mem_alloc()
print("ram_modules", m1 - m0)
print("ram_game", m3 - m2)


def claims(expert, games):
    # Whole 4-player games, fresh seeds; routes are found outside the timed part, so
    # the figures are claim() alone: the check, the tokens and the next round's rolls.
    us = alloc = n = 0
    end_alloc = 0
    for seed in range(games):
        game = Game(lay, players=4, expert=expert, seed=seed)
        k = 0
        while not game.over:
            r = game.route()
            moves = r[1:]
            count = len(moves) if k % 3 else 0
            gc.collect(); gc.disable()
            a = gc.mem_alloc(); t = time.ticks_us()
            game.claim(k % 4, count, moves)
            dt = time.ticks_diff(time.ticks_us(), t)
            da = gc.mem_alloc() - a
            gc.enable()
            k += 1
            if game.over:
                end_alloc = max(end_alloc, da)
            else:
                us += dt
                alloc += da
                n += 1
    return us / n, alloc / n, end_alloc


for expert in (False, True):
    us, alloc, end = claims(expert, 20)
    print("claim_%s %.1f %.1f %d" % ("expert" if expert else "plain", us, alloc, end))

gc.collect()
a = gc.mem_alloc(); v = Verdict(0, 0); print("verdict_bytes", gc.mem_alloc() - a)

solo = Game(lay, players=1, seed=5)
for k in range(100):
    solo.give_up()
gc.collect(); t = time.ticks_us(); solo.undo(); print("undo_100", time.ticks_diff(time.ticks_us(), t))
text = json.dumps(solo.to_dict())
gc.collect(); t = time.ticks_us(); notation.from_dict(json.loads(text))
print("load_100", time.ticks_diff(time.ticks_us(), t))
print("json_100", len(text))
print("share_100", len(notation.share(solo)))
"""


def micropython_figures():
    proc = subprocess.run(micropython_command() + ["-c", MP_SCRIPT], capture_output=True,
                          text=True, cwd=ROOT)
    if proc.returncode:
        raise SystemExit("bench_game: micropython failed: " + proc.stderr.strip())
    return {words[0]: [float(w) for w in words[1:]] for words in
            (line.split() for line in proc.stdout.split("\n") if line)}


def report():
    print("== Game engine (issue 3) ==")
    print("micropython unix port (64-bit), 190k heap, layout black:CADB0312")
    f = micropython_figures()
    for key, label in (("claim_plain", "claim(), 4 players"),
                       ("claim_expert", "claim(), 4 players, expert")):
        us, alloc, end = f[key]
        print("  %-30s %8.1f us  %6.1f bytes/claim; %d for the one that ends the game"
              % (label, us, alloc, end))
    print("  (a claim returns a new Verdict: %d bytes here; now and then"
          " the decision log grows)" % f["verdict_bytes"][0])
    print("  %-30s %8.0f us  (replays 99 decisions)" % ("undo() after 100 decisions",
                                                       f["undo_100"][0]))
    print("  %-30s %8.0f us  (%d bytes of JSON; share string %d characters)"
          % ("from_dict() of 100 decisions", f["load_100"][0], f["json_100"][0],
             f["share_100"][0]))
    print("  RAM: game modules %d bytes, one Game with its Solver %d bytes"
          % (f["ram_modules"][0], f["ram_game"][0]))
