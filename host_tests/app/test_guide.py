"""modes/guide.py: the help line's words, kept apart from the modes so that a Pico never
loads them. Its copies of the modes' state numbers must be theirs."""

import pytest

from microrobots.modes import classroom, guide, menu, referee_screens, settings, solo


@pytest.mark.parametrize("module, prefix, names", [
    (solo, "SOLO_", ("PLAY", "SOLVED", "SCORE")),
    (referee_screens, "REF_", ("BOARD", "PLAYER", "COUNT", "DEMO", "RESULT", "REVEAL", "SCORES",
                       "UNDO", "WHY")),
    (classroom, "ROOM_", ("WAVE",)),
    (settings, "SET_", ("SHUFFLE", "MATCH")),
])
def test_the_guide_numbers_each_modes_states_as_the_mode_does(module, prefix, names):
    # (a mode's own consts are private, ``_ROLL``; the referee's, shared by its two
    # modules, are public in referee_screens.py)
    def state(name):
        return getattr(module, "_" + name, getattr(module, name, None))

    assert (state("ROLL") or 0) == guide.ROLL
    for name in names:
        assert getattr(guide, prefix + name) == state(name), name


def test_the_guide_names_the_settings_and_the_menus_quadrants_in_their_order():
    assert guide.ITEMS == settings._ITEMS and len(guide.NAMES) == len(settings._ITEMS)
    assert guide.TARGETS == menu._TARGETS


def test_a_pico_never_loads_the_words(tmp_path):
    """The firmware's frame loop, in every mode, without a simulator asking for words:
    modes/guide.py stays unimported (its strings would take a Pico's RAM)."""
    import sys

    from tools.sim.script import Session

    sys.modules.pop("microrobots.modes.guide", None)
    s = Session(seed=4, state=str(tmp_path))
    s.driver._report = lambda t: None  # the device alone: nobody asks for the guide
    for quadrant in ([], ["right"], ["down"], ["down", "right"]):
        for key in quadrant:
            s.tap(key)
        s.tap("a")
        s.wait(2000)
        s.tap("a")
        s.wait(500)
        s.hold("b")
        for key in quadrant:
            s.tap({"right": "left", "down": "up"}[key])
    assert "microrobots.modes.guide" not in sys.modules
    import importlib

    importlib.import_module("microrobots.modes.guide")  # as it was, for the other tests
