"""make play: the terminal simulator's keys and drawing, and the real thing in tmux.

The tmux tests start ``python -m tools.sim`` (what ``make play`` runs) in a detached tmux
session on a private server, type keys with send-keys and read the screen with
capture-pane, colours included: the grid appears with every die's pips, the D-pad
moves the menu's choice, A enters solo, q quits, and ``stty -a`` is the same before and
after (also when the simulator is killed with SIGTERM).
"""

import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

from microrobots.rules.board import Layout
from mpy import ROOT
from tools.draw.colour import delta_e00, screen_lab
from tools.sim import help as onscreen
from tools.sim import terminal as T

# -- keys ----------------------------------------------------------------------------------

def test_keys_map_to_buttons():
    actions, rest = T.parse_keys("\x1b[A\x1b[B\x1b[C\x1b[D\r \x7fab\x08q")
    assert rest == ""
    assert actions == [("tap", "up"), ("tap", "down"), ("tap", "right"), ("tap", "left"),
                       ("tap", "a"), ("tap", "a"), ("tap", "b"), ("tap", "a"), ("tap", "b"),
                       ("tap", "b"), ("quit", None)]


def test_application_mode_arrows_and_shift_holds():
    actions, _ = T.parse_keys("\x1bOA\x1b[1;2C" + "AB")
    assert actions == [("tap", "up"), ("hold", "right"), ("hold", "a"), ("hold", "b")]


def test_lone_escape_waits_then_counts_as_b():
    assert T.parse_keys("\x1b") == ([], "\x1b")  # might be the start of an arrow
    assert T.parse_keys("\x1b", final=True) == ([("tap", "b")], "")
    assert T.parse_keys("\x1b[") == ([], "\x1b[")
    assert T.parse_keys("\x1b[", final=True) == ([], "")  # a cut sequence is dropped
    assert T.parse_keys("\x1b\x1b[A") == ([("tap", "b"), ("tap", "up")], "")


def test_unknown_sequences_and_keys_are_ignored():
    actions, rest = T.parse_keys("\x1b[5~x\x1b[15;5~z\x1b[A")
    assert (actions, rest) == ([("tap", "up")], "")


@given(st.lists(st.sampled_from(["\x1b[A", "\x1b[B", "\x1bOC", "\r", " ", "\x7f", "q",
                                 "\x1b[1;2D", "A", "x", "\x1b[6~"]), max_size=12),
       st.integers(0, 40))
def test_split_input_parses_like_whole_input(keys, cut):
    """Bytes arrive in arbitrary pieces; the actions do not depend on where they split."""
    text = "".join(keys)
    cut = min(cut, len(text))
    first, rest = T.parse_keys(text[:cut])
    second, rest = T.parse_keys(rest + text[cut:])
    assert rest == ""
    assert first + second == T.parse_keys(text)[0]


def test_taps_and_holds_set_the_mask_for_their_time():
    b = T.Buttons()
    b.press("a", 1000, T.TAP_MS)
    assert b.mask(1000) == 1 << 4
    assert b.mask(1000 + T.TAP_MS) == 0
    b.press("left", 3000, T.HOLD_MS)
    assert b.mask(3000) == 1 << 2
    assert b.mask(3000 + T.HOLD_MS - 1) == 1 << 2
    assert b.mask(3000 + T.HOLD_MS) == 0


def held_spans(b, until):
    """[(button index, start, end)] of every press, from the masks over time (1 ms)."""
    spans, open_at, last = [], {}, 0
    for t in range(until + 1):
        m = b.mask(t)
        for k in range(6):
            if m >> k & 1 and not last >> k & 1:
                open_at[k] = t
            elif last >> k & 1 and not m >> k & 1:
                spans.append((k, open_at.pop(k), t))
        last = m
    return sorted(spans, key=lambda s: s[1])


def test_keys_typed_at_once_act_in_their_order():
    """``send-keys Left Enter Right Enter`` (or a late loop reading a fast typist's
    keys together): each press follows the one before with every button up for a poll
    in between. Overlapping, Right went down before Enter's release, the cursor moved
    first and A took the robot nowhere: two moves of a solo walk were lost."""
    b = T.Buttons()
    keys = ["left", "a", "right", "a", "down", "down", "b"]
    for key in keys:
        assert b.press(key, 1000, T.TAP_MS)
    spans = held_spans(b, 3000)
    assert [T.BUTTONS[k] for k, _, _ in spans] == keys
    for (k1, _, end), (k2, start, _) in zip(spans, spans[1:]):
        assert start - end >= (T.Buttons.GAP_MS if k1 == k2 else T.TICK_MS)
    assert all(end - start == T.TAP_MS for _, start, end in spans)
    b.press("a", 5000, T.TAP_MS)  # long after: at once
    assert b.mask(5000) == 1 << 4
    b = T.Buttons()  # a burst with four taps of one key behind others: none is dropped
    keys = ["left", "left", "a", "up", "up", "up", "up", "a", "right", "a"]
    assert all(b.press(key, 1000, T.TAP_MS) for key in keys)
    assert [T.BUTTONS[k] for k, _, _ in held_spans(b, 5000)] == keys


