"""The table page's host side (tools/ricochet/table.py and serve.py), without a browser:
what each request answers, and that every bad request is one line, never a traceback."""

import http.client
import io
import json
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tools.ricochet import cli, serve, solver, table

from tools.ricochet.table import rr  # the rules module, imported in one place (table.py)

GAME = "1DX0JCNHVN6XY7"  # seed 1137, the vortex in 4 moves: clear N, clear W+1, clear E
# seed 25: clear N, clear W, clear S+1 would be 4, but clear W ends on the red hexagon
LANDING_GAME = "0B7P6ZBDXVGFEG"


def request(game=GAME, **more):
    faces, robots, target = rr.decode_game(game)
    named = {rr.ROBOT_NAMES[w]: robots[w] for w in range(rr.ROBOT_COUNT) if robots[w] != rr.ABSENT}
    return dict({"faces": ",".join(faces), "robots": named, "target": target}, **more)


def turned(x, y, q):
    for _ in range(q):
        x, y = 15 - y, x
    return x, y


@pytest.mark.parametrize("faces", ["1A,2A,3A,4A", "1A,4A,3B,2B", "4B,3A,2B,1B", "2A,1B,4A,3B"])
def test_face_pictures_turned_as_the_page_turns_them_give_the_board(faces):
    """The page draws a face in a quarter by turning its NW picture; that must be the
    board the rules module assembles, wall for wall and target for target."""
    pictures = table.faces()["faces"]
    walls = bytearray(rr.CELLS)
    targets = {}
    for q, name in enumerate(faces.split(",")):
        for x, y, sides in pictures[name]["walls"]:
            c = rr.cell(*turned(x, y, q))
            for side in sides:
                walls[c] |= 1 << (("NESW".index(side) + q) & 3)
        for x, y, t in pictures[name]["targets"]:
            targets[t] = rr.cell(*turned(x, y, q))
    board = table.board({"faces": faces})
    assert [targets[t] for t in range(rr.TARGET_COUNT)] == board["targets"]
    for c in range(rr.CELLS):  # every wall of a face, on the cell it was given for
        assert walls[c] & ~board["walls"][c] == 0
    # and every inner wall the board has is on one of the two cells it separates
    for c in range(rr.CELLS):
        for d in range(4):
            if board["walls"][c] & (1 << d) and not board["walls"][c] & (16 << d):
                other = c + rr.STEP[d]
                assert walls[c] & (1 << d) or walls[other] & (1 << ((d + 2) & 3))


def test_solve_gives_the_optimum_with_each_path_and_the_wall_passed():
    answer = table.solve(request())
    assert answer["count"] == 4 and answer["ricochet"] is True
    assert answer["clear_stops_on_targets"] is False
    assert [m["text"] for m in answer["moves"]] == ["clear N", "clear W+1", "clear E"]
    through = answer["moves"][1]
    assert (through["from"], through["to"], through["passed"]) == (
        rr.cell(10, 5), rr.cell(3, 5), [rr.cell(8, 5)])
    assert rr.Board("4A,2B,3B,1A").wall(rr.cell(8, 5), 3)  # there is the wall it passes
    assert answer["moves"][0]["passed"] == answer["moves"][2]["passed"] == []


def test_the_clear_robot_lands_on_no_coloured_target_unless_asked_for_the_other_reading():
    answer = table.solve(request(LANDING_GAME))
    assert answer["count"] == 5 and "clear W" not in [m["text"] for m in answer["moves"]]
    other = table.solve(request(LANDING_GAME, clear_stops_on_targets=True))
    assert other["count"] == 4 and other["clear_stops_on_targets"] is True
    assert [m["text"] for m in other["moves"]] == ["clear N", "clear W", "clear S+1"]
    moves = [["clear", "N", 0], ["clear", "W", 0], ["clear", "S", 1]]
    refused = table.demonstrate(request(LANDING_GAME, bid=4, moves=moves))
    assert refused["state"] == "failed" and len(refused["moves"]) == 2
    assert refused["reason"] == (
        "move 2 is not legal: clear W: the clear robot may land on no target but the vortex")
    assert refused["robots"]["clear"] == rr.cell(12, 2)  # it stays where it stood
    won = table.demonstrate(request(LANDING_GAME, bid=4, moves=moves, clear_stops_on_targets=True))
    assert won["state"] == "won"
    with pytest.raises(table.BadRequest, match="clear_stops_on_targets: true or false"):
        table.solve(request(clear_stops_on_targets="yes"))


