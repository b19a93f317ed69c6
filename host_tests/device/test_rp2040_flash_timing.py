"""The emulated flash chip's busy time (tools/rp2040/flash_timing.py), driven over the
SSI as the bootrom drives it: no firmware needed, so this runs in a second."""

import pytest

pytest.importorskip("rp2040py")

from rp2040py.boards import build_rp2040  # noqa: E402
from rp2040py.gpio_pin import GPIOPinState  # noqa: E402
from rp2040py.peripherals import ssi  # noqa: E402

from tools.rp2040.flash_timing import CMD_BLOCK_ERASE_32K, TIMES_MS, FlashTiming  # noqa: E402

SECTOR = 0x100000  # an address well inside the Pico's 2 MB


def command(mcu, *data):
    """One command framed by chip-select, as flash_do_cmd sends it; the bytes shifted back."""
    flash = mcu.ssi
    flash._ssienr = 1
    flash._on_cs_pin_changed(GPIOPinState.LOW, GPIOPinState.HIGH)
    for byte in data:
        flash.write_uint32(ssi.SSI_DR0, byte)
    answer = [flash.read_uint32(ssi.SSI_DR0) for _ in data]
    flash._on_cs_pin_changed(GPIOPinState.HIGH, GPIOPinState.LOW)
    return answer


def busy(mcu):
    return command(mcu, ssi.CMD_READ_STATUS_1, 0)[1] & 1


def erase(mcu, opcode, address):
    command(mcu, ssi.CMD_WRITE_ENABLE)
    command(mcu, opcode, address >> 16 & 255, address >> 8 & 255, address & 255)


@pytest.mark.parametrize("kind", sorted(TIMES_MS))
@pytest.mark.parametrize("opcode", [ssi.CMD_SECTOR_ERASE, CMD_BLOCK_ERASE_32K,
                                    ssi.CMD_BLOCK_ERASE, ssi.CMD_PAGE_PROGRAM])
def test_the_chip_is_busy_for_the_datasheets_time_after_each_operation(kind, opcode):
    mcu = build_rp2040("pico")
    timing = FlashTiming(mcu, kind)
    mcu.flash[SECTOR:SECTOR + 65537] = bytes(65537)
    assert not busy(mcu)
    if opcode == ssi.CMD_PAGE_PROGRAM:
        command(mcu, ssi.CMD_WRITE_ENABLE)
        command(mcu, opcode, SECTOR >> 16, 0, 0, 0x5A)
        assert mcu.flash[SECTOR] == 0  # programming clears bits only: 0 stays 0
    else:
        erase(mcu, opcode, SECTOR)
        size = {ssi.CMD_SECTOR_ERASE: 4096, CMD_BLOCK_ERASE_32K: 32768}.get(opcode, 65536)
        assert mcu.flash[SECTOR:SECTOR + size] == b"\xff" * size
        assert mcu.flash[SECTOR + size] == 0
    ms = TIMES_MS[kind][opcode]
    mcu.clock.tick(ms * 1e6 * 0.99)
    assert busy(mcu)  # the WIP bit, until the time is up
    mcu.clock.tick(ms * 1e6 * 0.02)
    assert not busy(mcu)
    assert [entry[1:] for entry in timing.log] == [(opcode, SECTOR, ms)]


def test_typical_and_worst_are_the_w25q16jv_datasheets_figures():
    assert TIMES_MS["typical"][ssi.CMD_SECTOR_ERASE] == 45
    assert TIMES_MS["worst"][ssi.CMD_SECTOR_ERASE] == 400
    assert TIMES_MS["worst"][ssi.CMD_PAGE_PROGRAM] == 3


def test_an_erase_without_write_enable_takes_no_time_and_erases_nothing():
    mcu = build_rp2040("pico")
    timing = FlashTiming(mcu)
    mcu.flash[SECTOR] = 0
    command(mcu, ssi.CMD_SECTOR_ERASE, SECTOR >> 16, 0, 0)
    assert mcu.flash[SECTOR] == 0 and not busy(mcu) and timing.log == []


def test_a_bad_timing_name_is_one_clear_error():
    with pytest.raises(ValueError, match="flash timing 'slow'"):
        FlashTiming(build_rp2040("pico"), "slow")


def test_a_reset_ends_the_busy_time_and_a_later_erase_is_timed_afresh():
    mcu = build_rp2040("pico")
    timing = FlashTiming(mcu)
    timing.reset()  # nothing scheduled: nothing to cancel
    erase(mcu, ssi.CMD_SECTOR_ERASE, SECTOR)
    assert busy(mcu)
    timing.reset()  # the RUN pin (Pico.reset)
    assert not busy(mcu)
    erase(mcu, ssi.CMD_SECTOR_ERASE, SECTOR)
    mcu.clock.tick(44e6)
    assert busy(mcu)
    mcu.clock.tick(2e6)
    assert not busy(mcu) and len(timing.erases()) == 2
