"""Fuzzing every loader with damaged files (issue 20): cut short, bits flipped, nested
deep, huge numbers and strings, wrong types, foreign encodings (damage.py).

Whatever a file holds: ``Store.load`` returns a problem and never raises; ``config.load``
raises ConfigError (one line) and nothing else; the games' loaders raise only their one-line
GameStateError; and the device (handheld.Device, every mode entered, then a second boot)
never stops: a file it cannot use is set aside as NAME.bad.json, byte for byte. The same
cases run inside MicroPython with a Pico-sized heap (test_the_loaders_inside_micropython).

``FUZZ_EXAMPLES`` (environment) sets the cases per test; the counts per target and kind
are printed at the end (``pytest -s``).
"""

import collections
import contextlib
import io
import json
import os
import shutil
import tempfile

import mpy
import pytest
from damage import KINDS, damaged, good_files
from fakefs import FakeFs
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from tools.sim.script import Session

from microrobots.device import config
from microrobots.rules import notation
from tools.cli import SIM_HEAP
from microrobots.rules.game import GameError
from microrobots.device.store import Store

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "25"))  # per loader and kind of damage
BOOTS = int(os.environ.get("FUZZ_BOOTS", "6"))  # the device: two boots each, per kind
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))
BY_KIND = pytest.mark.parametrize("kind", KINDS)
COUNTS = collections.Counter()  # (target, kind) -> cases tried
RECORDED = {}  # (file name, kind) -> damaged bytes the device was booted with
GAMES = ("solo", "referee")


GOOD = good_files()


@pytest.fixture(scope="module", autouse=True)
def report_counts():
    yield
    lines = ["%-12s %-17s %5d" % (t, k, n) for (t, k), n in sorted(COUNTS.items())]
    print("\nfuzz cases tried, 0 failures:\n" + "\n".join(lines))


def one_line(text):
    return isinstance(text, str) and text and "\n" not in text and "Traceback" not in text


@BY_KIND
@FUZZ
@given(data=st.data())
def test_store_load_never_raises(kind, data):
    name = data.draw(st.sampled_from(("settings",) + GAMES))
    bad = data.draw(damaged(GOOD[name], kind))[1]
    COUNTS["Store.load", kind] += 1
    fs = FakeFs({name + ".json": bad})
    got, problem = Store(fs=fs).load(name)
    assert problem is None or (got is None and one_line(problem)
                               and problem.startswith(name + ".json: "))
    assert fs.files[name + ".json"] == bad  # read, never changed


@BY_KIND
@FUZZ
@given(data=st.data())
def test_config_load_raises_one_line_or_gives_a_config(kind, data):
    bad = data.draw(damaged(GOOD["config"], kind))[1]
    COUNTS["config.load", kind] += 1
    try:
        got = config.load(bad)
    except config.ConfigError as error:
        assert one_line(str(error)) and str(error).startswith("config.json: ")
    else:
        assert set(got) == set(config.defaults())


@BY_KIND
@FUZZ
@given(data=st.data())
def test_game_loaders_raise_only_their_one_line_error(kind, data):
    name = data.draw(st.sampled_from(GAMES))
    bad = data.draw(damaged(GOOD[name], kind))[1]
    COUNTS["Game.from_dict", kind] += 1
    whole, problem = Store(fs=FakeFs({"g.json": bad})).load("g")
    saved = whole.get("game") if isinstance(whole, dict) else whole
    try:
        game = notation.from_dict(saved)
    except GameError as error:
        assert one_line(str(error))
    else:
        share = notation.share(game)
        assert notation.replay(share).to_dict() == game.to_dict()


def mutated_share(kind):
    """Share strings of the saved referee game, damaged in ``kind``."""
    game = notation.from_dict(json.loads(GOOD["referee"])["data"]["game"])
    good = notation.share(game)
    return {
        "truncated": st.integers(0, len(good)).map(lambda n: good[:n]),
        "bit flips": st.lists(st.integers(0, len(good) * 8 - 1), min_size=1, max_size=4).map(
            lambda bits: _flip(good, bits)),
        "huge string": st.sampled_from(["-", "a1o", "a", "9", "."]).flatmap(
            lambda piece: st.integers(1, 40000).map(lambda n: good + piece * n)),
        "huge number": st.sampled_from(["9" * 5000, "1e99", "-1", "0" * 30, "4294967296"]).map(
            lambda n: good.replace(".%d." % game.seed, ".%s." % n)),
        "wrong type": st.text(max_size=60),
        "foreign encoding": st.sampled_from(["utf-16", "latin-1", "utf-8-sig"]).map(
            lambda e: (good + "\u00e9").encode(e).decode("latin-1")),
    }[kind]


