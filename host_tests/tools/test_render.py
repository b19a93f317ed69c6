"""tools.draw.render: the device picture shows each LED's colour and each die's pips."""

import json
import subprocess
import sys

import pytest

from microrobots.rules.board import Layout
from mpy import ROOT

render = pytest.importorskip("tools.draw.render")
from tools.draw import colour as colours  # noqa: E402

LAYOUT = Layout.named("copper:DBCA1230")


def frame(seed=7):
    """36 varied LED values, with a few off and one full white."""
    pixels = []
    x = seed
    for _ in range(36):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        pixels.append([(x >> 8) % 70, (x >> 16) % 70, (x >> 4) % 70])
    pixels[3] = [0, 0, 0]
    pixels[20] = [0, 0, 0]
    pixels[9] = [255, 255, 255]
    pixels[30] = [60, 0, 0]
    return pixels


def cell_box(i, scale=1.0):
    r, c = divmod(i, 6)
    x = render.MARGIN + c * (render.CELL + render.GAP)
    y = render.MARGIN + r * (render.CELL + render.GAP)
    return [round(v * scale) for v in (x, y, x + render.CELL, y + render.CELL)]


def dark_blobs(image, box):
    """Connected regions of dark pixels inside ``box``: the printed pips."""
    x0, y0, x1, y1 = box
    px = image.load()
    # the ink is at most a fifth of the glow, or near-black on an unlit cell: darker
    # than the middle between the darkest and the brightest pixel
    # the pips lie within the middle 60 % of a face, clear of its rounded corners
    m = (x1 - x0) // 5
    inside = [(x, y) for y in range(y0 + m, y1 - m) for x in range(x0 + m, x1 - m)]
    lum = {(x, y): sum(px[x, y][:3]) for x, y in inside}
    middle = (max(lum.values()) + min(lum.values())) / 2
    dark = {p for p, v in lum.items() if v < middle}
    blobs = 0
    while dark:
        blobs += 1
        todo = [dark.pop()]
        while todo:
            x, y = todo.pop()
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in dark:
                    dark.remove(n)
                    todo.append(n)
    return blobs


def test_every_cell_shows_its_die_number_as_pips():
    image = render.render(frame(), LAYOUT)
    for i in range(36):
        assert dark_blobs(image, cell_box(i)) == LAYOUT.number(i), i


def test_every_cell_glows_in_its_led_colour():
    pixels = frame()
    image = render.render(pixels, LAYOUT).convert("RGB")
    px = image.load()
    for i in range(36):
        x0, y0, x1, y1 = cell_box(i)
        # the middle of the top edge's pip row is free of pips for every number
        sample = px[(x0 + x1) // 2, y0 + (y1 - y0) // 4]
        lit = colours.screen_rgb(pixels[i])
        if max(pixels[i]) == 0:
            assert all(abs(a - b) <= 6 for a, b in zip(sample, colours.FILM_OFF)), i
            continue
        # brighter channels of the LED are brighter channels of the picture
        for a in range(3):
            for b in range(3):
                if lit[a] > lit[b] + 40:
                    assert sample[a] > sample[b], (i, pixels[i], sample)
    white = px[cell_box(9)[0] + 10, cell_box(9)[1] + 36]
    assert min(white) > 200


def test_screen_colour_is_monotonic_and_spans_the_range():
    values = [colours.screen_rgb((v, v, v))[0] for v in range(256)]
    assert values[0] == 0 and values[-1] == 255
    assert all(a <= b for a, b in zip(values, values[1:]))
    assert colours.screen_rgb((10, 0, 0))[0] > 10  # dim LEDs stay visible


def test_robot_and_target_outlines_are_drawn_only_when_asked():
    plain = render.render(frame(), LAYOUT)
    marked = render.render(frame(), LAYOUT, robot=14, target=21)
    diff = [i for i in range(36) if plain.crop(_grown(cell_box(i))).tobytes()
            != marked.crop(_grown(cell_box(i))).tobytes()]
    assert set(diff) <= {14, 21} | _neighbours(14) | _neighbours(21)
    assert 14 in diff and 21 in diff


def _grown(box, by=4):
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def _neighbours(i):
    r, c = divmod(i, 6)
    return {rr * 6 + cc for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
            if 0 <= rr < 6 and 0 <= cc < 6}


def test_png_bytes_are_deterministic(tmp_path):
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    render.save_png(render.render(frame(), LAYOUT, robot=2), a)
    render.save_png(render.render(frame(), LAYOUT, robot=2), b)
    assert a.read_bytes() == b.read_bytes()
    assert a.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_frame_at_picks_what_the_leds_show_at_that_time():
    frames = [{"t": 0, "pixels": frame(1)}, {"t": 100, "pixels": frame(2)},
              {"t": 250, "pixels": frame(3)}]
    assert render.frame_at(frames) is frames[2]
    assert render.frame_at(frames, 99) is frames[0]
    assert render.frame_at(frames, 100) is frames[1]
    assert render.frame_at(frames, 10_000) is frames[2]


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "tools.draw.render", *args], cwd=ROOT,
                          capture_output=True, text=True, check=False)


