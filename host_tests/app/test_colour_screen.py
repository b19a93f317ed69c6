"""tools/draw/colour.py, LED to screen: the one home of the tools' colours, and the web page's copy."""

import json
import shutil
import subprocess

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tools.draw import colour as colours

LED = st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255))


def camera(pixel, exposure):
    """The camera formula written out directly: exposure, the over-exposed colour scaled
    down as a whole (its hue kept), then the screen's gamma."""
    light = [v * exposure / 255.0 for v in pixel]
    top = max(light)
    if top > 1.0:
        light = [v / top for v in light]
    return tuple(int(round(255 * v ** (1 / colours.SCREEN_GAMMA))) for v in light)


@pytest.mark.parametrize("exposure", [colours.EXPOSURE, colours.HIGH_CONTRAST_EXPOSURE])
def test_the_tables_are_exactly_the_camera_formula_for_every_channel_and_brightest(exposure):
    for top in range(256):
        for v in range(top + 1):
            assert colours.screen_rgb((v, top, 0), exposure) == camera((v, top, 0), exposure)


def test_high_contrast_is_brighter_on_black_and_keeps_dim_and_bright_apart():
    hc = colours.HIGH_CONTRAST_EXPOSURE
    assert colours.screen_rgb((0, 0, 0), hc) == (0, 0, 0)
    assert max(colours.screen_rgb((1, 1, 1), hc)) >= 50  # a dimmed die: seen on a projector
    for v in range(1, 256):  # brighter than the normal view, never darker than a dimmer LED
        assert max(colours.screen_rgb((v, 0, 0), hc)) >= max(colours.screen_rgb((v, 0, 0)))
        assert colours.screen_rgb((v, 0, 0), hc) >= colours.screen_rgb((v - 1, 0, 0), hc)
    dim, bright = (colours.screen_rgb(p, hc) for p in ((6, 2, 0), (57, 20, 0)))
    assert max(bright) - max(dim) >= 80


def test_high_contrast_keeps_the_classroom_waves_layers_apart():
    """The projector's high contrast once lit every LED at full strength: the wave's
    current layer, its earlier layers and the cells not reached yet all looked alike (and
    the faintest cells took random hues). Each must stay brighter than the next."""
    from tools.sim.script import Session

    s = Session(seed=7)
    s.tap("down")
    s.tap("a")  # the classroom
    s.tap("a")  # skip the dice
    room = s.app.current
    room.paused = True
    s.tap("a", 3)  # three layers
    s.wait(100)
    wave = room.wave
    g = room.game
    pixels = json.loads(s.frames[-1])["pixels"]  # the LEDs as written
    layer = wave.layer
    groups = {"now": [], "before": [], "unreached": []}
    for i in range(36):
        if i in (g.start, g.target):
            continue
        d = wave.dist[i]
        key = "now" if d == layer else "before" if d < layer else "unreached"
        groups[key].append(max(colours.screen_rgb(pixels[i], colours.HIGH_CONTRAST_EXPOSURE)))
    assert all(groups.values()), groups
    assert min(groups["now"]) > max(groups["before"]) + 60
    assert min(groups["before"]) > max(groups["unreached"]) + 40
    assert min(groups["unreached"]) >= 40


@given(LED)
def test_lit_film_is_never_darker_than_the_unlit_film_and_keeps_the_order(pixel):
    film = colours.lit_film(pixel)
    assert all(f >= o for f, o in zip(film, colours.FILM_OFF))
    lit = colours.screen_rgb(pixel)
    for a in range(3):
        for b in range(3):
            if lit[a] > lit[b] + 20:  # the film's own grey differs by up to 6 per channel
                assert film[a] >= film[b]


@given(LED)
def test_pips_and_text_stand_out_from_their_cell(pixel):
    lit = colours.screen_rgb(pixel)
    film = colours.lit_film(pixel)
    assert sum(colours.pip_ink(lit)) < sum(film)
    ink = colours.text_ink(film)

    def luminance(c):
        return 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2]

    assert abs(luminance(ink) - luminance(film)) >= 40


def test_the_page_tables_are_this_module(tmp_path):
    """The page's tables hold these numbers; run it in node and compare every colour."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is missing: the web page's colours cannot be run")
    path = tmp_path / "colours.mjs"
    assert colours.main(["--js", str(path)]) == 0
    script = tmp_path / "check.mjs"
    script.write_text(
        'import {screenRgb, litFilm, pipInk, FILM_RGB} from "./colours.mjs";\n'
        "const out = [];\n"
        "for (const e of ['normal', 'contrast'])\n"
        "  for (let top = 0; top < 256; top += 1)\n"
        "    for (let v = 0; v <= top; v += 3) {\n"
        "      const p = [v, top, (v * 7) % (top + 1)];\n"
        "      out.push([e, p, screenRgb(p, e), litFilm(p, e), pipInk(screenRgb(p, e))]);\n"
        "    }\n"
        "console.log(JSON.stringify({out, film: FILM_RGB}));\n")
    proc = subprocess.run([node, str(script)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    exposure = {"normal": colours.EXPOSURE, "contrast": colours.HIGH_CONTRAST_EXPOSURE}
    assert len(result["out"]) > 20000
    for e, p, screen, film, ink in result["out"]:
        assert tuple(screen) == colours.screen_rgb(p, exposure[e]), (e, p)
        assert tuple(film) == colours.lit_film(p, exposure[e]), (e, p)
        assert tuple(ink) == colours.pip_ink(colours.screen_rgb(p, exposure[e])), (e, p)
    assert [tuple(c) for c in result["film"]] == list(colours.FILM_RGB)


def test_bad_output_path_is_one_line(capsys, tmp_path):
    assert colours.main(["--js", str(tmp_path / "no" / "such" / "x.js")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


