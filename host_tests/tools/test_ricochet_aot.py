"""The compiled search built ahead of time (tools/ricochet/aot.py): the same search as the
one numba compiles when the program runs, without loading numba in a fresh command."""

import os
import re
import subprocess
import sys

import pytest

from tools.ricochet import aot

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
pytestmark = pytest.mark.skipif(
    __import__("importlib.util").util.find_spec("numba") is None, reason="numba is not installed")


@pytest.fixture(scope="module")
def built():
    """Built once (make bench builds it too); a few seconds of CPU the first time."""
    if not aot.ready():
        aot.build()
    assert aot.ready()


def command(*argv, aot_env=None, code=None, engine=None):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.path.join(ROOT, "firmware")]))
    env.pop("RICOCHET_AOT", None)
    env.pop("RICOCHET_ENGINE", None)
    env["RICOCHET_CSEARCH"] = "off"  # numba's search built ahead, not the one in C
    if aot_env:
        env["RICOCHET_AOT"] = aot_env
    if engine:
        env["RICOCHET_ENGINE"] = engine
    args = ["-c", code] if code else ["-m", "tools.ricochet"] + list(argv)
    proc = subprocess.run([sys.executable] + args, capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=300)
    return proc.stdout


@pytest.mark.parametrize("game", ["0F8JMYHTS10HC3", "00F7CN8GQR25KW", "06QRY0WR4XDB8E"])
def test_built_ahead_the_search_is_the_one_numba_compiles_move_for_move(built, game):
    """The same moves and the same number of positions, in a fresh command either way
    (the compiled search alone: where auto hands over depends on what loading costs)."""
    def solve(aot_env):
        out = command("solve", "--game", game, aot_env=aot_env, engine="numba")
        return re.sub(r"in [0-9.]+ s\)", "", out)
    ahead = solve(None)
    assert "positions searched" in ahead
    assert ahead == solve("off")


def test_a_fresh_command_handing_over_loads_no_numba(built):
    code = ("import sys\nfrom tools.ricochet import rules as rr\n"
            "from tools.ricochet import solver\n"
            "f, r, t = rr.decode_game('00F7CN8GQR25KW')\n"
            "s = solver.solve(rr.Board(f), r, t)\n"
            "print(s.count, s.engine, 'numba' in sys.modules)\n")
    assert command(code=code).split() == ["10", "python,", "then", "numba", "False"]
    assert command(code=code, aot_env="off").split()[-1] == "True"


def test_a_build_of_another_kernel_is_not_used(built, monkeypatch):
    monkeypatch.setattr(aot, "fingerprint", lambda: "0000000000000000")
    assert not aot.ready() and aot.load() is None
    monkeypatch.undo()
    monkeypatch.setenv("RICOCHET_AOT", "off")
    assert not aot.ready() and aot.load() is None


def test_check_says_whether_it_is_built(built, capsys):
    assert aot.main(["--check"]) == 0
    assert capsys.readouterr().out.startswith("built and up to date: ")
    assert aot.main(["--if-needed"]) == 0 and capsys.readouterr().out == ""  # built: nothing to do
    assert aot.main(["--bogus"]) == 2
