"""python -m tools.draw.overlay: the printed tile films show the right dice at the right pitch."""

import math
import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from microrobots.rules.board import SIDES, TILES, parse_cell
from tools.draw import overlay
from tools.draw.colour import FILM_RGB
from tools.draw.dice import PIPS

NS = {"svg": "http://www.w3.org/2000/svg"}


def parse(svg_text):
    return ET.fromstring(svg_text.encode())


def by_class(node, tag, cls):
    return [e for e in node.iter("{%s}%s" % (NS["svg"], tag)) if e.get("class") == cls]


def f(e, name):
    return float(e.get(name))


def tiles_of(root):
    return {(g.get("data-side"), g.get("data-board")): g for g in by_class(root, "g", "tile")}


@pytest.fixture(scope="module")
def default_svg():
    return parse(overlay.render_svg())


def test_eight_tiles_one_per_board_and_side(default_svg):
    found = tiles_of(default_svg)
    assert len(by_class(default_svg, "g", "tile")) == 8
    assert set(found) == {(side, letter) for side in SIDES for letter in "ABCD"}


def test_each_tile_shows_its_board_letter_and_an_upward_arrow(default_svg):
    for (_side, letter), tile in tiles_of(default_svg).items():
        letters = by_class(tile, "text", "board-letter")
        assert [t.text for t in letters] == [letter]
        (arrow,) = by_class(tile, "polygon", "orientation")
        points = [tuple(map(float, p.split(","))) for p in arrow.get("points").split()]
        apex = min(points, key=lambda p: p[1])  # smallest y: nearest the top of the page
        base = [p for p in points if p is not apex]
        # an isosceles triangle pointing up: apex above the base, centred on it
        assert all(apex[1] < p[1] for p in base)
        assert apex[0] == pytest.approx((base[0][0] + base[1][0]) / 2)


def test_each_tile_fills_its_printed_top_left_corner(default_svg):
    # the firmware's shuffle guide blinks the cell where this corner must go
    for tile in tiles_of(default_svg).values():
        (cut,) = by_class(tile, "rect", "cut")
        (mark,) = by_class(tile, "polygon", "corner-mark")
        points = [tuple(map(float, p.split(","))) for p in mark.get("points").split()]
        assert (f(cut, "x"), f(cut, "y")) in [pytest.approx(p) for p in points]
        assert all(px - f(cut, "x") < overlay.DEFAULT_PITCH_MM / 2
                   and py - f(cut, "y") < overlay.DEFAULT_PITCH_MM / 2 for px, py in points)


