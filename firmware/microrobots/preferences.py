"""The player's settings: each one, its default and what it may be.

Saved in ``settings.json`` (saving.py) and checked when read back: a bad or missing key
gets its default, and the first bad one is named for the notice.
"""

from .rules.board import Layout, LayoutError

SETTINGS = {
    "side": "black",        # which face of the four boards is up
    "tiles": "ABCD0000",    # the arrangement: board.Layout.from_tiles code
    "brightness": 5,        # 1..8 (display.py levels)
    "players": 2,           # referee: 2..8
    "expert": False,        # the waypoint variant, solo and referee
    "sound": True,
    "difficulty": 0,        # solo: fewest optimal moves of a target, 0 = any
    "aid": 0,               # colour-blind aid: 1 high contrast, 2 blink robot's colour, 3 both
    "games": 0,             # games started: varies the seed of each new game
    "lesson": 0,            # classroom: 0 = new puzzles; N = the worksheets' --seed N
    "puzzle": 1,            # classroom: the lesson's puzzle on show (1 = its first)
    "mode": "",             # the mode on show (boot returns to it); "": the newest game
    "dim": 1,               # minutes without a button before the grid dims; 0 = never
    "sleep": 5,             # minutes without a button before the device sleeps; 0 = never
}
MODES = ("menu", "solo", "referee", "classroom", "settings")  # the app's, in menu order
RANGES = {"brightness": (1, 8), "players": (2, 8), "difficulty": (0, 6), "aid": (0, 3),
           "games": (0, 0x3FFFFFFF), "lesson": (0, 99), "puzzle": (1, 99), "dim": (0, 30),
           "sleep": (0, 60)}


def check_settings(data):
    """Settings from a loaded dict: every bad or missing key gets its default.

    Returns ``(settings, problem)``; ``problem`` names the first bad key, else None.
    """
    out = dict(SETTINGS)
    problem = None
    if not isinstance(data, dict):
        return out, "settings: not a JSON object"
    for key in SETTINGS:
        if key not in data:
            continue
        v = data[key]
        default = SETTINGS[key]
        ok = type(v) is type(default)
        if ok and key in RANGES:
            lo, hi = RANGES[key]
            ok = lo <= v <= hi
        if ok and key == "side":
            ok = v in ("black", "copper")
        if ok and key == "mode":
            ok = v == "" or v in MODES
        if ok and key == "tiles":
            try:
                Layout.from_tiles("black", v)
                ok = v == v.upper()
            except LayoutError:
                ok = False
        if ok:
            out[key] = v
        elif problem is None:
            problem = "settings: bad %s %r, using %r" % (key, v, default)
    return out, problem
