"""A short soak on both runtimes: random mashing with power cycles never stops the app.

The long one is ``make soak`` (tools/sim/soak.py); this one plays half an hour of
simulated time per run (a few seconds each).
"""

import pytest

from microrobots.compat import TICKS_MAX
from tools.sim import soak

MINUTES = 30


@pytest.fixture(scope="module")
def flashed():
    """The firmware as make flash stages it for the unix port (modules as .mpy), at the
    path relative to the checkout that the simulator uses (a module's path stays on the
    heap: an absolute one would make what fits depend on where the checkout lies)."""
    return soak.staged()


def play(runtime, seed, tmp_path, firmware=None, clock=-1):
    proc = soak.start(runtime, seed, MINUTES, str(tmp_path / runtime), clock=clock, restart=5,
                      firmware=firmware)
    return soak.finish(proc)


# Seeds whose half hour visits every mode (seed 1's player, since mode switches take a few
# frames, begins with a referee marathon of over 30 minutes: fine play, but not every mode).
@pytest.mark.parametrize("seed", [2, 4])
def test_half_an_hour_of_mashing_on_both_runtimes_never_stops_the_app(seed, tmp_path, flashed):
    clock = TICKS_MAX - 60000 if seed == 2 else -1  # the first boot a minute before the wrap
    cp = play("cpython", seed, tmp_path, clock=clock)
    mp = play("micropython", seed, tmp_path, flashed, clock)
    for got in (cp, mp):
        assert got["failures"] == [], soak.describe(got)
        assert got["simulated_ms"] == MINUTES * 60000 and got["boots"] >= 3
        assert set(got["modes"]) == set(soak.MODES), got["modes"]
    heap = mp["heap"]
    assert len(heap) == 4 and 0 < heap[0] <= heap[1] < soak.HEAP_LIMIT  # min, max, first, last
    # One firmware, one behaviour: the same presses give the same play on both runtimes.
    for key in ("frames", "boots", "modes", "largest"):
        assert cp[key] == mp[key], key


def test_micropython_resuming_games_a_piece_a_frame_never_stops_the_app(tmp_path, flashed):
    """Saved games read back a piece a frame (app.App.work) when their mode comes back:
    keys come during the work, power cycles cut it short."""
    got = soak.finish(soak.start("micropython", 4, MINUTES, str(tmp_path / "mp"),
                                 restart=5, firmware=flashed))
    assert got["failures"] == [], soak.describe(got)
    assert got["simulated_ms"] == MINUTES * 60000 and got["boots"] >= 3
    assert set(got["modes"]) == set(soak.MODES), got["modes"]
    assert got["worked"] > 20  # frames that stepped a saved game's replay
    assert 0 < got["heap"][1] < soak.HEAP_LIMIT


def test_the_soak_reports_a_failure_with_its_console(tmp_path):
    """Older firmware: a solo walk of more than 255 moves stopped the app (issue 10)."""
    got = soak.finish(soak.start("cpython", 1, 1, str(tmp_path / "x"), restart=0))
    assert got["failures"] == [] and got["simulated_ms"] == 60000
    assert "largest" in got and soak.describe(got).startswith("cpython seed 1: 0.02 h")
    broken = dict(got, failures=["GameError: a claim is 0 to 255 moves, not 344"],
                  elapsed_at_failure=7949700, console=["Traceback ...", "GameError: ..."])
    text = soak.describe(broken)
    assert "FAILED after 2.21 h: GameError: a claim is 0 to 255 moves, not 344" in text
    assert "Traceback ..." in text
