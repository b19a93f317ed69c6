"""tools/cli.py, and every command that reads or writes a file the user names: a bad file
is one line on stderr and exit status 2, never a traceback."""

import builtins
import json
import os
import subprocess
import sys

import pytest

from microrobots.rules.board import Layout, LayoutError
from mpy import ROOT
from tools import boards, cli, flash, replay, solve
from tools.draw import images, overlay, render, wiring
from tools.ricochet import cli as ricochet
from tools.sim import headless

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256))  # what a binary file looks like

# command -> (main, argv with FILE standing for the file, what the message calls the file,
# the prefix of its error line)
READERS = {
    "solve --layout": (solve.main, ["--layout", "FILE", "G3", "W5"], "layout file",
                       "tools.solve: error: "),
    "replay --saved": (replay.main, ["--saved", "FILE"], "saved game", "tools.replay: "),
    "render --frames": (render.main, ["--frames", "FILE", "--png", "OUT"], "frames file",
                        "render: "),
    "sim --events": (headless.main, ["--headless", "--events", "FILE", "--frames-out", "OUT"],
                     "events file", "sim: "),
    "wiring --config": (wiring.main, ["--config", "FILE", "--svg", "OUT", "--table"],
                        "config file", "wiring: "),
}


def bad_file(tmp_path, kind, monkeypatch):
    """A path to a file of ``kind``: binary, missing, directory or unreadable."""
    path = tmp_path / ("in-" + kind)
    if kind == "binary":
        path.write_bytes(PNG)
    elif kind == "directory":
        path.mkdir()
    elif kind == "unreadable":
        path.write_text("G3 W5\n")
        path.chmod(0)
        if os.access(path, os.R_OK):  # root reads anything: let open() refuse as it would
            real = builtins.open

            def refusing(name, *args, **kwargs):
                if os.fspath(name) == str(path):
                    raise PermissionError(13, "Permission denied", str(path))
                return real(name, *args, **kwargs)

            monkeypatch.setattr(builtins, "open", refusing)
            real_os_open = os.open  # (cli.open_regular opens with os.open, O_NONBLOCK)

            def refusing_os(name, *args, **kwargs):
                if os.fspath(name) == str(path):
                    raise PermissionError(13, "Permission denied", str(path))
                return real_os_open(name, *args, **kwargs)

            monkeypatch.setattr(os, "open", refusing_os)
    return str(path)


REASONS = {
    "binary": "%s is not text (byte 0x89 at offset 0 is not UTF-8)",
    "missing": "cannot read %s (No such file or directory)",
    "directory": "cannot read %s (Is a directory)",
    "unreadable": "cannot read %s (Permission denied)",
}


@pytest.mark.parametrize("kind", sorted(REASONS))
@pytest.mark.parametrize("command", sorted(READERS))
def test_a_bad_file_is_one_line_and_exit_2(command, kind, tmp_path, monkeypatch, capsys):
    main, argv, what, prefix = READERS[command]
    path = bad_file(tmp_path, kind, monkeypatch)
    out = str(tmp_path / "out")
    argv = [path if a == "FILE" else out if a == "OUT" else a for a in argv]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err == "%s%s: %s\n" % (prefix, path, REASONS[kind] % what)
    assert captured.out == "" and not os.path.exists(out)


