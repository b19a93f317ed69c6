"""make flash: the plan, the copy onto a board, and every way it can fail.

A FakeBoard stands in for mpremote and a Pico: a folder is the board's flash, the
board-side scripts (the probe, the directory and clean-up script) run in the real
``micropython`` interpreter against that folder, ``fs cp`` copies into it. Only the
board's answers about its version are made up. The real mpremote is run too, with
no board attached, to prove the "no board" message.
"""

import ast
import json
import os
import shutil
import subprocess
import sys

import pytest

import tools.flash as flash
from tools import cli
from mpy import FIRMWARE, ROOT, micropython_binary

PICO = flash.encode_mpy(6, 3, "armv6m")
PICO2 = flash.encode_mpy(6, 3, "armv7emsp")
PICO_122 = flash.encode_mpy(6, 2, "armv6m")
USB_PICO = "/dev/ttyACM0 e6614c311b7e6f35 2e8a:0005 MicroPython Board in FS mode\n"
SERIAL_ONLY = "/dev/ttyS0 None 0000:0000 None None\n"


def run_on_board(board_dir, script):
    """Run a board-side script in micropython with the fake board as current folder."""
    proc = subprocess.run([micropython_binary(), "-c", script], cwd=board_dir,
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    return proc.stdout


class FakeBoard:
    """mpremote plus a Pico: answers the calls tools.flash makes, on a folder."""

    def __init__(self, path, listing=USB_PICO, version=(1, 24, 0), mpy=PICO,
                 name="micropython", raw_repl=True, image=None):
        self.path = path
        self.image = image  # (build, board): it runs the Micro Robots image
        self.listing = listing
        self.version = version
        self.mpy = mpy
        self.name = name
        self.raw_repl = raw_repl
        self.calls = []
        self.resets = 0
        os.makedirs(path, exist_ok=True)

    def __call__(self, args, timeout=120):
        self.calls.append(list(args))
        if args == ["connect", "list"]:
            return 0, self.listing, ""
        assert args[0] == "connect"
        if not self.raw_repl:
            return 1, "", "mpremote: could not enter raw repl\n"
        out = []
        command = []
        for word in args[2:] + ["+"]:
            if word != "+":
                command.append(word)
                continue
            out.append(self.run(command))
            command = []
        return 0, "".join(out), ""

    def run(self, command):
        if command[0] == "exec" and "MRPROBE" in command[1]:
            script = command[1].replace("_R = ''", "_R = %r" % self.path)
            text = run_on_board(self.path, script)
            line = next(x for x in text.splitlines() if x.startswith("MRPROBE "))
            answer = ast.literal_eval(line[8:])
            files, stock_main = answer[4], answer[6]
            return "MRPROBE %r\n" % ((self.name, self.version, self.mpy, "Fake Pico", files,
                                      self.image, stock_main),)
        if command[0] == "exec":
            return run_on_board(self.path, command[1])
        if command[:2] == ["fs", "cp"]:
            *sources, dest = command[2:]
            assert dest.startswith(":")
            said = []
            for src in sources:
                said.append("cp %s %s\n" % (src, dest))
                target = os.path.join(self.path, dest[1:])
                if dest.endswith("/"):
                    assert os.path.isdir(target), "cp into a missing folder " + dest
                    target = os.path.join(target, os.path.basename(src))
                with open(src, "rb") as f:
                    data = f.read()
                if os.path.exists(target) and FakeBoard.read(target) == data:
                    said.append("Up to date: %s\n" % os.path.relpath(target, self.path))
                    continue  # as mpremote does, comparing hashes
                with open(target, "wb") as f:
                    f.write(data)
            return "".join(said)
        if command == ["reset"]:
            self.resets += 1
            return ""
        raise AssertionError("unexpected mpremote command %r" % command)

    @staticmethod
    def read(path):
        with open(path, "rb") as f:
            return f.read()

    def files(self):
        found = {}
        for d, _, names in os.walk(self.path):
            for n in names:
                full = os.path.join(d, n)
                with open(full, "rb") as f:
                    found[os.path.relpath(full, self.path)] = f.read()
        return found


@pytest.fixture
def board(tmp_path, monkeypatch):
    fake = FakeBoard(str(tmp_path / "board"))
    monkeypatch.setattr(flash, "mpremote", fake)
    monkeypatch.setattr(flash, "BUILD", str(tmp_path / "build"))
    return fake


def flash_main(args, capsys):
    status = flash.main(args)
    out, err = capsys.readouterr()
    return status, out, err


def one_line_error(err, *words):
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


def modules():
    return [f for f in cli.firmware_files() if f.endswith(".py") and f != "main.py"]


# -- the plan ----------------------------------------------------------------------------

def test_dry_run_names_every_file_its_destination_and_the_compiler(capsys):
    status, out, err = flash_main(["--dry-run"], capsys)
    assert status == 0 and err == ""
    assert "-march=armv6m" in out and "v6.3" in out and "armv7emsp" in out
    assert "mpy-cross -march=armv6m" in out
    lines = out.splitlines()
    for rel in cli.firmware_files():
        line = next(x for x in lines if x.strip().startswith("firmware/" + rel + " "))
        if rel in modules():
            assert line.split()[1:] == ["compile", "->", ":" + rel[:-3] + ".mpy"]
        elif rel == "config.json":
            assert "keep" in line or "copy" in line
        else:
            assert line.split()[1:3] == ["copy", "->"] and line.split()[3] == ":" + rel


def test_dry_run_runs_without_a_board_as_a_command():
    proc = subprocess.run([sys.executable, "-m", "tools.flash", "--dry-run"], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "no board contacted" in proc.stdout


def test_firmware_files_skip_caches_tests_and_hidden_files(tmp_path):
    for rel in ["main.py", "config.json", "pkg/__init__.py", "pkg/a.py", "pkg/hw/rp2.py",
                "pkg/__pycache__/a.cpython-311.pyc", "pkg/a.mpy", "pkg/tests/test_a.py",
                ".hidden", "pkg/.swp"]:
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("x = 1\n")
    assert cli.firmware_files(str(tmp_path)) == [
        "config.json", "main.py", "pkg/__init__.py", "pkg/a.py", "pkg/hw/rp2.py"]


def test_mpy_header_decoding_matches_what_the_board_reports():
    pico = flash.Board(None, (1, 24, 0), PICO)
    assert (pico.mpy_version, pico.arch) == ((6, 3), "armv6m")
    assert flash.Board(None, (1, 24, 0), PICO2).arch == "armv7emsp"
    # the local interpreter's own value decodes to its architecture
    out = run_on_board(ROOT, "import sys; print(sys.implementation._mpy)")
    local = flash.Board(None, (1, 0, 0), int(out))
    assert local.arch == "x64" and local.mpy_version == flash.mpy_cross_version()


# -- a full flash on a fake board ------------------------------------------------------

def test_flash_installs_compiled_modules_and_keeps_the_boards_own_files(board, capsys):
    os.makedirs(os.path.join(board.path, "microrobots"))
    own = {"settings.json": b'{"brightness": 3}', "solo.json": b"{}", "referee.json": b"{}",
           "microrobots/rules/board.py": b"# an older source install\n",
           "notes.txt": b"mine", "lib/other.py": b"x = 1\n"}
    for rel, data in own.items():
        os.makedirs(os.path.dirname(os.path.join(board.path, rel)), exist_ok=True)
        with open(os.path.join(board.path, rel), "wb") as f:
            f.write(data)
    status, out, err = flash_main([], capsys)
    assert status == 0, err
    files = board.files()
    for rel in modules():
        data = files[rel[:-3] + ".mpy"]
        assert data[:2] == b"M\x06"
        assert rel not in files  # no source twin shadows the .mpy
    for rel, data in own.items():
        if rel != "microrobots/rules/board.py":
            assert files[rel] == data
    if "main.py" in cli.firmware_files():
        with open(os.path.join(FIRMWARE, "main.py"), "rb") as f:
            assert files["main.py"] == f.read()
    assert board.resets == 1
    assert board.calls[-1][-1] == "reset"
    assert "remove :microrobots/rules/board.py" in out and "done:" in out


@pytest.fixture
def viper_module(tmp_path, monkeypatch):
    """A firmware tree with one module of native (viper) code. (The project's own
    kernels, NAME_viper.py, are such modules too; this one is small and fixed.)"""
    root = tmp_path / "firmware"
    shutil.copytree(FIRMWARE, root, ignore=shutil.ignore_patterns("__pycache__"))
    (root / "microrobots" / "fast.py").write_text(
        "import micropython\n\n\n@micropython.viper\ndef double(x: int) -> int:\n"
        "    return x * 2\n")
    monkeypatch.setattr(flash, "FIRMWARE", str(root))
    return "microrobots/fast"


def test_native_code_is_compiled_for_the_boards_architecture(board, viper_module, capsys):
    board.mpy = PICO2
    assert flash_main([], capsys)[0] == 0
    headers = {rel: data[:4] for rel, data in board.files().items() if rel.endswith(".mpy")}
    arch = flash.ARCHES.index("armv7emsp")
    assert headers[viper_module + ".mpy"][2] == arch << 2 | 3  # viper: machine code
    assert headers["microrobots/rules/board.mpy"][2] == 0  # bytecode only
    assert headers["microrobots/rules/solver.mpy"][2] == 0  # viper compiled on the board


def test_micropython_1_22_gets_viper_modules_as_source(board, viper_module, capsys):
    board.version, board.mpy = (1, 22, 2), PICO_122
    status, out, _ = flash_main([], capsys)
    assert status == 0
    files = board.files()
    assert viper_module + ".py" in files and viper_module + ".mpy" not in files
    assert "microrobots/rules/board.mpy" in files and "microrobots/rules/board.py" not in files
    assert "native" in out


def test_source_option_copies_python_files(board, capsys):
    assert flash_main(["--source"], capsys)[0] == 0
    files = board.files()
    for rel in modules():
        with open(os.path.join(FIRMWARE, rel), "rb") as f:
            assert files[rel] == f.read()
    assert not any(rel.endswith(".mpy") for rel in files)


def test_flashing_again_copies_only_what_changed(board, capsys):
    assert flash_main([], capsys)[0] == 0
    count = len(cli.firmware_files())
    status, out, _ = flash_main([], capsys)
    assert status == 0
    assert "done: 0 files copied, %d already up to date" % count in out
    assert board.resets == 2


def test_a_second_flash_after_a_source_install_removes_the_py_twins(board, capsys):
    assert flash_main(["--source"], capsys)[0] == 0
    assert flash_main([], capsys)[0] == 0
    files = board.files()
    assert not any(rel.startswith("microrobots/") and rel.endswith(".py") for rel in files)


def test_config_json_is_copied_only_to_a_board_without_one(tmp_path, monkeypatch, capsys):
    firmware = tmp_path / "firmware"
    (firmware / "microrobots").mkdir(parents=True)
    (firmware / "microrobots" / "__init__.py").write_text("")
    (firmware / "main.py").write_text("import microrobots\n")
    (firmware / "config.json").write_text('{"pin": 0}\n')
    monkeypatch.setattr(flash, "FIRMWARE", str(firmware))
    monkeypatch.setattr(flash, "BUILD", str(tmp_path / "build"))
    fresh = FakeBoard(str(tmp_path / "fresh"))
    monkeypatch.setattr(flash, "mpremote", fresh)
    assert flash_main([], capsys)[0] == 0
    assert fresh.files()["config.json"] == b'{"pin": 0}\n'
    used = FakeBoard(str(tmp_path / "used"))
    with open(os.path.join(used.path, "config.json"), "w") as f:
        f.write('{"pin": 22}\n')
    monkeypatch.setattr(flash, "mpremote", used)
    status, out, _ = flash_main([], capsys)
    assert status == 0 and "keep     :config.json" in out
    assert used.files()["config.json"] == b'{"pin": 22}\n'
    assert sorted(used.files()) == ["config.json", "main.py", "microrobots/__init__.mpy"]


def test_compiled_tree_imports_in_micropython(tmp_path):
    """The staged .mpy files (compiled for this machine's micropython) import and work."""
    out = run_on_board(ROOT, "import sys; print(sys.implementation._mpy)")
    local = flash.Board(None, (1, 29, 0), int(out))
    plan = flash.stage(flash.make_plan(local), build=str(tmp_path))
    assert all(s.action == "compile" for s in plan.steps if s.src in modules())
    names = [rel[:-3].replace("/", ".").replace(".__init__", "") for rel in modules()
             if "/hw/" not in rel]
    script = ("import sys\nsys.path[:] = [%r]\n" % str(tmp_path)
              + "".join("import %s\n" % n for n in names)
              + "from microrobots.rules.board import Layout\nfrom microrobots.rules.solver import Solver\n"
              + "s = Solver(Layout.named('black'))\nprint(s.distance(0, 35))\n")
    got = run_on_board(str(tmp_path), script).split()[-1]
    from microrobots.rules.board import Layout
    from microrobots.rules.solver import Solver
    assert int(got) == Solver(Layout.named("black")).distance(0, 35)


# -- errors: one line, non-zero, no traceback ----------------------------------------------

def test_no_board(board, capsys):
    board.listing = SERIAL_ONLY
    status, _, err = flash_main([], capsys)
    assert status == 1
    one_line_error(err, "no board found", "PORT=")


def test_several_boards_are_listed(board, capsys):
    board.listing = USB_PICO + "/dev/ttyACM1 e66 2e8a:0005 MicroPython Board in FS mode\n"
    status, _, err = flash_main([], capsys)
    assert status == 1
    one_line_error(err, "several boards", "/dev/ttyACM0", "/dev/ttyACM1", "PORT=")


def test_port_selects_one_of_several(board, capsys):
    board.listing = USB_PICO + "/dev/ttyACM1 e66 2e8a:0005 MicroPython Board in FS mode\n"
    assert flash_main(["--port", "/dev/ttyACM1"], capsys)[0] == 0
    assert all(c[1] == "/dev/ttyACM1" for c in board.calls if c[0] == "connect" and
               c != ["connect", "list"])
    assert ["connect", "list"] not in board.calls


def test_board_without_micropython(board, capsys):
    board.raw_repl = False
    status, _, err = flash_main([], capsys)
    assert status == 1
    one_line_error(err, "does not answer as MicroPython", "/dev/ttyACM0")
    assert board.resets == 0


@pytest.mark.parametrize("version", [(1, 21, 0), (1, 19, 1)])
def test_too_old_micropython(board, capsys, version):
    board.version = version
    status, _, err = flash_main([], capsys)
    assert status == 1
    one_line_error(err, "MicroPython %d.%d.%d" % version, "1.22 or newer")
    assert len(board.calls) == 2 and board.files() == {}  # asked, wrote nothing


def test_circuitpython_board(board, capsys):
    board.name = "circuitpython"
    status, _, err = flash_main([], capsys)
    assert status == 1
    one_line_error(err, "circuitpython", "not MicroPython")


def real_usb_boards():
    proc = subprocess.run([sys.executable, "-m", "mpremote", "connect", "list"],
                          capture_output=True, text=True, check=False)
    return [x for x in proc.stdout.splitlines() if " 0000:0000 " not in x]


def test_real_mpremote_without_a_board():
    if real_usb_boards():
        pytest.skip("a USB serial device is attached")
    proc = subprocess.run([sys.executable, "-m", "tools.flash"], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 1
    one_line_error(proc.stderr, "no board found")
    proc = subprocess.run([sys.executable, "-m", "tools.flash", "--port", "/dev/ttyNOPE9"],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 1
    one_line_error(proc.stderr, "/dev/ttyNOPE9", "does not exist")


def test_bad_argument_exits_2():
    proc = subprocess.run([sys.executable, "-m", "tools.flash", "--bogus"], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


# -- package.json (mpremote mip install) ----------------------------------------------------

def test_package_json_lists_exactly_the_firmware_files():
    with open(os.path.join(ROOT, "package.json")) as f:
        manifest = json.load(f)
    assert manifest == flash.package_manifest(), \
        "package.json is stale: run python -m tools.flash --write-package-json"
    dests = [dest for dest, _ in manifest["urls"]]
    assert sorted(dests) == [f for f in flash.tracked_firmware_files() if f != "config.json"]
    for dest, url in manifest["urls"]:
        assert url == "firmware/" + dest and os.path.isfile(os.path.join(ROOT, url))
    assert "main.py" in dests or "main.py" not in flash.tracked_firmware_files()
    assert manifest["version"]


class FakeTransport:
    """The part of an mpremote transport that mip uses, writing into a folder."""

    def __init__(self, path):
        self.path = path

    def _local(self, p):
        return os.path.join(self.path, p.lstrip("/"))

    def fs_exists(self, p):
        return os.path.exists(self._local(p))

    def fs_mkdir(self, p):
        os.mkdir(self._local(p))

    def fs_writefile(self, p, data, progress_callback=None):
        with open(self._local(p), "wb") as f:
            f.write(data)


def test_mip_install_from_a_local_checkout_puts_every_file_in_place(tmp_path, monkeypatch,
                                                                      capsys):
    from mpremote import mip
    monkeypatch.chdir(ROOT)
    mip._install_json(FakeTransport(str(tmp_path)), "./package.json", "unused", "/", None,
                      False)
    capsys.readouterr()
    for rel in flash.tracked_firmware_files():
        if rel == "config.json":
            continue
        with open(os.path.join(FIRMWARE, rel), "rb") as a, open(tmp_path / rel, "rb") as b:
            assert a.read() == b.read()


# -- a board that runs the Micro Robots image (make firmware) -----------------------------

def stock_install(fake, main=None):
    """What an earlier stock-image make flash left on ``fake``, with the user's files."""
    os.makedirs(os.path.join(fake.path, "microrobots", "modes"))
    for rel in ("microrobots/app.mpy", "microrobots/modes/solo.mpy"):
        with open(os.path.join(fake.path, rel), "wb") as f:
            f.write(b"M\x06")
    with open(os.path.join(fake.path, "main.py"), "w") as f:
        f.write(main or open(os.path.join(FIRMWARE, "main.py")).read())
    for name in ("settings.json", "solo.json", "config.json"):
        with open(os.path.join(fake.path, name), "w") as f:
            f.write("{}")


def test_the_firmware_main_starts_as_the_image_launcher_expects():
    with open(os.path.join(FIRMWARE, "main.py")) as f:
        assert f.read().startswith(flash.STOCK_MAIN)
    with open(os.path.join(ROOT, "tools", "picoimage", "launcher.py")) as f:
        assert "STOCK_MAIN = %r" % flash.STOCK_MAIN in f.read()


def test_on_the_image_make_flash_removes_what_would_shadow_it_and_keeps_the_rest(board,
                                                                                    capsys):
    from tools.picoimage.__main__ import tree_key

    board.image = (tree_key("RPI_PICO"), "RPI_PICO")
    stock_install(board)
    status, out, err = flash_main([], capsys)
    assert status == 0, err
    assert sorted(board.files()) == ["config.json", "settings.json", "solo.json"]
    assert "removed :microrobots/modes/solo.mpy" in out and "removed :main.py" in out
    assert "nothing to copy" in out
    assert board.resets == 1
    assert not any(c[2:3] == ["fs"] for c in board.calls)  # no firmware file copied


def test_on_an_image_of_other_sources_make_flash_says_to_flash_the_new_uf2(board, capsys):
    board.image = ("0123456789abcdef", "RPI_PICO")
    stock_install(board, main="print('my own main')\n")
    status, out, err = flash_main([], capsys)
    assert status == 1
    one_line_error(err, "build 0123456789abcdef", "make firmware",
                   "build/firmware/microrobots-rpi_pico.uf2", "BOOTSEL")
    files = board.files()
    assert "main.py" in files  # the user's own main.py, not the stock install's: kept
    assert not any(name.startswith("microrobots") for name in files)
