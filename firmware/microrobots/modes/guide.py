"""What to do now, in words: each mode's step as one line (the help line of the simulators:
the terminal of make play and the web page, through tools/sim/driver.py and page.py).

The handheld's picture says it in light; nothing on a Pico asks for these words, so no
firmware module imports this one (a simulator asks ``words(mode)``), and its strings never
take a Pico's RAM. A mode made of screens (modes.Screen: every mode but the menu) has a
function per screen, named as the mode and the screen (``solo_play``); the menu one
function, named as the mode. Each takes the mode.
"""

from ..i18n import _, ngettext
from ..preferences import MODES
from ..saving import GAMES
from ..rules.solver import BELOW_OPTIMUM, ILLEGAL_MOVE, TARGET_MISSED, WAYPOINT_MISSED, \
    WRONG_COUNT


def N_(text):
    """A word marked for the catalogues, translated where it is shown."""
    return text


TARGETS = MODES[1:]  # the menu's quadrants
MODE_WORDS = (N_("solo"), N_("referee"), N_("classroom"), N_("settings"))  # (their names)
AND = N_(" and ")  # between the winners' numbers
# The settings' items as the guide names them (settings._ITEMS, in order).
NAMES = (N_("side"), N_("arrangement"), N_("brightness"), N_("players"),
         N_("expert (waypoint)"), N_("sound"), N_("difficulty"), N_("colour aid"),
         N_("lesson"), N_("dim after"), N_("sleep after"), N_("battery"),
         N_("self-test"))
ITEMS = ("side", "tiles", "brightness", "players", "expert", "sound", "difficulty", "aid",
         "lesson", "dim", "sleep", "battery", "selftest")
SIDES = {"black": N_("black"), "copper": N_("copper")}  # the boards' two sides
# The dice's colours (rules/board.COLOUR_NAMES' order; the worksheets' words too).
COLOURS = (N_("blue"), N_("yellow"), N_("green"), N_("red"), N_("pink"), N_("white"))
TEST_COLOURS = (N_("red"), N_("green"), N_("blue"), N_("white"))  # the self-test's
AIDS = (N_("off"), N_("high contrast"), N_("blink the robot's colour"), N_("both"))
# Every line is a whole sentence in the catalogues (firmware/microrobots/i18n.py: the
# identity until a simulator installs a language), so each language orders its words.



def words(mode):
    """What to do now in ``mode``, in words, or None: the function named as the mode and
    its screen on show (``solo_play``), or, for a mode not made of screens (the menu), as
    the mode."""
    screen = mode.screen
    if screen is None:
        found = globals().get(mode.name)
    elif mode.game is None and mode.name in GAMES:
        return None  # a game mode before its game
    else:
        found = globals().get(mode.name + "_" + type(screen).__name__.lower())
    return found(mode) if found is not None else None

def menu(m):
    """The quadrant chosen; on a first start, a welcome."""
    text = _("%s: A opens it · D-pad: another mode") % _(TARGETS[m.choice])
    if m.app.welcome:  # a first start
        return _("welcome to Micro Robots! the menu: %s") % text
    return text


def solo_rolling(m):
    """A game mode's dice (modes.Rolling)."""
    return _("the dice roll a new target · A: skip")


referee_rolling = solo_rolling


def solo_play(m):
    """The moves so far; why a move was refused; a hint."""
    g = m.game
    if m.hint:
        return _("the lit cells: where the robot can go · hold A again: give up")
    if m.refused >= 0:
        return refused(m)
    n = m.walk.count
    if g.waypoint is not None and not m.walk.seen:
        return ngettext("the waypoint first, then the target: %d move so far · D-pad the "
                        "cursor, A: there · B: a move back · hold A: a hint",
                        "the waypoint first, then the target: %d moves so far · D-pad the "
                        "cursor, A: there · B: a move back · hold A: a hint", n) % n
    return ngettext("to the target: %d move so far · D-pad the cursor, A: there · B: a "
                    "move back · hold A: a hint",
                    "to the target: %d moves so far · D-pad the cursor, A: there · B: a "
                    "move back · hold A: a hint", n) % n


def solo_stats(m):
    g = m.game
    return _("solved %d, in a row %d, moves beyond the optimum %d") % (
        g.score, g.streak, g.extra)


def solo_solved(m):
    return ngettext("solved in %d move · A: on", "solved in %d moves · A: on",
                    m.count) % m.count


def solo_score(m):
    """The result against the optimum."""
    if m.count == m.optimum:
        return _("you %d, optimum %d: perfect · A: an optimal route") % (m.count, m.optimum)
    return _("you %d, optimum %d · A: an optimal route") % (m.count, m.optimum)


