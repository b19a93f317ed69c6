"""Saving without stalling play: what is to be written, and one step of it per idle frame.

The app notes what changed (``save_settings``, ``save_game``, ``remove_game``); its frame
loop calls ``step`` in frames with nothing else to do (no key handled, no switch under
way, no animation running), a second (50 frames) after the last change noted: that lets
a short animation end (a slide, the referee's verdict) and gathers a burst of changes
(brightness pressed five times) into one write. One step turns one file's data into
JSON, a later one writes that file (a temporary file, then a rename, as store.py says):
never more than one file a frame. So a decision reaches the flash a second or so after
it is made; a power cut before that loses that decision and nothing else (removals
first, then the settings, then the games: a new layout's settings are never on flash
beside an old layout's game). A game still to be written is resumed from memory
(``unwritten``) when its mode is chosen.

``store``: a store.Store, or anything with its ``load``/``save``/``remove`` (``encode``
and ``write`` are used when it has them); None keeps nothing.
"""

from .compat import const

SETTINGS_FILE = "settings"
GAMES = ("solo", "referee")  # a game in progress of each is saved in a file of that name
QUIET_FRAMES = const(50)  # a change is saved a second after the last one, when idle


class Saver:
    """What is still to be saved, in the order it is to be done."""

    def __init__(self, store):
        self.store = store
        self.seq = 0  # orders the saved games: the newest is resumed at boot
        self.quiet = 0  # frames still to wait after the last change noted
        self._stored = {}  # game -> whether its last save succeeded (or is pending)
        self._pending = {}  # file name -> data to write, None to remove
        self._text = None  # (name, JSON text, data): encoded in one step, written the next
        self._failed = {}  # game -> data its write failed to store (resumed from here)

    def save_settings(self, settings):
        """Note the settings for writing."""
        if self.store is not None:
            self._pending[SETTINGS_FILE] = settings
            self.quiet = QUIET_FRAMES

    def save_game(self, data):
        """Note a game in progress (a dict with "mode": solo or referee) for writing to its
        file; after every decision."""
        data["seq"] = self.seq
        self.seq += 1
        name = data["mode"]
        if self.store is None:
            self._stored[name] = False  # nowhere to keep it: the mode stays resident
            return
        self._pending[name] = data
        self.quiet = QUIET_FRAMES
        self._failed.pop(name, None)
        self._stored[name] = True  # held here until written (see unwritten)

    def remove_game(self, name=None):
        """Forget the saved game of mode ``name`` (None: both)."""
        if self.store is not None:
            for game in GAMES:
                if name is None or name == game:
                    self._pending[game] = None  # the file goes too
                    self.quiet = QUIET_FRAMES
                    self._failed.pop(game, None)
                    if self._text is not None and self._text[0] == game:
                        self._text = None

    def stored(self, name):
        """True when mode ``name`` keeps nothing that only its memory holds (its game is
        on flash, or held here until written)."""
        return self._stored.get(name, name not in GAMES)

    def touched(self, name):
        """True when game ``name`` was saved or read back since boot (its file may be on
        flash now, whatever it was at boot)."""
        return name in self._stored

    def mark_stored(self, name):
        """Game ``name`` was just read back from its file: flash holds it."""
        self._stored[name] = True

    def removing(self, name):
        """True when file ``name`` is to be removed: as good as gone."""
        return name in self._pending and self._pending[name] is None

    @property
    def unsaved(self):
        """True while something noted for saving is not yet done on flash."""
        return bool(self._pending) or self._text is not None

    def flush(self):
        """Everything at once (tests, a clean stop)."""
        while self.unsaved:
            self.step()

    def step(self):
        """Write the file encoded in the step before, else remove a file or encode the
        next one's data."""
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

    def unwritten(self, name):
        """The newest data of game ``name`` not (yet) on flash, or None."""
        data = self._pending.get(name)
        if data is None and self._text is not None and self._text[0] == name:
            data = self._text[2]
        return data if data is not None else self._failed.get(name)
