"""The menu: four quadrants of the grid, one per mode.

    top-left  SOLO (yellow, one pip)      top-right    REFEREE (blue, two pips)
    bottom-left CLASSROOM (a wave)        bottom-right SETTINGS (white ring)

The D-pad moves between the quadrants (the chosen one glows, its background lit; the
others show only their dim icon); A enters it. Holding B anywhere else comes back here,
on the quadrant of the mode left (also when that mode was resumed at boot).

The dim icons never change: they are drawn once into a ``Backdrop``, and each frame only
the chosen quadrant's nine cells are drawn over a copy of it.
"""

from ..keys import A, DOWN, RIGHT, SOUND_CLICK, UP
from .. import frame as F
from ..compat import const
from . import Base

_ICONS = const((16, 68, 0, 495))  # 3x3 pip masks: one pip, two pips, (wave), a ring
_COLOURS = const(((255, 215, 0), (20, 70, 255), (0, 230, 40), (200, 200, 190)))
_TARGETS = const(("solo", "referee", "classroom", "settings"))
_CORNERS = const((0, 3, 18, 21))  # top-left cell of each quadrant
_DIM = const(70)  # the quadrants not chosen


class Mode(Base):
    name = "menu"

    def __init__(self, app):
        super().__init__(app)
        self.choice = 0
        self.backdrop = F.Backdrop()

    def enter(self, now):
        left = self.app.left
        if left in _TARGETS:
            self.choice = _TARGETS.index(left)

    def key(self, key, now):
        app = self.app
        app.welcome = False
        c = self.choice
        if key <= RIGHT:
            if key == UP or key == DOWN:  # up/down: other row
                c ^= 2
            else:  # left/right: other column
                c ^= 1
            self.choice = c
            app.beep(SOUND_CLICK)
        elif key == A:
            app.beep(SOUND_CLICK)
            app.go(_TARGETS[c], now)

    def update(self, now):
        backdrop = self.backdrop
        if backdrop.key != 0:  # every quadrant as when not chosen, drawn once
            F.fill(backdrop.frame, 0, 0, 0)
            for q in range(4):
                _quadrant(backdrop.frame, q, False, now, 0)
            backdrop.key = 0

    def render(self, now, frame):
        self.backdrop.copy_to(frame)
        _quadrant(frame, self.choice, True, now, F.pulse(now, 1400, 150, 255))


def _quadrant(frame, q, chosen, now, glow):
    """Quadrant ``q``'s nine cells: glowing at ``glow`` if ``chosen``, else dim."""
    rgb = _COLOURS[q]
    top = _CORNERS[q]
    bits = _ICONS[q]
    for k in range(9):
        i = top + (k // 3) * 6 + k % 3
        if q == 2:  # classroom: a wave spreading from the corner
            d = k // 3 + k % 3
            lv = F.pulse(now - d * 150, 1200, 60, 255) if chosen else _DIM
            lv = lv * (5 - d) // 5
        elif bits >> k & 1:
            lv = glow if chosen else _DIM
        else:
            lv = 40 if chosen else 0
        F.put_scaled(frame, i, rgb[0], rgb[1], rgb[2], lv)
