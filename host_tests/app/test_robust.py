"""The handheld never locks up: long walks, saved states that break the app, restarts."""

import json

from microrobots.device.contract import AppContract
from tools.sim.script import Session


def enter(s, name):
    """From the menu, choose a quadrant and press A."""
    q = ("solo", "referee", "classroom", "settings").index(name)
    if q & 1:
        s.tap("right")
    if q & 2:
        s.tap("down")
    s.tap("a")
    assert s.app.mode == name


def solo_one_move_made(tmp_path):
    """A solo game on the flash folder ``tmp_path`` with its robot moved once."""
    s = Session(seed=5, state=str(tmp_path))
    enter(s, "solo")
    s.settle()
    route = s.app.current.game.route()
    s.move(route[0], route[1])
    return s


def test_a_solo_walk_of_more_than_255_moves_is_scored_and_survives_a_reboot(tmp_path):
    s = Session(seed=21, state=str(tmp_path))
    enter(s, "solo")
    solo = s.app.current
    g = solo.game
    optimum = g.optimum()
    s.solo_round(extra=130)  # 260 moves of bouncing, then the optimal route
    assert s.driver.device.app is not None, "the app stopped"
    assert solo.screen is solo.solved and solo.count == optimum + 260
    assert g.score == 1 and g.extra == 260 and g.decisions()[-1][1] == optimum + 260
    s.until_saved()  # written in idle frames, after the animation (app.App.flush)
    saved = json.loads((tmp_path / "solo.json").read_text())["data"]
    assert saved["game"]["decisions"] == "a%do" % (optimum + 260)
    again = Session(seed=21, state=str(tmp_path))
    again.wait(100)
    assert again.app.mode == "solo" and again.app.current.game.to_dict() == g.to_dict()
    again.finish_solo()
    again.solo_round()
    assert again.driver.device.app is not None and again.app.current.game.score == 2


# -- the solo walk: any length, fixed memory -------------------------------------------
def legal(layout):
    from microrobots.rules.solver import Solver

    return Solver(layout).is_move


def test_a_walk_takes_back_its_last_100_moves_and_counts_them_all():
    from microrobots.rules.board import Layout
    from microrobots.rules.solver import Solver
    from microrobots.rules.walk import _UNDO as UNDO
    from microrobots.rules.walk import Walk

    solver = Solver(Layout.named("black:ABCD0000"))
    a = 0
    b = solver.moves(a)[0]
    c = [x for x in solver.moves(b) if x != a][0]
    w = Walk()
    w.start(a, c)
    assert not w.seen and w.robot == a and not w.undo()
    for k in range(150):
        assert w.step(b if k % 2 == 0 else a)
    assert w.count == 150 and w.kept == UNDO and w.robot == a and not w.seen
    assert w.moves() == [b, a] * 50
    w.step(b)
    w.step(c)  # the waypoint, at move 152
    assert w.seen
    w.undo()
    assert not w.seen and w.robot == b and w.count == 151
    w.step(c)
    w.step(b)
    assert w.seen and w.count == 153
    for _ in range(UNDO):
        assert w.undo()
    assert not w.undo() and w.count == 53 and w.robot == b
    assert not w.seen  # the visit at 152 was taken back


def test_a_walk_saves_and_restores_exactly_and_reads_the_first_format():
    from microrobots.rules.board import Layout
    from microrobots.rules.solver import Solver
    from microrobots.rules.walk import _UNDO as UNDO
    from microrobots.rules.walk import Walk

    solver = Solver(Layout.named("black:ABCD0000"))
    a = 0
    b = solver.moves(a)[0]
    c = [x for x in solver.moves(b) if x != a][0]
    w = Walk()
    w.start(a, c)
    w.step(b)
    w.step(c)
    for k in range(300):
        w.step(b if k % 2 == 0 else c)
    saved = json.loads(json.dumps(w.to_saved()))
    assert len(saved["trail"]) == UNDO + 1 and saved["walked"] == 302 and saved["seen"] == 2
    r = Walk()
    assert r.restore(saved, a, c, solver.is_move)
    assert (r.robot, r.count, r.kept, r.seen, r.moves()) == (w.robot, 302, UNDO, True, w.moves())
    old = Walk()
    assert old.restore({"moves": [b, c, b]}, a, c, solver.is_move)
    assert (old.robot, old.count, old.seen, old.moves()) == (b, 3, True, [b, c, b])
    for damaged in ({"moves": [b, 35]}, dict(saved, trail=saved["trail"][:1] + [35]),
                    dict(saved, walked=5), dict(saved, trail="x"), dict(saved, walked=True),
                    dict(saved, trail=[a, b], walked=1, seen=1) if a != c else None):
        if damaged is None:
            continue
        r = Walk()
        r.restore(damaged, a, c, solver.is_move)
        assert r.count <= 1 and r.robot in (a, b)  # the good part at most, never nonsense
    fresh = Walk()
    assert fresh.restore({"trail": [a, b], "walked": 1, "seen": 0}, a, c, solver.is_move)
    assert not fresh.seen, "a visit at move 0 is the start's, which is not the waypoint"


