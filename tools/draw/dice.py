"""Where the pips of a die face sit, shared by every host-side drawing (overlay films,
PNG renders, the terminal simulator) so that all of them show the same dice.

Pip positions are (x, y) fractions of the face, 0..1 from its top-left corner, laid out
as on a standard die: a 3x3 lattice at 0.25 / 0.5 / 0.75.
"""

_L, _M, _H = 0.25, 0.5, 0.75

PIPS = {
    1: ((_M, _M),),
    2: ((_L, _L), (_H, _H)),
    3: ((_L, _L), (_M, _M), (_H, _H)),
    4: ((_L, _L), (_H, _L), (_L, _H), (_H, _H)),
    5: ((_L, _L), (_H, _L), (_M, _M), (_L, _H), (_H, _H)),
    6: ((_L, _L), (_H, _L), (_L, _M), (_H, _M), (_L, _H), (_H, _H)),
}

# Display colours of the six die colours on paper and screens (not on LEDs: see
# firmware/microrobots/palette.py for those), in the firmware's order B Y G R P W.
SCREEN_RGB = (
    (40, 110, 230),   # blue
    (245, 205, 30),   # yellow
    (40, 170, 70),    # green
    (215, 40, 40),    # red
    (240, 120, 190),  # pink
    (240, 240, 240),  # white
)