def test_solve_without_the_rule_can_be_shorter():
    game = "0C10PKY6VHH0HD"  # yellow reaches its hexagon in one slide, which the rule forbids
    assert table.solve(request(game, ricochet=False))["count"] == 1
    assert table.solve(request(game))["count"] == 3


def test_a_demonstration_is_judged_move_by_move():
    moves = [["clear", "N", 0], ["clear", "W", 1], ["clear", "E", 0]]
    for n in range(3):
        answer = table.demonstrate(request(bid=5, moves=moves[:n]))
        assert answer["state"] == "going" and answer["count"] == sum(1 + m[2] for m in moves[:n])
    won = table.demonstrate(request(bid=5, moves=moves))
    assert won["state"] == "won" and won["count"] == 4  # fewer moves than bid is fine
    assert won["robots"]["clear"] == rr.cell(7, 5)
    assert won["reason"] == "correct: clear reaches the vortex in 4 moves"


def test_a_demonstration_stops_on_the_first_broken_rule():
    illegal = table.demonstrate(request(bid=5, moves=[["clear", "N", 0], ["clear", "N", 0]]))
    assert illegal["state"] == "failed"
    assert illegal["reason"] == "move 2 is not legal: clear N: the robot does not move"
    assert illegal["robots"]["clear"] == rr.cell(10, 5)  # where it stood
    used_up = table.demonstrate(request(bid=2, moves=[["clear", "N", 0], ["clear", "W", 0]]))
    assert used_up["state"] == "failed" and used_up["reason"].startswith("2 moves made, the bid was 2")
    over = table.demonstrate(request(bid=3, moves=[["clear", "N", 0], ["clear", "W", 1],
                                                   ["clear", "E", 0]]))
    assert over["state"] == "failed"
    assert over["reason"] == "clear reaches the vortex in 4 moves, over the bid of 3"


def test_a_robot_on_its_target_before_turning_does_not_count_and_may_go_on():
    game = "0C10PKY6VHH0HD"
    first = table.demonstrate(request(game, bid=4, moves=[["yellow", "E", 0]]))
    assert first["state"] == "going" and "does not count" in first["reason"]
    without = table.demonstrate(request(game, bid=4, ricochet=False, moves=[["yellow", "E", 0]]))
    assert without["state"] == "won"


MOVE = st.tuples(st.sampled_from(["red", "green", "blue", "yellow", "clear"]),
                 st.sampled_from("NESW"), st.integers(0, 2))


@settings(max_examples=60)
@given(st.lists(MOVE, max_size=6), st.integers(1, 8), st.booleans())
def test_a_demonstration_agrees_with_the_claim_checker(moves, bid, ricochet):
    """Sent move by move as the page does, the demonstration ends where the checker says:
    won exactly when the checker accepts the claim within the bid."""
    faces, robots, target = rr.decode_game(GAME)
    board = rr.Board(faces)
    sent = []
    for who, d, k in moves:
        k = k if who == "clear" else 0
        sent.append([who, d, k])
        answer = table.demonstrate(request(bid=bid, ricochet=ricochet, moves=sent))
        verdict = rr.check(board, robots, target, rr.parse_moves(
            ", ".join("%s %s+%d" % tuple(m) if m[2] else "%s %s" % tuple(m[:2]) for m in sent)),
            ricochet=ricochet)
        if verdict.ok and verdict.moves <= bid:
            expected = "won"
        elif verdict.ok or verdict.code == rr.ILLEGAL_MOVE or verdict.moves >= bid:
            expected = "failed"
        else:
            expected = "going"
        assert answer["state"] == expected
        if expected != "going":
            break