@pytest.mark.parametrize("command, argv", [
    ("solve", ["--layout", "FILE", "G3", "W5"]),
    ("replay", ["--saved", "FILE"]),
    ("draw.render", ["--frames", "FILE", "--png", "out.png"]),
    ("sim", ["--headless", "--events", "FILE", "--frames-out", "out.jsonl"]),
    ("draw.wiring", ["--config", "FILE", "--table", "--svg", "out.svg"]),
])
def test_as_a_program_too(command, argv, tmp_path):
    """The issue's case: ``python -m tools.solve --layout BINARY`` gave a traceback."""
    binary = tmp_path / "binary"
    binary.write_bytes(PNG)
    proc = subprocess.run([sys.executable, "-m", "tools." + command,
                           *[str(binary) if a == "FILE" else a for a in argv]],
                          cwd=tmp_path, env=dict(os.environ, PYTHONPATH=ROOT),
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "is not text (byte 0x89" in proc.stderr


def test_render_reads_frames_from_stdin_and_refuses_binary_there_too(tmp_path):
    frame = json.dumps({"t": 0, "pixels": [[0, 0, 0]] * 36})
    png = tmp_path / "f.png"
    proc = subprocess.run([sys.executable, "-m", "tools.draw.render", "--frames", "-", "--png",
                           str(png)], input=frame + "\n", cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0 and png.read_bytes().startswith(b"\x89PNG")
    proc = subprocess.run([sys.executable, "-m", "tools.draw.render", "--frames", "-", "--png",
                           str(png)], input=PNG, cwd=ROOT, capture_output=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr == b"render: -: frames file is not text (byte 0x89 at offset 0 is not " \
                          b"UTF-8)\n"


def frames_file(tmp_path):
    path = tmp_path / "frames.jsonl"
    path.write_text(json.dumps({"t": 0, "pixels": [[0, 0, 0]] * 36}) + "\n")
    return str(path)


@pytest.mark.parametrize("command", ["overlay", "render", "sim", "ricochet", "images"])
def test_writing_into_a_folder_is_one_line_and_exit_2(command, tmp_path, capsys):
    folder = tmp_path / "a-folder"
    folder.mkdir()
    events = tmp_path / "e.txt"
    events.write_text("100 a\n")
    main, argv, message = {
        "overlay": (overlay.main, ["-o", str(folder) + "/x.svg"], None),
        "render": (render.main, ["--frames", frames_file(tmp_path), "--png", str(folder)],
                   "render: %s: cannot write (Is a directory)\n" % folder),
        "sim": (headless.main, ["--headless", "--events", str(events), "--frames-out",
                                str(folder), "--until", "200"],
                "sim: %s: cannot write frames (Is a directory)\n" % folder),
        "ricochet": (ricochet.main, ["render", "--game", "0B7P6ZBDXVGFEG", "--svg",
                                     str(folder)], None),
        "images": (images.main, ["--out", events.as_posix()], None),
    }[command]
    if command == "overlay":
        os.rmdir(folder)
        folder.write_text("")  # the folder the film goes into is a file
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err
    assert captured.err.startswith(command + ": ")
    if message:
        assert captured.err == message
    assert str(folder if command != "images" else events) in captured.err
    assert sorted(os.listdir(tmp_path)) == ["a-folder", "e.txt", "frames.jsonl"]  # no leftovers


# -- the helpers themselves ---------------------------------------------------------------------

def test_read_text_takes_utf8_with_or_without_a_byte_order_mark(tmp_path):
    path = tmp_path / "t.txt"
    path.write_bytes("\ufeffGrün 3\n".encode("utf-8"))
    assert cli.read_text(str(path)) == "Grün 3\n"
    path.write_bytes("Grün".encode("latin-1"))
    with pytest.raises(cli.UsageError, match=r"t.txt: file is not text \(byte 0xfc at offset 2"):
        cli.read_text(str(path))


def test_read_text_refuses_an_endless_file(tmp_path):
    with pytest.raises(cli.UsageError, match=r"/dev/zero: cannot read layout file \(a device"):
        cli.read_text("/dev/zero", "layout file", limit=1 << 20)  # refused before reading
    big = tmp_path / "big.txt"
    big.write_bytes(b"x" * ((1 << 20) + 1))
    with pytest.raises(cli.UsageError, match="big.txt: layout file is over 1 MiB"):
        cli.read_text(str(big), "layout file", limit=1 << 20)


def test_read_json_names_the_file(tmp_path):
    path = tmp_path / "j.json"
    path.write_text('{"a": [1, 2]}')
    assert cli.read_json(str(path)) == {"a": [1, 2]}
    path.write_text('{"a": ')
    with pytest.raises(cli.UsageError, match="j.json: saved game: not valid JSON at line 1"):
        cli.read_json(str(path), "saved game")


@pytest.mark.parametrize("data, problem", [
    (b'{"a": ' + b"[" * 1000 + b"]" * 1000 + b"}", "nested deeper than 16 levels"),
    ('{"a": "caf\u00e9"}'.encode("latin-1"), r" is not text \(byte 0xe9 at offset 10"),
    ('{"a": 1}'.encode("utf-16"), r"not UTF-8 text \(saved as UTF-16\? save as UTF-8\)"),
    (b'{"a": "' + b"x" * 5000 + b'"}', "a string over 2048 bytes"),
    (b" " * 20000, "over 8 KB"),
])
def test_read_json_reads_as_the_device_does(tmp_path, data, problem):
    # issue 20, reproduction 8: every tool's JSON goes through the device's store.parse
    path = tmp_path / "j.json"
    path.write_bytes(data)
    problem = problem if problem.startswith(" ") else ": " + problem
    with pytest.raises(cli.UsageError, match="j.json: saved game" + problem):
        cli.read_json(str(path), "saved game")


class Args:
    def __init__(self, layout=None, tiles=None, side=None):
        self.layout, self.tiles, self.side = layout, tiles, side


def test_layout_from_args(tmp_path):
    assert cli.layout_from_args(Args()).name == "black:ABCD0000"
    assert cli.layout_from_args(Args(side="copper")).name == "copper:ABCD0000"
    assert cli.layout_from_args(Args(tiles="CADB0312", side="copper")).name == "copper:CADB0312"
    assert cli.layout_from_args(Args(tiles="black:CADB0312")).name == "black:CADB0312"
    assert cli.layout_from_args(Args(layout="copper:DCBA3210")).name == "copper:DCBA3210"
    with pytest.raises(cli.UsageError, match="--side conflicts"):
        cli.layout_from_args(Args(tiles="black:CADB0312", side="copper"))
    path = tmp_path / "l.txt"
    path.write_text(str(Layout.named("copper:DCBA3210")))
    assert cli.layout_from_args(Args(layout=str(path))) == Layout.named("copper:DCBA3210")
    path.write_text(str(Layout.named("black")).replace("Y4", "Y7"))
    with pytest.raises(LayoutError, match="l.txt: line 2, column 2: unknown number"):
        cli.layout_from_args(Args(layout=str(path)))


def test_cell_and_plural():
    layout = Layout.named("black")
    assert cli.cell(layout, "G3") == cli.cell(layout, "3-green") == layout.index("G3")
    with pytest.raises(cli.UsageError, match="^FROM: unknown colour"):
        cli.cell(layout, "Q3", "FROM")
    assert [cli.plural(n, "move") for n in (0, 1, 2)] == ["0 moves", "1 move", "2 moves"]
    assert cli.plural(1, "pass", "passes") == "1 pass" and cli.plural(3, "pass", "passes") \
        == "3 passes"


def test_write_atomically_leaves_no_temporary_file(tmp_path):
    path = tmp_path / "out.txt"
    cli.write_atomically(str(path), "one\ntwo\n")
    cli.write_atomically(str(path), b"three")
    assert path.read_bytes() == b"three" and os.listdir(tmp_path) == ["out.txt"]
    assert path.stat().st_mode & 0o777 == 0o666 & ~_umask()
    with pytest.raises(OSError):
        cli.write_atomically(str(tmp_path / "no" / "x"), "x")
    assert os.listdir(tmp_path) == ["out.txt"]


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_output_to_a_closed_pipe_is_no_traceback():
    proc = subprocess.run("%s -m tools.solve --stats | head -1" % sys.executable, shell=True,
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.stdout.startswith("black:ABCD0000") and proc.stderr == ""


def test_bad_arguments_are_one_line_everywhere(capsys):
    for name, main, argv in (("boards", boards.main, ["analyse", "--bogus"]),
                             ("flash", flash.main, ["--bogus"]),
                             ("render", render.main, ["--bogus"]),
                             ("images", images.main, ["--bogus"]),
                             ("wiring", wiring.main, ["--bogus"]),
                             ("overlay", overlay.main, ["--bogus"])):
        assert main(argv) == 2, name
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith(name + ": ")
        assert "--bogus" in err or "required: --frames" in err


# -- one home: no tool reaches into another's private helpers -----------------------------------

def test_no_module_in_tools_imports_a_private_name_from_another():
    import ast

    offenders = []
    tools = os.path.join(ROOT, "tools")
    for folder, _, files in os.walk(tools):
        for name in files:
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read(), path)
            here = os.path.relpath(path, ROOT)
            modules = set()  # names this file binds to an imported module (or name)
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module:
                    for alias in node.names:
                        modules.add(alias.asname or alias.name)
                        # (``_`` alone is gettext's translation function: public by convention)
                        if (alias.name.startswith("_") and not alias.name.startswith("__")
                                and alias.name != "_"):
                            offenders.append("%s: from %s import %s"
                                             % (here, node.module, alias.name))
                elif isinstance(node, ast.Import):
                    modules.update((a.asname or a.name).split(".")[0] for a in node.names)
            modules -= {"sys", "os"}  # the standard library's own (sys._getframe, os._exit)
            for node in ast.walk(tree):
                if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                        and not node.attr.startswith("__") and node.attr != "_"
                        and isinstance(node.value, ast.Name)
                        and node.value.id in modules):
                    offenders.append("%s:%d: %s.%s" % (here, node.lineno, node.value.id,
                                                        node.attr))
    assert offenders == []


def test_the_simulators_flash_must_be_a_folder(tmp_path, capsys):
    from tools.sim import terminal

    events = tmp_path / "e.txt"
    events.write_text("100 a\n")
    in_the_way = tmp_path / "flash"
    in_the_way.write_text("")
    argv = ["--headless", "--events", str(events), "--frames-out", str(tmp_path / "f.jsonl"),
            "--until", "300", "--state"]
    assert headless.main(argv + [str(in_the_way)]) == 2
    assert capsys.readouterr().err == ("sim: %s: cannot hold the device's flash (File exists)\n"
                                       % in_the_way)
    new = tmp_path / "new" / "flash"  # made, as make play makes build/sim-state
    assert headless.main(argv + [str(new)]) == 0
    assert sorted(os.listdir(new)) == ["settings.json", "solo.json"]  # A: into solo

    class Args:
        fresh, state, side, tiles = False, str(in_the_way), None, None

    with pytest.raises(cli.UsageError, match="flash: cannot hold the device's flash"):
        terminal.play(Args, 0, None)


def test_importing_the_tools_changes_no_path():
    """firmware/ is on the path by the project's configuration (the venv's .pth file, the
    Makefile, pyproject.toml), not by an import: tools.cli and the commands' modules leave
    sys.path as they found it."""
    code = ("import os, sys\n"
            "import microrobots.rules.board\n"  # then firmware/ off the path: nothing puts it back
            "sys.path[:] = [p for p in sys.path if os.path.basename(p) != 'firmware']\n"
            "before = list(sys.path)\n"
            "import tools.cli, tools.solve, tools.replay, tools.flash, tools.rp2040.session\n"
            "import tools.sim.headless, tools.draw.colour, tools.ricochet.table\n"
            "print(sys.path == before)\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert (proc.stdout.strip(), proc.stderr) == ("True", "")


def test_without_the_firmware_on_the_path_a_tool_says_so_in_one_line():
    proc = subprocess.run([sys.executable, "-S", "-m", "tools.solve", "G3", "W5"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, PYTHONPATH=""))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "tools: the firmware is not on Python's path: use .venv/bin/python (make venv), "
        "or PYTHONPATH=firmware python3 -m tools..."]


def test_paths_parsers_and_sys_path_have_one_home():
    """ROOT and FIRMWARE, and the one-line argparse parser, live in tools/cli.py: a tool
    imports them; no tool puts anything on sys.path (tools/sim/driver.py, which also runs
    inside MicroPython, finds firmware/ itself there, and so does tools/sim/soak.py; the
    image's launcher runs on the board). Code in strings run by another interpreter is not
    looked at."""
    import ast

    alone = {"tools/sim/driver.py", "tools/sim/soak.py",
             "tools/picoimage/launcher.py"}  # (the image's main.py: it runs on the Pico)
    offenders = []
    for folder, _, files in os.walk(os.path.join(ROOT, "tools")):
        for name in files:
            path = os.path.join(folder, name)
            here = os.path.relpath(path, ROOT)
            if not name.endswith(".py") or here in alone:
                continue
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read(), path)
            for node in ast.walk(tree):
                text = ast.unparse(node) if isinstance(node, (ast.Call, ast.ClassDef)) else ""
                if isinstance(node, ast.Call) and text.startswith(("sys.path.insert(",
                                                                   "sys.path.append(")):
                    offenders.append("%s:%d: %s (import tools.cli)" % (here, node.lineno, text))
                elif isinstance(node, ast.Call) and text.startswith("argparse.ArgumentParser("):
                    offenders.append("%s:%d: argparse.ArgumentParser (use cli.Parser)"
                                     % (here, node.lineno))
                elif isinstance(node, ast.ClassDef) and here != "tools/cli.py" and any(
                        ast.unparse(b).endswith("ArgumentParser") for b in node.bases):
                    offenders.append("%s:%d: class %s (use cli.Parser)"
                                     % (here, node.lineno, node.name))
                elif (isinstance(node, ast.Call) and text.startswith("os.path.dirname(")
                      and "__file__" in text and text.count("os.path.dirname(") >= 3):
                    offenders.append("%s:%d: the checkout's path (use cli.ROOT)"
                                     % (here, node.lineno))
    assert offenders == []
