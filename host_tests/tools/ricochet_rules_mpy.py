"""The Ricochet Robots rules (tools/ricochet/rules.py) inside MicroPython, run by
tools/test_ricochet_rules.py, whose CPython side calls ``verdicts`` too. ``main``: the
board's faces, the robots, the target and the claims as JSON on stdin; prints the
verdicts, the bytes a round of slides allocates and the game's code."""

import gc
import json
import sys


def verdicts(rr, board, robots, target, claims):
    """Each claim's ``[ok, moves, code, reason]``, or the error its text gives."""
    out = []
    for text in claims:
        try:
            v = rr.check(board, robots, target, rr.parse_moves(text))
            out.append([v.ok, v.moves, v.code, v.reason])
        except rr.RicochetError as e:
            out.append(str(e))
    return out


def slide_allocations(board, robots):
    def slides():
        for d in range(4):
            for k in range(3):
                board.slide(robots, 5, d, k)
                board.slide(robots, 0, d, 0)

    slides()  # warm up
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    slides()
    used = gc.mem_alloc() - before
    gc.enable()
    return used


def main():
    sys.path.insert(0, "tools/ricochet")  # the rules alone, not the host tools' package
    import rules as rr

    faces, robots_text, target, claims = json.loads(sys.stdin.read())
    board = rr.Board(faces)
    robots = rr.parse_robots(robots_text)
    out = verdicts(rr, board, robots, target, claims)
    out.append(slide_allocations(board, robots))
    out.append(rr.encode_game(board.faces, robots, target))
    print(json.dumps(out))
