"""Special files and full disks against every command that writes or reads a user's file
(issue 34): outputs are written the way the user meant (a regular file atomically, a
device, a FIFO or standard output in place, a link through to its file, nothing else
replaced), every write error is one line and exit 1 or 2, and an input that is not a
regular file (a FIFO, a device) is refused at once instead of blocking.

Safety: no test here may replace a device node, even when the code under test is broken.
Devices are reached through symbolic links in a temporary folder (a broken
write_atomically renames over the link, not over /dev/full), or are device nodes made in
that folder (mknod, as root). /dev/full itself is checked to be a character device after.
"""

import json
import os
import socket
import stat
import subprocess
import sys
import threading

import pytest
from damage import good_files

from tools import cli
from tools.cli import ROOT
from microrobots.rules import notation

ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.path.join(ROOT, "firmware")]))
SHARE = notation.share(notation.from_dict(json.loads(good_files()["referee"])["data"]["game"]))


def python(*argv, stdout=subprocess.PIPE, stdin=None, timeout=120):
    return subprocess.run([sys.executable] + list(argv), cwd=ROOT, env=ENV, stdout=stdout,
                          stderr=subprocess.PIPE, stdin=stdin, text=True, timeout=timeout)


def assert_devices_intact():
    for dev in ("/dev/full", "/dev/null"):
        assert stat.S_ISCHR(os.lstat(dev).st_mode), dev + " is no longer a device"


def one_line(stderr):
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr[-2000:]
    return lines[0]


@pytest.fixture
def device(tmp_path):
    """A private character device node: (path, kind), "full" or "null" as /dev's, made
    in the test's folder (so that a broken writer can only replace that one)."""
    def make(kind):
        path = tmp_path / ("dev-" + kind)
        try:
            os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 7 if kind == "full" else 3))
        except (PermissionError, OSError):
            path = tmp_path / ("link-" + kind)
            os.symlink("/dev/" + kind, path)  # (not root: through a link)
        return str(path)
    return make


# -- write_atomically ------------------------------------------------------------------------

def test_a_regular_file_is_replaced_whole_and_keeps_its_mode(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("old")
    path.chmod(0o640)
    cli.write_atomically(str(path), "new")
    assert path.read_text() == "new" and stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(os.listdir(tmp_path)) == ["out.txt"]  # no temporary file left


def test_a_link_is_followed_to_its_file_and_stays_a_link(tmp_path):
    target = tmp_path / "real.svg"
    target.write_text("old")
    link = tmp_path / "link.svg"
    link.symlink_to(target)
    cli.write_atomically(str(link), "new")
    assert link.is_symlink() and target.read_text() == "new"
    dangling = tmp_path / "dangling.svg"
    dangling.symlink_to(tmp_path / "made.svg")
    cli.write_atomically(str(dangling), "made")
    assert dangling.is_symlink() and (tmp_path / "made.svg").read_text() == "made"


def test_a_fifo_is_written_in_place(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()))
    reader.start()
    cli.write_atomically(str(fifo), b"through the pipe")
    reader.join(10)
    assert got == [b"through the pipe"] and stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_device_is_written_in_place_and_stays_a_device(device):
    null = device("null")
    cli.write_atomically(null, "nothing")
    full = device("full")
    with pytest.raises(OSError) as caught:
        cli.write_atomically(full, "x" * 10000)
    assert caught.value.errno == 28  # No space left on device
    for path in (null, full):
        assert stat.S_ISCHR(os.stat(path).st_mode)
    assert_devices_intact()


