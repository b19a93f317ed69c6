"""Settings lost, a game saved: the game's own rules become the settings (app.App.resume).

When settings.json was damaged or missing at boot, a game saved before must not be
refused for a layout, or replaced by a new game for the players or the expert rule, that
only the lost settings knew.
"""

from .preferences import RANGES, check_settings


def adopt_layout(app, saved):
    """Settings lost: take the layout of the saved game about to resume (when it is a
    named arrangement and no other game is held), so that it is not refused for it."""
    game = saved.get("game") if isinstance(saved, dict) else None
    name = game.get("layout") if isinstance(game, dict) else None
    if not isinstance(name, str) or name.count(":") != 1:
        return
    side, tiles = name.split(":")
    s = app.settings
    if (side, tiles) == (s["side"], s["tiles"]):
        return
    for mode in app.modes.values():
        if getattr(mode, "game", None) is not None:
            return
    if check_settings({"side": side, "tiles": tiles})[1] is None:
        s["side"] = side
        s["tiles"] = tiles
        app.apply_layout()
        app.saver.save_settings(app.settings)


def adopt_rules(app, name, game):
    """Settings lost: the rules of the game just resumed become the settings (the referee
    would otherwise start a new game over it, see modes/referee.py)."""
    if game is None:
        return
    s = app.settings
    if name == "referee":
        s["players"] = game.players
    elif game.difficulty <= RANGES["difficulty"][1]:
        s["difficulty"] = game.difficulty
    s["expert"] = game.expert
    app.saver.save_settings(app.settings)