@pytest.mark.parametrize("route, body, fragment", [
    ("board", {"faces": "1A,1B,3A,4A"}, "faces: faces '1A,1B,3A,4A': board 1 is used twice"),
    ("board", {}, "faces is missing"),
    ("board", [1, 2], "the request must be a JSON object"),
    ("solve", {"faces": "1A,2A,3A,4A", "robots": {"red": 0}, "target": 0}, "robots: robot green is missing"),
    ("solve", {"faces": "1A,2A,3A,4A", "robots": {"red": 300}, "target": 0}, "robots: red: 300 is not a cell"),
    ("solve", {"faces": "1A,2A,3A,4A", "robots": {"purple": 3}, "target": 0}, "robots: unknown robot 'purple'"),
    ("solve", {"faces": "1A,2A,3A,4A", "robots": {"red": 119, "green": 1, "blue": 2, "yellow": 3},
               "target": 0}, "inside the central barrier"),
    ("solve", {"faces": "1A,2A,3A,4A", "robots": {"red": 0, "green": 0, "blue": 2, "yellow": 3},
               "target": 0}, "robots red and green are both at (0,0)"),
    ("solve", dict(request(), target="pink star"), "target: unknown target 'pink star'"),
    ("solve", dict(request(), target=17), "target: 17 is not an index 0-16"),
    ("solve", dict(request(), ricochet="yes"), "ricochet: true or false"),
    ("solve", dict(request(), max_moves=0), "max_moves: a whole number 1-40"),
    ("demonstrate", dict(request(), moves=[]), "bid is missing"),
    ("demonstrate", dict(request(), bid=0, moves=[]), "bid: a whole number 1-40"),
    ("demonstrate", dict(request(), bid=3, moves=[["clear", "Q", 0]]), "moves: move 1: direction must be"),
    ("demonstrate", dict(request(), bid=3, moves=[["clear", "N"]]), "moves: move 1: give [robot, direction"),
    ("demonstrate", dict(request(), bid=3, moves=[["red", "N", 1]]),
     "move 1 is not legal: red N+1: only the clear robot passes walls"),
])
def test_bad_requests_are_one_line(route, body, fragment):
    try:
        answer = table.ROUTES[route](body)
    except table.BadRequest as e:
        message = str(e)
    else:  # a move that cannot be made is a failed demonstration, not a bad request
        message = answer["reason"]
        assert answer["state"] == "failed"
    assert fragment in message and "\n" not in message


@pytest.fixture(scope="module")
def host():
    httpd = serve.server()
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_port
    httpd.shutdown()
    httpd.server_close()


