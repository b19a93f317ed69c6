"""The probe: what the harness adds to the flashed tree to see inside the running firmware.

The tree ``make flash`` writes stays as it is, but for one rename: the shipped ``main.py``
becomes ``firmware_main.py`` (the same bytes) and the probe takes its place as ``main.py``.
(Not ``boot.py``: MicroPython 1.28 starts USB only after ``boot.py`` returns, so a probe
there would silence the serial console.) The probe imports the shipped code as a module,
builds the same ``Device`` on the same hardware backend and calls the same
``Device.run()``. Around the shipped code it wraps a few calls: ``Device.step`` (a frame),
``hw.pressed_mask`` (the buttons the frame read, and its ``now``), ``hw.sleep_ms`` (the
idle part of a frame's period), ``display.show``, ``store.save``, ``store.write`` and
``store.remove`` (their share of the frame's time; ``saves`` counts the files a frame
wrote or removed) and ``Game.claim``; after each frame, outside its timing, it notes
whether the app was animating, or switched modes or stepped a switch's work (``app``).

A frame's work (``step_us``) is its whole period, from its start to the next frame's,
minus what was slept in it. Each wrapper costs a few microseconds of emulated time,
included in the figures.

Records go into one preallocated ``array('i')`` that the harness reads straight out of the
emulated SRAM (found by two magic words), so the probe prints nothing and allocates
nothing per frame. The harness also writes a command word into it: "collect the garbage
and report the heap in use", answered between two frames (and "how many modes the app
holds").

Layout (32-bit words): a header of ``HEADER`` words, then a ring of ``RING`` records of
``FIELDS`` words each (see ``FIELD_NAMES``).
"""

import struct

MAGIC = (0x2D525042, 0x1B0B0E77)  # < 2**30: small ints on the board, never a big int
HEADER = 80
SLOTS = 32  # answers to commands: values at ANSWERS, the command's number at DONE
ANSWERS = 16
DONE = ANSWERS + SLOTS
RING = 160
FIELD_NAMES = ("now", "mask", "step_us", "writes", "mode", "t_us", "show_us", "save_us",
               "saves", "claim_us", "app", "idle_us")
# "idle_us": what of the frame's period was slept, or spent by the probe on a command
# "app": what the app was doing at the end of the frame (read after its timing):
APP_BUSY = 1  # its mode animating (Mode.busy: no file may be written)
APP_SWITCHING = 2  # the frame switched modes, or stepped the switch's work (app.work)
FIELDS = len(FIELD_NAMES)
# header words: H_FRAMES frames begun, H_DONE the frames before it are complete
H_STAGE, H_FRAMES, H_ORIGIN, H_BASE, H_BOOT, H_SEED, H_CMD, H_DONE = range(2, 10)
STAGE_NAMES = {0: "not started", 1: "importing", 2: "running", 9: "probe failed"}
CMD_HEAP = 1  # collect, report the heap in use
CMD_WINDOW = 2  # collect, stop the collector, start counting the bytes allocated
CMD_WINDOW_END = 3  # report the bytes allocated since CMD_WINDOW, collector on again
CMD_MODES = 4  # report how many modes the app holds (app.modes: built, not put away)
CMD_FREE = 5  # collect, report the heap free (gc.mem_free)

