"""The PIO FIFOs as deep as SHIFTCTRL's join bits make them, as on silicon.

rp2040py gives every state machine an RX and a TX FIFO of 4 words and ignores SHIFTCTRL's
FJOIN_RX and FJOIN_TX (bits 31 and 30). On an RP2040 a join gives one FIFO the other's
storage: 8 words, the other disabled, "always reads as both full and empty", and both
flushed when a join bit changes (RP2040 datasheet, 3.7 SMx_SHIFTCTRL). hw/rp2_pio.py's
button watcher joins its RX FIFO (``fifo_join=rp2.PIO.JOIN_RX``) and counts on the 8
words: 2 changes pushed a word each, then 4 to a word; at the 30th change of a freeze (26
in the FIFO, 3 in the ISR) its autopush finds the FIFO full and the state machine stalls,
sampling nothing until the CPU reads. In the model it stalled at the 14th (2 + 2 words of
4 + 3 in the ISR + the stalled push), and a tap that began and ended inside the stall was
lost: issue 31's planned case (15 changes in two 400 ms erases back to back, B's second
tap the 15th). ``join_fifos(mcu)`` puts FIFOs that read the join bits in place.
"""

from rp2040py.utils.fifo import FIFO

FJOIN_RX = 1 << 31
FJOIN_TX = 1 << 30
DEPTH = 4


class JoinableFIFO(FIFO):
    """One FIFO of ``machine``: DEPTH words, twice that when SHIFTCTRL joins the other one
    (``own``, its join bit) into it, none when it is joined into the other (``other``).
    The state machine (rp2040py, native or not) reaches it only through these methods
    and properties."""

    def __init__(self, machine, own, other):
        super().__init__(2 * DEPTH)
        self._machine = machine
        self._own = own
        self._other = other
        self._join = 0

    def _depth(self):
        join = self._machine.shift_ctrl & (FJOIN_RX | FJOIN_TX)
        if join != self._join:  # a join bit changed: both FIFOs flushed
            self._join = join
            self._start = self._used = 0
        if join & self._own:
            return 2 * DEPTH
        return 0 if join & self._other else DEPTH

    @property
    def size(self):
        return self._depth()

    @property
    def item_count(self):
        self._depth()
        return self._used

    def push(self, value):
        if self._used < self._depth():
            super().push(value)

    def pull(self):
        self._depth()
        return super().pull()

    def peek(self):
        self._depth()
        return super().peek()

    @property
    def empty(self):
        self._depth()
        return self._used == 0

    @property
    def full(self):
        return self._used >= self._depth()

    @property
    def items(self):
        self._depth()
        return FIFO.items.fget(self)


def join_fifos(mcu):
    """Give every state machine of ``mcu`` (an rp2040py RP2040) FIFOs that honour the join
    bits. Call before the firmware runs: what the old FIFOs held is dropped."""
    for pio in mcu.pio:
        for machine in pio.machines:
            machine.rx_fifo = JoinableFIFO(machine, FJOIN_RX, FJOIN_TX)
            machine.tx_fifo = JoinableFIFO(machine, FJOIN_TX, FJOIN_RX)