def test_a_walk_is_full_at_the_largest_count_a_claim_can_store():
    from microrobots.rules.game import MAX_CLAIM
    from microrobots.rules.walk import Walk

    w = Walk()
    w.start(0, -1)
    w.count = MAX_CLAIM - 1
    assert w.step(1) and w.full() and not w.step(0) and w.robot == 1


def test_solo_takes_back_100_moves_of_a_long_walk_and_keeps_them_through_a_reboot(tmp_path):
    s = Session(seed=4, state=str(tmp_path))
    enter(s, "solo")
    s.settle()
    solo = s.app.current
    route = solo.game.route()
    a, b = route[0], route[1]
    for _ in range(70):
        s.move(a, b)
        s.move(b, a)
    assert solo.walk.count == 140 and solo.robot == a
    s.until_saved()  # written in idle frames, after the animation (app.App.flush)
    size = len((tmp_path / "solo.json").read_bytes())
    assert size < 1500, "solo.json holds the last 100 moves, not the whole walk"
    again = Session(seed=4, state=str(tmp_path))
    again.wait(100)
    solo2 = again.app.current
    assert again.app.mode == "solo" and solo2.walk.count == 140 and solo2.moves == solo.moves
    again.tap("b", 100)
    assert solo2.walk.count == 40 and solo2.robot == a and solo2.screen is not solo2.stats
    again.tap("b")  # nothing more to take back: the score shows
    assert solo2.walk.count == 40 and solo2.screen is solo2.stats
    robot = a
    for cell in route[1:]:
        again.move(robot, cell)
        robot = cell
    assert solo2.screen is solo2.solved and solo2.count == 40 + len(route) - 1


