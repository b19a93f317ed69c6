"""xorshift32: one small PRNG that rolls the same dice on every runtime.

The game never uses the runtime's ``random``: one seed must give the same game on a
Pico, in the simulator and in tests, under MicroPython and CPython alike.

On the Pico (rp2) MicroPython's small ints hold 31 bits, so a 32-bit state would be a
heap-allocated big int after every shift. The state is therefore kept as two 16-bit
halves and every intermediate value stays below 2**29: ``below`` allocates nothing on
any port.

The generator is Marsaglia's xorshift32 (shifts 13, 17, 5) on the 32-bit value
``hi << 16 | lo`` (host_tests/rules/test_rng.py checks it against the textbook version).
"""

from ..compat import const

_MIX_HI = const(0x9E37)  # seeds are xor-ed with 0x9E3779B9, so seed 0 is valid too
_MIX_LO = const(0x79B9)
_WARMUP = const(16)  # xorshift is linear: discard outputs so nearby seeds diverge
MAX_SEED = 0xFFFFFFFF
_GAME_STEP = const(7919)  # a prime: the games of one boot seed lie far apart


def game_seed(seed, n):
    """The seed of the ``n``-th new game (1 = the first) of a device booted with ``seed``
    (app.App.new_seed). A classroom lesson N plays the first game of a device booted
    with N (modes/classroom.lesson_game): the handheld, the web page's ``?seed=N`` and
    the worksheets' ``--seed N`` roll their puzzles through this one function."""
    return (seed + n * _GAME_STEP) & 0x3FFFFFFF


class XorShift32:
    """A reproducible generator. ``XorShift32(seed)`` with 0 <= seed <= 0xFFFFFFFF."""

    def __init__(self, seed=0):
        self.hi = 0
        self.lo = 0
        self.seed(seed)

    def seed(self, seed):
        """Restart the sequence from ``seed`` (an int, 0..0xFFFFFFFF)."""
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
            raise ValueError("seed must be an int from 0 to %d, not %r" % (MAX_SEED, seed))
        hi = ((seed >> 16) & 0xFFFF) ^ _MIX_HI
        lo = (seed & 0xFFFF) ^ _MIX_LO
        if hi == 0 and lo == 0:  # the one fixed point of xorshift: avoid it
            hi = _MIX_HI
        self.hi = hi
        self.lo = lo
        for _ in range(_WARMUP):
            self._step()

    def _step(self):
        hi = self.hi
        lo = self.lo
        # x ^= x << 13 (mod 2**32)
        hi ^= ((hi << 13) | (lo >> 3)) & 0xFFFF
        lo ^= (lo << 13) & 0xFFFF
        # x ^= x >> 17: only hi's upper 15 bits reach lo
        lo ^= hi >> 1
        # x ^= x << 5 (mod 2**32)
        hi ^= ((hi << 5) | (lo >> 11)) & 0xFFFF
        lo ^= (lo << 5) & 0xFFFF
        self.hi = hi
        self.lo = lo

    def below(self, n):
        """Advance and return an int in ``0 .. n-1`` (1 <= n <= 16384), allocation-free.

        The full 32-bit value modulo ``n`` (bias below 1e-9 for a die).
        """
        self._step()
        return ((self.hi % n) * 65536 + self.lo) % n
