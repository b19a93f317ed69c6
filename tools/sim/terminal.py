"""make play: the handheld in a terminal, running the very firmware a Pico runs.

    python -m tools.sim [--seed N] [--side black|copper] [--tiles CODE]
                        [--state DIR | --fresh] [--runtime cpython|micropython]
                        [--color auto|truecolor|256] [--labels]

The firmware (firmware/main.py's loop, the app and its modes) runs in tools/sim/driver.py
on fake pins and a fake clock, in a child process: CPython by default, or the real
``micropython`` interpreter with a Pico-sized heap (``--runtime micropython``). This
module is only the front end: it turns key presses into the buttons held, streams them
with the time to the driver, and draws every frame the driver reports — the values
written to the LEDs — as the grid of dice under the printed film, in true colour
(256 colours when the terminal lacks it: COLORTERM not truecolor/24bit).

Keys (terminals report key presses, never releases, so a key is a short tap):

    arrows             the D-pad           Enter, Space, a    A
    Backspace, Esc, b  B                   Shift+A, Shift+B   hold A / B (a long press)
    Shift+arrow        hold that direction (the D-pad repeats)
    - / +              run on a simulated battery, 10 % less / more charge
    u                  plug USB in / out (the device starts on USB)
    l                  each die's label (W2: white 2) instead of its pips, and back
    q                  quit (the terminal is restored, whatever happens)

The line under the grid says how the device is powered and whether it is dimmed (a
minute without a key) or asleep (five minutes; any key wakes it, and is no move).

Like a real Pico, the simulated device keeps its flash between runs: settings and a game
in progress live in build/sim-state/ (``--state DIR`` for another folder). ``--fresh``
starts a new device whose flash is thrown away at the end.
``--side``/``--tiles`` (as in tools.solve: ``--tiles black:CADB0312`` or a code with
``--side``) set the arrangement in the device's settings before it starts.
"""

import json
import os
import queue
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import unicodedata
import time

from tools import cli  # also puts firmware/ on sys.path
from tools.cli import ROOT, UsageError, micropython_main
from microrobots import palette  # noqa: E402 - firmware/ is on sys.path now
from tools.draw.colour import XTERM_256, lit_film, rgb_to_256, text_ink  # noqa: F401
from tools.draw.dice import PIPS
from tools import i18n
from tools.i18n import N_, _, console as console_words, usage
from tools.sim import help as onscreen

DRIVER = os.path.join(ROOT, "tools", "sim", "driver.py")
STATE = os.path.join(ROOT, "build", "sim-state")

BUTTONS = ("up", "down", "left", "right", "a", "b")
TAP_MS = 60     # a key press holds its button this long (as an events-file tap)
HOLD_MS = 1000  # Shift+key: long enough for the firmware's long press (about 0.6 s)
TICK_MS = 20    # one firmware frame
ESC_WAIT = 0.05  # a lone Esc is B once nothing follows it for this long

# Escape sequences of the keys we use (normal and application cursor mode).
_ARROWS = {"A": "up", "B": "down", "C": "right", "D": "left"}
SEQUENCES = {}
for _end, _name in _ARROWS.items():
    SEQUENCES["\x1b[" + _end] = ("tap", _name)
    SEQUENCES["\x1bO" + _end] = ("tap", _name)
    SEQUENCES["\x1b[1;2" + _end] = ("hold", _name)  # Shift+arrow
SINGLE = {
    "\r": ("tap", "a"), "\n": ("tap", "a"), " ": ("tap", "a"), "a": ("tap", "a"),
    "\x7f": ("tap", "b"), "\x08": ("tap", "b"), "b": ("tap", "b"),
    "A": ("hold", "a"), "B": ("hold", "b"),
    "q": ("quit", None), "Q": ("quit", None), "\x03": ("quit", None),
    "\x0c": ("redraw", None),  # Ctrl-L
    "-": ("battery", -10), "+": ("battery", 10), "=": ("battery", 10),
    "u": ("usb", None), "U": ("usb", None),
    "l": ("labels", None), "L": ("labels", None),
}

