"""The handheld never locks up: long walks, saved states that break the app, restarts."""

import json

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


def test_a_solo_walk_of_more_than_255_moves_is_scored_and_survives_a_reboot(tmp_path):
    s = Session(seed=21, state=str(tmp_path))
    enter(s, "solo")
    solo = s.app.current
    g = solo.game
    optimum = g.optimum()
    s.solo_round(extra=130)  # 260 moves of bouncing, then the optimal route
    assert s.driver.device.app is not None, "the app stopped"
    assert solo.state == 2 and solo.count == optimum + 260
    assert g.score == 1 and g.extra == 260 and g.decisions()[-1][1] == optimum + 260
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
    from microrobots.solver import Solver

    return Solver(layout).is_move


def test_a_walk_takes_back_its_last_100_moves_and_counts_them_all():
    from microrobots.board import Layout
    from microrobots.solver import Solver
    from microrobots.walk import UNDO, Walk

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
    from microrobots.board import Layout
    from microrobots.solver import Solver
    from microrobots.walk import UNDO, Walk

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
    from microrobots.game import MAX_CLAIM
    from microrobots.walk import Walk

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
    size = len((tmp_path / "solo.json").read_bytes())
    assert size < 1500, "solo.json holds the last 100 moves, not the whole walk"
    again = Session(seed=4, state=str(tmp_path))
    again.wait(100)
    solo2 = again.app.current
    assert again.app.mode == "solo" and solo2.walk.count == 140 and solo2.moves == solo.moves
    again.tap("b", 100)
    assert solo2.walk.count == 40 and solo2.robot == a and solo2.stats_until == 0
    again.tap("b")  # nothing more to take back: the score shows
    assert solo2.walk.count == 40 and solo2.stats_until > 0
    robot = a
    for cell in route[1:]:
        again.move(robot, cell)
        robot = cell
    assert solo2.state == 2 and solo2.count == 40 + len(route) - 1


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
    capsys.readouterr()
    assert replay.main(["--saved", str(tmp_path / "solo.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    tok = solo.game.layout.token
    assert out["moves"][0] is None and len(out["moves"]) == 102  # earlier moves not kept
    assert out["moves"][1:] == [tok(c) for c in solo.walk.trail()]
    assert replay.main(["--saved", str(tmp_path / "solo.json")]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert "moves so far: %s ... %s %s" % (tok(a), tok(a), tok(b)) in last
