"""The handheld's state machine: button events and time in, frames and sounds out.

One mode runs at a time (``modes/``: menu, solo, referee, classroom, settings)::

    app = App(store, seed=1234)      # loads settings and a game in progress
    app.handle(event, now)           # every input.py event, in order
    app.update(now)                  # then, once a frame: time, work, held keys, saves
    app.render(now, frame)           # fills the bytearray(108) from the state; reads only
    app.mode                         # "menu", "solo", "referee", "classroom", "settings"
    app.brightness                   # 1..8, for display.set_brightness
    app.take_sound()                 # a sound request (keys.SOUND_*), 0 when none
    app.take_line()                  # a line for the serial console (a verdict and why), or None

The device loop sees the app through device/contract.py (App implements all of it). Buttons,
the same in every mode (keys.py): the D-pad acts when pressed (and repeats while held);
A and B act when tapped, or when held (``LONG_A``, ``LONG_B``: about 0.6 s): input.py
decides which. Holding B always returns to the menu; whatever was being played is kept.

Long work goes in pieces, one a frame: ``work`` is a generator that ``update`` steps
once a frame, while the picture fades and keys wait (then come, in order). A mode switch
is such work (``go``, ``_switching``): one mode's state in the heap at a time; a mode's
module is imported at its first switch and stays.

Persistence: ``store`` is a store.Store (or anything with its ``load``/``save``/
``remove``). Settings (``settings.json``, preferences.py) are saved whenever one
changes; a solo puzzle (``solo.json``) and a refereed game (``referee.json``) after
every decision, in idle frames (saving.py: never more than one file a frame, never
while a key is handled, a switch runs or the mode animates, ``Mode.busy``). At boot the
app returns to the mode on show when it stopped (the setting ``mode``, saved at each
switch): a game where it was, the classroom, the settings or the menu; a game not on
show resumes when its mode is chosen (without ``mode``: the game saved last). No
settings file is a first start: the defaults, saved, and a welcome (``app.welcome``, for
the help line) rather than a warning. A corrupt file gives the defaults and a visible
notice: the grid's border blinks orange
until a button is pressed (for 30 s at most); ``app.notice`` holds the one-line reason
for the console. A bad file is never deleted: it is set aside as ``NAME.bad.json``
(store.set_aside), and so is a saved game whose loading raised; a game that stops the
app later is set aside by the device loop (``app.live_game()`` names it), so the device
never replays a saved state into a crash loop.
"""

import gc

from . import animations  # noqa: F401 - see below
from . import frame as F
from . import palette as P
from .rules.board import Layout
from .compat import const, ticks_diff
from .device.input import LONG, PRESS, RELEASE, REPEAT, TAP
from .keys import LONG_B, SOUND_CLICK, TONES
from . import modes as M
from .rules.notation import finish
from .preferences import MODES, RANGES, check_settings
from .saving import GAMES, SETTINGS_FILE, Saver
from .rules.rng import game_seed
from .rules.solver import Solver
from .rules import walk  # noqa: F401 - see below

# animations and walk are the game modes', imported at boot so that a switch imports one
# mode's own module in a frame (emulated RP2040: 2.8 and 1.7 ms, a mode 1.4-4 ms); a game
# mode keeps them in the heap anyway.
_NOTICE_MS = const(30000)  # a notice blinks on the grid this long, or until a key
_FADE = const(150)  # each frame of a switch dims the picture to this / 255
_MINUTE_MS = const(60000)


def _join(a, b):
    return b if a is None else a if b is None else a + "; " + b


