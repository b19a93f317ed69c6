"""The rules of Micro Robots, with no dependency on the device: pure logic that runs the
same on a Pico, in a browser and under CPython.

    board.py      the 6x6 board: layouts from text, from the four tiles, by name
    solver.py     moves, distances, optimal routes, claims checked (Verdict); no allocation
    solver_viper.py  the solver's hot loops (viper); solver_plain.py its plain twin
    game.py       a game: rounds, claims, tokens, the waypoint, undo, folding old decisions
    rolls.py      the dice of a round: start, target, waypoint
    decisions.py  the decision log's bytes and text
    notation.py   a game's text forms read back, checked: saved games, share strings
    walk.py       a robot's walk in solo play: moves taken back, the trail
    rng.py        the seeded generator every roll comes from
"""
