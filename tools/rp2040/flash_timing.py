"""The emulated flash chip takes the time a real one takes to erase and to program.

rp2040py's flash (rp2040py.peripherals.ssi.RPSSI) applies an erase or a page program the
moment chip-select rises, and its status register never says busy: a save costs no
emulated time. A Pico's W25Q16JV is busy (status register 1, bit 0: WIP) for the
datasheet's time after each one, and the bootrom's ``flash_range_erase`` and
``flash_range_program`` poll that bit with interrupts off (MicroPython's rp2_flash.c
wraps them in ``save_and_disable_interrupts``) and the XIP path stopped: the board is
frozen for that long. Here the bit reads 1 from the operation until an alarm on the
emulated clock clears it, so the bootrom's wait loop runs, instruction by instruction,
for that long::

    timing = FlashTiming(mcu, "typical")   # or "worst", or a dict of ms per operation
    timing.log                             # [(start_ms, opcode, address, busy_ms), ...]

W25Q16JV datasheet (rev. H, table 9.7 "AC electrical characteristics"), in ms:
sector erase 4 KB: 45 typical, 400 max; block erase 32 KB: 120 / 1600; 64 KB: 150 / 2000;
page program: 0.4 / 3. (A program of fewer than 256 bytes takes about as long: the chip
programs the page.) The 32 KB block erase (0x52) is not in rp2040py's command set: it
is applied here (the bootrom never sends it; a firmware that does gets it right).
"""

from rp2040py.peripherals import ssi

CMD_BLOCK_ERASE_32K = 0x52
STATUS_WIP_BIT = 0x01

TIMES_MS = {
    "typical": {ssi.CMD_SECTOR_ERASE: 45.0, CMD_BLOCK_ERASE_32K: 120.0,
                ssi.CMD_BLOCK_ERASE: 150.0, ssi.CMD_PAGE_PROGRAM: 0.4},
    "worst": {ssi.CMD_SECTOR_ERASE: 400.0, CMD_BLOCK_ERASE_32K: 1600.0,
              ssi.CMD_BLOCK_ERASE: 2000.0, ssi.CMD_PAGE_PROGRAM: 3.0},
}
_ERASE_SIZE = {ssi.CMD_SECTOR_ERASE: 4096, CMD_BLOCK_ERASE_32K: 32768,
               ssi.CMD_BLOCK_ERASE: 65536}


class FlashTiming:
    """Makes ``mcu``'s flash busy for ``times`` (a name of TIMES_MS, or {opcode: ms})
    after each erase and page program it applies."""

    def __init__(self, mcu, times="typical"):
        if isinstance(times, str):
            if times not in TIMES_MS:
                raise ValueError("flash timing %r: not one of %s" % (times, sorted(TIMES_MS)))
            times = TIMES_MS[times]
        self.times = dict(times)
        self.mcu = mcu
        self.log = []  # (start ms, opcode, address, busy ms) of every timed operation
        self.on_erase = None  # called inside the emulation as each erase begins: (ms, busy)
        self.busy = False
        self._clock = mcu.clock
        self._alarm = self._clock.create_alarm(self._done)
        flash = mcu.ssi
        # instance attributes shadow the class's methods: RPSSI calls them through self;
        # the class's are looked up at each call, so that a test that patches the class
        # (test_power_cut_rp2040) still sees every operation
        flash._shift_byte = self._shift_byte
        flash._apply_command = self._apply_command
        self._flash = flash

    def _done(self):
        self.busy = False

    def _shift_byte(self, byte_out):
        flash = self._flash
        answer = type(flash)._shift_byte(flash, byte_out)
        buf = flash._tx_buffer
        if len(buf) > 1 and buf[0] == ssi.CMD_READ_STATUS_1 and self.busy:
            answer |= STATUS_WIP_BIT
        return answer

    def _apply_command(self):
        flash = self._flash
        buf = flash._tx_buffer
        opcode = buf[0] if buf else 0
        timed = opcode in self.times and flash._write_enabled and len(buf) >= 4
        address = flash._address_from_buffer() if timed else 0
        if timed and opcode == CMD_BLOCK_ERASE_32K:
            size = _ERASE_SIZE[opcode]
            start = address & ~(size - 1)
            self.mcu.flash[start:start + size] = b"\xff" * size
            flash._write_enabled = False
            flash._tx_buffer = bytearray()
        else:
            type(flash)._apply_command(flash)
        if timed:
            ms = self.times[opcode]
            self.log.append((self._clock.nanos / 1e6, opcode, address, ms))
            self.busy = True
            self._alarm.schedule(ms * 1e6)  # (a scheduled alarm is moved)
            if self.on_erase is not None and opcode in _ERASE_SIZE:
                self.on_erase(self._clock.nanos / 1e6, ms)

    def reset(self):
        """The chip lost power or the board was reset: not busy any more."""
        if self.busy:  # (rp2040py's native alarms do not say whether they are scheduled)
            self._alarm.cancel()
        self.busy = False

    def erases(self):
        """The log's erases only."""
        return [entry for entry in self.log if entry[1] in _ERASE_SIZE]
