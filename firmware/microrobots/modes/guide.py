"""What to do now, in words: each mode's step as one line (the help line of the simulators:
the terminal of make play and the web page, through tools/sim/driver.py and page.py).

The handheld's picture says it in light; nothing on a Pico asks for these words, so this
module is imported only by ``Base.guide`` (modes/__init__.py) when a simulator asks, and
its strings never take a Pico's RAM. One function per mode, named as the mode, reading
that mode's state; the state numbers are the modes' own (their ``_ROLL``... consts, which
MicroPython folds into the code: host_tests/test_guide.py checks they agree).
"""

from ..preferences import MODES

# The modes' states, as each mode numbers them.
ROLL = 0  # every game mode's dice
SOLO_PLAY, SOLO_SOLVED, SOLO_SCORE = 1, 2, 3
REF_BOARD, REF_PLAYER, REF_COUNT, REF_DEMO, REF_RESULT = 1, 2, 3, 4, 5
REF_REVEAL, REF_SCORES, REF_UNDO, REF_WHY = 6, 7, 9, 10
ROOM_WAVE = 1
SET_SHUFFLE, SET_MATCH = 1, 2
TARGETS = MODES[1:]  # the menu's quadrants
# The settings' items as the guide names them (settings._ITEMS, in order).
NAMES = ("side", "arrangement", "brightness", "players", "expert (waypoint)", "sound",
         "difficulty", "colour aid", "lesson", "dim after", "sleep after", "battery")
ITEMS = ("side", "tiles", "brightness", "players", "expert", "sound", "difficulty", "aid",
         "lesson", "dim", "sleep", "battery")


def menu(m):
    """The quadrant chosen; on a first start, a welcome."""
    text = "%s: A opens it · D-pad: another mode" % TARGETS[m.choice]
    if m.app.welcome:  # a first start
        return "welcome to Micro Robots! the menu: " + text
    return text


def solo(m):
    """The moves so far, a hint, the result against the optimum."""
    st = m.state
    g = m.game
    if g is None:
        return None
    if st == ROLL:
        return "the dice roll a new target · A: skip"
    if st == SOLO_PLAY:
        if m.stats:
            return "solved %d, in a row %d, moves beyond the optimum %d" % (
                g.score, g.streak, g.extra)
        if m.hint:
            return "the lit cells: where the robot can go · hold A again: give up"
        if getattr(m, "refused", -1) >= 0:
            return refused(m)
        n = m.walk.count
        first = g.waypoint is not None and not m.walk.seen
        return "%s: %d move%s so far · D-pad the cursor, A: there · B: a move back · " \
            "hold A: a hint" % ("the waypoint first, then the target" if first else
                                "to the target", n, "" if n == 1 else "s")
    if st == SOLO_SOLVED:
        return "solved in %d move%s · A: on" % (m.count, "" if m.count == 1 else "s")
    if st == SOLO_SCORE:
        return "you %d, optimum %d%s · A: an optimal route" % (
            m.count, m.optimum, ": perfect" if m.count == m.optimum else "")
    first = "given up: " if m.gave_up else ""
    return "%san optimal route, %d moves · A: the next target" % (
        first, len(m.route) - 1)


def refused(m):
    """Why the move to ``m.refused`` was refused (solo; the die flashes red)."""
    from .pieces import die

    layout = m.app.layout
    a, b = m.robot, m.refused
    if m.app.solver.is_move(a, b):  # a legal move, but the round counts no more
        return "refused: %d moves is the most a round counts · B: a move back" % m.walk.count
    return ("refused: %s is neither %s nor a %d: a move goes along the row or column onto "
            "a die of the robot's colour or number · D-pad the cursor, A: there" % (
                die(layout, b), die(layout, a).split(" ")[0], layout.number(a)))


def referee(m):
    """Who claims, the count, the demonstration's move, the verdict, the winner."""
    st = m.state
    g = m.game
    if g is None:
        return None
    who = m.player + 1
    if st == ROLL:
        return "the dice roll a new target · A: skip"
    if st == REF_BOARD:
        return ("round %d: find a route · A: who claims? · hold A: nobody found one · "
                "up: the scores" % g.round)
    if st == REF_PLAYER:
        if who == 0:
            return "who claims? D-pad: the player · B: back"
        return "player %d claims? A: yes, then the count · D-pad: another · B: back" % who
    if st == REF_COUNT:
        return ("player %d claims %d move%s? up/down 1, left/right 5 · A: yes, then "
                "the moves · B: back" % (who, m.count, "" if m.count == 1 else "s"))
    if st == REF_DEMO:
        return ("player %d shows move %d of %d: D-pad the cursor, A: there · B: a "
                "move back · hold A: done" % (who, min(len(m.moves) + 1, m.count),
                                             m.count))
    if st == REF_RESULT or st == REF_WHY:
        if m.ok:
            return "correct: player %d takes a token · A: the next roll · B: take it " \
                "back" % who
        if m.receiver < 0:
            return "wrong: %s · no token moves · A: on · B: take it back" % m.verdict
        return "wrong: %s · player %d gives player %d a token · A: on · B: take it back" % (
            m.verdict, who, m.receiver + 1)
    if st == REF_REVEAL:
        return ("nobody found it: an optimal route, %d moves · D-pad: again · A: the "
                "next roll" % (m.replay.n - 1))
    if st == REF_SCORES:
        return ("the scores: a row per player, gold = tokens; the pool: %d · any key: "
                "back" % g.pool)
    if st == REF_UNDO:
        return "undo the last decision? B: yes · any other key: no"
    winners = g.winners
    if len(winners) == 1:
        text = "player %d wins" % (winners[0] + 1)
    else:
        text = "players %s win" % " and ".join(str(p + 1) for p in winners)
    return text + " · A: a new game · B: undo the last decision"


