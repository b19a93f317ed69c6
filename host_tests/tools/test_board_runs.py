"""host_tests/board_runs.py: the emulated-board runs' cache key covers what a run reads, and
a run whose inputs did not change is taken from the cache, not emulated again."""

import json
import os
import shutil

import board_runs
import pytest


def test_the_key_follows_relative_and_lazy_imports_into_tools():
    files = set(board_runs.closure("tools.rp2040.checks"))
    assert {"tools/rp2040/checks.py", "tools/rp2040/session.py",  # from . import
            "tools/sim/script.py",  # imported inside session.tour()
            "tools/flash.py",  # inside image.flash_tree()
            "tools/picoimage/__main__.py",  # inside image.find_image()
            "tools/cli.py", "tools/__init__.py", "tools/rp2040/__init__.py"} <= files
    assert not any(f.startswith(("tools/ricochet/", "tools/bench/")) for f in files)
    assert "tools/circuitpy.py" in board_runs.closure("tools.rp2040.circuitpython_checks")


def test_a_run_that_imported_a_file_its_key_does_not_cover_is_refused():
    imported = ["tools/rp2040/pico.py", "tools/ricochet/solver.py", "firmware/main.py",
                ".venv/lib/python3.11/site-packages/rp2040py/sio.py", "host_tests/board_run.py"]
    assert board_runs.uncovered_by_key("tools.rp2040.checks", imported) == [
        "tools/ricochet/solver.py"]
    assert board_runs.uncovered_by_key("tools.rp2040.checks", None)  # no list: refused


@pytest.fixture
def checkout(tmp_path, monkeypatch):
    """A copy of firmware/ and of the files a run of tools.rp2040.checks imports, an image,
    and board_runs pointed at them (its file hashes forgotten)."""
    for path in board_runs.closure("tools.rp2040.checks") + ["tools/ricochet/__init__.py"]:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(os.path.join(board_runs.ROOT, path), tmp_path / path)
    shutil.copytree(os.path.join(board_runs.ROOT, "firmware"), tmp_path / "firmware",
                    ignore=shutil.ignore_patterns("__pycache__"))
    image = tmp_path / "image.uf2"
    image.write_bytes(b"UF2 image")
    monkeypatch.setattr(board_runs, "ROOT", str(tmp_path))
    monkeypatch.setattr(board_runs, "OUT", str(tmp_path / "build" / "board-runs"))
    monkeypatch.setattr(board_runs, "_digests", {})
    monkeypatch.setattr(board_runs, "_procs", {})
    monkeypatch.setenv("MICROROBOTS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(board_runs, "_plan", lambda name: (
        str(image), ["-m", "tools.rp2040.checks", "--part", "tour"], {}))
    return tmp_path


def _key_after(checkout, change=None):
    if change:
        path = checkout / change
        path.write_bytes(path.read_bytes() + b"\n# changed\n")
    board_runs._digests.clear()
    return board_runs.key("tour-stock")


def test_the_key_changes_with_the_image_the_firmware_and_the_tools_the_run_imports(checkout):
    first = _key_after(checkout)
    assert _key_after(checkout) == first  # the same inputs, the same key
    assert _key_after(checkout, "tools/ricochet/__init__.py") == first  # not imported
    keys = {first}
    for change in ("image.uf2", "firmware/microrobots/rules/board.py", "firmware/main.py",
                   "tools/rp2040/session.py", "tools/sim/script.py", "tools/cli.py"):
        keys.add(_key_after(checkout, change))
    assert len(keys) == 7


def test_a_run_whose_inputs_did_not_change_comes_from_the_cache(checkout):
    digest = board_runs.key("tour-stock")
    os.makedirs(board_runs._cache())
    results = {"boots": [], "imported": ["tools/rp2040/checks.py"]}
    with open(board_runs._cached("tour-stock", digest), "w") as f:
        json.dump(results, f)
    board_runs.start(["tour-stock"])
    assert board_runs._procs == {"tour-stock": None}  # no process started
    assert board_runs.result("tour-stock") == results
    with open(os.path.join(board_runs.OUT, "tour-stock.log")) as f:
        assert f.read().startswith("results from the cache: ")


def test_a_command_kept_by_its_files_runs_again_only_when_one_changes(checkout):
    # (test_docs_commands.py's benches): the same files, the same answer without a run; a
    # changed file, or a result the caller refuses to keep (a failure), runs it again
    runs = []

    def compute():
        runs.append(1)
        return {"returncode": 0 if len(runs) != 3 else 1, "run": len(runs)}

    files = ["tools/cli.py", "firmware/main.py"]
    keep = lambda done: done["returncode"] == 0  # noqa: E731
    kept = lambda: board_runs.kept_by_files("doc-command", ["python", "-m", "x"], files,  # noqa: E731
                                            compute, keep)
    assert kept() == {"returncode": 0, "run": 1}
    assert kept() == {"returncode": 0, "run": 1} and len(runs) == 1
    _key_after(checkout, "tools/cli.py")
    assert kept() == {"returncode": 0, "run": 2}
    _key_after(checkout, "firmware/main.py")
    assert kept()["run"] == 3  # a failure: not kept
    assert kept()["run"] == 4 and kept()["run"] == 4
    assert board_runs.kept_by_files("doc-command", ["python", "-m", "y"], files, compute,
                                    keep)["run"] == 5  # another command line