def fetch(port, method, path, body=None, raw=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    conn.request(method, path, body=data, headers={"Content-Type": "application/json"})
    res = conn.getresponse()
    payload = res.read()
    conn.close()
    return res.status, payload


def test_the_server_answers_the_page_and_its_requests(host):
    status, page = fetch(host, "GET", "/")
    assert status == 200 and b'src="table.js"' in page
    for name in ("/table.js", "/table.css"):
        assert fetch(host, "GET", name)[0] == 200
    status, body = fetch(host, "POST", "/api/solve", request())
    assert status == 200 and json.loads(body)["count"] == 4


@pytest.mark.parametrize("method, path, raw, status, fragment", [
    ("GET", "/../cli.py", None, 404, "no such page"),
    ("POST", "/api/shutdown", b"{}", 404, "no such request: /api/shutdown"),
    ("POST", "/api/solve", b"{not json", 400, "the request is not JSON"),
    ("POST", "/api/solve", b"\xff\xfe", 400, "the request is not JSON"),
    ("POST", "/api/solve", b"x" * (serve.MAX_BODY + 1), 400, "the request body must be"),
    ("POST", "/api/board", b'{"faces": 7}', 400, "faces:"),
])
def test_bad_http_requests_get_one_line(host, method, path, raw, status, fragment):
    got, body = fetch(host, method, path, raw=raw)
    answer = json.loads(body)
    assert got == status and fragment in answer["error"] and "\n" not in answer["error"]


def test_requests_share_a_connection_and_a_refused_body_does_not_spill_into_the_next(host):
    conn = http.client.HTTPConnection("127.0.0.1", host, timeout=30)
    for _ in range(2):
        conn.request("POST", "/api/solve", json.dumps(request()))
        res = conn.getresponse()
        assert res.status == 200 and json.loads(res.read())["count"] == 4
    conn.request("POST", "/api/nothing", json.dumps(request()))  # its body is never used
    res = conn.getresponse()
    assert res.status == 404
    res.read()
    conn.request("POST", "/api/solve", json.dumps(request()))  # the server read it whole
    assert json.loads(conn.getresponse().read())["count"] == 4
    conn.close()


def test_a_bug_in_a_request_is_one_line_on_the_terminal_too(host, monkeypatch, capsys):
    def broken(request, **_options):
        raise KeyError("oops")
    monkeypatch.setitem(table.ROUTES, "board", broken)
    got, body = fetch(host, "POST", "/api/board", {"faces": "1A,2A,3A,4A"})
    assert got == 500 and json.loads(body)["error"] == "/api/board failed: KeyError: 'oops'"
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") <= 1


@pytest.mark.parametrize("argv, fragment", [
    (["serve", "--port", "70000"], "--port 70000: use 0-65535"),
    (["serve", "--port", "x"], "invalid int value"),
])
def test_serve_bad_options_are_one_line(argv, fragment):
    err = io.StringIO()
    assert cli.main(argv, out=io.StringIO(), err=err) == 2
    assert fragment in err.getvalue() and err.getvalue().count("\n") == 1


def test_serve_on_a_port_in_use_is_one_line(host):
    err = io.StringIO()
    assert cli.main(["serve", "--port", str(host), "--cold"], out=io.StringIO(), err=err) == 2
    assert "cannot serve on 127.0.0.1:%d" % host in err.getvalue()


def test_once_the_compiled_search_is_loaded_auto_runs_it_at_once(monkeypatch):
    monkeypatch.setattr(solver, "c_available", lambda: False)  # numba's (C's: always at once)
    if not solver.kernel_available():
        pytest.skip("numba is not installed")
    solver.load_kernel()
    assert solver.kernel_loaded()
    for game, count in (("00F7CN8GQR25KW", 10), ("0ZQ0NA4S0T61MC", 3)):
        faces, robots, target = rr.decode_game(game)
        result = solver.solve(rr.Board(faces), robots, target)
        assert result.count == count and result.engine == "numba"


def test_prepare_builds_every_target_ahead_and_changes_no_answer():
    faces, robots, target = rr.decode_game("0F8JMYHTS10HC3")
    fresh = solver.solve(rr.Board(faces), robots, target, engine="python")
    board = rr.Board(faces)
    solver.prepare(board, compiled=False)
    tab = solver.tables(board)
    for t in range(rr.TARGET_COUNT):
        assert (board.targets[t], False, True) in tab._bounds
    prepared = solver.solve(board, robots, target, engine="python")
    assert (prepared.count, prepared.moves, prepared.nodes) == (fresh.count, fresh.moves, fresh.nodes)


def test_the_long_deal_search_keeps_only_deals_at_least_as_long():
    from tools.ricochet import longest
    out = io.StringIO()
    best = longest.climb("0F8JMYHTS10HC3", cpu_seconds=30, tries=4, seed=3, out=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "start: 8 moves, game 0F8JMYHTS10HC3"
    assert lines[-1].startswith("4 tries, ") and best >= 8
    game = lines[-1].split()[-1]
    faces, robots, target = rr.decode_game(game)
    assert solver.solve(rr.Board(faces), robots, target).count == best
    err = io.StringIO()
    import contextlib
    with contextlib.redirect_stderr(err):
        assert longest.main(["--from", "nonsense"]) == 2
    assert "game ID 'nonsense'" in err.getvalue()