def lesson(s):
    """"lesson N, puzzle K: " when the classroom plays a lesson (the worksheets'
    --seed N --puzzle K, the page's ?seed=N), else ""."""
    if not s["lesson"]:
        return ""
    return "lesson %d, puzzle %d: " % (s["lesson"], s["puzzle"])


def classroom(m):
    """The lesson's puzzle, the wave's layer."""
    st = m.state
    if st == ROLL:
        text = "the dice roll a robot and a target · A: search"
    elif st == ROOM_WAVE:
        layer = m.wave.layer
        if layer == 0:
            text = "layer 0: the robot · A: layer 1, every cell one move away"
        elif layer < m.reach:
            text = "layer %d: every cell %d move%s away · A: the next · B: back" % (
                layer, layer, "" if layer == 1 else "s")
        else:
            text = "layer %d reaches the target: the shortest route, %d moves · A: " \
                "show it" % (layer, m.reach)
    else:
        text = "the shortest route: %d moves · A: %s puzzle" % (
            m.reach, "the next" if m.app.settings["lesson"] else "a new")
    return lesson(m.app.settings) + text + (
        " · up: go on (paused)" if m.paused else " · up: pause")


def settings(m):
    """The item's number, name and value; a shuffle's or a match's quadrant."""
    if m.state == SET_SHUFFLE:
        return "shuffle: lay board %s turned as shown in quadrant %d of 4 (white: its " \
            "top-left) · A: next · LEFT: back · B: cancel" % (
                chr(m.code[m.quadrant]), m.quadrant + 1)
    if m.state == SET_MATCH:
        return "match the table, quadrant %d of 4: up/down the board (%s), left/right " \
            "turn it · A: next · B: back" % (m.quadrant + 1,
                                              chr(m.code[m.quadrant]))
    name = ITEMS[m.item]
    s = m.app.settings
    value = s[name] if name in s else None
    if name == "tiles":
        value = ("keep", "shuffle: A deals one", "match a table: A")[m.arrange - 1]
    elif name == "expert" or name == "sound":
        value = "on" if value else "off"
    elif name == "difficulty" and value == 0:
        value = "any"
    elif name == "aid":
        value = ("off", "high contrast", "blink the robot's colour", "both")[value]
    elif name == "lesson":
        if not value:
            return "%d of %d, lesson: off, the classroom rolls new puzzles · left/right: " \
                "a lesson's number (the worksheets' --seed) · up/down: another · B: back" % (
                    m.item + 1, len(ITEMS))
        return "%d of %d, lesson %d (the worksheets' --seed %d, the page's ?seed=%d), the " \
            "classroom at puzzle %d · left/right: change · A: its first puzzle again · " \
            "up/down: another · B: back" % (m.item + 1, len(ITEMS), value, value, value,
                                            s["puzzle"])
    elif name == "dim" or name == "sleep":
        value = "%d min" % value if value else "never"
    elif name == "battery":
        return "%d of %d, battery: %s · up/down: another · B: back" % (
            m.item + 1, len(ITEMS), _battery(getattr(m.app, "power", None)))
    return "%d of %d, %s: %s · left/right: change · up/down: another · B: back" % (
        m.item + 1, len(ITEMS), NAMES[m.item], value)


def _battery(power):
    if power is None or power.on_usb and power.mv < 0:
        return "no gauge (on USB)"
    if power.on_usb:
        return "on USB (charging)"
    if power.percent < 0:
        return "on battery (no gauge)"
    state = " CRITICAL" if power.critical else " low" if power.low else ""
    return "%d%%%s (%.2f V)" % (power.percent, state, power.mv / 1000)


def reached(m):
    """Each cell's distance from the robot once the wave has reached it, else -1 (the
    web page's projector view writes it on the cell); None before the wave."""
    if m.state == ROLL or m.game is None:
        return None
    layer = m.wave.layer
    return [d if d <= layer else -1 for d in m.wave.dist]