class App:
    """The handheld, minus its hardware. See the module docstring. It implements every
    name of device/contract.py's ``AppContract`` itself (host_tests/device/test_handheld.py
    holds it), not as a subclass: on a Pico the contract's class would sit in the heap for
    nothing (docs/performance.md)."""

    TONES = TONES

    def __init__(self, store=None, seed=0, now=0, power=None):
        self.store = store
        self.power = power  # the battery gauge (device/power.py), for the settings
        self.saver = Saver(store)
        self.seed = seed & 0x3FFFFFFF
        self.sound = 0
        self.line = None  # a line for the serial console, until the device takes it
        self.notice = None  # one line for the console when a file was reset
        self.welcome = False  # a first start: greeted (modes' guide), no notice
        self._noticing = False  # the notice blinks on the grid (30 s from _notice_at)
        self._notice_at = now
        self._now = now  # the frame being drawn (the time work goes on at)
        self._fading = False  # work ran this frame: render fades the last picture
        data, problem = self._load(SETTINGS_FILE)
        self.settings, bad = check_settings(data if data is not None else {})
        problem = problem or (bad if data is not None else None)
        lost = data is None or bad is not None  # (missing or damaged settings: see below)
        if data is None and problem is None and store is not None and store.save(
                SETTINGS_FILE, self.settings):
            # missing: a first start (no notice: having no settings yet is normal)
            self.welcome = True
        self.layout = None
        self._solver = None  # (solver: built at its first use on a layout)
        self.pal = P.DIE
        self.apply_layout()
        self.modes = {}  # name -> Mode, built on first use, put away when left
        self.mode = "menu"
        self.left = "menu"  # the mode left last (the menu comes back on its quadrant)
        self.work = None  # long work in pieces (a generator), one piece a frame: a switch
        self.switches = 0  # switches done (the emulated board's probe counts them)
        self._keyed = False  # a key was handled in this frame: it writes nothing
        self._held = bytearray(16)  # keys pressed during a switch, handled after it
        self._held_n = 0
        self.held = 0  # the buttons held down (bit i: input.py's button i), from the events
        self.current = self.get("menu")
        last = None
        want = self.settings["mode"]  # the mode on show when the power went
        # Games saved beside missing or damaged settings: their own rules (layout,
        # players, expert, difficulty) become the settings when each resumes, until the
        # player changes a setting (_adopt_layout, _adopt_rules).
        self._adopt = []
        self._absent = []  # games without a file at boot (a first switch reads none: _on_flash)
        for name in GAMES:
            saved, bad = self._load(name)
            if saved is None and bad is None:
                self._absent.append(name)
            problem = _join(problem, bad)
            seq = saved.get("seq") if isinstance(saved, dict) else None
            if saved is not None and not isinstance(seq, int):
                problem = _join(problem, self._set_aside(name, "%s: not a saved game" % name))
            elif saved is not None:
                if lost:
                    self._adopt.append(name)
                if seq >= self.saver.seq:
                    self.saver.seq = seq + 1
                    if want not in GAMES:
                        last = name
                if name == want:
                    last = name
        if want and want not in GAMES:
            last = None  # a mode without a game was on show: it, not an older game
        resumed = False
        if last is not None:
            resumed, bad = finish(self._resume(last, now))
            problem = _join(problem, bad)
        if problem:
            self.show_notice(problem, now)
        if resumed:
            self.mode = last
            self.current = self.get(last)  # as it was saved: not entered anew
            self._put_away("menu")
        elif want == "classroom" or want == "settings":
            self.mode = want
            self.current = self.get(want)
            self._put_away("menu")
            self.current.enter(now)
        else:
            self.current.enter(now)

    # -- persistence ----------------------------------------------------------
    def _load(self, name):
        """``(data, problem)``: data None when the file is missing or bad (a bad file is
        set aside)."""
        if self.store is None:
            return None, None
        data, problem = self.store.load(name)
        if problem is not None:
            problem = self._set_aside(name, problem)
        return data, problem

    def _set_aside(self, name, problem):
        """Keep file ``name`` out of the way (NAME.bad.json); ``problem`` plus where it went."""
        set_aside = getattr(self.store, "set_aside", None)
        kept = set_aside(name) if set_aside is not None else None
        if kept is not None:
            problem = "%s; kept as %s" % (problem, kept)
        return problem

    def _on_flash(self, name):
        """False when game ``name`` had no file at boot and none was written since: no
        need to look (the file system's answer took some 3 ms of a switch's frame on a
        Pico, emulated)."""
        return name not in self._absent or self.saver.touched(name)

    def live_game(self):
        """The name of the saved game being played (its file), or None (the device sets
        it aside when the app stops while it is live)."""
        return self.mode if self.mode in GAMES else None

    def _resume(self, name, now):
        """Work: mode ``name``'s saved game read back into it, in pieces (the file and
        its layout, then the decisions replayed a few at a time); returns ``(resumed,
        problem)``. A bad
        file is set aside (its problem becomes the notice), as is one whose loading
        raised."""
        saver = self.saver
        if saver.removing(name):
            return False, None  # its file is to be removed: as good as gone
        saved = saver.unwritten(name)
        problem = None
        if saved is None:
            if not self._on_flash(name):
                return False, None
            saved, problem = self._load(name)
        if saved is None:
            return False, problem
        mode = self.get(name)
        try:
            if name in self._adopt:  # the settings were lost: the game's layout first
                self._adopt_layout(saved)
            ok, problem = yield from mode.resume(saved, now)
        except MemoryError:  # the heap was short, not the game: the device keeps it
            raise
        except Exception as error:  # noqa: BLE001 - a saved game must not stop the app
            mode.reset()
            ok, problem = False, "%s: the saved game cannot be played (%s)" % (
                name, type(error).__name__)
        if ok:
            saver.mark_stored(name)
            if name in self._adopt:
                self._adopt.remove(name)
                self._adopt_rules(name, mode.game)
        else:
            problem = self._set_aside(name, problem or "%s: not resumed" % name)
        return ok, problem

    # Settings lost (damaged or missing at boot), a game saved: the game's own rules
    # become the settings, so that it is not refused for a layout, or replaced by a new
    # game for the players or the expert rule, that only the lost settings knew.
    def _adopt_layout(self, saved):
        """Take the layout of the saved game about to resume (when it is a named
        arrangement and no other game is held), so that it is not refused for it."""
        game = saved.get("game") if isinstance(saved, dict) else None
        name = game.get("layout") if isinstance(game, dict) else None
        if not isinstance(name, str) or name.count(":") != 1:
            return
        side, tiles = name.split(":")
        s = self.settings
        if (side, tiles) == (s["side"], s["tiles"]):
            return
        for mode in self.modes.values():
            if mode.game is not None:
                return
        if check_settings({"side": side, "tiles": tiles})[1] is None:
            s["side"] = side
            s["tiles"] = tiles
            self.apply_layout()
            self.saver.save_settings(s)

    def _adopt_rules(self, name, game):
        """The rules of the game just resumed become the settings (the referee would
        otherwise start a new game over it, see modes/referee.py)."""
        if game is None:
            return
        s = self.settings
        if name == "referee":
            s["players"] = game.players
        elif game.difficulty <= RANGES["difficulty"][1]:
            s["difficulty"] = game.difficulty
        s["expert"] = game.expert
        self.saver.save_settings(s)

    def show_notice(self, text, now):
        """A file was reset to defaults: say so on the console and on the grid."""
        self.notice = text
        self._noticing = True
        self._notice_at = now

    # -- settings -------------------------------------------------------------
    def apply_layout(self):
        s = self.settings
        self.layout = Layout.from_tiles(s["side"], s["tiles"])
        self.pal = P.palette(s["aid"] & 1)

    @property
    def solver(self):
        """The routes on the layout (rules.solver.Solver), made when first asked for on
        it: by a game's set-up or a key, never in the frame that accepts a new
        arrangement, which has enough to do (on CircuitPython the move table is plain
        Python: docs/circuitpython.md)."""
        solver = self._solver
        if solver is None or solver.layout is not self.layout:
            solver = self._solver = Solver(self.layout)
        return solver

    def change(self, key, value):
        """Change one setting and save it; a new arrangement drops a game in progress."""
        s = self.settings
        if key != "games":  # the player's choice: the settings are the player's again
            self._adopt = []
        if s[key] == value:
            return
        s[key] = value
        if key in ("side", "tiles"):
            self.apply_layout()
            self.saver.remove_game()
            for mode in self.modes.values():
                mode.reset()
        # (expert, difficulty: solo and the referee roll a new game when next entered if
        # the value was left changed: their prepare; one only browsed keeps the game)
        elif key == "aid":
            self.pal = P.palette(value & 1)
        self.saver.save_settings(s)

    @property
    def brightness(self):
        """The player's setting, unless the mode on show sets its own (``brightness``
        above 0: the self-test's colours)."""
        own = getattr(self.current, "brightness", 0)
        return own if own else self.settings["brightness"]

    def new_seed(self):
        """The seed of the next new game: the boot seed, varied by the games started."""
        n = (self.settings["games"] + 1) & 0x3FFFFFFF
        self.change("games", n)
        return game_seed(self.seed, n)

    # -- sound and the serial console ---------------------------------------------------
    def beep(self, sound):
        if self.settings["sound"]:
            self.sound = sound

    def take_sound(self):
        """The pending sound request (keys.SOUND_*), or 0; clears it."""
        s = self.sound
        self.sound = 0
        return s

    def say(self, text):
        """A line for the serial console (the referee's verdict and why): the device
        prints it, the simulator shows it on its status line. A newer line replaces one
        not yet taken."""
        self.line = text

    def take_line(self):
        """The pending console line, or None; clears it."""
        line = self.line
        self.line = None
        return line

    # -- modes ----------------------------------------------------------------
    def get(self, name):
        """The mode called ``name`` (one of MODES), built on first use (its module
        imported: modes.load)."""
        mode = self.modes.get(name)
        if mode is None:
            mode = self.modes[name] = M.load(name)(self)
        return mode

    def go(self, name, now):
        """Switch to mode ``name`` (work, from this frame on): ``mode`` is ``name`` at
        once; keys pressed meanwhile are handled after the switch."""
        self.left = self.mode
        self.mode = name
        if name in MODES:  # boot returns to it (not to the self-test)
            self.change("mode", name)
        self.current = None  # the old mode can be freed; nothing is drawn meanwhile
        self.work = self._switching(name)

    @property
    def switching(self):
        """True while a switch (go) runs, its saved game's replay included."""
        return self.work is not None

    def _switching(self, name):
        """Work: a mode switch, a piece a frame, each under 10 ms on a Pico (emulated).
        (1) In the key's frame (which keeps its click): the mode left put away; at the
        mode's first switch its parts imported (modes.PARTS: a module a piece). (2) The
        mode's module imported (the first time), the mode built; a game mode's saved game
        read back, a few decisions a frame (its file in a piece after an import). (3)
        Anything else ``enter`` needs made ready (``prepare``: a new game rolled). (4) The
        mode entered, then the garbage collected: the next collection is far off."""
        self.switches += 1
        if self.left != name:
            self._put_away(self.left)
        if name not in self.modes:
            yield from M.load_parts(name)
        yield
        new = not M.imported(name)
        mode = self.get(name)
        if name in GAMES and mode.game is None:
            if new and self._on_flash(name):
                yield  # the module's import was this frame's work: the saved game's file next
            ok, problem = yield from self._resume(name, self._now)
            if problem:
                self.show_notice(problem, self._now)
        yield
        mode.prepare()
        yield
        self.current = mode
        mode.enter(self._now)
        gc.collect()

    def _step_work(self):
        work = self.work
        try:
            next(work)
        except StopIteration:
            if self.work is work:  # (else the work began another: a switch in enter)
                self.work = None

    def _put_away(self, name):
        """Drop a mode left for another, so that the heap holds one mode's state at a
        time: its game is on flash or held by the saver, and resumes when chosen again (a
        mode whose game could not be saved stays)."""
        if name in self.modes and self.saver.stored(name):
            del self.modes[name]

    # -- events and frames ----------------------------------------------------
    def handle(self, event, now):
        """Take one input.py event (``kind << 3 | button``) at time ``now``."""
        if self.work is not None or self._held_n:
            # kept, in order, until the switch is done (update)
            if self._held_n < len(self._held):
                self._held[self._held_n] = event
                self._held_n += 1
            return
        kind = event >> 3
        button = event & 7
        if kind == PRESS:
            self.held |= 1 << button
        elif kind == RELEASE:
            self.held &= ~(1 << button)
        if button < 4:  # the D-pad: when pressed, and again while held
            if kind != PRESS and kind != REPEAT:
                return
            key = button
        elif kind == TAP:
            key = button
        elif kind == LONG:
            key = button + 8
        else:
            return
        self._noticing = False  # any key dismisses the notice
        self._keyed = True
        if key == LONG_B and self.mode != "menu":
            self.current.leave(now)
            self.go("menu", now)
            self.beep(SOUND_CLICK)
            return
        self.current.key(key, now)

    def update(self, now):
        """Everything that changes with time, once a frame before ``render``: a piece of
        the work, then the keys held during it, the mode's timers, a file saved (at most
        one, in a frame no key was handled, see saving.py), the notice's 30 s."""
        self._now = now
        self._fading = self.work is not None
        if self._fading:
            self._step_work()
            return
        if self._held_n:  # keys pressed during the switch
            n = self._held_n
            self._held_n = 0
            for k in range(n):
                self.handle(self._held[k], now)
            if self.work is not None:  # one of them began another switch
                self._fading = True
                return
        self.current.update(now)
        saver = self.saver
        if self._keyed:
            self._keyed = False
        elif saver.quiet:
            saver.quiet -= 1
        elif saver.unsaved and not self.current.busy(now):
            saver.step()
        if self._noticing:
            t = ticks_diff(now, self._notice_at)
            if t < 0 or t >= _NOTICE_MS:
                self._noticing = False

    def render(self, now, frame):
        """Draw the current mode at ``now`` into ``frame``; reads the state, changes none
        of it, allocates nothing."""
        if self._fading:
            F.dim(frame, _FADE)  # the last picture fades while the switch runs
            return
        self.current.render(now, frame)
        if self._noticing and F.blink(now, 800):
            for i in range(36):
                if i < 6 or i >= 30 or i % 6 == 0 or i % 6 == 5:
                    F.put_rgb(frame, i, P.NOTICE)

    # -- what the device asks (device/contract.py) ------------------------------------
    def keeps_awake(self):
        """A mode playing by itself (the classroom's demo, not paused) counts as a key."""
        return self.current is not None and self.current.playing_alone

    def dim_after_ms(self):
        return self.settings["dim"] * _MINUTE_MS

    def sleep_after_ms(self):
        return self.settings["sleep"] * _MINUTE_MS

    def may_sleep(self):
        return self.work is None  # never in the middle of a switch

    def self_test(self, now):
        """A is held at power-on: the builder's self-test (modes/selftest.py)."""
        self.go("selftest", now)

    def flush(self):
        self.saver.flush()