def solo_review(m):
    n = len(m.route) - 1
    if m.gave_up:
        return ngettext("given up: an optimal route, %d move · A: the next target",
                        "given up: an optimal route, %d moves · A: the next target", n) % n
    return ngettext("an optimal route, %d move · A: the next target",
                    "an optimal route, %d moves · A: the next target", n) % n


def reason(m):
    """The referee's verdict in words (as rules/solver.py's Verdict.reason says it)."""
    code = m.code
    if code == ILLEGAL_MOVE:
        return _("move %d is not legal") % m.bad if m.bad else _("a move is not legal")
    if code == WRONG_COUNT:
        return _("the number of moves differs from the claim")
    if code == TARGET_MISSED:
        return _("the robot does not end on the target")
    if code == WAYPOINT_MISSED:
        return _("the robot did not visit the waypoint first")
    if code == BELOW_OPTIMUM:
        return _("the claim is below the optimum")
    return _(m.verdict)


def refused(m):
    """Why the move to ``m.refused`` was refused (solo; the die flashes red)."""
    from .pieces import die

    layout = m.app.layout
    a, b = m.robot, m.refused
    if m.app.solver.is_move(a, b):  # a legal move, but the round counts no more
        return _("refused: %d moves is the most a round counts · B: a move back") % (
            m.walk.count)
    return _("refused: %s is neither %s nor a %d: a move goes along the row or column onto "
             "a die of the robot's colour or number · D-pad the cursor, A: there") % (
                 die(layout, b), _(COLOURS[layout.colour(a)]), layout.number(a))


def referee_board(m):
    return _("round %d: find a route · A: who claims? · hold A: nobody found one · "
             "up: the scores") % m.game.round


def referee_claimant(m):
    who = m.player + 1
    if who == 0:
        return _("who claims? D-pad: the player · B: back")
    return _("player %d claims? A: yes, then the count · D-pad: another · B: back") % who


def referee_claim(m):
    return ngettext("player %d claims %d move? up/down 1, left/right 5 · A: yes, then "
                    "the moves · B: back",
                    "player %d claims %d moves? up/down 1, left/right 5 · A: yes, then "
                    "the moves · B: back", m.count) % (m.player + 1, m.count)


def referee_demo(m):
    return _("player %d shows move %d of %d: D-pad the cursor, A: there · B: a move "
             "back · hold A: done") % (m.player + 1, min(len(m.moves) + 1, m.count), m.count)


def referee_result(m):
    """The verdict and the token it moved (the result and its why)."""
    who = m.player + 1
    if m.ok:
        return _("correct: player %d takes a token · A: the next roll · B: take it "
                 "back") % who
    if m.receiver < 0:
        return _("wrong: %s · no token moves · A: on · B: take it back") % reason(m)
    return _("wrong: %s · player %d gives player %d a token · A: on · B: take it back") % (
        reason(m), who, m.receiver + 1)


referee_why = referee_result  # (a wrong claim's why: the same words)


def referee_reveal(m):
    n = m.replay.n - 1
    return ngettext("nobody found it: an optimal route, %d move · D-pad: again · A: the "
                    "next roll",
                    "nobody found it: an optimal route, %d moves · D-pad: again · A: the "
                    "next roll", n) % n


def referee_scores(m):
    return _("the scores: a row per player, gold = tokens; the pool: %d · any key: "
             "back") % m.game.pool


def referee_undo(m):
    return _("undo the last decision? B: yes · any other key: no")


def referee_over(m):
    """The winner, or the winners."""
    winners = m.game.winners
    if len(winners) == 1:
        return _("player %d wins · A: a new game · B: undo the last decision") % (
            winners[0] + 1)
    return _("players %s win · A: a new game · B: undo the last decision") % _(AND).join(
        str(p + 1) for p in winners)


def lesson(s, text):
    """``text`` after "lesson N, puzzle K: " when the classroom plays a lesson (the
    worksheets' --seed N --puzzle K, the page's ?seed=N)."""
    if not s["lesson"]:
        return text
    return _("lesson %d, puzzle %d: %s") % (s["lesson"], s["puzzle"], text)


def classroom_rolling(m):
    """The classroom's dice (and, coming back to a lesson's puzzle, the puzzles before it
    given up: ``CatchUp``)."""
    return _room(m, _("the dice roll a robot and a target · A: search"))


classroom_catchup = classroom_rolling


def classroom_layers(m):
    """The wave's layer."""
    layer = m.wave.layer
    if layer == 0:
        text = _("layer 0: the robot · A: layer 1, every cell one move away")
    elif layer < m.reach:
        text = ngettext("layer %d: every cell %d move away · A: the next · B: back",
                        "layer %d: every cell %d moves away · A: the next · B: back",
                        layer) % (layer, layer)
    else:
        text = ngettext("layer %d reaches the target: the shortest route, %d move · A: "
                        "show it",
                        "layer %d reaches the target: the shortest route, %d moves · A: "
                        "show it", m.reach) % (layer, m.reach)
    return _room(m, text)


