"""make play: the terminal simulator's keys and drawing, and the real thing in tmux.

The tmux tests start ``python -m tools.sim`` (what ``make play`` runs) in a detached tmux
session on a private server, type keys with send-keys and read the screen with
capture-pane, colours included: the grid appears with every die's pips, the D-pad
moves the menu's choice, A enters solo, q quits, and ``stty -a`` is the same before and
after (also when the simulator is killed with SIGTERM).
"""

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

from microrobots.board import Layout
from mpy import ROOT
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
    b.press("left", 1000, T.HOLD_MS)
    assert b.mask(1000) == 1 << 4 | 1 << 2
    assert b.mask(1000 + T.TAP_MS) == 1 << 2
    assert b.mask(1000 + T.HOLD_MS) == 0
    b.press("up", 2000, T.TAP_MS)
    b.press("up", 2040, T.TAP_MS)  # the terminal's key repeat: one continuous hold
    assert b.mask(2000 + T.TAP_MS + 10) == 1


# -- colours and drawing -----------------------------------------------------------------------

LEVELS = (0, 95, 135, 175, 215, 255)
XTERM = {16 + 36 * r + 6 * g + b: (LEVELS[r], LEVELS[g], LEVELS[b])
         for r in range(6) for g in range(6) for b in range(6)}
XTERM.update({232 + k: (8 + 10 * k,) * 3 for k in range(24)})


def dist(a, b):
    return sum((x - y) ** 2 for x, y in zip(a, b))


@given(st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255)))
def test_256_colour_fallback_is_the_nearest_palette_colour(rgb):
    best = min(dist(c, rgb) for c in XTERM.values())
    assert dist(XTERM[T.rgb_to_256(rgb)], rgb) == best


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


def test_256_colours_when_asked():
    screen = T.draw(make_state(), 80, 30, truecolor=False)
    assert "\x1b[48;5;" in screen and "\x1b[48;2;" not in screen


def test_small_terminal_shows_numbers_then_a_message():
    layout = Layout.named("black")
    cols, rows = T.smallest(T.COMPACT)
    assert T.pick_style(cols, rows) is T.COMPACT and T.smallest(T.FULL) == (49, 28)
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
    lit = quadrant_light(cell_backgrounds(screen))
    assert lit.index(max(lit)) == 0  # solo, top-left, is chosen
    s.keys("Right")  # the D-pad moves the choice: a visible change
    s.wait_for(lambda t: (lambda q: q.index(max(q)) == 1)(quadrant_light(cell_backgrounds(t))),
               "the choice to move right")
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
    wait_for_robot(s, 29)  # after the dice roll
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
    from microrobots.store import Store

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
