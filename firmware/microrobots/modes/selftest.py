"""The builder's self-test: every LED, every button, the supply and the piezo, in four
screens. Entered from the settings (their last item, A) or by holding A while the
device powers on (handheld.py); B (or holding B) leaves it for the menu.

    1 colours   the whole grid red, then green, blue and white, a second each, with a
                tone at each; as bright as the LEDs' power cap allows (the display's
                brightness 8, each colour's value the largest whose frame stays within
                the cap: power.cap). A: the next colour at once. Then:
    2 buttons   each button lights its part of the grid while it is held, as the
                buttons lie on the handheld: the D-pad on the left half (up: the top
                two cells of its column pair, down: the bottom two, left and right the
                sides), A top right, B bottom right; a tone at each press. A part whose
                button was pressed once stays dim green; when all six were, and none
                is held for a second: the next screen. (Here A and B are tested, not
                obeyed; holding B still leaves.)
    3 supply    the top row blue while USB powers the device (dim grey: not); rows 2-3
                the supply's voltage in tenths of a volt, as a count (frame.count,
                white label: 3.7 V is X X X V I I; 0: no reading, no gauge); the bottom
                row the gauge's charge, a bar (green, red when low; a full blue bar on
                USB; dark: no gauge). A: next.
    4 piezo     a rising scale of four notes every 1.5 s, its steps lit as they sound.
                A: the colours again.

Each screen is a small class with the hooks ``open(now)``, ``key(key, now)``,
``update(now)`` (what time changes) and ``render(now, frame)`` (reads only, allocates
nothing); the mode switches screens with ``change(screen, now)``. The self-test sounds
whatever the sound setting says (it tests the piezo), keeps the device awake (the
colours run by themselves) and saves nothing: the boot does not return to it.
"""

from .. import frame as F
from .. import palette as P
from ..compat import const
from ..device.display import gamma_table
from ..device.power import power_budget
from ..keys import A, B, SOUND_CLICK, SOUND_GOOD, SOUND_MOVE, SOUND_WIN
from . import Screen as BaseScreen, ScreenMode

_COLOUR_MS = const(1000)  # each colour this long
_SETTLED_MS = const(1000)  # every button seen and none held this long: the next screen
_SCALE_MS = const(1500)  # the piezo's scale again this often
_SCALE_STEPS = const((0, 120, 240, 360, 760))  # when each of keys.SOUND_WIN's notes sounds
_COLOURS = const(((1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 1)))  # red, green, blue, white
_FULL = const(8)  # the display's brightest level: its table is the gamma table alone
_ALL = const(0x3F)  # the six buttons
# Each button's cells (input.py's order: up, down, left, right, A, B): the D-pad on the
# left half, A upper right, B lower right, as on the handheld.
_PARTS = const((b"\x01\x07", b"\x19\x1f", b"\x0c\x12", b"\x0e\x14",
                b"\x04\x05\x0a\x0b", b"\x15\x16\x1b\x1c"))
_USB_ROW = const(0)
_VOLTS_ROW = const(2)
_GAUGE_ROW = const(5)
_WHITE = const((255, 255, 255))
_STEP = const((255, 170, 0))  # a note sounding: the gold of a count's one


def fitting_level(cap, channels):
    """The largest design value whose frame of ``channels`` lit channels stays within
    the power cap ``cap`` at the display's brightest level (display.py: there each
    channel is the gamma table's value)."""
    table = gamma_table()
    level = 255
    while level > 1 and table[level] * channels > cap:
        level -= 1
    return level


class Screen(BaseScreen):
    """One step of the self-test; ``mode`` is the self-test (its app, change, tone)."""

    brightness = 0  # the display's level while this screen shows; 0: the player's


class Colours(Screen):
    """Every LED in each colour, a second each."""

    brightness = _FULL

    def __init__(self, test):
        super().__init__(test)
        self.colour = 0
        self.level = 0
        self.t0 = 0

    def open(self, now):
        self._show(0, now)

    def _show(self, colour, now):
        self.colour = colour
        self.t0 = now
        rgb = _COLOURS[colour]
        self.level = fitting_level(self.mode.cap(), 36 * (rgb[0] + rgb[1] + rgb[2]))
        self.mode.tone(SOUND_MOVE)

    def key(self, key, now):
        if key == A:
            self._next(now)

    def _next(self, now):
        if self.colour + 1 < len(_COLOURS):
            self._show(self.colour + 1, now)
        else:
            self.mode.change(self.mode.buttons, now)

    def update(self, now):
        if F.since(now, self.t0) >= _COLOUR_MS:
            self._next(now)

    def render(self, now, frame):
        rgb = _COLOURS[self.colour]
        v = self.level
        F.fill(frame, rgb[0] * v, rgb[1] * v, rgb[2] * v)