def classroom_route(m):
    if m.app.settings["lesson"]:
        text = ngettext("the shortest route: %d move · A: the next puzzle",
                        "the shortest route: %d moves · A: the next puzzle", m.reach) % m.reach
    else:
        text = ngettext("the shortest route: %d move · A: a new puzzle",
                        "the shortest route: %d moves · A: a new puzzle", m.reach) % m.reach
    return _room(m, text)


def _room(m, text):
    """A classroom screen's ``text``, with the lesson's puzzle before it and the pause
    after it."""
    text = lesson(m.app.settings, text)
    if m.paused:
        return _("%s · up: go on (paused)") % text
    return _("%s · up: pause") % text


def settings_shuffle(m):
    """The quadrant to lay, and the board."""
    return _("shuffle: lay board %s turned as shown in quadrant %d of 4 (white: its "
             "top-left) · A: next · LEFT: back · B: cancel") % (
                 chr(m.code[m.quadrant]), m.quadrant + 1)


def settings_match(m):
    """The quadrant to match, and the board chosen."""
    return _("match the table, quadrant %d of 4: up/down the board (%s), left/right "
             "turn it · A: next · B: back") % (m.quadrant + 1, chr(m.code[m.quadrant]))


def settings_items(m):
    """The item's number, name and value."""
    name = ITEMS[m.item]
    s = m.app.settings
    value = s[name] if name in s else None
    if name == "tiles":
        value = (_("keep"), _("shuffle: A deals one"), _("match a table: A"))[m.arrange - 1]
    elif name == "side":
        value = _(SIDES[value]) if value in SIDES else value
    elif name == "expert" or name == "sound":
        value = _("on") if value else _("off")
    elif name == "difficulty" and value == 0:
        value = _("any")
    elif name == "aid":
        value = _(AIDS[value])
    elif name == "lesson":
        if not value:
            return _("%d of %d, lesson: off, the classroom rolls new puzzles · left/right: "
                     "a lesson's number (the worksheets' --seed) · up/down: another · B: "
                     "back") % (m.item + 1, len(ITEMS))
        return _("%d of %d, lesson %d (the worksheets' --seed %d, the page's ?seed=%d), the "
                 "classroom at puzzle %d · left/right: change · A: its first puzzle again · "
                 "up/down: another · B: back") % (m.item + 1, len(ITEMS), value, value,
                                                  value, s["puzzle"])
    elif name == "dim" or name == "sleep":
        value = _("%d min") % value if value else _("never")
    elif name == "battery":
        return _("%d of %d, battery: %s · up/down: another · B: back") % (
            m.item + 1, len(ITEMS), _battery(getattr(m.app, "power", None)))
    elif name == "selftest":
        return _("%d of %d, self-test: A starts it (every LED, every button, the supply, "
                 "the piezo) · up/down: another · B: back") % (m.item + 1, len(ITEMS))
    return _("%d of %d, %s: %s · left/right: change · up/down: another · B: back") % (
        m.item + 1, len(ITEMS), _(NAMES[m.item]), value)


def _battery(power):
    if power is None or power.on_usb and power.mv < 0:
        return _("no gauge (on USB)")
    if power.on_usb:
        return _("on USB (charging)")
    if power.percent < 0:
        return _("on battery (no gauge)")
    if power.critical:
        return _("%d%% CRITICAL (%.2f V)") % (power.percent, power.mv / 1000)
    if power.low:
        return _("%d%% low (%.2f V)") % (power.percent, power.mv / 1000)
    return _("%d%% (%.2f V)") % (power.percent, power.mv / 1000)


def selftest_colours(m):
    """The self-test's colours: which one shows."""
    return _("self-test 1 of 4: every LED %s · A: the next colour · B: leave") % _(
        TEST_COLOURS[m.screen.colour])


def selftest_buttons(m):
    """The self-test's buttons: how many are still to press."""
    left = sum(1 for b in range(6) if not m.screen.seen >> b & 1)
    return ngettext("self-test 2 of 4: press every button, each lights its part of "
                    "the grid · %d button still to press",
                    "self-test 2 of 4: press every button, each lights its part of "
                    "the grid · %d buttons still to press", left) % left


def selftest_supply(m):
    """The self-test's supply reading."""
    return _("self-test 3 of 4: the supply: %s · A: the piezo · B: leave") % _battery(
        m.app.power)


def selftest_piezo(m):
    """The self-test's piezo."""
    return _("self-test 4 of 4: the piezo plays a scale · A: start again · B: leave")


def reached(m):
    """Each cell's distance from the robot once the wave has reached it, else -1 (the
    web page's projector view writes it on the cell); None before the wave (the dice)."""
    if m.game is None or not m.screen.placed:
        return None
    layer = m.wave.layer
    return [d if d <= layer else -1 for d in m.wave.dist]
