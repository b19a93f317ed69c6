"""The handheld's state machine: button events and time in, frames and sounds out.

One mode runs at a time (``modes/``: menu, solo, referee, classroom, settings)::

    app = App(store, seed=1234)      # loads settings and a game in progress
    app.handle(event, now)           # every input.py event, in order
    app.render(now, frame)           # fills the bytearray(108); allocates nothing
    app.mode                         # "menu", "solo", "referee", "classroom", "settings"
    app.brightness                   # 1..8, for display.set_brightness
    app.take_sound()                 # a sound request (SOUND_*), 0 when none
    app.take_line()                  # a line for the serial console (a verdict and why), or None

Buttons, the same in every mode: the D-pad acts when pressed (and repeats while held);
A and B act when released, or when held (``LONG_A``, ``LONG_B``: about 0.6 s). Holding B
always returns to the menu; whatever was being played is kept.

Persistence: ``store`` is a store.Store (or anything with its ``load``/``save``/
``remove``). Settings (``settings.json``) are saved whenever one changes; a solo
puzzle (``solo.json``) and a refereed game (``referee.json``) after every decision. At
boot the app returns to the mode on show when it stopped (the setting ``mode``, saved at
each switch): a game where it was, the classroom, the settings or the menu; a game not on
show resumes when its mode is chosen (without ``mode``: the game saved last).
Saving never stalls play: ``save_settings``/``save_game``/``remove_game`` only note what
to do, and ``render`` does it in idle frames (``flush``): a second (50 frames) after the
last change noted, which lets a short animation end (a slide, the referee's verdict)
and gathers a burst of changes (brightness pressed five times) into one write; then in
frames with no key handled, no mode switch under way and no animation running
(``Mode.busy``: the dice, a slide, a flash, a celebration, a replay). One such frame
turns one file's data into JSON, a later one writes that file (a temporary file, then a
rename, as store.py says): never more than one file a frame. So a decision reaches the
flash a second or so after it is made, or after its long animation ends; a power cut
before that loses that decision and nothing else (removals first, then the settings,
then the games: a new layout's settings are never on flash beside an old layout's
game). A game still to be written is resumed from memory when its mode is chosen.
No settings file is a first start: the defaults, saved, and a welcome (``app.welcome``,
for the help line) rather than a warning. A corrupt file gives the defaults and a
visible notice: the grid's border
blinks orange until a button is pressed (for 30 s at most); ``app.notice`` holds the
one-line reason for the console. A bad file is never deleted: it is set aside as
``NAME.bad.json`` (store.set_aside), and so is a saved game whose loading raised; a game
that stops the app later is set aside by main.Device (``app.live_game()`` names it), so
the device never replays a saved state into a crash loop.
"""

import gc
import sys

from . import frame as F
from . import palette as P
from . import game as _game  # noqa: F401 - see below
from .board import Layout, LayoutError
from .compat import const, ticks_diff
from .input import A, B, DOWN, LEFT, LONG, PRESS, RELEASE, REPEAT, RIGHT, UP  # noqa: F401
from .solver import Solver

# The game engine is imported here, at boot, although only the modes use it: compiling
# it from source takes about 40 KB of room for a moment, which a heap fragmented by play
# may no longer offer in one piece. It stays loaded; the modes come and go, and so does
# gameload.py, the half that reads saved games back (see resume).

# Keys a mode receives: the buttons of input.py (which defines the event encoding), and
# A or B held.
LONG_A = const(12)
LONG_B = const(13)

# Sound requests for the buzzer: take_sound() returns one; TONES says how it sounds.
SOUND_CLICK = const(1)
SOUND_MOVE = const(2)
SOUND_REFUSE = const(3)
SOUND_GOOD = const(4)
SOUND_BAD = const(5)
SOUND_WIN = const(6)
SOUND_ROLL = const(7)
TONES = (
    (),
    ((2000, 15),),
    ((1200, 30),),
    ((220, 90), (0, 40), (220, 90)),
    ((660, 80), (880, 80), (1320, 160)),
    ((440, 120), (330, 200)),
    ((523, 120), (659, 120), (784, 120), (1047, 400)),
    ((900, 20), (0, 40), (1100, 20), (0, 60), (1300, 20)),
)

MODES = ("menu", "solo", "referee", "classroom", "settings")

_NOTICE_MS = const(30000)  # a notice blinks on the grid this long, or until a key
_FADE = const(150)  # each frame of a mode switch dims the picture to this / 255
_QUIET_FRAMES = const(50)  # a change is saved a second after the last one, when idle
SETTINGS_FILE = "settings"
GAMES = ("solo", "referee")  # a game in progress of each is saved in a file of that name