def test_a_folder_or_a_socket_is_refused_and_left_alone(tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    with pytest.raises(IsADirectoryError):
        cli.write_atomically(str(folder), "x")
    sock_path = tmp_path / "sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(sock_path))
    with pytest.raises(OSError, match="not a file, a device or a FIFO"):
        cli.write_atomically(str(sock_path), "x")
    assert stat.S_ISSOCK(os.lstat(sock_path).st_mode) and folder.is_dir()
    server.close()


def test_a_dash_is_standard_output(capfdbinary):
    cli.write_atomically("-", b"to stdout")
    assert capfdbinary.readouterr().out == b"to stdout"


# -- every command's output option -------------------------------------------------------------

OUTPUTS = {
    "worksheet -o": ["-m", "tools.worksheet", "--format", "svg", "--sheets", "warmup", "-o",
                     "OUT"],
    "overlay -o": ["-m", "tools.draw.overlay", "--format", "svg", "-o", "OUT"],
    "wiring --svg": ["-m", "tools.draw.wiring", "--table", "--svg", "OUT"],
    "ricochet render --svg": ["-m", "tools.ricochet", "render", "--game", "0F8JMYHTS10HC3",
                              "--svg", "OUT"],
}


@pytest.mark.parametrize("command", sorted(OUTPUTS))
def test_every_output_option_writes_a_device_in_place_and_a_full_one_is_one_line(
        command, device, tmp_path):
    argv = OUTPUTS[command]
    null = device("null")
    proc = python(*[null if a == "OUT" else a for a in argv])
    assert proc.returncode == 0, proc.stderr[-2000:]
    full = device("full")
    proc = python(*[full if a == "OUT" else a for a in argv])
    assert proc.returncode in (1, 2)
    assert "No space left on device" in one_line(proc.stderr)
    link = tmp_path / "link.svg"
    real = tmp_path / "real.svg"
    real.write_text("old")
    link.symlink_to(real)
    proc = python(*[str(link) if a == "OUT" else a for a in argv])
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert link.is_symlink() and real.read_text().lstrip().startswith("<")
    for path in (null, full):
        assert stat.S_ISCHR(os.stat(path).st_mode)
    assert_devices_intact()


@pytest.mark.parametrize("argv, stdin", [
    (["-m", "tools.solve", "G3", "W5"], None),
    (["-m", "tools.solve", "--jsonl"], "G3 W5\n" * 2000),
    (["-m", "tools.solve", "--stats"], None),
    (["-m", "tools.replay", SHARE], None),
    (["-m", "tools.ricochet", "solve", "--game", "0F8JMYHTS10HC3"], None),
])
def test_a_full_standard_output_is_one_line_and_exit_1_or_2(argv, stdin, tmp_path):
    feed = None
    if stdin is not None:
        feed = tmp_path / "in.txt"
        feed.write_text(stdin)
    with open("/dev/full", "w") as full, (open(feed) if feed else open(os.devnull)) as inp:
        proc = python(*argv, stdout=full, stdin=inp)  # (written to, never replaced)
    assert proc.returncode in (1, 2)
    assert "No space left on device" in one_line(proc.stderr)
    assert_devices_intact()


# -- inputs that are not regular files ----------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["-m", "tools.solve", "--layout", "FIFO", "G3", "W5"],
    ["-m", "tools.worksheet", "--layout", "FIFO", "-o", "OUT"],
    ["-m", "tools.replay", "--saved", "FIFO"],
    ["-m", "tools.sim", "--headless", "--events", "FIFO", "--frames-out", "OUT"],
])
def test_a_fifo_given_as_a_file_is_refused_at_once(argv, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    out = str(tmp_path / "out")
    proc = python(*[str(fifo) if a == "FIFO" else out if a == "OUT" else a for a in argv],
                  timeout=60)  # (it blocked for ever)
    assert proc.returncode == 2 and "a FIFO, not a regular file" in one_line(proc.stderr)


def test_the_simulators_flash_with_a_fifo_or_a_folder_for_solo_json(tmp_path):
    events = tmp_path / "ev.txt"
    events.write_text("200 a\n900 a\n1500 a\n")
    flash = tmp_path / "flash"
    flash.mkdir()
    os.mkfifo(flash / "solo.json")
    argv = ["-m", "tools.sim", "--headless", "--events", str(events), "--frames-out",
            str(tmp_path / "f.jsonl"), "--state", str(flash)]
    proc = python(*argv, timeout=60)  # (open() blocked for ever)
    assert proc.returncode == 0 and "not a regular file" in proc.stderr
    os.remove(flash / "solo.json")
    (flash / "solo.json").mkdir()
    proc = python(*argv, timeout=60)
    assert proc.returncode == 0 and "solo.json: not saved (IsADirectoryError" in proc.stderr


# -- numbers and times bounded -------------------------------------------------------------------

@pytest.mark.parametrize("events, extra, words", [
    ("99999999999999999999 a\n", [], "time 999999999999 is past 21600000 ms"),
    ("500 a hold 999999999999\n", [], "hold time 999999999999 ends past 21600000 ms"),
    ("500 a\n", ["--until", "99999999999999"], "--until must be a time in ms 0..21600000"),
    ("500 \u00b2\u00b2 a\n", [], "got"),
    ("\u00b2 a\n", [], "is not a whole number of ms"),
    ("500 a\n", ["--clock", "99999999999"], "--clock must be 0..1073741823"),
    ("500 a\n", ["--tiles", "nonsense"], "nonsense"),
])
def test_the_simulators_times_are_bounded(events, extra, words, tmp_path):
    path = tmp_path / "ev.txt"
    path.write_text(events)
    proc = python("-m", "tools.sim", "--headless", "--events", str(path), "--frames-out",
                  str(tmp_path / "f"), *extra, timeout=60)
    assert proc.returncode == 2 and words in one_line(proc.stderr)


def test_headless_takes_the_options_the_docs_list(tmp_path):
    path = tmp_path / "ev.txt"
    path.write_text("200 a\n")
    frames = tmp_path / "f.jsonl"
    proc = python("-m", "tools.sim", "--headless", "--events", str(path), "--frames-out",
                  str(frames), "--fresh", "--tiles", "copper:CADB0312", "--clock", "1000",
                  timeout=60)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert frames.read_text().count("\n") > 0
    assert sorted(os.listdir(tmp_path)) == ["ev.txt", "f.jsonl"]  # (its flash: thrown away)


@pytest.mark.parametrize("argv, words", [
    (["--cpu-seconds", "-1"], "--cpu-seconds -1.0: give a time over 0"),
    (["--cpu-seconds", "nan"], "--cpu-seconds nan: give a time over 0"),
    (["--cpu-seconds", "inf"], "--cpu-seconds inf: give a time over 0"),
    (["--tries", "0"], "--tries 0: give 1-"),
])
def test_the_long_deal_search_refuses_numbers_out_of_range(argv, words, capsys):
    from tools.ricochet import longest
    assert longest.main(["--from", "0F8JMYHTS10HC3"] + argv) == 2
    assert words in one_line(capsys.readouterr().err)


@pytest.mark.parametrize("seed", ["0", "100"])
def test_a_worksheet_seed_that_is_no_lesson_says_so(seed, tmp_path):
    proc = python("-m", "tools.worksheet", "--seed", seed, "--format", "svg", "--sheets",
                  "warmup", "-o", str(tmp_path / "s.svg"))
    assert proc.returncode == 0
    assert "seed %s is no handheld's lesson (1-99)" % seed in proc.stderr


@pytest.mark.parametrize("argv", [
    ["-m", "tools.solve", "LONG", "W5"],
    ["-m", "tools.solve", "--tiles", "LONG", "G3", "W5"],
    ["-m", "tools.replay", "LONG"],
    ["-m", "tools.ricochet", "solve", "--game", "LONG"],
    ["-m", "tools.worksheet", "--seed", "LONG", "-o", "OUT"],
])
def test_an_error_line_quotes_a_few_dozen_characters_of_what_was_given(argv, tmp_path):
    proc = python(*["x" * 10000 if a == "LONG" else str(tmp_path / "o") if a == "OUT" else a
                    for a in argv])
    line = one_line(proc.stderr)
    assert proc.returncode == 2 and len(line) < 240 and "x" * 41 not in line


def test_a_damaged_trail_is_resumed_with_a_notice(tmp_path):
    """A solo game whose saved moves are damaged resumes from its start, and says so
    (it was dropped with no word)."""
    good = json.loads(good_files()["solo"])
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "settings.json").write_bytes(good_files()["settings"])
    events = tmp_path / "ev.txt"
    events.write_text("300 a  # the menu opens solo: its saved game resumes\n")
    argv = ["-m", "tools.sim", "--headless", "--events", str(events), "--frames-out",
            str(tmp_path / "f.jsonl"), "--state", str(flash), "--until", "3000"]
    for trail, notice in ((good["data"]["trail"], False), ([32, 99], True)):
        good["data"]["trail"] = trail
        (flash / "solo.json").write_text(json.dumps(good))
        proc = python(*argv, timeout=60)
        assert proc.returncode == 0, proc.stderr[-2000:]
        assert ("saved moves damaged" in proc.stderr) is notice, proc.stderr[-2000:]
        assert '"mode": "solo"' in (tmp_path / "f.jsonl").read_text()  # resumed
