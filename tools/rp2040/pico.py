"""One emulated Raspberry Pi Pico (rp2040py's cycle model), driven synchronously.

    pico = Pico(firmware_uf2, flash_image, led_pin=2, led_count=36, color_order="GRB",
                buttons=(10, 11, 12, 13, 14, 15))
    pico.run_until_ms(500)            # emulated time since power-on
    pico.set_buttons(1 << 4)          # A held (bit i = config button i, active low)
    pico.at_ms(700, pico.set_buttons, 0)   # exactly at 700 ms, inside the emulation
    pico.leds                         # [(t_ms, [(r, g, b), ... per LED]), ...] as latched
    pico.console                      # everything the board printed on its USB serial port
    pico.reset()                      # the RUN pin: RAM lost, flash kept
    pico.set_supply(3700, usb=False)  # VSYS in mV on ADC3 (GP29, through the board's
                                      # 3:1 divider) and VBUS sense (GP24), as the board
                                      # kind wires them (board="pico_w"...: boards.py)
    pico.flash_image()                # the filesystem region as bytes (image.read_files)
    pico.flash.log                    # every erase and page program: (ms, opcode, ...)

The emulator runs on the calling thread, batch by batch (no asyncio): an event scheduled
with ``at_ms`` fires inside the clock at that emulated nanosecond, so button edges land
exactly where a script puts them. Emulated time is the model's (125 MHz, instruction
cycle counts). The flash chip is busy for the W25Q16JV's typical erase and program times
(``flash_times="worst"``: the datasheet's maximum; None: no time, rp2040py's own model),
which the bootrom waits out with interrupts off, as on a Pico (flash_timing.py). A state
machine's FIFOs are joined as its SHIFTCTRL says (rp2040py keeps them 4 words each:
pio_fifos.py).
"""

import logging
import math
from pathlib import Path

RAM_START = 0x20000000
USB_VSYS_MV = 4800  # VSYS on USB power: VBUS (5 V) less the Pico's Schottky diode
TIMERAWH = 0x40054024
TIMERAWL = 0x40054028


class EmulatorMissing(RuntimeError):
    """rp2040py or littlefs-python is not installed."""


def _modules():
    try:
        from rp2040py.boards import BOARDS, build_rp2040, resolve_layout
        from rp2040py.device.bootrom import BOOTROM_B1
        from rp2040py.device.load_flash import load_uf2
        from rp2040py.external.ws2812 import Ws2812
        from rp2040py.simulator import Simulator, clock_tick_batch_size, execute_batch
        from rp2040py.usb.cdc import USBCDC
        from rp2040py.utils.logging import ConsoleLogger, LogLevel
    except ImportError as e:  # pragma: no cover - requirements/rp2040.txt pins it
        raise EmulatorMissing("rp2040py is missing (%s): run `make venv`" % e) from e
    return {"BOARDS": BOARDS, "build_rp2040": build_rp2040, "resolve_layout": resolve_layout,
            "BOOTROM_B1": BOOTROM_B1, "load_uf2": load_uf2, "Ws2812": Ws2812,
            "Simulator": Simulator, "USBCDC": USBCDC, "ConsoleLogger": ConsoleLogger,
            "LogLevel": LogLevel, "execute_batch": execute_batch,
            "clock_tick_batch_size": clock_tick_batch_size}


def flash_layout(family="micropython"):
    """The filesystem region of a Pico: ``(start, block_size, block_count)``; ``family``
    "circuitpython" for CircuitPython's FAT drive (tools/rp2040/circuitpython.py)."""
    m = _modules()
    layout = m["resolve_layout"](m["BOARDS"]["pico"], family)
    return layout.fs_start, layout.fs_blocksize, layout.fs_blockcount


