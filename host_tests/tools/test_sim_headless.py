"""python -m tools.sim --headless: the contract of issue 4, on both runtimes."""

import json
import os
import subprocess
import sys

import pytest

from tools import cli as cli_tools
from tools.sim import headless as sim
from tools.sim.script import Session

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def cli(*args):
    return subprocess.run([sys.executable, "-m", "tools.sim", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def frames(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def referee_session(seed):
    """Menu -> referee; two honest claims and a give-up, recorded as events."""
    s = Session(seed=seed)
    s.tap("right")
    s.tap("a")
    s.settle()
    ref = s.app.current
    for player in (0, 1):
        route = ref.game.route()
        s.claim(player, len(route) - 1, route[1:])
        s.wait(2800)
        s.settle()
    s.hold("a")
    s.wait(3000)
    return s


def test_frames_out_format_and_change_only(tmp_path):
    events = tmp_path / "ev.txt"
    events.write_text("# into solo, one step\n300 a\n3000 right  # cursor\n3300 a hold 700\n")
    out = tmp_path / "frames.jsonl"
    proc = cli("--headless", "--seed", "5", "--events", str(events), "--frames-out", str(out),
               "--until", "6000")
    assert proc.returncode == 0, proc.stderr
    got = frames(out)
    assert got[0]["t"] == 0 and got[0]["mode"] == "menu"
    assert {f["mode"] for f in got} == {"menu", "solo"}
    ts = [f["t"] for f in got]
    assert ts == sorted(set(ts)) and ts[-1] < 6000
    for f in got:
        assert set(f) == {"t", "mode", "pixels"}
        assert len(f["pixels"]) == 36
        assert all(len(p) == 3 and all(0 <= v <= 255 for v in p) for p in f["pixels"])
        assert sum(map(sum, f["pixels"])) <= 5900
    for a, b in zip(got, got[1:]):
        assert a["pixels"] != b["pixels"]  # a line only when the LEDs change
    first_solo = next(f for f in got if f["mode"] == "solo")
    assert first_solo["t"] == 360  # A released at 360: the solo screen in that very frame


def test_the_same_events_give_the_same_frames_on_both_runtimes(tmp_path):
    s = referee_session(seed=17)
    events = tmp_path / "ev.txt"
    events.write_text(s.events_text())
    outs = []
    for runtime in ("cpython", "micropython"):
        out = tmp_path / ("%s.jsonl" % runtime)
        proc = cli("--headless", "--seed", "17", "--events", str(events), "--frames-out",
                   str(out), "--runtime", runtime, "--until", str(s.t))
        assert proc.returncode == 0, proc.stderr
        outs.append(out.read_text())
    assert outs[0] == outs[1]
    got = [json.loads(x) for x in outs[0].splitlines()]
    assert {f["mode"] for f in got} == {"menu", "referee"}
    # and the in-process session saw the very same frames
    assert [json.loads(x) for x in s.frames] == got


def test_the_referees_console_lines_come_out_on_both_runtimes(tmp_path):
    """The verdicts and why, as the serial console prints them: {"console": ...} lines
    from the driver, the same on both runtimes; the headless command writes them to
    stderr."""
    s = referee_session(seed=17)
    s.wait(6000)  # the revealed route, shown until A
    s.tap("a")  # the route whole
    s.tap("a")  # the next round
    s.settle()
    s.claim(0, 0, [])  # a claim of 0 moves: below the optimum
    s.wait(1000)
    lines = sim.mask_lines(sim.parse_events(s.events_text()))
    said = []
    for runtime in ("cpython", "micropython"):
        out = sim.run_driver(lines, 17, s.t, runtime)
        said.append([json.loads(x)["console"] for x in out if '"console"' in x])
    assert said[0] == said[1] == [json.loads(x)["console"] for x in s.lines if '"console"' in x]
    assert said[0][0].startswith("round 1: player 1 claims ")
    assert "correct; player 1 takes a token; tokens 1 0, pool 24" in said[0][0]
    assert said[0][2].startswith("round 3: given up; a route of ")
    assert said[0][3].startswith("round 4: player 1 claims 0: wrong: the claim is below the "
                                 "optimum (")
    events = tmp_path / "ev.txt"
    events.write_text(s.events_text())
    proc = cli("--headless", "--seed", "17", "--events", str(events), "--frames-out",
               str(tmp_path / "f.jsonl"))
    assert proc.returncode == 0 and said[0][3] in proc.stderr


def test_state_folder_is_the_flash_across_runs(tmp_path):
    state = tmp_path / "flash"
    state.mkdir()
    events = tmp_path / "ev.txt"
    events.write_text("200 a\n3500 b\n")  # into solo, skip the dice
    out = tmp_path / "f.jsonl"
    assert cli("--headless", "--events", str(events), "--frames-out", str(out),
               "--state", str(state)).returncode == 0
    assert sorted(os.listdir(state)) == ["settings.json", "solo.json"]
    (tmp_path / "none.txt").write_text("")
    assert cli("--headless", "--events", str(tmp_path / "none.txt"), "--frames-out", str(out),
               "--state", str(state), "--runtime", "micropython", "--until", "100").returncode == 0
    assert frames(out)[0]["mode"] == "solo"  # the power came back: the puzzle is there


@pytest.mark.parametrize("text, needle", [
    ("100 x\n", "ev.txt:1: unknown button 'x'"),
    ("# ok\nsoon a\n", "ev.txt:2: time 'soon'"),
    ("100 a hold\n", "ev.txt:1: expected"),
    ("100 a hold -5\n", "ev.txt:1: hold time"),
    ("100 a hold 500\n300 a\n", "ev.txt:2: a is pressed again"),
])
def test_bad_events_file_exit_2_with_one_line(tmp_path, text, needle):
    events = tmp_path / "ev.txt"
    events.write_text(text)
    proc = cli("--headless", "--events", str(events), "--frames-out", str(tmp_path / "f"))
    assert proc.returncode == 2
    assert needle in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "Traceback" not in proc.stderr


def test_missing_events_file_and_bad_arguments(tmp_path):
    proc = cli("--headless", "--events", str(tmp_path / "nope"), "--frames-out", str(tmp_path / "f"))
    assert proc.returncode == 2 and "cannot read events file" in proc.stderr
    proc = cli("--headless", "--events", str(tmp_path / "nope"))
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    proc = cli("--headless", "--runtime", "java")
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    events = tmp_path / "ev.txt"
    events.write_text("100 a\n")
    for option, value, words in (("--until", "-5", "--until must be a time in ms 0..21600000 (6 hours), not -5"),
                                 ("--seed", "-1", "--seed must be 0..1073741823, not -1")):
        proc = cli("--headless", "--events", str(events), "--frames-out", str(tmp_path / "f"),
                   option, value)
        assert proc.returncode == 2 and words in proc.stderr  # names only what is wrong
        other = "--seed" if option == "--until" else "--until"
        assert other not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_mask_lines_merge_simultaneous_changes():
    edges = sim.parse_events("100 a\n100 up\n400 b hold 700\n")
    assert sim.mask_lines(edges) == ["100 17", "160 0", "400 32", "1100 0"]


def test_driver_protocol_streams_and_reports_errors():
    from tools.sim import driver as simdriver

    out = []
    code = simdriver.run(["--seed", "3"], ["# hi", "0 0", "100 16", "160", "160 0", "400", "quit",
                                           "900 1"], out.append)
    assert code == 0
    assert json.loads(out[-1]) == {"t": 400, "end": True, "heap": json.loads(out[-1])["heap"]}
    modes = [json.loads(x)["mode"] for x in out if '"pixels"' in x]
    assert modes[0] == "menu" and modes[-1] == "solo"
    out = []
    assert simdriver.run([], ["100 99"], out.append) == 2
    assert "bad mask 99" in json.loads(out[-1])["error"]
    out = []
    assert simdriver.run(["--seed", "x"], [], out.append) == 2


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_driver_reports_the_buzzer_with_tones(runtime):
    """driver.py --tones as a command (its output a plain function): the buzzer's tones,
    the same on both runtimes: choosing solo rolls the dice, whose sound is three notes."""
    exe = sys.executable if runtime == "cpython" else cli_tools.micropython_binary()
    proc = subprocess.run([exe, sim.DRIVER, "--tones", "--seed", "5", "--until", "600"],
                          input="0 0\n100 16\n160 0\n", capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stdout[-300:] + proc.stderr[-300:]
    lines = [json.loads(x) for x in proc.stdout.splitlines()]
    tones = [(x["t"], x["tone"]) for x in lines if "tone" in x]
    roll = app_module().TONES[app_module().SOUND_ROLL]
    click = app_module().TONES[app_module().SOUND_CLICK]
    assert tones[0] == (160, click[0][0])  # A released at 160 ms: the click, solo chosen
    # then solo starts (a mode switch takes a few frames) and the dice roll
    assert 160 < tones[1][0] <= 300
    assert [f for _, f in tones[1:] if f] == [f for f, _ in roll if f]
    assert tones[-1][1] == 0  # then silence


def app_module():
    from microrobots import keys

    return keys


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_driver_runs_on_a_simulated_battery_dims_and_sleeps(runtime):
    """driver.py's ``battery <mV>`` line: the fake ADC reads it; the power lines say when
    the device dims, sleeps and wakes (no key for 1 and 5 minutes), on both runtimes."""
    exe = sys.executable if runtime == "cpython" else cli_tools.micropython_binary()
    # 512 KB: the 64-bit unix port compiles the firmware from source and holds some 154 KB
    # after this session; at 256 KB the guide's compile at the first report failed for
    # want of room in some checkouts (the path's length moved it). Not a heap test: the
    # Pico's heap is the emulated boards' (device/test_rp2040.py's guards).
    args = [exe] + (["-X", "heapsize=512k"] if runtime == "micropython" else [])
    proc = subprocess.run(args + [sim.DRIVER, "--until", "302000"],
                          input="100\nbattery 3690\n200\n301000 8\n301100 0\n",
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stdout[-300:] + proc.stderr[-300:]
    lines = [json.loads(x) for x in proc.stdout.splitlines()]
    power = [(x["t"], x["power"], x["percent"], x["low"], x["usb"]) for x in lines if "power" in x]
    assert power == [(0, "awake", -1, False, True), (100, "awake", 11, True, False),
                     (60000, "dimmed", 11, True, False), (300000, "asleep", 11, True, False),
                     (301000, "awake", 11, True, False)]  # 3690 mV: 11 %, low
    asleep = [x for x in lines if "pixels" in x and 300000 <= x["t"] < 301000]
    assert asleep and all(p == [0, 0, 0] for p in asleep[-1]["pixels"])  # dark
    from tools.sim import driver as simdriver

    out = []
    assert simdriver.run([], ["battery 9000"], out.append) == 2
    assert "expected battery <mV 2500..4500> or battery usb" in json.loads(out[-1])["error"]


def test_terminal_power_line_and_battery_keys():
    from microrobots.device.power import percent_of
    from tools.sim import terminal

    assert terminal.parse_keys("-+u")[0] == [("battery", -10), ("battery", 10), ("usb", None)]
    assert all(percent_of(terminal.millivolts(p)) == p for p in range(101))
    assert terminal.power_text({"power": "dimmed", "percent": 12, "low": True, "usb": False}) == \
        "battery 12 % LOW · dimmed (no key for a while)"
    assert terminal.power_text({"power": "asleep", "percent": -1, "usb": True}) == \
        "on USB · asleep: any key wakes it"
    state = terminal.State([1] * 36, "cpython")
    assert state.take('{"t": 5, "power": "awake", "percent": 80, "low": false, "usb": false}')
    assert state.power == "battery 80 %"
