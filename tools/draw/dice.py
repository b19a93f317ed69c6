"""Where the pips of a die face sit, shared by every host-side drawing (overlay films,
PNG renders, the terminal simulator; the web page draws the same lattice) so that all
of them show the same dice. Their colours: tools/draw/colour.py.

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
