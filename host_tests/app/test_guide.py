"""modes/guide.py: the help line's words, kept apart from the modes so that a Pico never
loads them. A screen names its words' function (every mode but the menu is made of
screens), and the guide finds it by that name."""

import pytest

from microrobots.modes import Screen, classroom, guide, menu, referee, settings, solo


class _App:
    settings = {"players": 2, "expert": False, "difficulty": 0, "lesson": 0, "aid": 0}


@pytest.mark.parametrize("module", [solo, referee, classroom, settings])
def test_every_screen_names_its_words_in_the_guide(module):
    """Each screen of a mode made of screens: its guide is a function of modes/guide.py,
    and guide.words finds it for the screen on show."""
    mode = module.Mode(_App())
    screens = [v for k, v in vars(mode).items() if isinstance(v, Screen) and k not in (
        "screen", "back")]  # (the one on show, the one an undo returns to)
    assert len(screens) >= 3 and mode.screen in screens
    assert len({type(s) for s in screens}) == len(screens)
    for name, screen in vars(mode).items():
        if isinstance(screen, Screen) and name not in ("screen", "back"):
            assert name == type(screen).__name__.lower()  # as the guide finds its words
            words = "%s_%s" % (mode.name, name)
            assert callable(getattr(guide, words, None)), words

    class Game:
        pass

    if hasattr(mode, "rolling"):  # a game's dice: the shared screen, the mode's words
        mode.game = Game()
        mode.screen = mode.rolling
        assert guide.words(mode) == getattr(guide, mode.name + "_rolling")(mode)


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
