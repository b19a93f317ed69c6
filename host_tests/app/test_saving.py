"""Saving never stalls play, and a mode switch is spread over frames (issue 12).

The app notes what to save and writes it in idle frames: one file a frame at most, never
while an animation runs, the JSON made in an earlier frame than the one that writes it.
Entering a mode takes a few frames, one stage each (put away, import, build, read the
saved game, enter). Driven here frame by frame on the App with a store that records
which frame did what; the emulated RP2040 checks the same facts on the device
(test_rp2040.py), and ``make bench`` times them there.
"""

from microrobots.app import App
from microrobots.device.store import Store
from tools.sim.script import Session

A, B, RIGHT, DOWN = 4, 5, 3, 1
PRESS, RELEASE, LONG, TAP = 1, 2, 3, 5


class Recorder(Store):
    """A Store that notes, per frame, the files written and the texts encoded."""

    def __init__(self, root):
        super().__init__(root)
        self.frame = 0
        self.log = []  # (frame, what, name)

    def write(self, name, text):
        self.log.append((self.frame, "write", name))
        return super().write(name, text)

    def encode(self, data):
        self.log.append((self.frame, "encode", None))
        return Store.encode(data)

    def remove(self, name):
        self.log.append((self.frame, "remove", name))
        super().remove(name)