SOURCE = """\
# main.py: the emulated-board harness's probe (tools/rp2040/probe.py), not firmware.
import gc
import sys
import time
from array import array

_H = %(header)d
_RING = %(ring)d
_F = %(fields)d
buf = array("i", [0] * (_H + _RING * _F))
buf[0] = %(m1)d
buf[1] = %(m2)d
buf[2] = 1
window = array("i", [0])


def _probe():
    gc.collect()
    buf[5] = gc.mem_alloc()
    from microrobots import handheld as fw
    from microrobots.device import hw
    from microrobots.rules import game as _game
    from microrobots.preferences import MODES

    modes = {}
    for i in range(len(MODES)):
        modes[MODES[i]] = i
    dev = fw.Device(hw.backend())
    buf[4] = getattr(dev, "_last", -1)
    gc.collect()
    buf[6] = gc.mem_alloc() - buf[5]
    buf[7] = dev.app.seed if dev.app is not None else -1
    board = dev.hw
    read = board.pressed_mask
    cur = array("i", [_H])  # the record of the frame running now (a frame within a
    depth = array("i", [0])  # frame's work is a record of its own): the frames open

    def pressed(t=None):  # (the frame's ticks, handheld.Device.step: no tuple of args)
        m = read(t)
        buf[cur[0]] = dev.now  # read right after the frame set its now
        buf[cur[0] + 1] = m
        return m

    board.pressed_mask = pressed
    sleep = board.sleep_ms

    def timed_sleep(ms):
        t = time.ticks_us()
        sleep(ms)
        buf[cur[0] + 11] += time.ticks_diff(time.ticks_us(), t)

    board.sleep_ms = timed_sleep
    display = dev.display
    show = display.show

    def timed_show(frame):
        t = time.ticks_us()
        r = show(frame)
        buf[cur[0] + 6] += time.ticks_diff(time.ticks_us(), t)
        return r

    display.show = timed_show
    store = dev.store
    save = store.save

    def timed_save(name, data):
        t = time.ticks_us()
        r = save(name, data)
        buf[cur[0] + 7] += time.ticks_diff(time.ticks_us(), t)
        buf[cur[0] + 8] += 1
        return r

    store.save = timed_save
    write = getattr(store, "write", None)

    def timed_write(name, text):
        t = time.ticks_us()
        r = write(name, text)
        buf[cur[0] + 7] += time.ticks_diff(time.ticks_us(), t)
        buf[cur[0] + 8] += 1
        return r

    if write is not None:
        store.write = timed_write
    remove = store.remove

    def timed_remove(name):
        t = time.ticks_us()
        remove(name)
        buf[cur[0] + 7] += time.ticks_diff(time.ticks_us(), t)
        buf[cur[0] + 8] += 1

    store.remove = timed_remove
    claim = _game.Game.claim

    def timed_claim(self, *args):
        t = time.ticks_us()
        r = claim(self, *args)
        buf[cur[0] + 9] += time.ticks_diff(time.ticks_us(), t)
        return r

    _game.Game.claim = timed_claim
    step = fw.Device.step

    def timed_step():
        t = time.ticks_us()
        n = buf[3]
        if n:  # the last frame's period ends here: its work is the period minus sleep
            j = _H + ((n - 1) %% _RING) * _F
            buf[j + 2] = time.ticks_diff(t, buf[j + 5]) - buf[j + 11]
        i = _H + (n %% _RING) * _F
        for k in range(_F):
            buf[i + k] = 0
        buf[i + 5] = t
        cur[0] = i
        buf[3] = n + 1
        app = dev.app
        switches = -1 if app is None else app.switches
        working = app is not None and app.work is not None
        depth[0] += 1
        step(dev)
        depth[0] -= 1
        buf[i + 3] = display.writes
        app = dev.app
        buf[i + 4] = -1 if app is None else modes.get(app.mode, 99)
        st = 0
        if app is not None:
            if app.switches != switches or working or app.switching:
                st = 2
            elif app.current.busy(dev.now):
                st = 1
        buf[i + 10] = st
        if depth[0]:
            return  # a frame within a frame's work: that frame is not done yet
        buf[%(h_done)d] = n  # every frame before this one is complete (its period ended)
        cmd = buf[8] & 255
        if cmd:  # between two frames, never inside one's timing
            t = time.ticks_us()
            seq = buf[8] >> 8
            if cmd == 1:
                gc.collect()
                v = gc.mem_alloc() - buf[5]
            elif cmd == 2:
                gc.collect()
                gc.disable()
                window[0] = gc.mem_alloc()
                v = 0
            elif cmd == 4:
                v = len(dev.app.modes) if dev.app is not None else -1
            elif cmd == 5:
                gc.collect()
                v = gc.mem_free()
            else:
                v = gc.mem_alloc() - window[0]
                gc.enable()
            buf[%(answers)d + seq %% %(slots)d] = v
            buf[%(done)d + seq %% %(slots)d] = seq
            buf[8] = 0
            buf[cur[0] + 11] += time.ticks_diff(time.ticks_us(), t)  # not the firmware's work

    dev.step = timed_step
    buf[2] = 2
    dev.run()


try:
    _probe()
except Exception as e:
    buf[2] = 9
    import sys
    sys.print_exception(e)
"""


