"""Frame -> LED buffer: brightness, gamma, the power cap and the wiring order.

A frame is a ``bytearray(108)``: cell ``i`` (row-major, row 0 at the top) is
``frame[3*i:3*i+3]``, R, G, B in design values. ``Display.show(frame)`` turns it into the
bytes the LEDs receive and hands them to ``write`` (the hardware's ``show``), but only
when they differ from the last ones written::

    display = Display(config, write=hw.show)
    display.set_brightness(5)        # 1 (dim) .. 8 (full)
    display.show(frame)              # True if the LEDs were written

Per channel: ``lut[v]``, one table lookup that combines the brightness (a scale applied
to the design value, so each step looks equally brighter) and gamma 2.6 (so a design
value of 128 looks half as bright as 255). Nonzero stays nonzero: a dim cell never
vanishes at low brightness.

The power cap: USB gives 500 mA. A WS2812B draws about 1 mA idle and about 20 mA per
channel at value 255, so 36 LEDs leave 500 - 36 = 464 mA for light, i.e.
464 / 20 * 255 = 5916 channel-value units: the sum of all 108 values written in one frame
must stay <= ``brightness_cap`` (5900; 5550 for an 8x8 panel, whose 64 LEDs idle at
64 mA; see ``config.power_budget``). A frame that would exceed it is scaled down as a
whole (``v * cap // total``, integer math), so colours keep their hue. Brightness works
below the cap; the cap only bites on big bright frames.

``written`` keeps the last values written, in grid order (R, G, B per cell), for the
simulator and tests. ``show`` allocates nothing. Its loops over the 108 channels are one
kernel (display_viper.py): viper machine code on MicroPython, its plain twin elsewhere.
"""

from ..compat import NATIVE, const

# _show: each channel through the brightness-and-gamma table; if the sum exceeds ``cap``,
# every channel times cap // sum (the power cap); then, unless nothing changed (-1), the
# frame into ``written`` and, in wiring order, into the LED buffer. Returns the sum
# written, plus 65536 when the cap scaled it. One kernel, not three: native code costs
# heap, and this one runs every frame. The plain one leaves to C what bytes operations do.
if NATIVE:
    from .display_viper import _show
else:
    from .display_plain import _show

_CELLS = const(36)
_FRAME_BYTES = const(108)
_GRID = const(6)
_GAMMA = const(2.6)
_BRIGHTNESS_LEVELS = const(8)
_DEFAULT_BRIGHTNESS = const(5)
# Design-value scale (/256) of each brightness level 1..8: each step is about 1.65x
# brighter on the LEDs, from a maximum of 8/255 at level 1 to 255/255 at level 8.
_BRIGHTNESS_SCALE = const((0, 67, 81, 98, 119, 144, 174, 212, 256))
_RGB = const("RGB")

# gamma_table(_GAMMA) as computed in double precision. Kept as bytes, not computed at boot:
# the Pico's MicroPython has single-precision floats, whose powf rounds some entries one
# step up (the emulated board's LEDs then differed from the simulator's), and 255 pow()
# calls cost boot time. A bytes literal: a tuple of 256 ints would stay in the module's
# constants on the heap. host_tests/device/test_display.py checks it against the formula.
# (Names of the form ``_X = const(...)`` cost no entry in the module's globals and no
# interned name on a Pico: the compiler puts the value where it is used.)
_GAMMA_TABLE = const(
    b"\x00\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01"
    b"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x02\x02\x02\x02\x02\x02\x02\x02"
    b"\x03\x03\x03\x03\x03\x03\x04\x04\x04\x04\x05\x05\x05\x05\x05\x06\x06\x06\x06\x07\x07\x07"
    b"\x08\x08\x08\x09\x09\x09\x0a\x0a\x0a\x0b\x0b\x0b\x0c\x0c\x0d\x0d\x0d\x0e\x0e\x0f\x0f\x10"
    b"\x10\x11\x11\x12\x12\x13\x13\x14\x14\x15\x15\x16\x16\x17\x18\x18\x19\x19\x1a\x1b\x1b\x1c"
    b"\x1d\x1d\x1e\x1f\x1f\x20\x21\x22\x22\x23\x24\x25\x26\x26\x27\x28\x29\x2a\x2a\x2b\x2c\x2d"
    b"\x2e\x2f\x30\x31\x32\x33\x34\x35\x36\x37\x38\x39\x3a\x3b\x3c\x3d\x3e\x3f\x40\x41\x42\x44"
    b"\x45\x46\x47\x48\x49\x4b\x4c\x4d\x4e\x50\x51\x52\x54\x55\x56\x58\x59\x5a\x5c\x5d\x5e\x60"
    b"\x61\x63\x64\x66\x67\x69\x6a\x6c\x6d\x6f\x70\x72\x73\x75\x77\x78\x7a\x7c\x7d\x7f\x81\x82"
    b"\x84\x86\x88\x89\x8b\x8d\x8f\x91\x92\x94\x96\x98\x9a\x9c\x9e\xa0\xa2\xa4\xa6\xa8\xaa\xac"
    b"\xae\xb0\xb2\xb4\xb6\xb8\xba\xbc\xbf\xc1\xc3\xc5\xc7\xca\xcc\xce\xd1\xd3\xd5\xd7\xda\xdc"
    b"\xdf\xe1\xe3\xe6\xe8\xeb\xed\xf0\xf2\xf5\xf7\xfa\xfc\xff"
)