class Pico:
    """An RP2040 with the MicroPython image, a filesystem, an LED line and six buttons."""

    def __init__(self, firmware, flash_image=None, led_pin=2, color_order="GRB",
                 buttons=(10, 11, 12, 13, 14, 15), family="micropython",
                 flash_times="typical", board="pico", floating_mv=0):
        m = _modules()
        logging.getLogger("rp2040py").setLevel(logging.CRITICAL)
        self.sim = m["Simulator"](rp2040=m["build_rp2040"]("pico"))
        mcu = self.mcu = self.sim.rp2040
        mcu.logger = m["ConsoleLogger"](m["LogLevel"].ERROR)
        mcu.load_bootrom(m["BOOTROM_B1"])
        # Simulator._execute_batch reads its batch size from the environment at every batch
        # (some 5000 a second): read once here, the same value
        self._batch = m["execute_batch"]
        self._tick_batch = m["clock_tick_batch_size"]()
        _quick_systick(mcu)
        m["load_uf2"](Path(firmware), mcu)
        from .boards import Wiring
        from .flash_timing import FlashTiming  # rp2040py: after _modules() said it is there
        from .pio_fifos import join_fifos

        join_fifos(mcu)  # a joined FIFO 8 words deep, as rp2_pio's button watcher expects
        self.flash = FlashTiming(mcu, flash_times) if flash_times is not None else None
        self.wiring = Wiring(board, floating_mv)
        adc = mcu.adc
        plain_read = adc.on_adc_read

        def adc_read(channel):  # ADC3 as this board wires GP29, at the moment of the read
            if channel == 3:
                adc.channel_values[3] = self.wiring.adc3(mcu.gpio, self.supply[0])
            plain_read(channel)

        adc.on_adc_read = adc_read
        self._fs = flash_layout(family)
        if flash_image is not None:
            self.load_flash_image(flash_image)
        self.cdc = m["USBCDC"](mcu.usb_ctrl)
        self._out = bytearray()
        self.cdc.on_serial_data = self._out.extend
        self.cdc.on_device_connected = self._connected
        self._quiet_host()
        self.connected = False
        self.leds = []
        self._ws = m["Ws2812"](led_pin, color_order=color_order, on_pixels=self._latched)
        self._ws.attach(mcu)
        self.button_pins = tuple(buttons)
        self.mask = 0
        self._alarms = []
        mcu.core.pc = 0x10000000
        self.sim.stopped = False
        self.set_supply(USB_VSYS_MV, usb=True)  # a Pico on its USB cable, as the tests run it

    def set_supply(self, millivolts, usb):
        """What powers the board: ``millivolts`` on VSYS, as ADC3 (GP29) reads it through
        the Pico's 3:1 divider (12 bits of 3.3 V), and USB present on GP24 (VBUS sense).
        The emulator starts both at 0, which the firmware's gauge would read as a dead
        cell."""
        self.supply = (millivolts, usb)  # kept over a reset, as the buttons are
        self.mcu.adc.channel_values[3] = self.wiring.adc3(self.mcu.gpio, millivolts)
        level = self.wiring.gp24(usb)
        if level is None:
            self.mcu.gpio[24].release_input()  # undriven: the pad's pull decides
        else:
            self.mcu.gpio[24].set_input_value(level)

    # -- time -----------------------------------------------------------------------------
    @property
    def ms(self):
        """Emulated time since the emulator started, in ms (float)."""
        return self.sim.clock.nanos / 1e6

    def board_us(self):
        """The board's own microsecond timer (what ``time.ticks_us`` reads, unwrapped)."""
        mcu = self.mcu
        low = mcu.read_uint32(TIMERAWL)
        return mcu.read_uint32(TIMERAWH) << 32 | low

    def run_until_ms(self, ms):
        """Run the emulation until ``ms`` of emulated time."""
        end = ms * 1e6
        clock = self.sim.clock
        still = 0
        while clock.nanos < end:
            before = clock.nanos
            self._batch(self.sim, self._tick_batch)  # Simulator._execute_batch
            if self.sim.engine_room_error is not None:  # pragma: no cover
                raise self.sim.engine_room_error
            still = still + 1 if clock.nanos == before else 0
            if still > 2000:  # no instruction and no alarm moves time on: it never will
                raise RuntimeError("the emulated board is stuck at %.3f ms (pc %#x)"
                                   % (self.ms, self.mcu.core.pc))

    def run_for_ms(self, ms):
        self.run_until_ms(self.ms + ms)

    def run_until(self, condition, limit_ms, step_ms=20):
        """Run until ``condition()`` holds (checked every ``step_ms``); False at ``limit_ms``."""
        while not condition():
            if self.ms >= limit_ms:
                return False
            self.run_until_ms(min(self.ms + step_ms, limit_ms))
        return True

    def at_ms(self, ms, fn, *args):
        """Call ``fn(*args)`` inside the emulation at exactly ``ms`` emulated ms (or now)."""
        delay = max(0.0, ms * 1e6 - self.sim.clock.nanos)
        holder = []

        def fire():
            self._alarms.remove(holder[0])
            fn(*args)

        alarm = self.sim.clock.create_alarm(fire)
        holder.append(alarm)
        self._alarms.append(alarm)
        alarm.schedule(delay)

    # -- pins -----------------------------------------------------------------------------
    def set_buttons(self, mask):
        """Hold the buttons in ``mask`` (bit i: ``button_pins[i]`` shorted to GND), release
        the others (their pins float to the firmware's pull-ups)."""
        self.mask = mask
        gpio = self.mcu.gpio
        for i, pin in enumerate(self.button_pins):
            if mask >> i & 1:
                gpio[pin].set_input_value(False)
            else:
                gpio[pin].release_input()

    def _latched(self, pixels):
        self.leds.append((self.ms, list(pixels)))

    # -- console --------------------------------------------------------------------------
    def _quiet_host(self):
        """Make the emulated USB host answer a read of the serial port only when it has
        something to send, as a real host does.

        rp2040py's CDC host completes every OUT transfer the firmware arms at once, with
        zero bytes when it has none; TinyUSB re-arms at once, and the interrupts of that
        storm took about two thirds of the emulated CPU (a plain loop ran 3.0x slower with
        USB up than before it). Holding the transfer until there is data removes that.
        """
        usb = self.cdc.usb
        answer = usb.on_endpoint_read
        cdc = self.cdc
        self._held_read = None

        def on_read(endpoint, size):
            if endpoint == cdc._out_endpoint and not cdc.tx_fifo.item_count:
                self._held_read = (endpoint, size)
                return
            answer(endpoint, size)

        self._answer_read = answer
        usb.on_endpoint_read = on_read

    def send_serial(self, data):
        """Type ``data`` (bytes) into the board's serial console."""
        for b in data:
            self.cdc.send_serial_byte(b)
        if self._held_read is not None:
            held, self._held_read = self._held_read, None
            self._answer_read(*held)

    def _connected(self):
        self.connected = True
        self.send_serial(b"\r\n")

    @property
    def console(self):
        return self._out.decode("utf-8", "replace").replace("\r\n", "\n")

    # -- memory and flash -----------------------------------------------------------------
    def ram(self, address, length):
        """``length`` bytes of SRAM from ``address`` (a copy)."""
        off = address - RAM_START
        return bytes(self.mcu.sram[off:off + length])

    def write_ram(self, address, data):
        off = address - RAM_START
        self.mcu.sram[off:off + len(data)] = data

    def find_ram(self, pattern):
        """The address of ``pattern`` in SRAM, or None."""
        off = bytes(self.mcu.sram).find(pattern)
        return None if off < 0 else RAM_START + off

    def load_flash_image(self, data):
        start, size, count = self._fs
        if len(data) != size * count:
            raise ValueError("flash image is %d bytes, a Pico's filesystem %d" % (
                len(data), size * count))
        self.mcu.flash[start:start + len(data)] = data

    def flash_image(self):
        start, size, count = self._fs
        return bytes(self.mcu.flash[start:start + size * count])

    def reset(self):
        """The RUN pin pulsed: the chip restarts from flash; RAM is cleared here so that
        nothing of the last run (a probe's buffer) is mistaken for the new one's."""
        for alarm in self._alarms:
            alarm.cancel()
        self._alarms = []
        # The data line goes low with the reset: the strip latches what it had (a frame cut
        # short, which grid_frames drops). The decoder's own latch alarm would not fire
        # across the reset, and the next boot's first frame would be appended to the cut one.
        self._ws._latch()
        self.mcu.enter_reset()
        if self.flash is not None:
            self.flash.reset()
        self.mcu.sram[:] = bytes(len(self.mcu.sram))
        self.connected = False
        self._held_read = None
        self.mcu.leave_reset()
        self.set_buttons(self.mask)
        self.set_supply(*self.supply)