# Every setting, its default and what it may be (checked when loaded).
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
    "mode": "",             # the mode on show (boot returns to it); "": the newest game
}
_RANGES = {"brightness": (1, 8), "players": (2, 8), "difficulty": (0, 6), "aid": (0, 3),
           "games": (0, 0x3FFFFFFF)}


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
        if ok and key in _RANGES:
            lo, hi = _RANGES[key]
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


def _unload(name):
    """Forget module ``name`` (MicroPython frees its code once nothing refers to it)."""
    sys.modules.pop(name, None)
    cut = name.rfind(".")
    package = sys.modules.get(name[:cut])
    try:  # a port without delattr keeps the module: more memory, nothing worse
        if package is not None and hasattr(package, name[cut + 1:]):
            delattr(package, name[cut + 1:])
    except (AttributeError, NameError):
        pass


def _join(a, b):
    return b if a is None else a if b is None else a + "; " + b


class App:
    """The handheld, minus its hardware. See the module docstring."""

    def __init__(self, store=None, seed=0, now=0):
        self.store = store
        self.seed = seed & 0x3FFFFFFF
        self.waiting = False  # long work under way: frames within it (pause) hold or fade
        self.pause = lambda ms=4: None  # main.Device.pause: long work lets a frame run there
        self.sound = 0
        self.line = None  # a line for the serial console, until main.py takes it
        self.notice = None  # one line for the console when a file was reset (main prints it)
        self.welcome = False  # a first start: greeted (modes' guide), no notice
        self._noticing = False  # the notice blinks on the grid (30 s from _notice_at)
        self._notice_at = now
        self._long = 0  # bit per button: held long since pressed (its release is no tap)
        data, problem = self._load(SETTINGS_FILE)
        self.settings, bad = check_settings(data if data is not None else {})
        problem = problem or (bad if data is not None else None)
        lost = data is None or bad is not None  # (missing or damaged settings: see below)
        if data is None and problem is None and store is not None and store.save(
                SETTINGS_FILE, self.settings):
            # missing: a first start (no notice: having no settings yet is normal)
            self.welcome = True
        self.layout = None
        self.solver = None
        self.pal = P.DIE
        self._apply_layout()
        self.modes = {}  # loaded on first use: a Pico's heap holds the code
        self._brought = {}  # mode -> the modules its import loaded
        self.mode = "menu"
        self.left = "menu"  # the mode left last (the menu comes back on its quadrant)
        self.current = self.get("menu")
        self._seq = 0  # orders the saved games: the newest is resumed at boot
        self._stored = {}  # mode -> whether its game's last save succeeded
        self._pending = {}  # file name -> data to write when idle, None to remove (flush)
        self._text = None  # (name, JSON text, data): encoded in one frame, written later
        self._failed = {}  # game -> data its write failed to store (resumed from here)
        self._keyed = False  # a key was handled in this frame: it writes nothing
        self._quiet = 0  # frames still to wait after the last change noted (flush)
        self._switch = None  # the mode being switched to (go), a stage a frame
        self._stage = 0
        self._module = None  # the switch's imported module, until its Mode is built
        self._preloaded = None  # (name, data, problem): a saved game read by the switch
        self._held = bytearray(16)  # keys pressed during a switch, handled after it
        self._held_n = 0
        last = None
        want = self.settings["mode"]  # the mode on show when the power went
        # Games saved beside missing or damaged settings: their own rules (layout,
        # players, expert, difficulty) become the settings when each resumes, until the
        # player changes a setting (adopt.py).
        self._adopt = []
        for name in GAMES:
            saved, bad = self._load(name)
            problem = _join(problem, bad)
            seq = saved.get("seq") if isinstance(saved, dict) else None
            if saved is not None and not isinstance(seq, int):
                problem = _join(problem, self._set_aside(name, "%s: not a saved game" % name))
            elif saved is not None:
                if lost:
                    self._adopt.append(name)
                if seq >= self._seq:
                    self._seq = seq + 1
                    if want not in GAMES:
                        last = name
                if name == want:
                    last = name
        if want and want not in GAMES:
            last = None  # a mode without a game was on show: it, not an older game
        resumed = False
        if last is not None:
            resumed, bad = self.resume(last, now)
            problem = _join(problem, bad)
        if problem:
            self.show_notice(problem, now)
        if resumed:
            self.mode = last
            self.current = self.get(last)
            self._put_away("menu")
        elif want == "classroom" or want == "settings":
            self.mode = want
            self.current = self.get(want)
            self._put_away("menu")
            self.current.enter(now)
        else:
            self.current.enter(now)

    # -- persistence ----------------------------------------------------------
    def _load(self, name, pause=None):
        """``(data, problem)``: data None when the file is missing or bad (a bad file is
        set aside). ``pause``: see Store.load."""
        if self.store is None:
            return None, None
        data, problem = self.store.load(name, pause)
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

    def live_game(self):
        """The name of the saved game being played (its file), or None (main.Device sets
        it aside when the app stops while it is live)."""
        return self.mode if self.mode in GAMES else None

    def save_settings(self):
        """Note the settings for writing (``flush``)."""
        if self.store is not None:
            self._pending[SETTINGS_FILE] = self.settings
            self._quiet = _QUIET_FRAMES

    def save_game(self, data):
        """Note a game in progress (a dict with "mode": solo or referee) for writing to its
        file (``flush``); after every decision."""
        data["seq"] = self._seq
        self._seq += 1
        name = data["mode"]
        if self.store is None:
            self._stored[name] = False  # nowhere to keep it: the mode stays resident
            return
        self._pending[name] = data
        self._quiet = _QUIET_FRAMES
        self._failed.pop(name, None)
        self._stored[name] = True  # held here until written (see _unwritten)

    def remove_game(self, name=None):
        """Forget the saved game of mode ``name`` (None: both)."""
        if self.store is not None:
            for game in GAMES:
                if name is None or name == game:
                    self._pending[game] = None  # the file goes too, when idle
                    self._quiet = _QUIET_FRAMES
                    self._failed.pop(game, None)
                    if self._text is not None and self._text[0] == game:
                        self._text = None

    @property
    def unsaved(self):
        """True while something noted for saving is not yet done on flash."""
        return bool(self._pending) or self._text is not None

    def flush(self, now=-1):
        """One step of saving: write the file encoded in an earlier call, else remove a
        file or encode the next one's data; nothing during a switch or an animation.
        Without ``now``: everything at once (tests, a clean stop). True while more is to
        come."""
        if now < 0:
            while self.unsaved:
                self._flush_step()
            return False
        if not self._switch and not self.current.busy(now):
            self._flush_step()
        return self.unsaved

    def _flush_step(self):
        store = self.store
        text = self._text
        if text is not None:  # the one file of this frame
            self._text = None
            name = text[0]
            ok = store.write(name, text[1]) if text[1] is not None else store.save(
                name, text[2])
            if name in GAMES:
                self._stored[name] = ok
                if not ok:
                    self._failed[name] = text[2]
            return
        pending = self._pending
        name = None
        for first in GAMES:  # removals first, then the settings, then the games
            if first in pending and pending[first] is None:
                name = first
        if name is None:
            name = SETTINGS_FILE if SETTINGS_FILE in pending else GAMES[0] \
                if GAMES[0] in pending else GAMES[1]
        data = pending.pop(name)
        if data is None:
            store.remove(name)
            return
        try:  # any store with load/save/remove works: Store encodes here, writes next time
            self._text = (name, store.encode(data), data)
        except (AttributeError, TypeError, ValueError):
            self._text = (name, None, data)  # save() in one go (and says why it failed)

    def _unwritten(self, name):
        """The newest data of game ``name`` not (yet) on flash, or None."""
        data = self._pending.get(name)
        if data is None and self._text is not None and self._text[0] == name:
            data = self._text[2]
        return data if data is not None else self._failed.get(name)

    def resume(self, name, now):
        """Load mode ``name``'s saved game into it: ``(resumed, problem)``. A bad file is
        set aside (its problem becomes the notice), as is one whose loading raised."""
        if name in self._pending and self._pending[name] is None:
            return False, None  # its file is to be removed: as good as gone
        saved = self._unwritten(name)
        problem = None
        pre = self._preloaded
        self._preloaded = None
        if saved is None and pre is not None and pre[0] == name:
            saved, problem = pre[1], pre[2]  # read in an earlier frame of the switch
        elif saved is None:
            saved, problem = self._load(name)
        if saved is None:
            return False, problem
        mode = self.get(name)
        try:
            try:
                ok, problem = self._resume(mode, saved, now)
            except MemoryError:  # the heap was short (loading gameload.py), not the game
                _unload("microrobots.gameload")  # bad: once more after a collection; a
                gc.collect()  # second MemoryError stops the app, the game kept (main.py)
                ok, problem = self._resume(mode, saved, now)
        except MemoryError:
            raise
        except Exception as error:  # noqa: BLE001 - a saved game must not stop the app
            mode.reset()
            ok, problem = False, "%s: the saved game cannot be played (%s)" % (
                name, type(error).__name__)
        if sys.implementation.name != "cpython":  # MicroPython, CircuitPython
            _unload("microrobots.gameload")  # needed again only at the next load
        if ok:
            self._stored[name] = True
            if name in self._adopt:
                self._adopt.remove(name)
                from .adopt import adopt_rules

                adopt_rules(self, name, getattr(mode, "game", None))
                _unload("microrobots.adopt")
        else:
            problem = self._set_aside(name, problem or "%s: not resumed" % name)
        return ok, problem

    def _resume(self, mode, saved, now):
        if mode.name in self._adopt:  # the settings were lost: the game's layout first
            from .adopt import adopt_layout

            adopt_layout(self, saved)
            _unload("microrobots.adopt")
        return mode.resume(saved, now)

    def show_notice(self, text, now):
        """A file was reset to defaults: say so on the console and on the grid."""
        self.notice = text
        self._noticing = True
        self._notice_at = now

    # -- settings -------------------------------------------------------------
    def _apply_layout(self):
        s = self.settings
        self.layout = Layout.from_tiles(s["side"], s["tiles"])
        self.pause(8)  # the rest (its solver, the key's frame) in a frame of its own
        self.solver = Solver(self.layout)
        self.pal = P.palette(s["aid"] & 1)

    def change(self, key, value):
        """Change one setting and save it; a new arrangement drops a game in progress."""
        s = self.settings
        if key != "games":  # the player's choice: the settings are the player's again
            self._adopt = []
        if s[key] == value:
            return
        s[key] = value
        if key in ("side", "tiles"):
            waiting = self.waiting
            self.waiting = True  # a frame may run within: it shows the last picture
            try:
                self._apply_layout()
            finally:
                self.waiting = waiting
            self.remove_game()
            for mode in self.modes.values():
                mode.reset()
        elif key in ("expert", "difficulty"):  # solo: a new game from the next puzzle on
            self.remove_game("solo")
            if "solo" in self.modes:
                self.modes["solo"].reset()
        elif key == "aid":
            self.pal = P.palette(value & 1)
        self.save_settings()

    @property
    def brightness(self):
        return self.settings["brightness"]

    def new_seed(self):
        """The seed of the next new game: the boot seed, varied by the games started."""
        n = self.settings["games"] + 1
        self.change("games", n & 0x3FFFFFFF)
        return (self.seed + n * 7919) & 0x3FFFFFFF

    # -- sound ----------------------------------------------------------------
    def beep(self, sound):
        if self.settings["sound"]:
            self.sound = sound

    def take_sound(self):
        """The pending sound request (SOUND_*), or 0; clears it."""
        s = self.sound
        self.sound = 0
        return s

    # -- the serial console ---------------------------------------------------------
    def say(self, text):
        """A line for the serial console (the referee's verdict and why): main.py prints
        it, the simulator shows it on its status line. A newer line replaces one not yet
        taken."""
        self.line = text

    def take_line(self):
        """The pending console line, or None; clears it."""
        line = self.line
        self.line = None
        return line

    # -- events and frames ----------------------------------------------------
    def get(self, name):
        """The mode called ``name`` (one of MODES), imported on first use."""
        mode = self.modes.get(name)
        if mode is None:
            gc.collect()  # room for compiling the module on a small heap
            mode = self.modes[name] = self._import_mode(name).Mode(self)
        return mode

    def _import_mode(self, name):
        """Module ``modes.NAME``; the modules its import brought (solo: walk) are noted, to
        go with it (``_put_away``). The garbage was collected just before; should what was
        allocated since leave no room in one piece (the simulators print every frame;
        compiling from source needs more), it collects again and tries once more."""
        full = "microrobots.modes." + name
        before = set(sys.modules)
        try:
            module = __import__(full, None, None, ("Mode",))
        except MemoryError:
            _unload(full)
            gc.collect()
            module = __import__(full, None, None, ("Mode",))
        self._brought[name] = [k for k in sys.modules
                               if k not in before and k != "microrobots.modes"]
        return module

    def go(self, name, now):
        """Switch to mode ``name``, spread over the next frames so that none of them takes
        long (``_switch_step``): ``mode`` is ``name`` at once; the picture fades while
        the switch runs, and keys pressed meanwhile are handled after it."""
        self.left = self.mode
        self.mode = name
        self.change("mode", name)  # boot returns to it
        self._switch = name
        self._stage = -1  # the frame of the key: only the fade
        self.current = None  # the old mode can be freed; nothing is drawn meanwhile

    @property
    def switching(self):
        """True while a switch (go) runs."""
        return self._switch is not None

    def _switch_step(self, now):
        """One frame's share of a switch (go): the stages in order, each in a frame of
        its own when it has work. 0: nothing (the frame of the key); 1: the mode left put
        away (its code unloaded) and a garbage collection; 2: the new mode's module
        imported; 3: its Mode built; 4: its saved game read from flash; 5: entered (its
        game resumed or begun)."""
        name = self._switch
        while True:
            self._stage += 1
            stage = self._stage
            if stage == 0:
                return
            if stage == 1:
                old = self.left
                if old != name:  # the old mode goes first: its room is the new one's
                    self._put_away(old)  # its code unloaded on the device
                gc.collect()  # room for the next mode, and no collection later in it
                return
            if stage == 2 and name not in self.modes:
                self._module = self._import_mode(name)
                return
            if stage == 3 and self._module is not None:
                self.modes[name] = self._module.Mode(self)
                self._module = None
                return
            if stage == 4 and name in GAMES and getattr(self.modes[name], "game", 1) is None \
                    and name not in self._pending and self._unwritten(name) is None \
                    and self.store is not None:
                data, problem = self._load(name, self.pause)
                self._preloaded = (name, data, problem)
                return
            if stage == 5:  # still switching: frames within it only fade, keys wait
                mode = self.current = self.modes[name]
                mode.enter(now)
                self._preloaded = None
                if self._stage == 5:  # (entering may have begun another switch)
                    self._switch = None
                return

    def _put_away(self, name):
        """Drop a mode left for another, so that the heap holds one mode at a time: its
        game is on flash, or held here until written (flush), and resumes when it is
        chosen again (a mode whose game could not be saved stays in memory). Under
        MicroPython and CircuitPython its code is unloaded as well, and so are the modules
        its import brought."""
        if name not in self.modes or not self._stored.get(name, name not in GAMES):
            return
        del self.modes[name]
        if sys.implementation.name == "cpython":
            return  # the same behaviour; freeing code matters only on the device
        _unload("microrobots.modes." + name)
        for module in self._brought.pop(name, ()):
            _unload(module)  # freed by the switch's collection (stage 1)

    def handle(self, event, now):
        """Take one input.py event (``kind << 3 | button``) at time ``now``."""
        if self._switch is not None or self.waiting or self._held_n:
            # kept, in order, until the switch or the work is done (render)
            if self._held_n < len(self._held):
                self._held[self._held_n] = event
                self._held_n += 1
            return
        kind = event >> 3
        button = event & 7
        if button < 4:
            if kind != PRESS and kind != REPEAT:
                return
            key = button
        elif kind == PRESS:
            self._long &= ~(1 << button)
            return
        elif kind == LONG:
            self._long |= 1 << button
            key = button + 8
        elif kind == RELEASE and not self._long >> button & 1:
            key = button
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

    def render(self, now, frame):
        """Draw the current mode at ``now`` into ``frame``; allocates nothing (but in the
        frame that encodes a file to save, see ``flush``)."""
        if self._switch is not None:
            if not self.waiting:  # (else a frame within the stage's work: main.Device.pause)
                self.waiting = True
                try:
                    self._switch_step(now)
                finally:
                    self.waiting = False
            if self._stage != 1:  # (not in the frame of the collection: it has no time)
                F.dim(frame, _FADE)  # the last picture fades while the switch runs
            return
        if self.waiting:  # a frame within a key's long work (a new layout): it stays
            return
        if self._held_n:  # keys pressed during the switch
            n = self._held_n
            self._held_n = 0
            for k in range(n):
                self.handle(self._held[k], now)
            if self._switch is not None:  # one of them began another switch
                return
        self.current.render(now, frame)
        if self._keyed:
            self._keyed = False
        elif self._quiet:
            self._quiet -= 1
        elif self.unsaved:
            self.flush(now)
        if self._noticing:
            t = ticks_diff(now, self._notice_at)
            if t < 0 or t >= _NOTICE_MS:
                self._noticing = False
            elif F.blink(now, 800):
                for i in range(36):
                    if i < 6 or i >= 30 or i % 6 == 0 or i % 6 == 5:
                        F.put_rgb(frame, i, P.NOTICE)
