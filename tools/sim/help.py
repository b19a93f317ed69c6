"""What the simulator's two front ends say on screen, written once: the terminal (make play)
and the web page (make web, through the generated tables.js) show the same help for each
mode and the same legend of the counts.

The keys differ by nature (a terminal reports no key releases, so Shift+key is a long
press there; the page holds a button while its key is down), so each front end names its
own keys; what the buttons *do* is written here, in the buttons' names (A, B, hold A).
docs/playing.md is the long version of every line.
"""

from tools.i18n import N_, _

# What the buttons do on the mode's screens (marked for the catalogues, translated where
# shown: mode_help here, showHelp in the page); "halted": the app stopped (an orange X).
MODES = {
    "menu": N_("D-pad: choose a quadrant - solo (top left), referee (top right), classroom "
                "(bottom left), settings (bottom right) · A: open it"),
    "solo": N_("D-pad: the cursor, along the robot's row or column · A: move the robot there · "
                "B: take a move back (none left: your score) · hold A: a hint; hold A again: "
                "give up · hold B: the menu"),
    "referee": N_("A: a claim - the player (D-pad), the count (up/down 1, left/right 5), then "
               "each move of the demonstration · hold A: nobody found a route · B: undo the "
               "last decision? (the scores blink; B again undoes it, any other button keeps "
               "it) · up: the scores and the pool · hold B: the menu"),
    "classroom": N_("A: the next layer (then the route, then a new puzzle) · B: a layer back · "
                 "up: pause or go on · each layer in its own colour, warm = near, cold = "
                 "far, the newest bright · a lesson (settings, item 9) shows the "
                 "worksheets' puzzles · hold B: the menu"),
    "settings": N_("up/down: the item (top row: its number) · left/right: its value (second "
                "row) · A: start a shuffle (value 2) or match a table (3); on the lesson "
                "(item 9): its first puzzle again · B: back"),
    "halted": N_("the firmware stopped: the status line says why; press a button to restart it"),
}

# The counts on the grid are tallies (firmware frame.count): a label cell, then symbols
# in these colours (palette.TALLY, largest first). Each # is a swatch of the next colour.
LEGEND = N_("counts: label (whose), then # 50 # 10 # 5 # 1")


def mode_help(mode):
    """The help line for ``mode`` (empty for one it does not know: "starting")."""
    return _(MODES[mode]) if mode in MODES else ""


def js_module():
    """The same texts for the web page's tables.js."""
    import json

    from microrobots import palette

    return "export const HELP = %s;\nexport const LEGEND = %s;\nexport const TALLY = %s;\n" % (
        json.dumps(MODES), json.dumps(LEGEND), json.dumps([list(c) for c in palette.TALLY]))