SYST_CVR = 0x018  # the SysTick's current value (rp2040py.peripherals.ppb)


def _quick_systick(mcu):
    """The SysTick's current value read and cleared in a few lines instead of rp2040py's
    chain of properties: the same arithmetic on the same fields, so the same values at the
    same nanosecond (the emulation is unchanged, only cheaper).

    MicroPython's ``machine.bitstream`` (the LED line, every frame) times each bit on the
    SysTick: it clears it once a bit and reads it some twenty times, which made these two
    registers some 7 % of the emulator's samples (py-spy, stock image, menu); measured,
    this saves about 3 % of the CPU (dev machine, 2-core x86_64, load 12-15: a stock boot
    27.3 -> 26.6 CPU-s, 2 s of menu 15.9 -> 15.3, run side by side). Other registers and any
    other set-up (the counter stopped, another mode or reload) go to rp2040py's own code.
    """
    from rp2040py.utils.timer32 import TimerMode

    ppb = mcu.ppb
    timer, alarm = ppb.systick_timer, ppb.systick_alarm
    clock = timer.clock
    plain_read, plain_write = ppb.read_uint32, ppb.write_uint32
    decrement, floor = TimerMode.DECREMENT, math.floor

    def usual():
        return (timer._enabled and timer._timer_mode == decrement and timer._base_freq
                and timer._prescaler_value and timer._top_value != 0xFFFFFFFF)

    def read(offset):
        if offset != SYST_CVR or not usual():
            return plain_read(offset)
        # Timer32.raw_counter and .counter for a decrementing counter below 2**32
        modulo = timer._top_value + 1
        ticks = ((clock.nanos - timer._base_nanos) / 1e9) * (
            timer._base_freq / timer._prescaler_value)
        delta = modulo - (ticks % modulo)
        return (floor(timer._base_value + delta + 0.5) % modulo) & 0xFFFFFFFF

    def write(offset, value):
        if (offset != SYST_CVR or not usual() or not alarm._enabled or alarm._target_value
                or len(timer.listeners) != 1):
            plain_write(offset, value)
            return
        # Timer32.set(0), then its one listener, Timer32PeriodicAlarm._update: the counter
        # at 0 reaches the target 0 again a full wrap later (top + 1 cycles)
        timer._base_value = 0
        timer._base_nanos = clock.nanos
        alarm._clock_alarm.cancel()
        alarm._clock_alarm.schedule(timer.to_nanos(timer._top_value + 1))

    ppb.read_uint32, ppb.write_uint32 = read, write