def test_replay_reads_a_long_walk_from_solo_json(tmp_path, capsys):
    from tools import replay

    s = Session(seed=4, state=str(tmp_path))
    enter(s, "solo")
    s.settle()
    solo = s.app.current
    a, b = solo.game.route()[:2]
    for _ in range(60):
        s.move(a, b)
        s.move(b, a)
    s.until_saved()  # written in idle frames, after the animation (app.App.flush)
    capsys.readouterr()
    assert replay.main(["--saved", str(tmp_path / "solo.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    tok = solo.game.layout.token
    assert out["moves"][0] is None and len(out["moves"]) == 102  # earlier moves not kept
    assert out["moves"][1:] == [tok(c) for c in solo.walk.trail()]
    assert replay.main(["--saved", str(tmp_path / "solo.json")]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert "moves so far: %s ... %s %s" % (tok(a), tok(a), tok(b)) in last


# -- a saved state that stops the app is set aside, never replayed into a crash loop -------
def device(tmp_path, App=None):
    from microrobots import handheld
    from microrobots.device.hw.fake import Hardware

    return handheld.Device(Hardware, config_path=str(tmp_path / "none.json"),
                       root=str(tmp_path) + "/", App=App)


def press(d, button, ms=60):
    from microrobots.device.input import BUTTON_NAMES

    d.hw.pressed = 1 << BUTTON_NAMES.index(button)
    d.run(ms // 20)
    d.hw.pressed = 0
    d.run(5)


def test_a_game_that_stops_the_app_is_set_aside_and_the_restart_reaches_the_menu(
        tmp_path, monkeypatch, capsys):
    from microrobots.modes import solo as solo_module

    s = solo_one_move_made(tmp_path)
    solo = s.app.current
    route = solo.game.route()
    plain = solo_module.Mode.render

    def poisoned(self, now, frame):  # a bug that shows with two moves made, once saved
        if self.walk.count >= 2 and not self.app.saver.unsaved:
            raise ZeroDivisionError("poisoned state")
        plain(self, now, frame)

    monkeypatch.setattr(solo_module.Mode, "render", poisoned)
    s.move(route[1], route[0])  # the move is saved in idle frames, then a frame raises
    s.wait(2000)
    d = s.driver.device
    assert d.app is None, "the orange X"
    bad = tmp_path / "solo.bad.json"
    assert not (tmp_path / "solo.json").exists() and bad.exists()
    assert json.loads(bad.read_text())["data"]["walked"] == 2  # kept as it was, not lost
    out = capsys.readouterr().out
    assert "error: the app stopped (ZeroDivisionError)" in out
    assert "solo.json: the app stopped with it (ZeroDivisionError); kept as %s" % bad in out
    s.wait(1200)
    s.tap("up")  # a release restarts the app: the menu, not the poisoned game again
    assert d.app is not None and d.app.mode == "menu"
    assert "kept as %s" % bad in d.app.notice
    s.wait(3000)
    assert d.app is not None and d.app.mode == "menu"
    # Power off and on: the same. The set-aside file itself still stops the app when put
    # back, on its very first frame, and is set aside again - never a loop.
    again = Session(seed=5, state=str(tmp_path))
    again.wait(500)
    assert again.driver.device.app.mode == "menu"
    bad.rename(tmp_path / "solo.json")
    third = Session(seed=5, state=str(tmp_path))
    third.wait(100)
    assert third.driver.device.app is None and bad.exists()
    third.wait(1200)
    third.tap("a")
    assert third.driver.device.app.mode == "menu"
    third.tap("a")  # solo: a new game, which plays
    third.settle()
    assert third.app.mode == "solo" and third.app.current.walk.count == 0
    third.wait(1000)
    assert third.driver.device.app is not None


def test_a_saved_game_whose_loading_raises_is_set_aside_without_stopping(
        tmp_path, monkeypatch):
    from microrobots.rules import walk

    s = solo_one_move_made(tmp_path)
    s.until_saved()  # written in idle frames, after the animation (app.App.flush)
    saved = (tmp_path / "solo.json").read_text()

    def broken(self, *args):
        raise KeyError("trail")

    monkeypatch.setattr(walk.Walk, "restore", broken)
    again = Session(seed=5, state=str(tmp_path))
    again.wait(200)
    d = again.driver.device
    assert d.app is not None and d.app.mode == "menu"
    assert "solo: the saved game cannot be played (KeyError); kept as " in d.app.notice
    assert (tmp_path / "solo.bad.json").read_text() == saved


def test_an_app_that_cannot_start_sets_aside_the_file_it_read_last(tmp_path, capsys):
    (tmp_path / "referee.json").write_text('{"format": 1, "data": {"poison": true}}')

    class Fussy(AppContract):
        """Stops when it finds the poison, as an app with a bug on load would."""

        def __init__(self, store, seed=0, now=0, power=None):
            store.load("settings")
            data, _ = store.load("referee")
            if data is not None and data.get("poison"):
                raise KeyError("poison")
            self.brightness = 5
            self.notice = None

        def handle(self, event, now):
            pass

        def render(self, now, frame):
            pass

        def take_sound(self):
            return 0

        def show_notice(self, text, now):
            self.notice = text

    d = device(tmp_path, App=Fussy)
    assert d.app is None
    assert (tmp_path / "referee.bad.json").exists() and not (tmp_path / "referee.json").exists()
    d.run(60)
    press(d, "b")
    assert d.app is not None and "referee.json: the app stopped with it (KeyError)" in d.app.notice


def test_refused_and_corrupt_saved_files_are_kept_aside_not_deleted(tmp_path):
    newer = {"format": 1, "data": {"mode": "solo", "seq": 2, "trail": [0], "walked": 0,
                                   "game": {"format": "microrobots-game", "version": 99}}}
    (tmp_path / "solo.json").write_text(json.dumps(newer))
    (tmp_path / "referee.json").write_text('{"format": 1, "data": {"mode": "ref')
    s = Session(seed=1, state=str(tmp_path))
    s.wait(100)
    notice = s.app.notice
    assert s.app.mode == "menu"
    assert "newer than this firmware" in notice and "corrupt" in notice
    assert json.loads((tmp_path / "solo.bad.json").read_text()) == newer
    assert (tmp_path / "referee.bad.json").read_text().endswith('"mode": "ref')
    assert not (tmp_path / "solo.json").exists() and not (tmp_path / "referee.json").exists()


def test_a_crash_with_no_game_live_restarts_once_per_release(tmp_path, capsys):
    class Crashes(AppContract):
        starts = 0

        def __init__(self, store, seed=0, now=0, power=None):
            type(self).starts += 1
            self.brightness = 5

        def live_game(self):
            return None

        def handle(self, event, now):
            pass

        def render(self, now, frame):
            raise RuntimeError("always")

        def take_sound(self):
            return 0

    d = device(tmp_path, App=Crashes)
    d.run(200)  # 4 s: no button, no restart
    assert Crashes.starts == 1 and d.app is None
    for k in range(3):
        d.run(60)
        press(d, "a")
        assert Crashes.starts == 2 + k and d.app is None
    assert sorted(p.name for p in tmp_path.iterdir()) == [], "nothing to set aside"


# -- store.set_aside --------------------------------------------------------------------
def test_set_aside_renames_over_an_older_bad_file_and_survives_power_cuts():
    from fakefs import FakeFs, PowerCut
    from microrobots.device.store import Store

    before = {"solo.json": b"NEW", "solo.bad.json": b"OLD", "solo.tmp": b"TMP"}
    for fat in (False, True):
        store = Store("", FakeFs(before, fat=fat))
        assert store.set_aside("solo") == "solo.bad.json"
        assert store.fs.files == {"solo.bad.json": b"NEW"}
        assert store.load("solo") == (None, None) and store.set_aside("solo") is None
        for budget in range(8):
            fs = FakeFs(before, budget=budget, fat=fat)
            try:
                Store("", fs).set_aside("solo")
            except PowerCut:
                pass
            assert b"NEW" in fs.files.values(), (fat, budget, fs.files)


def test_a_file_the_flash_will_not_rename_is_hidden_until_a_new_save():
    from fakefs import FakeFs
    from microrobots.device.store import Store

    class Stuck(FakeFs):
        def rename(self, old, new):
            raise OSError(5)

    store = Store("", Stuck({"solo.json": b'{"format": 1, "data": {"a": 1}}'}))
    assert store.set_aside("solo") == "solo.json" and "not set aside" in store.error
    assert store.load("solo") == (None, None), "not loaded again this boot"
    assert store.fs.files["solo.json"], "and not deleted"
    store.fs.files["solo.json"] = b'{"format": 1, "data": {"a": 2}}'
    store._hidden = ()  # (a reboot)
    assert store.load("solo") == ({"a": 2}, None)


def test_a_memory_error_keeps_the_game_where_it_is(tmp_path, monkeypatch, capsys):
    """A MemoryError says the heap was short (say, compiling a mode on a fragmented heap),
    not that the saved game is bad: the game stays and resumes after the restart."""
    from microrobots.modes import solo as solo_module

    s = solo_one_move_made(tmp_path)
    s.until_saved()  # written in idle frames, after the animation (app.App.flush)
    plain = solo_module.Mode.render
    short = [True]

    def hungry(self, now, frame):
        if short[0]:
            short[0] = False
            raise MemoryError("memory allocation failed, allocating 2672 bytes")
        plain(self, now, frame)

    monkeypatch.setattr(solo_module.Mode, "render", hungry)
    s.wait(100)
    d = s.driver.device
    assert d.app is None and (tmp_path / "solo.json").exists()
    assert not (tmp_path / "solo.bad.json").exists() and "kept as" not in capsys.readouterr().out
    s.wait(1200)
    s.tap("up")
    assert d.app.mode == "solo" and d.app.current.walk.count == 1


def test_the_count_of_led_writes_stays_a_small_int():
    """50 writes a second make 2**30 in 248 days: a big int then, and an allocation per
    frame on a Pico. The count wraps instead (it only tells that a write happened)."""
    from microrobots.device.config import defaults
    from microrobots.device.display import Display

    display = Display(defaults())
    frame = bytearray(108)
    display.writes = 0x3FFFFFFF
    frame[0] = 200
    assert display.show(frame) and display.writes == 0
    frame[0] = 100
    assert display.show(frame) and display.writes == 1