def _flip(text, bits):
    data = bytearray(text.encode())
    for bit in bits:
        data[bit // 8 % len(data)] ^= 1 << bit % 8
    return data.decode("utf-8", errors="replace")


@pytest.mark.parametrize("kind", [k for k in KINDS if k != "deep nesting"])
@FUZZ
@given(data=st.data())
def test_share_strings_raise_only_their_one_line_error(kind, data):
    text = data.draw(mutated_share(kind))
    COUNTS["Game.replay", kind] += 1
    try:
        notation.replay(text)
    except GameError as error:
        assert one_line(str(error))


def boot(folder):
    """The device on the flash ``folder``, every mode entered; failures printed (fail)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        s = Session(seed=3, state=folder)
        s.wait(100)
        device = s.driver.device
        for name in ("solo", "referee", "classroom", "settings", "menu"):
            assert device.app is not None, out.getvalue()
            device.app.go(name, device.now)
            s.wait(300)
        s.wait(1100)  # saved, when anything was to save
        assert device.app is not None, out.getvalue()
    assert "error:" not in out.getvalue(), out.getvalue()
    return device


@BY_KIND
@settings(FUZZ, max_examples=BOOTS)
@given(data=st.data())
def test_the_device_boots_every_mode_and_keeps_every_file(kind, data):
    name = data.draw(st.sampled_from(("settings", "config") + GAMES))
    bad = data.draw(damaged(GOOD[name], kind))[1]
    COUNTS["main.Device", kind] += 1
    RECORDED.setdefault((name, kind), []).append(bad)  # for MicroPython's turn
    folder = tempfile.mkdtemp()
    try:
        for good in ("settings",) + GAMES:
            with open(os.path.join(folder, good + ".json"), "wb") as f:
                f.write(GOOD[good])
        with open(os.path.join(folder, name + ".json"), "wb") as f:
            f.write(bad)
        unreadable = Store(fs=FakeFs({"x.json": bad})).load("x")[1] is not None
        if name == "config":
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                s = Session(seed=3, state=folder)
                s.wait(100)
            device = s.driver.device
            assert device.app is not None or one_line(device.problem)
            return
        boot(folder)
        aside = os.path.join(folder, name + ".bad.json")
        if unreadable:  # kept, byte for byte
            with open(aside, "rb") as f:
                assert f.read() == bad
        boot(folder)  # and the second boot
    finally:
        shutil.rmtree(folder)


MP_CASES = int(os.environ.get("FUZZ_MP_CASES", "3"))  # per file and kind
# fuzz_files_mpy.py (beside this file): the loaders and the device inside MicroPython
SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fuzz_files_mpy.py")


@settings(max_examples=1, deadline=None, database=None, suppress_health_check=list(HealthCheck),
          phases=[Phase.generate])
@given(data=st.data())
def test_the_loaders_inside_micropython(data):
    # The same damage, on MicroPython with a Pico-sized heap: the firmware's loaders and
    # the device (tools/sim/driver.py around handheld.Device) with every mode entered. The
    # cases are those the CPython device was booted with (drawn here when run alone).
    top = tempfile.mkdtemp(dir=mpy.ROOT, prefix=".fuzz-")
    try:
        n = 0
        for name in ("settings", "config") + GAMES:
            for kind in KINDS:
                recorded = RECORDED.get((name, kind), [])
                for k in range(MP_CASES):
                    bad = recorded[k] if k < len(recorded) else data.draw(
                        damaged(GOOD[name], kind))[1]
                    folder = os.path.join(top, "%03d-%s-%s" % (n, name, kind.replace(" ", "_")))
                    os.mkdir(folder)
                    for good in ("settings",) + GAMES:
                        with open(os.path.join(folder, good + ".json"), "wb") as f:
                            f.write(GOOD[good])
                    with open(os.path.join(folder, name + ".json"), "wb") as f:
                        f.write(bad)
                    COUNTS["MicroPython", kind] += 1
                    n += 1
        out = mpy.run_file(SCRIPT, os.path.relpath(top, mpy.ROOT),
                           heap=SIM_HEAP, timeout=600)  # (the whole device, as the simulator runs it)
        results = [line for line in out.splitlines() if line[:3].isdigit() and line[3] == "-"]
        failed = [line for line in results if not line.endswith(" ok")]
        assert len(results) == n and not failed, (failed, [
            line for line in out.splitlines() if not line.startswith(("notice:", "0", "1"))])
    finally:
        shutil.rmtree(top)


def test_every_kind_of_damage_is_drawn():
    # (run after the others in this file: each kind reached every target)
    for target in ("Store.load", "config.load", "Game.from_dict", "main.Device"):
        for kind in KINDS:
            assert COUNTS[target, kind] > 0, (target, kind)
