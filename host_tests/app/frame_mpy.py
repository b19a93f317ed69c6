"""Drawing inside MicroPython, run by app/test_frame.py: every mark of frame.py, every
animation and the referee's scores over 300 frames; prints the bytes a second pass
allocates."""

import gc
import json

from microrobots import animations as anim
from microrobots import frame as F
from microrobots import palette as P
from microrobots.modes.classroom import Wave
from microrobots.modes.referee_screens import scores
from microrobots.rules.board import Layout
from microrobots.rules.solver import Solver


def main():
    lay = Layout.named("black:CADB0312")
    route = Solver(lay).path(0, 35)
    fr = bytearray(108)
    anims = (anim.DiceRoll(), anim.Slide(), Wave(), anim.Celebrate(), anim.Flash(),
             anim.Replay())
    anims[0].start(0, lay, P.DIE, 3, 4, 5)
    anims[1].start(0, 0, 5)
    anims[2].start(0, Solver(lay).distances(3), 300)
    anims[3].start(0, 7)
    anims[4].start(0)
    anims[5].start(0, route)
    toks = [1, 2, 3]

    def frames():
        for t in range(0, 6000, 20):
            F.board(fr, lay, P.DIE)
            F.robot(fr, 3, P.DIE, 2, t)
            F.target(fr, 4, P.DIE, 1, t)
            F.waypoint(fr, 5, P.DIE, 1, t)
            F.cursor(fr, 6, P.DIE, 1, t)
            for a in anims:
                a.render(t, fr)
            F.count(fr, t % 100, 3, P.TOKEN)
            scores(fr, toks, 3, 0, t % 26)

    frames()
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    frames()
    print(json.dumps(gc.mem_alloc() - before))