PROBED_MAIN = "firmware_main.py"




def probed(tree, frozen=False):
    """A copy of the flash tree ``tree`` with the probe as main.py (see the docstring).

    ``frozen``: the board runs the Micro Robots image, whose built-in launcher hands over
    to a main.py on the filesystem: the probe imports the image's frozen package.
    """
    out = dict(tree)
    if not frozen:
        out[PROBED_MAIN] = out["main.py"]
    out["main.py"] = source().encode()
    return out


def source():
    """The probe's ``main.py`` (it imports the device loop, microrobots.handheld)."""
    return SOURCE % {"header": HEADER, "ring": RING, "fields": FIELDS, "m1": MAGIC[0],
                     "m2": MAGIC[1], "h_done": H_DONE, "answers": ANSWERS,
                     "slots": SLOTS, "done": DONE}


class ProbeReader:
    """Reads the probe's records out of an emulated Pico's SRAM."""

    def __init__(self, pico):
        self.pico = pico
        self.address = None
        self.read = 0  # records taken so far
        self.lost = 0
        self.seq = 0

    def find(self):
        if self.address is None:
            self.address = self.pico.find_ram(struct.pack("<2i", *MAGIC))
        return self.address is not None

    def header(self):
        return struct.unpack("<%di" % HEADER, self.pico.ram(self.address, 4 * HEADER))

    @property
    def stage(self):
        return self.header()[H_STAGE] if self.find() else 0

    def take(self):
        """The records written since the last call, oldest first, as dicts."""
        if not self.find():
            return []
        frames = self.header()[H_DONE]
        if frames - self.read > RING:
            self.lost += frames - self.read - RING
            self.read = frames - RING
        out = []
        size = 4 * FIELDS
        base = self.address + 4 * HEADER
        raw = self.pico.ram(base, size * RING)
        for n in range(self.read, frames):
            k = (n % RING) * size
            rec = dict(zip(FIELD_NAMES, struct.unpack("<%di" % FIELDS, raw[k:k + size])))
            rec["frame"] = n
            out.append(rec)
        self.read = frames
        return out

    def between_frames(self):
        """True between two frames: the last frame begun has ended (the firmware sleeps)."""
        h = self.header()
        return h[H_FRAMES] > 1 and h[H_FRAMES] == h[H_DONE] + 1

    def shown(self):
        """The frames the firmware had shown (display.writes) when its last frame ended:
        that frame's record, which ``take`` leaves open until the next frame begins."""
        n = self.header()[H_DONE]
        at = self.address + 4 * (HEADER + (n % RING) * FIELDS + FIELD_NAMES.index("writes"))
        return struct.unpack("<i", self.pico.ram(at, 4))[0]

    def command(self, cmd):
        """Send ``cmd`` (CMD_*); returns a callable that gives None until the board has
        done it, after its next frame, then the figure it reported."""
        self.seq += 1
        seq = self.seq
        self.pico.write_ram(self.address + 4 * H_CMD, struct.pack("<i", seq << 8 | cmd))

        def answer():
            h = self.header()
            k = seq % SLOTS
            return h[ANSWERS + k] if h[DONE + k] == seq else None

        return answer