def test_two_quick_taps_of_one_key_are_two_presses():
    """``tmux send-keys Right Right``: both arrive at once; the button goes down, up
    (long enough for the firmware to see it) and down again."""
    b = T.Buttons()
    assert b.press("right", 1000, T.TAP_MS) and b.press("right", 1000, T.TAP_MS)
    held = [b.mask(t) >> 3 & 1 for t in range(1000, 1400, 10)]
    edges = [k for k in range(1, len(held)) if held[k] and not held[k - 1]]
    assert held[0] and len(edges) == 1  # pressed, released, pressed again
    down = held.index(0)
    assert held[down:down + T.Buttons.GAP_MS // 10] == [0] * (T.Buttons.GAP_MS // 10)
    assert sum(held) == 2 * T.TAP_MS // 10
    b.press("up", 2000, T.TAP_MS)  # other buttons are not held up
    assert b.mask(2000) == 1


def test_a_late_loop_still_sends_every_press_and_release_at_its_time():
    """The play loop may come round late on a busy machine: the changes in between are
    all reported, each at its own time, so the release between two taps is never lost."""
    b = T.Buttons()
    b.press("down", 1000, T.TAP_MS)
    b.press("down", 1000, T.TAP_MS)
    b.press("a", 1010, T.TAP_MS)
    got = b.changes(999, 1400)  # one late turn of the loop
    second = 1000 + T.TAP_MS + T.Buttons.GAP_MS
    a_at = second + T.TAP_MS + T.Buttons.SEP_MS
    assert got == [(1000, 2), (1000 + T.TAP_MS, 0), (second, 2), (second + T.TAP_MS, 0),
                   (a_at, 16), (a_at + T.TAP_MS, 0)]
    assert b.changes(1000, second) == [(1000 + T.TAP_MS, 0), (second, 2)]  # after 1000 only
    assert b.changes(1400, 2000) == []


def test_a_held_key_repeating_fills_a_short_queue_only():
    b = T.Buttons()
    taken = [b.press("up", 3000 + 33 * k, T.TAP_MS) for k in range(30)]  # a second of repeat
    press = T.TAP_MS + T.Buttons.GAP_MS  # one press after another, as fast as they go
    assert taken.count(True) <= 1000 // press + T.Buttons.QUEUE + 1  # and a short queue
    last = max(end for _, end in b.presses[0])
    assert last - (3000 + 33 * 29) <= (T.Buttons.QUEUE + 1) * (T.TAP_MS + T.Buttons.GAP_MS)


# -- colours and drawing -----------------------------------------------------------------------

def hue_and_chroma(rgb):
    _, a, b = screen_lab(rgb)
    return math.degrees(math.atan2(b, a)) % 360, math.hypot(a, b)


@given(st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255)))
def test_256_colour_fallback_keeps_hue_and_never_greys_a_colour(rgb):
    code = T.rgb_to_256(rgb)
    assert 16 <= code <= 255
    got = T.XTERM_256[code]
    hue, chroma = hue_and_chroma(rgb)
    hue2, chroma2 = hue_and_chroma(got)
    if chroma >= 15:  # a colour stays that colour: not grey, the same hue
        assert chroma2 >= chroma / 2
        assert min(abs(hue - hue2), 360 - abs(hue - hue2)) <= 45, (rgb, got)
    if chroma < 1:  # a grey stays grey
        assert chroma2 < 6
    lum, lum2 = screen_lab(rgb)[0], screen_lab(got)[0]
    assert abs(lum - lum2) <= 40  # about as light