class Buttons(Screen):
    """Each button lights its part of the grid while held."""

    def __init__(self, test):
        super().__init__(test)
        self.seen = 0  # bit i: button i was pressed since the screen opened
        self.calm_at = 0  # when the last button was released

    def open(self, now):
        self.seen = 0
        self.calm_at = now

    def key(self, key, now):
        # seen by its key too: a press and its release handled in one frame (keys held
        # back during a switch, a simulator's quick tap) leave ``held`` as it was
        self.seen |= 1 << (key & 7)
        self.mode.tone(SOUND_CLICK)

    def update(self, now):
        held = self.mode.app.held
        self.seen |= held
        if held:
            self.calm_at = now
        elif self.seen == _ALL and F.since(now, self.calm_at) >= _SETTLED_MS:
            self.mode.tone(SOUND_GOOD)
            self.mode.change(self.mode.supply, now)

    def render(self, now, frame):
        F.fill(frame, 0, 0, 0)
        held = self.mode.app.held
        for b in range(6):
            if held >> b & 1:
                rgb = _WHITE
            elif self.seen >> b & 1:
                rgb = P.GOOD
            else:
                rgb = P.DIM
            level = 255 if held >> b & 1 else 60
            for cell in _PARTS[b]:
                F.put_scaled(frame, cell, rgb[0], rgb[1], rgb[2], level)


class Supply(Screen):
    """USB, the supply's voltage and the gauge's charge, as device/power.py reads them."""

    def key(self, key, now):
        if key == A:
            self.mode.change(self.mode.piezo, now)

    def render(self, now, frame):
        F.fill(frame, 0, 0, 0)
        power = self.mode.app.power
        usb = power is None or power.on_usb
        mv = power.mv if power is not None else -1
        F.bar(frame, 6 if usb else 0, P.VALUE, _USB_ROW)
        F.count(frame, (mv + 50) // 100 if mv > 0 else 0, _VOLTS_ROW, _WHITE, 2)
        if power is None or mv < 0:
            return  # no gauge: the bottom row dark
        if usb:
            F.bar(frame, 6, P.VALUE, _GAUGE_ROW)
        elif power.percent >= 0:
            F.bar(frame, (power.percent * 6 + 50) // 100, P.REFUSE if power.low else P.GOOD,
                  _GAUGE_ROW)


class Piezo(Screen):
    """A rising scale, again and again, its notes lit as they sound."""

    def __init__(self, test):
        super().__init__(test)
        self.t0 = 0

    def open(self, now):
        self.t0 = now
        self.mode.tone(SOUND_WIN)

    def key(self, key, now):
        if key == A:
            self.mode.change(self.mode.colours, now)

    def update(self, now):
        if F.since(now, self.t0) >= _SCALE_MS:
            self.open(now)

    def render(self, now, frame):
        F.fill(frame, 0, 0, 0)
        t = F.since(now, self.t0)
        for k in range(4):  # note k: column k + 1, k + 2 cells high, lit while it sounds
            on = _SCALE_STEPS[k] <= t < _SCALE_STEPS[k + 1]
            rgb = _STEP if on else P.DIM
            for h in range(k + 2):
                F.put_rgb(frame, (5 - h) * 6 + k + 1, rgb)


class Mode(ScreenMode):
    name = "selftest"
    playing_alone = True  # the colours run by themselves: no dimming, no sleep

    def __init__(self, app):
        super().__init__(app)
        self.colours = Colours(self)
        self.buttons = Buttons(self)
        self.supply = Supply(self)
        self.piezo = Piezo(self)
        self.screen = self.colours
        self.brightness = 0

    def change(self, screen, now):
        """Show ``screen`` from ``now``, at its brightness."""
        self.brightness = screen.brightness
        super().change(screen, now)

    def cap(self):
        """The LEDs' power cap now (device/power.py), or USB's for 36 LEDs without one."""
        power = self.app.power
        return power.cap if power is not None else power_budget(36)

    def tone(self, sound):
        """A tone whatever the sound setting: the piezo is under test."""
        self.app.sound = sound

    def enter(self, now):
        self.change(self.colours, now)

    def key(self, key, now):
        if key == B and self.screen is not self.buttons:
            self.app.go("menu", now)
            return
        self.screen.key(key, now)