class Player:
    """The App with a recording store, one frame every 20 ms; ``busy`` notes per frame
    whether the mode was animating."""

    def __init__(self, tmp_path, seed=3):
        self.store = Recorder(str(tmp_path) + "/")
        self.app = App(self.store, seed=seed)
        self.store.log = []  # the first start's settings, written at boot (no frame yet)
        self.now = 0
        self.fr = bytearray(108)
        self.busy = {}
        self.switching = {}

    def frame(self, events=()):
        self.now += 20
        self.store.frame += 1
        for e in events:
            self.app.handle(e, self.now)
        self.switching[self.store.frame] = self.app.switching
        self.busy[self.store.frame] = not self.app.switching and self.app.current.busy(self.now)
        self.app.update(self.now)
        self.app.render(self.now, self.fr)

    def run(self, ms):
        for _ in range(ms // 20):
            self.frame()

    def tap(self, button):
        self.frame([PRESS << 3 | button])
        self.frame()
        self.frame([RELEASE << 3 | button, TAP << 3 | button])
        self.run(100)


def test_a_frame_writes_one_file_at_most_never_while_animating_and_encodes_earlier(tmp_path):
    p = Player(tmp_path)
    p.tap(A)  # solo: a new game (the settings' game count and solo.json), dice rolling
    solo = p.app.current
    assert p.app.mode == "solo" and solo.screen is solo.rolling
    p.run(6000)
    assert not p.app.saver.unsaved
    log = p.store.log
    written = [(f, n) for f, what, n in log if what == "write"]
    assert [n for _, n in written] == ["settings", "solo"]
    frames = [f for f, _ in written]
    assert len(set(frames)) == len(frames), "one file a frame"
    for f, _ in written:
        assert not p.busy[f] and not p.switching[f], "no file while animating or switching"
        assert (f - 1, "encode", None) in log, "the JSON made in the frame before"
    assert frames[0] > max(k for k, b in p.busy.items() if b), "after the dice"
    # a move: the robot slides; written after the slide, in idle frames
    route = solo.game.route()
    cells = [c for c in route[1:2]]
    start = len(log)
    solo.cursor = cells[0]
    p.tap(A)
    assert solo.walk.count == 1
    p.run(2000)
    moved = [(f, n) for f, what, n in log[start:] if what == "write"]
    assert [n for _, n in moved] == ["solo"]
    assert not p.busy[moved[0][0]]
    assert p.store.load("solo")[0]["walked"] == 1


def test_a_burst_of_changes_is_one_write(tmp_path):
    p = Player(tmp_path)
    p.tap(RIGHT)
    p.tap(DOWN)
    p.tap(A)  # settings
    p.tap(DOWN)
    p.tap(DOWN)  # brightness
    for _ in range(3):
        p.tap(RIGHT)
    assert p.app.settings["brightness"] == 8 and p.app.saver.unsaved
    p.run(1500)
    assert [n for _, what, n in p.store.log if what == "write"] == ["settings"]
    assert p.store.load("settings")[0]["brightness"] == 8


def test_entering_a_mode_takes_three_frames_after_the_key_and_keys_wait_for_it(tmp_path):
    p = Player(tmp_path)
    p.frame([PRESS << 3 | A])
    p.frame([RELEASE << 3 | A, TAP << 3 | A])  # solo chosen: the key's frame only fades
    assert p.app.mode == "solo" and p.app.switching and p.app.current is None
    p.frame([PRESS << 3 | B, RELEASE << 3 | B, TAP << 3 | B])  # the menu put away; a key meanwhile waits
    assert p.app.switching and "menu" not in p.app.modes
    p.frame()  # solo built
    assert p.app.switching and p.app.current is None
    p.frame()  # no saved game: solo entered, a new game rolled
    assert not p.app.switching
    assert p.app.current.screen is p.app.current.rolling  # the dice roll: the held B has not come yet
    p.frame()
    assert p.app.current.screen is p.app.current.play, "B, pressed during the switch, skipped the dice after it"


def test_a_saved_game_is_read_back_a_piece_a_frame_when_its_mode_comes_back(tmp_path):
    """The file with the switch, the decisions replayed a few a frame
    (notation.loading), then the mode entered; keys wait for it all."""
    p = Player(tmp_path)
    p.tap(A)  # solo
    p.run(3000)
    for _ in range(12):  # twelve rounds given up: twelve decisions to replay
        p.app.current.game.give_up()
    p.app.current.save()
    p.frame([PRESS << 3 | B])
    p.run(700)
    p.frame([LONG << 3 | B])  # back to the menu: solo put away, its game held to be written
    p.run(3000)
    assert "solo" not in p.app.modes and not p.app.saver.unsaved
    p.frame([PRESS << 3 | A])
    p.frame([RELEASE << 3 | A, TAP << 3 | A])  # solo again
    frames = 0
    while p.app.switching:
        p.frame([PRESS << 3 | A] if frames == 1 else [RELEASE << 3 | A, TAP << 3 | A] if frames == 2 else ())
        frames += 1
    # put away, built, the file read, the decisions four a frame, entered
    assert frames == 1 + 1 + 1 + 12 // 4 + 1
    assert p.app.current.game.round == 13
    assert p.app.current.screen is p.app.current.play  # playing; A, pressed meanwhile, came after


def test_the_picture_fades_while_the_mode_switches(tmp_path):
    p = Player(tmp_path)
    p.run(100)
    before = sum(p.fr)
    p.frame([PRESS << 3 | A])
    before = sum(p.fr)  # (the menu's picture pulses a little)
    p.frame([RELEASE << 3 | A, TAP << 3 | A])  # the key's frame: the menu's picture, dimmed
    p.frame()  # dimmed again while the switch works
    assert 0 < sum(p.fr) < before // 2 and p.app.mode == "solo"


def test_a_new_layout_drops_the_games_even_before_their_files_go(tmp_path):
    """A game of the old layout is never resumed, nor set aside as bad, when its mode is
    chosen before the removal of its file was written."""
    p = Player(tmp_path)
    p.tap(RIGHT)
    p.tap(A)  # referee: a game on flash
    p.run(6000)
    assert p.store.load("referee")[0] is not None
    old = p.app.current.game.seed
    p.frame([PRESS << 3 | B])
    p.run(700)
    p.frame([LONG << 3 | B])
    p.frame([RELEASE << 3 | B])
    p.run(200)
    p.app.change("tiles", "BADC0000")  # as the settings' shuffle does
    assert p.app.saver.unsaved
    p.tap(A)  # the referee again, at once
    assert p.app.mode == "referee" and "kept as" not in (p.app.notice or "")
    assert p.app.current.game.seed != old
    p.run(6000)
    assert not (tmp_path / "referee.bad.json").exists()
    assert p.store.load("referee")[0]["game"]["seed"] == p.app.current.game.seed


def test_a_game_not_yet_written_resumes_from_memory_and_a_failed_write_keeps_it(tmp_path):
    s = Session(seed=5, state=str(tmp_path))
    s.tap("a")
    s.settle()
    solo = s.app.current
    route = solo.game.route()
    s.until_saved()
    store = s.driver.device.store
    real = store.write
    store.write = lambda name, text: False  # the flash refuses (full)
    s.move(route[0], route[1])
    s.wait(1500)
    assert not s.app.saver.unsaved  # tried, failed: not retried every frame
    s.hold("b")  # the menu; the mode's code may go, its game stays in memory
    s.tap("a")
    assert s.app.current.moves == [route[1]]
    store.write = real
    s.tap("b")  # the move taken back: a decision, saved again
    s.until_saved()
    assert s.app.current.moves == [] and store.load("solo")[0]["walked"] == 0