def test_ciede2000_matches_the_published_test_pairs():
    """Sharma, Wu, Dalal (2005), table 1: pairs 1, 7, 13, 17, 25 and 34."""
    pairs = [((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
             ((50, 0, 0), (50, -1, 2), 2.3669),
             ((50, 2.49, -0.001), (50, -2.49, 0.0011), 7.2195),
             ((50, 2.5, 0), (73, 25, -18), 27.1492),
             ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
             ((2.0776, 0.0795, -1.135), (0.9033, -0.0636, -0.5514), 0.9082)]
    for a, b, want in pairs:
        assert abs(delta_e00(a, b) - want) < 1e-4, (a, b)
        assert abs(delta_e00(b, a) - want) < 1e-4


def test_exact_palette_colours_map_to_themselves():
    for rgb in T.XTERM_256.values():
        assert T.XTERM_256[T.rgb_to_256(rgb)] == rgb


@pytest.mark.parametrize("choice", range(4))
def test_the_menus_quadrants_stay_apart_in_256_colours(choice):
    """The real menu, as the simulator draws it in a 256-colour terminal (tmux without
    COLORTERM): cells that look different in true colour (CIEDE2000 >= 8) get different
    colours, and coloured cells (the solo, referee and classroom icons) stay colours."""
    from tools.sim import headless

    keys = [[], ["1000 8", "1060 0"], ["1000 2", "1060 0"],
            ["1000 8", "1060 0", "1200 2", "1260 0"]][choice]
    out = headless.run_driver(keys + ["2000 0"], 7, 2000)
    pixels = [tuple(p) for p in json.loads([x for x in out if '"pixels"' in x][-1])["pixels"]]
    state = make_state()
    state.pixels = pixels
    screen = T.draw(state, 80, 30, truecolor=False)
    drawn = {int(c) for c in re.findall(r"\x1b\[48;5;(\d+)m", screen)}
    true = [T.cell_colours(p)[1] for p in pixels]
    codes = [T.rgb_to_256(c) for c in true]
    assert set(codes) <= drawn
    for i in range(36):
        for j in range(i + 1, 36):
            if delta_e00(screen_lab(true[i]), screen_lab(true[j])) >= 8:
                assert codes[i] != codes[j], (i, j, true[i], true[j])
        if hue_and_chroma(true[i])[1] >= 10:
            assert hue_and_chroma(T.XTERM_256[codes[i]])[1] >= 10, (i, true[i])
    icons = {top: {codes[top + r * 6 + c] for r in range(3) for c in range(3)}
             for top in (0, 3, 18, 21)}
    assert len({frozenset(v) for v in icons.values()}) == 4  # four quadrants, four looks


def make_state(layout=None):
    layout = layout or Layout.named("black")
    state = T.State([layout.number(i) for i in range(36)], "cpython")
    state.pixels = [(i * 7 % 60, i * 3 % 60, 40) for i in range(36)]
    state.mode = "solo"
    return state


def visible(screen):
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen)


def test_full_size_shows_every_die_as_pips():
    layout = Layout.named("copper:CADB0312")
    screen = T.draw(make_state(layout), 80, 30, truecolor=True)
    assert visible(screen).count("\u25cf") == sum(layout.number(i) for i in range(36))
    assert "Micro Robots — solo" in visible(screen)
    assert "q quit" in visible(screen)
    assert "\x1b[48;2;" in screen and "\x1b[48;5;" not in screen


def test_the_counts_legend_is_on_screen_with_its_colours():
    screen = T.draw(make_state(), 80, 30, truecolor=True)
    assert "counts: label (whose), then \u25a0 50 \u25a0 10 \u25a0 5 \u25a0 1" in visible(screen)
    for rgb in T.TALLY_RGB:
        assert "\x1b[38;2;%d;%d;%dm" % rgb in screen


def screen_rows(screen, rows):
    """The text of each row of a drawn screen (draw() places every line at its row)."""
    out = [""] * (rows + 1)
    for m in re.finditer(r"\x1b\[(\d+);1H(.*?)(?=\x1b\[\d+;1H|$)", screen, re.S):
        out[int(m.group(1))] = visible(m.group(2))
    return out[1:]


@pytest.mark.parametrize("mode, words", [
    ("menu", "A: open it"),
    ("solo", "hold A: a hint; hold A again: give up"),
    ("referee", "B: undo the last decision? (the scores blink; B again undoes it"),
    ("classroom", "B: a layer back"),
    ("settings", "left/right: its value"),
])
def test_each_mode_says_what_its_buttons_do(mode, words):
    """Under the keys and the legend: the mode's own help (tools/sim/help.py, the same
    lines as the web page's), when the terminal has the rows for it."""
    state = make_state()
    state.mode = mode
    text = " ".join(" ".join(screen_rows(T.draw(state, 100, 40, truecolor=True), 40)).split())
    assert words in text
    assert onscreen.mode_help(mode) in text


def test_a_long_status_line_wraps_instead_of_being_cut():
    state = make_state()
    state.status = ("round 3: player 2 claims 5: wrong: move 2 is not legal (G3 to W5); player 2 "
                    "gives a token to player 1; tokens 1 1, pool 23")
    for rows in (40, T.smallest(T.FULL)[1]):  # also when there is no room for the help
        lines = screen_rows(T.draw(state, 80, rows, truecolor=True), rows)
        assert len(lines) == rows
        text = " ".join(" ".join(lines).split())
        assert state.status in text
    assert onscreen.mode_help("solo")[:20] not in " ".join(lines)


def test_256_colours_when_asked():
    screen = T.draw(make_state(), 80, 30, truecolor=False)
    assert "\x1b[48;5;" in screen and "\x1b[48;2;" not in screen


def test_small_terminal_shows_numbers_then_a_message():
    layout = Layout.named("black")
    cols, rows = T.smallest(T.COMPACT)
    assert T.pick_style(cols, rows) is T.COMPACT and T.smallest(T.FULL) == (49, 29)
    screen = visible(T.draw(make_state(layout), cols, rows, truecolor=True))
    assert len(screen.split("\n")) <= rows
    digits = re.findall(r"[1-6]", screen.split("solo", 1)[1].split("Enter A", 1)[0])
    assert [int(d) for d in digits] == [layout.number(i) for i in range(36)]
    assert "q quit" in screen
    tiny = " ".join(visible(T.draw(make_state(layout), cols, rows - 1, truecolor=True)).split())
    assert "terminal too small (25x14): make it at least 25x15" in tiny


def test_cell_colour_follows_the_led():
    ink, off = T.cell_colours((0, 0, 0))
    ink_lit, red = T.cell_colours((60, 0, 0))
    assert red[0] > off[0] + 100 and red[1] < red[0] // 2
    assert sum(ink) > sum(off)  # light pips on an unlit film, dark on a lit one
    assert sum(ink_lit) < sum(red)


# -- the real simulator in tmux ---------------------------------------------------------------

TMUX = shutil.which("tmux")
needs_tmux = pytest.mark.skipif(TMUX is None, reason="tmux is not installed (make system-deps)")


class Tmux:
    """One detached tmux session on a private server, running a shell script."""

    def __init__(self, tmp_path, command, cols=80, rows=30, env=""):
        self.socket = "mr-test-" + uuid.uuid4().hex[:8]
        self.dir = tmp_path
        script = tmp_path / "run.sh"
        script.write_text(
            "cd %s\n" % ROOT
            + "stty -a > %s/before\n" % tmp_path
            + "%s sh -c 'echo $$ > %s/pid; exec %s'\n" % (env, tmp_path, command)
            + "echo $? > %s/status\n" % tmp_path
            + "stty -a > %s/after\n" % tmp_path
            + "sleep 60\n")
        self.tmux("new-session", "-d", "-x", str(cols), "-y", str(rows), "sh %s" % script)

    def tmux(self, *args):
        return subprocess.run([TMUX, "-L", self.socket, *args], capture_output=True, text=True,
                              check=False, timeout=20)

    def screen(self, colours=False):
        args = ["capture-pane", "-p"] + (["-e"] if colours else [])
        return self.tmux(*args).stdout

    def keys(self, *keys):
        self.tmux("send-keys", *keys)

    def wait_for(self, predicate, what, timeout=20):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            text = self.screen(colours=True)
            if predicate(text):
                return text
            time.sleep(0.1)
        pytest.fail("timed out waiting for %s; screen:\n%s" % (what, self.screen()))

    def wait_file(self, name, timeout=20):
        path = self.dir / name
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if path.exists() and path.read_text().strip():
                return path.read_text()
            time.sleep(0.1)
        pytest.fail("timed out waiting for %s; screen:\n%s" % (name, self.screen()))

    def close(self):
        self.tmux("kill-server")


@pytest.fixture
def tmux_session(tmp_path):
    sessions = []

    def start(*args, **kw):
        s = Tmux(tmp_path, *args, **kw)
        sessions.append(s)
        return s

    yield start
    for s in sessions:
        s.close()


SGR = re.compile(r"\x1b\[([0-9;]*)m")


def cell_backgrounds(screen, cols=80):
    """The background colour of each cell's top-left character (full-size layout)."""
    gw, _ = T.grid_size(T.FULL)
    left = (cols - gw) // 2
    lines = screen.split("\n")
    found = []
    for r in range(6):
        line = lines[1 + r * 4]
        bg, x, at = None, 0, {}
        for part in re.split(r"(\x1b\[[0-9;]*m)", line):
            m = SGR.fullmatch(part)
            if m:
                p = [int(v) if v else 0 for v in m.group(1).split(";")]
                k = 0
                while k < len(p):
                    if p[k] in (38, 48) and k + 1 < len(p) and p[k + 1] in (2, 5):
                        if p[k] == 48 and p[k + 1] == 2:
                            bg = tuple(p[k + 2:k + 5])
                        k += 5 if p[k + 1] == 2 else 3
                        continue
                    if p[k] in (0, 49):
                        bg = None
                    k += 1
                continue
            for _ in part:
                at[x] = bg
                x += 1
        found.extend(at.get(left + c * (T.FULL[0] + T.FULL[2])) for c in range(6))
    return found


def quadrant_light(backgrounds):
    """Summed brightness of each menu quadrant: the chosen one is lit, the rest dim."""
    sums = [0, 0, 0, 0]
    for i, bg in enumerate(backgrounds):
        r, c = divmod(i, 6)
        sums[(r // 3) * 2 + c // 3] += sum(bg or (0, 0, 0))
    return sums


def sim_command(*args):
    return "%s -m tools.sim --fresh %s" % (sys.executable, " ".join(args))


@needs_tmux
def test_play_in_a_terminal_then_quit_restores_it(tmux_session):
    layout = Layout.named("black")
    s = tmux_session(sim_command("--seed", "5"), env="COLORTERM=truecolor")
    screen = s.wait_for(lambda t: "Micro Robots — menu" in t, "the menu")
    text = visible(screen)
    assert text.count("\u25cf") == sum(layout.number(i) for i in range(36))
    assert "q quit" in text and "Shift+A" in text
    assert "\x1b[48;2;" in screen  # true colour
    # solo, top-left, is chosen
    s.wait_for(lambda t: (lambda q: q.index(max(q)) == 0)(quadrant_light(cell_backgrounds(t))),
               "solo to be chosen")
    text = visible(s.screen())  # a new device greets: no warning, no orange border
    assert "» welcome to Micro Robots!" in text and "notice" not in text
    s.keys("Right")  # the D-pad moves the choice: a visible change
    s.wait_for(lambda t: (lambda q: q.index(max(q)) == 1)(quadrant_light(cell_backgrounds(t))),
               "the choice to move right")
    s.wait_for(lambda t: "» referee: A opens it" in visible(t), "the guide to name the choice")
    s.keys("Left")
    s.wait_for(lambda t: (lambda q: q.index(max(q)) == 0)(quadrant_light(cell_backgrounds(t))),
               "the choice to move back")
    s.keys("Enter")
    s.wait_for(lambda t: "Micro Robots — solo" in t, "solo")
    s.keys("q")
    assert s.wait_file("status").strip() == "0"
    assert s.wait_file("after") == (s.dir / "before").read_text()
    assert "Micro Robots" not in s.screen()  # the alternate screen is gone


def white_cells(session, seconds=1.2):
    """Cells lit near-white at any moment over ``seconds``: the robot's blink."""
    cells = set()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for i, bg in enumerate(cell_backgrounds(session.screen(colours=True))):
            if bg and min(bg) > 200:
                cells.add(i)
        time.sleep(0.05)
    return cells


def wait_for_robot(session, cell, timeout=15):
    """Until only ``cell`` blinks white for 1.4 s: longer than the 0.7 s that the dice
    roll flashes a rolled cell, so the puzzle is being played."""
    end = time.monotonic() + timeout
    seen = []
    while time.monotonic() < end:
        seen = (seen + [white_cells(session, 0.7)])[-2:]
        if seen == [{cell}, {cell}]:
            return
    pytest.fail("the robot is not on cell %d: white cells %s" % (cell, seen))


@needs_tmux
def test_a_robot_move_in_solo(tmux_session):
    """Seed 5's first puzzle puts the robot on cell 29; Left then A moves it to 28
    (tools.sim --headless with the same seed and keys does the same)."""
    s = tmux_session(sim_command("--seed", "5"), env="COLORTERM=truecolor")
    s.wait_for(lambda t: "Micro Robots — menu" in t, "the menu")
    s.keys("Enter")
    s.wait_for(lambda t: "Micro Robots — solo" in t, "solo")
    time.sleep(0.3)
    s.keys("Enter")  # A skips the dice roll: a slow machine's sparse screen samples could
    wait_for_robot(s, 29)  # take its flashing start cell for the robot
    s.keys("Left")
    time.sleep(0.2)
    s.keys("Enter")
    wait_for_robot(s, 28)  # after it slid there
    s.keys("q")
    assert s.wait_file("status").strip() == "0"


@needs_tmux
def test_the_device_keeps_its_game_between_runs(tmux_session, tmp_path):
    flash = tmp_path / "flash"
    first = tmux_session(sim_command("--seed", "5", "--state", str(flash)).replace(
        " --fresh", ""))
    first.wait_for(lambda t: "Micro Robots — menu" in t, "the menu")
    first.keys("Enter")
    first.wait_for(lambda t: "Micro Robots — solo" in t, "solo")
    time.sleep(0.5)
    first.keys("q")
    assert first.wait_file("status").strip() == "0"
    first.close()
    assert (flash / "settings.json").exists()
    (tmp_path / "status").unlink()
    again = tmux_session(sim_command("--seed", "5", "--state", str(flash)).replace(
        " --fresh", ""))
    again.wait_for(lambda t: "Micro Robots — solo" in t, "the saved solo game")
    again.keys("q")
    assert again.wait_file("status").strip() == "0"


@needs_tmux
def test_sigterm_restores_the_terminal(tmux_session):
    s = tmux_session(sim_command("--seed", "5"))
    s.wait_for(lambda t: "Micro Robots — menu" in t, "the menu")
    os.kill(int(s.wait_file("pid")), 15)
    assert s.wait_file("status").strip() == str(128 + 15)
    assert s.wait_file("after") == (s.dir / "before").read_text()
    assert "\x1b[?25l" not in s.screen(colours=True)


@needs_tmux
def test_too_small_then_resized(tmux_session):
    s = tmux_session(sim_command("--seed", "5"), cols=24, rows=10)
    s.wait_for(lambda t: "terminal too small" in t, "the too-small message")
    s.tmux("resize-window", "-x", "80", "-y", "30")
    s.wait_for(lambda t: visible(t).count("\u25cf") > 100, "the grid after resizing")
    s.keys("q")
    assert s.wait_file("status").strip() == "0"


@needs_tmux
def test_micropython_runtime_and_256_colours(tmux_session):
    s = tmux_session(sim_command("--seed", "5", "--runtime", "micropython", "--tiles",
                                 "copper:CADB0312"), env="COLORTERM=")
    layout = Layout.named("copper:CADB0312")
    screen = s.wait_for(lambda t: "menu  (micropython)" in t, "the menu in micropython")
    assert "\x1b[48;2;" not in screen and re.search(r"\x1b\[[0-9;]*48;5;", screen)
    assert visible(screen).count("\u25cf") == sum(layout.number(i) for i in range(36))
    s.keys("Enter")
    s.wait_for(lambda t: "solo  (micropython)" in t, "solo in micropython")
    s.keys("q")
    assert s.wait_file("status").strip() == "0"


@pytest.mark.parametrize("args, words", [
    (["--tiles", "black:ZZZZ0000"], "ZZZZ"),
    (["--tiles", "CADB0312", "--side", "purple"], "--side"),
    (["--seed", "-4"], "--seed"),
    ([], "needs a terminal"),
])
def test_bad_options_exit_2_in_one_line(args, words):
    proc = subprocess.run([sys.executable, "-m", "tools.sim", *args],
                          cwd=ROOT, capture_output=True, text=True, check=False,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert words in proc.stderr


def test_tiles_go_into_the_devices_settings_and_end_a_game_in_progress(tmp_path):
    from microrobots.device.store import Store

    root = str(tmp_path) + "/"
    store = Store(root)
    store.save("settings", {"brightness": 3, "side": "black", "tiles": "ABCD0000"})
    for game in ("solo", "referee"):  # the device keeps a game of each mode
        store.save(game, {"mode": game})
    T.prepare_state(root, "copper", "CADB0312")
    settings, _ = store.load("settings")
    assert settings == {"brightness": 3, "side": "copper", "tiles": "CADB0312"}
    assert store.load("solo") == store.load("referee") == (None, None)
    assert T.layout_numbers(root) == [Layout.named("copper:CADB0312").number(i)
                                      for i in range(36)]
    store.save("solo", {"mode": "solo"})
    T.prepare_state(root, None, "copper:CADB0312")  # the same arrangement: game kept
    assert store.load("solo")[0] == {"mode": "solo"}


@needs_tmux
def test_two_taps_sent_at_once_are_two_presses(tmux_session, tmp_path):
    """``send-keys Down Down`` then ``Right Right`` in the settings: item 3, brightness
    5 -> 7 (the device's settings file says so). Merged, it was item 2 and nothing saved."""
    flash = tmp_path / "flash"
    s = tmux_session(sim_command("--seed", "5", "--state", str(flash)).replace(" --fresh", ""))
    s.wait_for(lambda t: "Micro Robots — menu" in t, "the menu")
    for key in ("Down", "Right", "Enter"):
        s.keys(key)
        time.sleep(0.3)
    s.wait_for(lambda t: "Micro Robots — settings" in t, "the settings")
    s.keys("Down", "Down")  # one send-keys: the two bytes arrive together
    time.sleep(0.6)
    s.keys("Right", "Right")
    end = time.monotonic() + 10
    brightness = None
    while time.monotonic() < end and brightness != 7:
        time.sleep(0.1)
        try:
            brightness = json.loads((flash / "settings.json").read_text())["data"]["brightness"]
        except (OSError, ValueError, KeyError):
            pass
    assert brightness == 7
    s.keys("q")
    assert s.wait_file("status").strip() == "0"


@needs_tmux
def test_a_failed_claim_says_why_on_the_status_line(tmux_session):
    s = tmux_session(sim_command("--seed", "5"), env="COLORTERM=truecolor")
    s.wait_for(lambda t: "Micro Robots — menu" in t, "the menu")
    for key in ("Right", "Enter", "BSpace", "Enter", "Down", "Enter", "Down", "Enter"):
        s.keys(key)  # referee, skip the dice, claim: player 1, count 0, A
        time.sleep(0.3)
    screen = s.wait_for(lambda t: "below the optimum" in visible(t), "the reason")
    assert "round 1: player 1 claims 0: wrong: the claim is below the optimum" in visible(screen)
    s.keys("q")
    assert s.wait_file("status").strip() == "0"


@needs_tmux
def test_a_burst_of_keys_moves_the_robot_every_time(tmux_session, tmp_path):
    """Seed 5's first puzzle has the robot on cell 29; ``send-keys Left Enter Right Enter
    Left Enter`` at once makes three moves (28, 29, 28), as typed. Overlapping presses
    lost the middle one (the cursor moved before A was released)."""
    flash = tmp_path / "flash"
    s = tmux_session(sim_command("--seed", "5", "--state", str(flash)).replace(" --fresh", ""))
    s.wait_for(lambda t: "Micro Robots — menu" in t, "the menu")
    s.keys("Enter")
    s.wait_for(lambda t: "Micro Robots — solo" in t, "solo")
    time.sleep(0.3)
    s.keys("Enter")  # skip the dice
    time.sleep(0.5)
    s.keys("Left", "Enter", "Right", "Enter", "Left", "Enter")
    end = time.monotonic() + 10
    walk = None
    while time.monotonic() < end:
        time.sleep(0.2)
        try:
            data = json.loads((flash / "solo.json").read_text())["data"]
            walk = (data["walked"], data["trail"])
        except (OSError, ValueError, KeyError):
            continue
        if walk[0] >= 3:
            break
    assert walk == (3, [29, 28, 29, 28])
    s.keys("q")
    assert s.wait_file("status").strip() == "0"


TMUX_KEYS = {"up": "Up", "down": "Down", "left": "Left", "right": "Right", "a": "a", "b": "b"}


def tmux_keys(events):
    """An events file's taps and holds as the keys make play takes (Shift+A/B: a hold)."""
    keys = []
    for line in events:
        fields = line.split()
        button = fields[1]
        keys.append(button.upper() if "hold" in fields else TMUX_KEYS[button])
    return keys


@needs_tmux
def test_the_help_line_guides_a_table_a_player_and_a_teacher(tmux_session, tmp_path):
    """The tour of host_tests/tour.py typed into make play: a three-player referee game
    to its winner, a solo round and the classroom. After each step the help line (»)
    says what the firmware's modes say, word for word, and the status line carries no
    verdict of another mode."""
    import tour

    steps = tour.tour(str(tmp_path / "scripted"))
    s = tmux_session(sim_command("--seed", str(tour.SEED)), cols=100, rows=50,
                     env="COLORTERM=truecolor")

    def said(screen):
        return " ".join(visible(screen).split())

    for step in steps:
        for key in tmux_keys(step.events):
            s.keys(key)
            time.sleep(0.15)  # a player's pace: each key a tap of its own
        want = "» " + step.guide
        s.wait_for(lambda t, want=want: want in said(t), "the help line after %s" % step)
        if "the dice roll a robot" in step.guide:  # the classroom: no referee verdict
            assert "round " not in said(s.screen()).split("» ")[1]
    s.keys("q")
    assert s.wait_file("status").strip() == "0"


def test_make_play_needs_only_the_standard_library(tmp_path):
    """make play runs python3 -m tools.sim with no venv: the simulator, its driver and the
    firmware import nothing but the standard library (-S: no site-packages at all), and
    the target installs nothing."""
    code = ("import sys\n"
            "import tools.sim.headless, tools.sim.terminal, tools.sim.driver, tools.sim.help\n"
            "from tools.sim import terminal\n"
            "from tools.sim.script import Session\n"
            "s = Session(seed=3)\n"
            "s.tap('a'); s.wait(500)\n"
            "assert s.app.mode == 'solo'\n"
            "extra = sorted({m.split('.')[0] for m in sys.modules} - set(sys.stdlib_module_names)"
            " - set(sys.builtin_module_names) - {'tools', 'microrobots', 'main', '__main__'})\n"
            "print(' '.join(extra) or 'stdlib only')\n")
    proc = subprocess.run([sys.executable, "-S", "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env=dict(os.environ, PYTHONPATH="firmware"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "stdlib only"
    if shutil.which("make") is None:
        return
    dry = subprocess.run(["make", "--no-print-directory", "-n", "play"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert dry.returncode == 0 and dry.stdout.split() == ["PYTHONPATH=firmware", "python3", "-m",
                                                          "tools.sim"]


# -- the pieces named, the dice labelled (issue 33) ------------------------------------------

def test_labels_on_request_show_each_dies_token_instead_of_its_pips():
    layout = Layout.named("copper:CADB0312")
    state = make_state(layout)
    state.labels = [layout.token(i) for i in range(36)]
    for cols, rows in ((80, 30), T.smallest(T.COMPACT)):
        state.show_labels = False
        plain = visible(T.draw(state, cols, rows, truecolor=True))
        state.show_labels = True
        labelled = visible(T.draw(state, cols, rows, truecolor=True))
        assert "\u25cf" not in labelled
        grid = "".join(screen_rows(T.draw(state, cols, rows, truecolor=True), rows)[1:25])
        for i in range(36):
            assert layout.token(i) in grid, layout.token(i)
        assert plain != labelled
    assert T.parse_keys("l")[0] == [("labels", None)]
    assert T.build_parser().parse_args(["--labels"]).labels is True
    assert T.build_parser().parse_args([]).labels is False


def test_the_guide_names_the_pieces_in_play():
    """A still frame does not say which die is which: the guide line names them, as the
    terminal and the page show it (the driver's guide lines)."""
    from microrobots.rules.board import COLOUR_NAMES
    from tools.sim.script import Session

    s = Session(seed=5)
    guides = []
    s.driver.out = lambda line: guides.append(json.loads(line)["guide"]) if '"guide"' in line \
        else None
    s.tap("a")  # solo
    s.settle()
    solo = s.app.current
    layout = s.app.layout

    def name(cell):
        return "%s %d" % (COLOUR_NAMES[layout.colour(cell)], layout.number(cell))

    s.wait(200)
    want = "robot on %s, target %s" % (name(solo.robot), name(solo.game.target))
    assert want in guides[-1], guides[-1]
    route = solo.game.route()
    s.cursor_to(route[0], route[1])
    assert "cursor on %s" % name(route[1]) in guides[-1], guides[-1]
    s.tap("a")
    s.wait(600)
    assert "robot on %s" % name(route[1]) in guides[-1], guides[-1]
    s.hold("b")  # the menu names nothing
    s.wait(300)
    assert "robot on" not in guides[-1]


@needs_tmux
def test_the_l_key_labels_the_dice_in_a_terminal(tmux_session):
    s = tmux_session(sim_command("--seed", "5"), env="COLORTERM=truecolor")
    s.wait_for(lambda t: "Micro Robots — menu" in t, "the menu")
    s.keys("l")
    s.wait_for(lambda t: "W" in visible(t) and "\u25cf" not in visible(t).split("\n", 3)[2],
               "the labels")


@needs_tmux
@pytest.mark.parametrize("how, env, words", [
    (("--lang", "ko"), "", ["마이크로 로봇 — 메뉴", "솔로: A로 열기", "화살표 방향 패드"]),
    ((), "LANG=de_DE.UTF-8 LC_ALL=", ["Micro Robots — Menü", "Solo: A öffnet", "q beenden"]),
    (("--lang", "fr"), "", ["Micro Robots — menu", "no catalogue for 'fr'", "q quit"]),
])
def test_the_terminal_speaks_the_language_of_lang_or_the_option(tmux_session, how, env, words):
    """make play ARGS=--lang=ko, or LANG: the title, the guide (the firmware's words,
    through the driver) and the keys' help; an unknown one: English, said once."""
    s = tmux_session(sim_command("--seed", "5", *how), cols=100, rows=40, env=env)
    s.wait_for(lambda t: all(w in visible(t) for w in words), " and ".join(words))
    s.keys("q")
    assert s.wait_file("status").strip() == "0"