def led_map(config):
    """The LED index of each grid cell (a list of 36) for ``config``'s wiring.

    The grid is turned ``rotation`` degrees clockwise, placed on the matrix (an 8x8
    panel at ``window``), and the matrix is numbered from the ``origin`` corner along
    rows, every row the same way (``progressive``) or alternating (``serpentine``).
    """
    panel = config["matrix"] == "panel8x8"
    size = 8 if panel else _GRID
    col0, row0 = config["window"] if panel else (0, 0)
    rotation = config["rotation"]
    origin = config["origin"]
    serpentine = config["order"] == "serpentine"
    leds = []
    for cell in range(_CELLS):
        r, c = divmod(cell, _GRID)
        if rotation == 90:
            r, c = c, _GRID - 1 - r
        elif rotation == 180:
            r, c = _GRID - 1 - r, _GRID - 1 - c
        elif rotation == 270:
            r, c = _GRID - 1 - c, r
        y, x = r + row0, c + col0
        if origin.startswith("bottom"):
            y = size - 1 - y
        if origin.endswith("right"):
            x = size - 1 - x
        if serpentine and y % 2:
            x = size - 1 - x
        leds.append(y * size + x)
    return leds


def gamma_table(gamma=_GAMMA):
    """256 bytes, design value -> LED value; nonzero stays nonzero (the table for _GAMMA is
    a constant, read-only: a Pico keeps no copy of it)."""
    if gamma == _GAMMA:
        return _GAMMA_TABLE
    table = bytearray(256)
    for v in range(1, 256):
        table[v] = max(1, int(255 * (v / 255) ** gamma + 0.5))
    return table


class Display:
    """Shows frames on the LEDs described by ``config`` (see config.py).

    ``write(buf)`` receives ``buf`` in the pixel order the backend declares
    (``Hardware.PIXEL_ORDER``): ``"wiring"``, ``led_count * 3`` bytes in the LEDs' wiring
    order and ``color_order`` (panel LEDs outside the window stay dark); ``"grid"``, the
    108 bytes as the player sees them, R G B per cell, row-major (the web page).
    """

    def __init__(self, config, write=None, brightness=_DEFAULT_BRIGHTNESS, gamma=_GAMMA,
                 pixel_order="wiring"):
        self.write = write
        self.cap = config["brightness_cap"]
        grid = pixel_order == "grid"
        self.buf = bytearray(_FRAME_BYTES if grid else config["led_count"] * 3)
        self.written = bytearray(_FRAME_BYTES)
        self.total = 0  # sum of the values last written
        self.capped = False  # whether the cap scaled the last written frame down
        self.writes = 0
        self._next = bytearray(_FRAME_BYTES)
        self._shown = bytearray(_FRAME_BYTES)  # the frame last given to _show
        self._gamma = gamma_table(gamma)
        self._lut = bytearray(256)
        order = "RGB" if grid else config["color_order"]
        dest = bytearray(_FRAME_BYTES)  # LED buffer indices: 191 at most (an 8x8 panel)
        leds = None if grid else led_map(config)
        for cell in range(_CELLS):
            led = cell if grid else leds[cell]
            for ch in range(3):
                dest[3 * cell + ch] = 3 * led + order.index(_RGB[ch])
        self._dest = dest
        self._fresh = True  # nothing written yet: the first show always writes
        self.set_brightness(brightness)

    def set_brightness(self, level):
        """Brightness 1..8 (clamped); the next ``show`` uses it."""
        level = min(max(level, 1), _BRIGHTNESS_LEVELS)
        self.brightness = level
        scale = _BRIGHTNESS_SCALE[level]
        gamma = self._gamma
        lut = self._lut
        for v in range(256):
            scaled = (v * scale) >> 8
            lut[v] = gamma[scaled] if scaled or not v else 1
        self._fresh = True

    def show(self, frame):
        """Write ``frame`` if the LEDs would change; return True if written."""
        # The frame last computed, through the same table, gave what the LEDs show now:
        # one comparison in C instead of the kernel's passes (most frames repeat the last).
        if not self._fresh and frame == self._shown:
            return False
        done = _show(frame, self._lut, self._next, self.written, self.buf, self._dest,
                     self.cap, 1 if self._fresh else 0)
        self._shown[:] = frame
        if done < 0:
            return False
        self._fresh = False
        total = done & 65535
        capped = done > 65535
        self.total = total
        self.capped = capped
        self.writes = (self.writes + 1) & 0x3FFFFFFF  # stays a small int (50 a second: 248 days)
        if self.write is not None:
            self.write(self.buf)
        return True