HELP = N_("arrows D-pad · Enter/Space A · Backspace/Esc B · Shift+A, Shift+B, "
          "Shift+arrow hold (long press) · -/+ battery, u USB · l labels · q quit")
HELP_SHORT = N_("Enter A · Esc B · Shift hold · q quit")  # beside the compact grid
# Counts on the grid are tallies (firmware frame.count): a label cell, then these.
LEGEND = onscreen.LEGEND
TALLY_RGB = tuple(palette.TALLY)

GAP_RGB = (12, 12, 14)  # the window between the cells


# -- keys ----------------------------------------------------------------------------------

def power_text(msg):
    """The power line under the grid, from a driver "power" line."""
    if msg.get("usb"):
        supply = _("on USB")
    elif msg.get("percent", -1) >= 0:
        supply = (_("battery %d %% LOW") if msg.get("low") else _("battery %d %%")) % msg["percent"]
    else:
        supply = _("on battery")
    state = msg.get("power")
    if state == "asleep":
        return _("%s · asleep: any key wakes it") % supply
    return _("%s · dimmed (no key for a while)") % supply if state == "dimmed" else supply


def width(text):
    """Columns ``text`` takes in a terminal: East Asian wide characters (Hangul) two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def fit(text, cols):
    """``text`` cut to ``cols`` columns."""
    if width(text) <= cols:
        return text
    out, used = [], 0
    for c in text:
        used += width(c)
        if used > cols:
            break
        out.append(c)
    return "".join(out)


def center(text, cols):
    """``text`` centred in ``cols`` columns (str.center counts characters, not columns)."""
    text = fit(text, cols)
    room = cols - width(text)
    return " " * (room // 2) + text + " " * (room - room // 2)


def millivolts(percent):
    """The lowest cell voltage the firmware's gauge reads as ``percent`` (power.py's
    curve, through its public percent_of)."""
    from microrobots.device.power import percent_of

    k = min(max(percent, 0), 100)
    for mv in range(3000, 4400):
        if percent_of(mv) >= k:
            return mv
    return 4400


def parse_keys(text, final=False):
    """Split typed text into actions; returns (actions, unparsed rest).

    An action is (kind, button) with kind tap, hold, quit or redraw. A lone Esc may be
    the start of a sequence: it stays in the rest until ``final`` (nothing followed it
    for ESC_WAIT), when it counts as B. Unknown sequences and keys are dropped.
    """
    actions = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch != "\x1b":
            if ch in SINGLE:
                actions.append(SINGLE[ch])
            i += 1
            continue
        rest = text[i:]
        match = next((s for s in SEQUENCES if rest.startswith(s)), None)
        if match:
            actions.append(SEQUENCES[match])
            i += len(match)
            continue
        if any(s.startswith(rest) for s in SEQUENCES):  # perhaps incomplete
            if not final:
                return actions, rest
            if rest == "\x1b":
                actions.append(("tap", "b"))
            return actions, ""  # a lone Esc, or a sequence that never completed
        nxt = text[i + 1]
        if nxt == "\x1b":  # Esc, then another Esc or sequence
            actions.append(("tap", "b"))
            i += 1
        elif nxt in "[O":  # an unknown CSI/SS3 sequence: skip up to its final byte
            j = i + 2
            while j < len(text) and not ("@" <= text[j] <= "~"):
                j += 1
            i = j + 1
        else:  # Alt+key: the key alone
            i += 1
    return actions, ""


class Buttons:
    """Which buttons are held at a time, from key presses.

    Every key press is one press of its button, held ``ms`` (a tap or a long press), and
    the presses follow one another in the order they were typed, never overlapping. Keys
    that arrive together (a fast typist, ``tmux send-keys Left Enter``, a loop that came
    round late on a busy machine) wait their turn: the D-pad acts when pressed and A when
    released, so overlapping "Right, Enter" would move the cursor before A takes the
    robot to where it was. Between two presses the buttons are all up for a frame
    (SEP_MS), and for GAP_MS between two presses of one button: the firmware must see it
    released in between, or two quick taps (``send-keys Right Right``) would merge into
    one. At most QUEUE presses of a button wait; more are dropped, so that a key held
    down, which the terminal repeats about 30 times a second, stops moving soon after it
    is let go.
    """

    GAP_MS = 60  # released this long between two presses: three of the firmware's polls
    SEP_MS = 20  # all up for one poll between presses of two buttons: seen in that order
    QUEUE = 3

    def __init__(self):
        self.presses = [[] for _ in BUTTONS]  # per button: [start, end] in time order
        self.last = None  # (button index, end) of the press queued last
        self.run_from = 0  # the start of the run of presses of that button it ends

    def press(self, button, now, ms):
        """Queue a press of ``button`` for ``ms``, after those queued before; False when
        dropped (more than QUEUE presses of one button, queued back to back, would wait
        behind the one being made: a key held down)."""
        k = BUTTONS.index(button)
        waiting = self.presses[k]
        while waiting and waiting[0][1] + self.GAP_MS <= now:
            waiting.pop(0)  # over, and its release seen
        start = now
        if waiting:
            start = max(start, waiting[-1][1] + self.GAP_MS)
        last = self.last
        if last is not None:
            start = max(start, last[1] + (self.GAP_MS if last[0] == k else self.SEP_MS))
        if last is None or last[0] != k or last[1] <= now:
            self.run_from = start  # a new run of this button's presses
        elif sum(1 for p in waiting if p[0] >= self.run_from and p[1] > now) > self.QUEUE:
            return False
        waiting.append([start, start + ms])
        self.last = (k, start + ms)
        return True

    def changes(self, after, until):
        """``[(t, mask)]``: every change of the buttons held in ``after < t <= until``,
        in time order. The play loop sends them all, each at its own time, so that a
        release between two queued presses reaches the firmware even when the loop came
        round too late to see it (a busy machine)."""
        times = sorted({t for presses in self.presses for p in presses for t in p
                        if after < t <= until})
        out = []
        last = self.mask(after)
        for t in times:
            m = self.mask(t)
            if m != last:
                out.append((t, m))
                last = m
        return out

    def mask(self, now):
        m = 0
        for k, presses in enumerate(self.presses):
            for start, end in presses:
                if start <= now < end:
                    m |= 1 << k
                    break
        return m


# -- the firmware in a child process ---------------------------------------------------------

# The MicroPython runtime's heap with another language's words: a Pico's, plus the room
# their table takes (about 21 KB for Korean, measured with the unix port), which a Pico
# never holds (it never shows words): the firmware keeps exactly a Pico's room.
WORDS_HEAP = "222k"


def driver_command(runtime, seed, state, lang="en"):
    if runtime == "micropython":
        from tools.sim import soak

        heap = {} if lang == "en" else {"heap": WORDS_HEAP}
        cmd = micropython_main(DRIVER, firmware=soak.staged(), **heap)  # run from cwd=ROOT
    else:
        cmd = [sys.executable, DRIVER]
    words = ["--words", i18n.compiled(lang, i18n.FIRMWARE)] if lang != "en" else []
    return cmd + ["--seed", str(seed), "--state", state] + words


class Driver:
    """tools/sim/driver.py as a child: lines in, parsed lines out through a queue."""

    def __init__(self, cmd):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, bufsize=1,
                                     errors="replace", cwd=ROOT)  # (console: maybe not UTF-8)
        self.lines = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            pass

    def close(self):
        self.send("quit")
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# -- drawing -------------------------------------------------------------------------------

def sgr(fg, bg, truecolor):
    if truecolor:
        return "\x1b[38;2;%d;%d;%dm\x1b[48;2;%d;%d;%dm" % (fg + bg)
    return "\x1b[38;5;%dm\x1b[48;5;%dm" % (rgb_to_256(fg), rgb_to_256(bg))


def cell_colours(pixel):
    """(ink, background) of a cell whose LED shows ``pixel``: the film lit from below."""
    bg = lit_film(pixel)
    return text_ink(bg), bg


# Cell sizes: (width, height, column gap, row gap, pips?)
FULL = (7, 3, 1, 1, True)
COMPACT = (3, 1, 1, 1, False)


def grid_size(style):
    w, h, gx, gy, _ = style
    return 6 * w + 5 * gx, 6 * h + 5 * gy


def wrap(text, cols):
    lines, line = [], ""
    for word in text.split(" "):
        if line and width(line) + 1 + width(word) > cols:
            lines.append(line)
            line = word
        else:
            line = (line + " " + word) if line else word
    lines.append(line)
    return [fit(x, cols) for x in lines]


def help_lines(style, cols):
    """The key help (wrapped) and, beside the full-size grid, the counts' legend."""
    lines = wrap(_(HELP) if style is FULL else _(HELP_SHORT), max(1, cols - 2))
    if style is FULL and cols - 2 >= width(_(LEGEND)):
        lines.append(Legend(_(LEGEND)))
    return lines