def test_cli_writes_the_frame_at_a_time(tmp_path):
    path = tmp_path / "frames.jsonl"
    path.write_text("".join(json.dumps({"t": t, "mode": "menu", "pixels": frame(t)}) + "\n"
                            for t in (0, 500)))
    out = tmp_path / "out.png"
    proc = run_cli("--frames", str(path), "--at", "200", "--png", str(out),
                   "--tiles", "copper:DBCA1230")
    assert proc.returncode == 0, proc.stderr
    expected = tmp_path / "expected.png"
    render.save_png(render.render(frame(0), LAYOUT), expected)
    assert out.read_bytes() == expected.read_bytes()


@pytest.mark.parametrize("content, words", [
    ("", "no frames"),
    ("not json\n", "line 1"),
    ('{"t": 0, "pixels": [[1, 2, 3]]}\n', "36 pixels"),
    ('{"t": 0, "pixels": %s}\n' % json.dumps([[0, 0, 0]] * 35 + [[0, 0, 300]]), "pixel 35"),
])
def test_cli_rejects_bad_frames_in_one_line(tmp_path, content, words):
    path = tmp_path / "frames.jsonl"
    path.write_text(content)
    proc = run_cli("--frames", str(path), "--png", str(tmp_path / "x.png"))
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and words in proc.stderr
    assert not (tmp_path / "x.png").exists()


def test_cli_rejects_missing_file_bad_time_and_bad_tiles(tmp_path):
    proc = run_cli("--frames", str(tmp_path / "nope.jsonl"), "--png", str(tmp_path / "x.png"))
    assert proc.returncode == 2 and "cannot read" in proc.stderr
    path = tmp_path / "frames.jsonl"
    path.write_text(json.dumps({"t": 100, "pixels": frame()}) + "\n")
    proc = run_cli("--frames", str(path), "--at", "50", "--png", str(tmp_path / "x.png"))
    assert proc.returncode == 2 and "no frame at or before 50" in proc.stderr
    proc = run_cli("--frames", str(path), "--tiles", "black:AAAA0000", "--png",
                   str(tmp_path / "x.png"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_sim_headless_png_draws_the_last_frame(tmp_path):
    events = tmp_path / "play.events"
    events.write_text("500 a\n")
    frames, png = tmp_path / "frames.jsonl", tmp_path / "last.png"
    proc = subprocess.run([sys.executable, "-m", "tools.sim", "--headless", "--seed", "3",
                           "--events", str(events), "--frames-out", str(frames),
                           "--until", "2500", "--png", str(png)],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    last = json.loads(frames.read_text().splitlines()[-1])
    expected = tmp_path / "expected.png"
    render.save_png(render.render(last["pixels"], Layout.named("black")), expected)
    assert png.read_bytes() == expected.read_bytes()


def test_sim_headless_png_reports_an_unwritable_file_in_one_line(tmp_path):
    events = tmp_path / "play.events"
    events.write_text("500 a\n")
    proc = subprocess.run([sys.executable, "-m", "tools.sim", "--headless", "--events",
                           str(events), "--frames-out", str(tmp_path / "f.jsonl"),
                           "--png", str(tmp_path / "missing" / "x.png")],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "cannot write" in proc.stderr
