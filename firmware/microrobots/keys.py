"""What a mode receives and what it may ask for: keys and sound requests.

Keys: the six buttons of input.py (UP, DOWN, LEFT, RIGHT, A, B; the D-pad acts when
pressed and repeats while held, A and B act when released) and A or B held (``LONG_A``,
``LONG_B``: about 0.6 s). Sound requests: ``app.beep(SOUND_*)``; ``TONES`` says how each
sounds, as ``(freq_hz, ms)`` steps for sound.Player (0 Hz: a rest).
"""

from .compat import const
from .device.input import A, B, DOWN, LEFT, RIGHT, UP  # noqa: F401 - the keys a mode receives

LONG_A = const(12)
LONG_B = const(13)

SOUND_CLICK = const(1)
SOUND_MOVE = const(2)
SOUND_REFUSE = const(3)
SOUND_GOOD = const(4)
SOUND_BAD = const(5)
SOUND_WIN = const(6)
SOUND_ROLL = const(7)
TONES = (
    (),
    ((2000, 15),),
    ((1200, 30),),
    ((220, 90), (0, 40), (220, 90)),
    ((660, 80), (880, 80), (1320, 160)),
    ((440, 120), (330, 200)),
    ((523, 120), (659, 120), (784, 120), (1047, 400)),
    ((900, 20), (0, 40), (1100, 20), (0, 60), (1300, 20)),
)