def test_nine_dice_per_tile_with_the_transcribed_faces_and_pips(default_svg):
    pitch = overlay.DEFAULT_PITCH_MM
    for (side, letter), tile in tiles_of(default_svg).items():
        expected = TILES[side]["ABCD".index(letter)].split()
        dice = by_class(tile, "g", "die")
        assert [d.get("data-token") for d in dice] == expected
        cut = by_class(tile, "rect", "cut")[0]
        for k, die in enumerate(dice):
            colour, number = parse_cell(expected[k])
            (face,) = by_class(die, "rect", "face")
            x, y, side_mm = f(face, "x"), f(face, "y"), f(face, "width")
            # the face is centred on its LED: row k//3, column k%3 of the tile
            assert x + side_mm / 2 == pytest.approx(f(cut, "x") + (k % 3 + 0.5) * pitch, abs=1e-3)
            assert y + side_mm / 2 == pytest.approx(f(cut, "y") + (k // 3 + 0.5) * pitch, abs=1e-3)
            pips = by_class(die, "circle", "pip")
            assert len(pips) == number, expected[k]
            centres = sorted(((f(p, "cx") - x) / side_mm, (f(p, "cy") - y) / side_mm) for p in pips)
            for got, want in zip(centres, sorted(PIPS[number])):
                assert got == pytest.approx(want, abs=1e-3)
            # the rim carries the die's colour (a grey for white, which would vanish on paper)
            rim = face.get("stroke")
            if colour != 5:
                assert rim == "#%02x%02x%02x" % FILM_RGB[colour]
            # a light face, so the LED beneath shows through: every channel well above mid-grey
            fill = face.get("fill")
            assert all(int(fill[i:i + 2], 16) >= 180 for i in (1, 3, 5)), fill


def test_every_die_face_appears_once_per_side(default_svg):
    for side in SIDES:
        tokens = [d.get("data-token") for (s, _), tile in tiles_of(default_svg).items()
                  if s == side for d in by_class(tile, "g", "die")]
        assert len(tokens) == 36 and len(set(parse_cell(t) for t in tokens)) == 36


@settings(max_examples=20)
@given(st.floats(min_value=overlay.PITCH_RANGE[0], max_value=overlay.PITCH_RANGE[1]))
def test_pitch_is_honoured(pitch):
    root = parse(overlay.render_svg(pitch))
    assert float(root.get("data-pitch")) == pytest.approx(pitch, abs=1e-3)
    for tile in tiles_of(root).values():
        (cut,) = by_class(tile, "rect", "cut")
        assert f(cut, "width") == pytest.approx(3 * pitch, abs=2e-3)
        assert f(cut, "height") == pytest.approx(3 * pitch, abs=2e-3)
        faces = [by_class(d, "rect", "face")[0] for d in by_class(tile, "g", "die")]
        assert f(faces[1], "x") - f(faces[0], "x") == pytest.approx(pitch, abs=2e-3)
        assert f(faces[3], "y") - f(faces[0], "y") == pytest.approx(pitch, abs=2e-3)
    # units are millimetres: the sheet's size in mm equals its viewBox
    width = float(root.get("width").removesuffix("mm"))
    assert root.get("viewBox").split()[2] == overlay._num(width)


def test_tiles_do_not_overlap_and_stay_on_the_sheet():
    for pitch in (8.0, overlay.DEFAULT_PITCH_MM, 20.0, 40.0):
        root = parse(overlay.render_svg(pitch))
        width = float(root.get("width").removesuffix("mm"))
        height = float(root.get("height").removesuffix("mm"))
        boxes = [(f(c, "x"), f(c, "y"), f(c, "x") + f(c, "width"), f(c, "y") + f(c, "height"))
                 for c in by_class(root, "rect", "cut")]
        assert len(boxes) == 8
        for x0, y0, x1, y1 in boxes:
            assert 0 < x0 < x1 < width and 0 < y0 < y1 < height
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def test_default_sheet_is_a4_and_the_default_pitch_is_a_60_per_metre_strip(default_svg):
    assert overlay.DEFAULT_PITCH_MM == pytest.approx(16.667, abs=1e-3)
    assert default_svg.get("width") == "210mm" and default_svg.get("height") == "297mm"


def test_cli_writes_svg_and_pdf(tmp_path):
    svg = tmp_path / "films.svg"
    assert overlay.main(["-o", str(svg), "--pitch", "10"]) == 0
    root = parse(svg.read_text())
    assert float(root.get("data-pitch")) == 10
    pdf = tmp_path / "films.pdf"
    assert overlay.main(["-o", str(pdf)]) == 0
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF")
    assert len(re.findall(rb"/Type /Page\b", data)) == 1
    # a large pitch spreads the eight tiles over more A4 pages
    assert overlay.main(["-o", str(pdf), "--pitch", "30"]) == 0
    assert len(re.findall(rb"/Type /Page\b", pdf.read_bytes())) > 1


@pytest.mark.parametrize("argv, words", [
    (["--pitch", "abc"], "not a number"),
    (["--pitch", "2"], "outside"),
    (["--pitch", "nan"], "outside"),
    (["-o", "films.txt"], ".svg or .pdf"),
    (["--format", "pdf"], "needs -o"),
    (["--paper", "a0"], "invalid choice"),
    (["--frobnicate"], "unrecognized"),
])
def test_bad_arguments_exit_2_with_one_line(argv, words, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert overlay.main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []  # nothing half-written


def test_unwritable_output_is_one_line(capsys, tmp_path):
    target = tmp_path / "missing-folder" / "films.svg"
    assert overlay.main(["-o", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(target) in err


def test_marks_between_dice_cover_no_pip():
    # the marks between dice must not cover a pip: every mark disc keeps clear of every pip
    root = parse(overlay.render_svg())
    for tile in tiles_of(root).values():
        discs = by_class(tile, "circle", "letter-disc") + by_class(tile, "circle", "arrow-disc")
        pips = [p for d in by_class(tile, "g", "die") for p in by_class(d, "circle", "pip")]
        for disc in discs:
            for pip in pips:
                gap = math.dist((f(disc, "cx"), f(disc, "cy")), (f(pip, "cx"), f(pip, "cy")))
                assert gap > f(disc, "r") + f(pip, "r")