class Legend(str):
    """The legend's line among the help lines (drawn with its swatches)."""


def legend(line, cols, truecolor):
    """The legend line centred, each # a swatch of its tally symbol's colour."""
    text = center(line, cols)
    out = []
    k = 0
    for ch in text:
        if ch == "#" and k < len(TALLY_RGB):
            out.append(sgr(TALLY_RGB[k], (0, 0, 0), truecolor) + "\u25a0\x1b[0m\x1b[2m")
            k += 1
        else:
            out.append(ch)
    return "".join(out)


def fits(style, cols, rows):
    """Room for the title, the grid, the key help and the status line."""
    gw, gh = grid_size(style)
    return cols >= gw + 2 and rows >= 1 + gh + len(help_lines(style, cols)) + 1


def smallest(style):
    """The smallest terminal (columns, rows) that ``style`` fits in."""
    cols = grid_size(style)[0] + 2
    rows = 1 + grid_size(style)[1] + len(help_lines(style, cols)) + 1
    return cols, rows


def pick_style(cols, rows):
    """The largest cell style that fits, else None."""
    for style in (FULL, COMPACT):
        if fits(style, cols, rows):
            return style
    return None


def draw(state, cols, rows, truecolor, pip="\u25cf"):
    """The whole screen as one string of escape sequences."""
    out = ["\x1b[H\x1b[0m"]
    style = pick_style(cols, rows)
    if style is None:
        msg = _("terminal too small (%dx%d): make it at least %dx%d, or press q") % (
            (cols, rows) + smallest(COMPACT))
        out.append("\x1b[2J\x1b[H")
        for line in wrap(msg, max(1, cols))[:max(1, rows)]:
            out.append(line + "\r\n")
        return "".join(out).rstrip("\r\n")
    w, h, gx, gy, pips = style
    gw, gh = grid_size(style)
    left = max(0, (cols - gw) // 2)
    title = _("Micro Robots — %s") % _(state.mode)
    if state.runtime != "cpython":
        title += "  (%s)" % state.runtime
    row = 1
    out.append("\x1b[%d;1H\x1b[0m\x1b[1m%s\x1b[0m\x1b[K" % (row, center(title, cols)))
    row += 1
    pad = " " * left
    gap = sgr(GAP_RGB, GAP_RGB, truecolor)
    for r in range(6):
        for y in range(h + (gy if r < 5 else 0)):
            parts = ["\x1b[%d;1H\x1b[0m%s" % (row, pad)]
            for c in range(6):
                i = r * 6 + c
                if y >= h:
                    parts.append(gap + " " * (w + (gx if c < 5 else 0)))
                    continue
                ink, bg = cell_colours(state.pixels[i])
                label = state.labels[i] if state.show_labels else None
                parts.append(sgr(ink, bg, truecolor) + cell_text(state.numbers[i], y, w, h,
                                                                 pips, pip, label))
                if c < 5:
                    parts.append(gap + " " * gx)
            parts.append("\x1b[0m\x1b[K")
            out.append("".join(parts))
            row += 1
    for line in help_lines(style, cols):
        text = legend(line, cols, truecolor) if isinstance(line, Legend) else center(line, cols)
        out.append("\x1b[%d;1H\x1b[0m\x1b[2m%s\x1b[0m\x1b[K" % (row, text))
        row += 1
    # The rows left: what to do now (the mode's own words), the mode's keys if they fit,
    # and the status line (the firmware's console: a verdict and why, a notice).
    spare = rows - row + 1
    status = wrap(console_words.translate_line(state.status), cols) if state.status else []
    if state.power:
        status = wrap(state.power, cols) + status
    now = wrap("» " + state.guide, cols) if state.guide else []
    keys = wrap(onscreen.mode_help(state.mode), max(1, cols - 2))
    if len(now) + len(keys) + max(1, len(status)) > spare:
        keys = []
    for line in keys:
        out.append("\x1b[%d;1H\x1b[0m%s\x1b[K" % (row, center(line, cols)))
        row += 1
    spare -= len(keys)
    if len(now) + max(1, len(status)) > spare:  # the status line whole, the guide cut
        now = now[:max(1 if spare > len(status) else 0, spare - max(1, len(status)))]
    for line in now:
        out.append("\x1b[%d;1H\x1b[0m\x1b[1;36m%s\x1b[0m\x1b[K" % (row, line))
        row += 1
    spare -= len(now)
    for line in status[:max(1, spare)]:
        out.append("\x1b[%d;1H\x1b[0m\x1b[1m%s\x1b[0m\x1b[K" % (row, line))
        row += 1
    out.append("\x1b[%d;1H\x1b[0m\x1b[J" % row if row <= rows else "")
    return "".join(out)


def cell_text(number, y, w, h, pips, pip, label=None):
    """Row ``y`` of a die face ``w`` characters wide: pips, or the number when small;
    ``label`` (the die's token, W2): that alone, in the middle row."""
    if label is not None:
        return (label.center(w) if y == h // 2 else " " * w)[:w]
    if not pips:
        line = [" "] * w
        if y == h // 2:
            line[w // 2] = str(number)
        return "".join(line)
    line = [" "] * w
    for px, py in PIPS[number]:
        if round((py - 0.25) / 0.25) == y:
            line[1 + 2 * round((px - 0.25) / 0.25) + (w - 7) // 2] = pip
    return "".join(line)


class State:
    """What the screen shows: the LEDs, the mode, the layout's numbers, a status line."""

    def __init__(self, numbers, runtime, labels=None, show_labels=False):
        self.pixels = [(0, 0, 0)] * 36
        self.mode = "starting"
        self.numbers = numbers
        self.labels = labels or [str(n) for n in numbers]  # each die's token: W2
        self.show_labels = show_labels  # the labels instead of the pips (l, --labels)
        self.runtime = runtime
        self.status = ""
        self.guide = ""  # what to do now: the mode's own words (driver "guide" lines)
        self.console = []
        self.error = None
        self.ended = False
        self.power = ""  # how the device is powered, dimmed or asleep (driver "power" lines)
        self.battery = 80  # the simulated cell's charge in percent, once unplugged
        self.on_usb = True

    def take(self, line):
        """One line from the driver; True when the screen changed."""
        if line is None:
            self.ended = True
            return True
        if not line.startswith("{"):
            self.console.append(line)
            self.status = "console: " + line
            return True
        try:
            msg = json.loads(line)
        except ValueError:
            self.console.append(line)
            return False
        if "pixels" in msg:
            self.pixels = [tuple(p) for p in msg["pixels"]]
            mode = msg.get("mode", self.mode)
            if mode != self.mode and not self.status.startswith("notice:"):
                self.status = ""  # another mode: the last one's verdict is not about it
            self.mode = mode
            return True
        if "guide" in msg:
            self.guide = msg["guide"]
            return True
        if "power" in msg:
            self.power = power_text(msg)
            return True
        if "notice" in msg:
            self.status = "notice: " + msg["notice"]
            return True
        if "console" in msg:  # the firmware's console line: a referee's verdict and why
            self.console.append(msg["console"])
            self.status = msg["console"]
            return True
        if "error" in msg:
            self.error = msg["error"]
            self.ended = True
            return True
        if msg.get("end"):
            self.ended = True
        return False


# -- settings on the simulated flash ----------------------------------------------------------

def prepare_state(state_dir, side, tiles):
    """Write --side/--tiles into the device's settings (the firmware's own Store format)."""
    from microrobots.saving import GAMES
    from microrobots.device.store import Store

    if side is None and tiles is None:
        return
    layout = cli.layout_from_args(_Options(tiles=tiles, side=side))
    name_side, _, code = layout.name.partition(":")
    store = Store(state_dir)
    data, _ = store.load("settings")
    data = data if isinstance(data, dict) else {}
    if (data.get("side"), data.get("tiles")) == (name_side, code):
        return
    data["side"], data["tiles"] = name_side, code
    if not store.save("settings", data):
        raise UsageError(_("cannot write the settings in %s") % state_dir)
    for game in GAMES:  # as the device does: a new arrangement ends the games in progress
        store.remove(game)


def layout_numbers(state_dir):
    """The die numbers of the device's current arrangement (from its settings file)."""
    layout = device_layout(state_dir)
    return [layout.number(i) for i in range(36)]


def layout_labels(state_dir):
    """Each die's token (W2: white 2) in the device's current arrangement."""
    layout = device_layout(state_dir)
    return [layout.token(i) for i in range(36)]


def device_layout(state_dir):
    """The device's current arrangement (from its settings file; the default if none)."""
    from microrobots.rules.board import Layout, LayoutError
    from microrobots.device.store import Store

    data, _ = Store(state_dir).load("settings")
    try:
        if isinstance(data, dict):
            layout = Layout.from_tiles(data.get("side", "black"), data.get("tiles", "ABCD0000"))
        else:
            layout = Layout.named("black")
    except (LayoutError, AttributeError, TypeError):
        layout = Layout.named("black")
    return layout


# -- the terminal ------------------------------------------------------------------------------

class _Options:
    """--tiles/--side as cli.layout_from_args reads them."""

    def __init__(self, tiles, side):
        self.tiles = tiles
        self.side = side


class Terminal:
    """Raw keys, the alternate screen and a hidden cursor; ``restore`` undoes it all."""

    def __init__(self, fd_in, out):
        import termios

        self.termios = termios
        self.fd = fd_in
        self.out = out
        self.saved = termios.tcgetattr(fd_in)
        self.active = False

    def start(self):
        t = self.termios
        attrs = t.tcgetattr(self.fd)
        attrs[0] &= ~(t.IXON | t.ICRNL | t.INLCR)  # iflag: Ctrl-S/Q and CR as typed
        attrs[3] &= ~(t.ECHO | t.ICANON | t.ISIG | t.IEXTEN)  # lflag: raw keys, no echo
        attrs[6][t.VMIN] = 1
        attrs[6][t.VTIME] = 0
        t.tcsetattr(self.fd, t.TCSAFLUSH, attrs)
        self.active = True
        self.write("\x1b[?1049h\x1b[?25l\x1b[2J")

    def write(self, text):
        self.out.write(text)
        self.out.flush()

    def restore(self):
        if not self.active:
            return
        self.active = False
        try:
            self.write("\x1b[0m\x1b[?25h\x1b[?1049l")
        finally:
            self.termios.tcsetattr(self.fd, self.termios.TCSAFLUSH, self.saved)


def terminal_size(fd=None):
    """Columns and rows of the terminal now (asked of the tty itself: COLUMNS and LINES
    in the environment go stale when the window is resized)."""
    try:
        size = os.get_terminal_size(sys.stdout.fileno() if fd is None else fd)
    except (OSError, ValueError):
        size = shutil.get_terminal_size((80, 24))
    return size.columns, size.lines


def truecolor_wanted(choice):
    if choice == "truecolor":
        return True
    if choice == "256":
        return False
    return os.environ.get("COLORTERM", "").lower() in ("truecolor", "24bit")


def play(args, stdin_fd, out):
    """The interactive loop; returns the exit status."""
    keep = not args.fresh
    state_dir = args.state or STATE
    if args.fresh:
        state_dir = tempfile.mkdtemp(prefix="microrobots-sim-")
    if keep:
        cli.make_folder(state_dir, "the device's flash")
    state_dir = os.path.join(state_dir, "")
    term = None
    driver = None
    try:
        prepare_state(state_dir, args.side, args.tiles)
        cmd = driver_command(args.runtime, args.seed, state_dir, i18n.current())
        state = State(layout_numbers(state_dir), args.runtime, layout_labels(state_dir),
                      args.labels)
        if getattr(args, "lang_notice", None):  # said once, as the device's notices are
            state.status = "notice: " + args.lang_notice
        settings_path = os.path.join(state_dir, "settings.json")
        settings_mtime = _mtime(settings_path)
        truecolor = truecolor_wanted(args.color)
        encoding = (getattr(out, "encoding", "") or "").lower()
        pip = "\u25cf" if "utf" in encoding else "o"

        term = Terminal(stdin_fd, out)
        resized = [True]
        signal.signal(signal.SIGWINCH, lambda *_: resized.__setitem__(0, True))
        term.start()
        driver = Driver(cmd)
        buttons = Buttons()
        start = time.monotonic()
        sent_t, sent_mask = -1, -1
        pending = ""
        pending_since = 0.0
        dirty = True
        while True:
            now = int((time.monotonic() - start) * 1000)
            ready, _, _ = select.select([stdin_fd], [], [], 0.01)
            if ready:
                data = os.read(stdin_fd, 1024)
                if not data:
                    break
                pending += data.decode("utf-8", "replace")
                pending_since = time.monotonic()
            final = bool(pending) and time.monotonic() - pending_since >= ESC_WAIT
            actions, pending = parse_keys(pending, final=final)
            quit_now = False
            for kind, button in actions:
                if kind == "quit":
                    quit_now = True
                elif kind == "redraw":
                    resized[0] = True
                elif kind == "labels":
                    state.show_labels = not state.show_labels
                    dirty = True
                elif kind == "battery" or kind == "usb":
                    if kind == "usb":
                        state.on_usb = not state.on_usb
                    else:
                        state.on_usb = False
                        state.battery = min(max(state.battery + button, 0), 100)
                    driver.send("battery usb" if state.on_usb else
                                "battery %d" % millivolts(state.battery))
                    dirty = True
                else:
                    buttons.press(button, now, TAP_MS if kind == "tap" else HOLD_MS)
                    if state.status.startswith("notice:"):  # a key dismisses it, as on
                        state.status = ""  # the grid (and in the web page)
                        dirty = True
            if quit_now:
                break
            for t, mask in buttons.changes(sent_t, now):  # also those between two turns
                driver.send("%d %d" % (t, mask))  # of a late loop: each at its own time
                sent_t, sent_mask = t, mask
            mask = buttons.mask(now)
            if mask != sent_mask or now - sent_t >= TICK_MS:
                driver.send("%d %d" % (now, mask))
                sent_t, sent_mask = now, mask
            while True:
                try:
                    line = driver.lines.get_nowait()
                except queue.Empty:
                    break
                dirty |= state.take(line)
            mtime = _mtime(settings_path)
            if mtime != settings_mtime:  # the arrangement may have changed on the device
                settings_mtime = mtime
                state.numbers = layout_numbers(state_dir)
                state.labels = layout_labels(state_dir)
                dirty = True
            if state.ended:
                break
            if resized[0]:
                resized[0] = False
                term.write("\x1b[2J")
                dirty = True
            if dirty:
                cols, rows = terminal_size()
                term.write(draw(state, cols, rows, truecolor, pip))
                dirty = False
        return finish(state)
    finally:
        if term is not None:
            term.restore()
        if driver is not None:
            driver.close()
        if not keep:
            shutil.rmtree(state_dir, ignore_errors=True)


def finish(state):
    if state.error:
        print("sim: %s" % console_words.translate_line(state.error), file=sys.stderr)
        return 2
    if state.ended:
        last = (console_words.translate_line(state.console[-1]) if state.console
                else _("the firmware stopped"))
        print(_("sim: the simulated device stopped: %s") % last, file=sys.stderr)
        return 1
    return 0


def _mtime(path):
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None


def build_parser():
    """The command line, its help in the language installed."""
    p = cli.Parser(
        prog="python -m tools.sim",
        description=_("Play the handheld in a terminal: the same firmware as on the Pico."),
        epilog=_("Keys: %s. Scripted runs: python -m tools.sim --headless --help.") % _(HELP))
    i18n.add_lang_option(p)
    p.add_argument("--seed", type=int, default=None,
                   help=_("the hardware's random seed (default: from the clock)"))
    cli.add_layout_options(p, files=False)
    flash = p.add_mutually_exclusive_group()
    flash.add_argument("--state", metavar="DIR", help=_(
        "the device's flash (settings, saved game): default build/sim-state"))
    flash.add_argument("--fresh", action="store_true",
                       help=_("a new device; its flash is thrown away at the end"))
    p.add_argument("--runtime", choices=("cpython", "micropython"), default="cpython", help=_(
        "run the firmware in CPython (default) or the micropython interpreter"))
    p.add_argument("--color", choices=("auto", "truecolor", "256"), default="auto",
                   help=_("colours: auto (from COLORTERM), truecolor or 256"))
    p.add_argument("--labels", action="store_true", help=_(
        "each die's label (W2: white 2) instead of its pips (the l key toggles)"))
    return p


def main(argv=None):
    # the language first: the parser's help and errors speak it (said on the status line
    # when the one asked for has no catalogue)
    lang, notice = i18n.choose(i18n.asked(sys.argv[1:] if argv is None else argv))
    usage.install(lang)
    try:
        args = build_parser().parse_args(argv)
    except UsageError as e:
        return cli.fail("sim", _("%s (see --help)") % e)
    args.lang_notice = notice
    if args.seed is None:
        args.seed = int(time.time()) & 0x3FFFFFFF
    elif not 0 <= args.seed <= 0x3FFFFFFF:
        return cli.fail("sim", _("--seed %d: use 0..%d") % (args.seed, 0x3FFFFFFF))
    try:
        if args.tiles or args.side:
            cli.layout_from_args(args)
    except cli.Errors as e:
        return cli.fail("sim", e)
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        return cli.fail("sim", _("the interactive simulator needs a terminal; for scripts "
                                 "use python -m tools.sim --headless"))

    def on_term(signum, _frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGHUP, on_term)
    try:
        return play(args, sys.stdin.fileno(), sys.stdout)
    except cli.Errors as e:
        return cli.fail("sim", e)


if __name__ == "__main__":
    cli.run(main)
