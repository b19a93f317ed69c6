"""The classroom's search as the class sees it on the grid (issue 37): each layer of the
wave in its own colour, the newest brightest, the cells not yet reached showing the dimmed
board; A adds a layer, B takes one back, UP pauses and resumes the steps that come by
themselves every 1.5 s. Read from the frame the app drew."""

from microrobots import palette as P
from screens import cell
from tools.sim.script import Session


def classroom(tmp_path):
    s = Session(seed=5, state=str(tmp_path))
    s.wait(100)
    s.tap("down")  # the menu's bottom-left quadrant
    s.tap("a")
    assert s.app.mode == "classroom"
    s.settle()  # the dice skipped: the wave's first layer, the robot alone
    return s


def expected(s, layer):
    """Each cell but the robot's and the target's as the wave at ``layer`` draws it."""
    room = s.app.current
    g = room.game
    dist = s.app.solver.distances(g.start)
    pal = s.app.pal
    out = {}
    for i in range(36):
        if i in (g.start, g.target):
            continue
        d = dist[i]
        if d <= layer:
            k = 3 * min(d, 7)
            level = 255 if d == layer else 110
            out[i] = tuple(v * level // 255 for v in P.WAVE[k:k + 3])
        else:
            c = s.app.layout.colours[i]
            out[i] = tuple(v * 40 // 255 for v in pal[3 * c:3 * c + 3])
    return out


def shown(s):
    s.wait(40)
    f = s.driver.device.frame
    return {i: cell(f, i) for i in range(36)}


def at_layer(s, layer):
    got = shown(s)
    return all(got[i] == want for i, want in expected(s, layer).items())


def test_each_layer_of_the_wave_is_lit_in_its_colour_and_b_takes_one_back(tmp_path):
    s = classroom(tmp_path)
    room = s.app.current
    s.tap("up")  # paused: only the keys step
    reach = room.game.optimum()
    assert reach >= 2
    for layer in range(reach + 1):
        got = shown(s)
        for i, want in expected(s, layer).items():
            assert got[i] == want, (layer, i)
        if layer < reach:
            s.tap("a")
    s.tap("b")
    got = shown(s)
    assert all(got[i] == want for i, want in expected(s, reach - 1).items())
    for _ in range(reach + 2):  # back to the robot alone, and no further
        s.tap("b")
    got = shown(s)
    assert room.screen is room.layers and all(got[i] == want for i, want in expected(s, 0).items())


def test_the_wave_steps_by_itself_every_second_and_a_half_until_paused(tmp_path):
    s = classroom(tmp_path)
    s.wait(1300)  # not yet
    assert at_layer(s, 0)
    s.wait(300)  # 1.5 s after the wave began: the next layer
    assert at_layer(s, 1)
    s.tap("up")  # paused
    s.wait(4000)
    assert at_layer(s, 1)
    s.tap("up")  # resumed: 1.5 s from the key
    s.wait(1300)
    assert at_layer(s, 1)
    s.wait(300)
    assert at_layer(s, 2)
