"""The web page's Python side: the firmware's Device on the page's board, in the browser.

Runs inside MicroPython's WebAssembly port (bundled by build.py with the firmware and
events.py) and, for the tests, under CPython. It never touches ``js``: the board is
firmware/microrobots/device/hw/web.py, this module only boots the device and answers the page::

    page.prepare(share)         # before boot: a share string's game onto the flash
    page.boot(problems)         # handheld.Device on hw.backend(); problems become notices
    page.step()                 # one frame (the page calls it every 20 ms)
    page.mode(); page.numbers()   # for the page's title and the dice's pips
    page.guide()                  # what to do now (the mode's own words), for the help line
    page.reached()                # the classroom's distances, for the projector view
    page.classroom()              # its puzzle, layer and pause (the projector's lesson)
    page.searches(start, target)  # breadth- and depth-first runs, the graph (tools/lesson.py)
    page.hold()                   # pause the classroom's automatic steps (as its UP does)
    page.language(table_json)     # the guide's words from now on (tools/i18n's table)
    page.masks(events_text)       # an events file as [[ms, mask], ...] (JSON), to replay
    page.export_flash()           # the flash as one file (flashfile.py), for Export
    page.import_flash(base64)     # such a file checked: {"files": {...}} or {"error": line}

The flash is ``FLASH`` in the port's in-memory filesystem; the page restores it from
its storage before boot and saves it back after every frame that changed it.
"""

import binascii
import json
import sys

import events
import flashfile
from microrobots import handheld
from microrobots.device import hw
from microrobots.preferences import SETTINGS, check_settings
from microrobots.rules.board import Layout
from microrobots.rules import notation
from microrobots.rules.game import GameError
from microrobots.device.store import Store

FLASH = "/flash/"

device = None


def prepare(share, root=FLASH):
    """Put the game a share string (``MR1....``) describes onto the flash, so that the
    device resumes it at boot; ``None`` or a one-line problem (the flash is left alone)."""
    try:
        game = notation.replay(share)
    except GameError as e:
        return "URL game: %s; starting as usual" % e
    name = game.layout.name
    if name is None:
        return "URL game: a custom layout cannot be set on the device; starting as usual"
    side, _, tiles = name.partition(":")
    store = Store(root)
    saved, _ = store.load("settings")
    settings, _ = check_settings(saved if saved is not None else {})
    settings["side"], settings["tiles"] = side, tiles
    settings["expert"] = game.expert
    if game.players == 1:
        if game.difficulty > 6:
            return "URL game: difficulty %d is more than the device offers (6)" % game.difficulty
        settings["difficulty"] = game.difficulty
        saved_game = {"mode": "solo", "game": game.to_dict(), "moves": []}
    else:
        settings["players"] = game.players
        saved_game = {"mode": "referee", "game": game.to_dict()}
    saved_game["seq"] = 1 << 20  # newer than any game on the flash: resumed at boot
    settings["mode"] = saved_game["mode"]  # and on show, whatever mode was left
    if not (store.save("settings", settings) and store.save(saved_game["mode"], saved_game)):
        return "URL game: %s" % store.error
    return None


def boot(problems="[]", root=FLASH):
    """Start the device; ``problems`` (JSON: a list of lines about the URL or the page's
    storage) are shown as the device shows a file it reset: on the console, and by the
    grid's blinking border."""
    global device
    device = handheld.Device(hw.backend(), root + "config.json", root)
    app = device.app
    lines = [p for p in json.loads(problems) if p]
    for line in lines:
        print("notice:", line)
    if lines and app is not None:
        text = "; ".join(lines)
        app.show_notice(text if not app.notice else app.notice + "; " + text, device.now)
    return device


def step():
    device.step()


def guide():
    """What to do now, in the mode's own words, the pieces in play named after it (the
    page's help line; tools/sim/driver.py reports the same to the terminal): "" during a
    switch or with the app stopped."""
    app = device.app
    mode = getattr(app, "current", None)
    if mode is None or app.switching:
        return ""
    from microrobots.modes import guide, pieces  # the words; the pieces in play after them

    return pieces.with_guide(app, guide.words(mode) or "")


def language(table_json):
    """The guide's words in the page's language: ``table_json`` is the language's table
    (tools/i18n, compiled from its catalogue; English: no entries). Only the simulators'
    guide reads it (firmware/microrobots/i18n.py): a Pico never installs one."""
    from microrobots import i18n

    table = json.loads(table_json)
    i18n.install(table if len(table) > 1 else None)


def reached():
    """The classroom's distances of the cells its wave has reached (-1: not yet), as JSON;
    "null" in any other mode (the projector view writes them on the cells)."""
    app = device.app
    mode = getattr(app, "current", None)
    if app is None or app.switching or app.mode != "classroom" or mode is None:
        return "null"
    from microrobots.modes import guide

    return json.dumps(guide.reached(mode))


def _classroom_mode():
    app = device.app
    mode = getattr(app, "current", None)
    if app is None or app.switching or app.mode != "classroom" or mode is None:
        return None
    return mode


def classroom():
    """The classroom's puzzle as JSON: ``{"start", "target", "layer", "wave", "paused"}``
    (``wave``: the search is on show, not the dice or the route's replay), or "null" in
    any other mode and while the dice roll."""
    mode = _classroom_mode()
    if mode is None or mode.game is None or not mode.screen.placed:
        return "null"
    return json.dumps({"start": mode.game.start, "target": mode.game.target,
                       "layer": mode.wave.layer, "wave": mode.screen is mode.layers,
                       "paused": bool(mode.paused)})


def searches(start, target):
    """Breadth-first and depth-first search from ``start`` to ``target`` on the device's
    layout, every move of its graph and the dice's names, as JSON (tools/lesson.py)."""
    import lesson  # only in the classroom's projector view

    solver = device.app.solver
    layout = device.app.layout
    return json.dumps({
        "bfs": lesson.Search(solver, start, target, lesson.BREADTH_FIRST).to_dict(),
        "dfs": lesson.Search(solver, start, target, lesson.DEPTH_FIRST).to_dict(),
        "edges": lesson.edges(solver),
        "tokens": [layout.token(i) for i in range(36)],
    })


def hold():
    """Pause the classroom's automatic steps, as its UP button does: the teacher steps
    the projector's search by hand and the device must not roll on under it."""
    mode = _classroom_mode()
    if mode is not None:
        mode.paused = True


def power():
    """The power state as JSON: "awake", "dimmed" or "asleep", the battery's charge
    (-1: on USB), low, on USB (the page's power line)."""
    p = device.power
    state = "asleep" if device.asleep else "dimmed" if p.dimmed else "awake"
    return json.dumps({"state": state, "percent": p.percent, "low": p.low,
                       "critical": p.critical, "usb": p.on_usb})


def mode():
    app = device.app
    return app.mode if app is not None else "halted"


def numbers():
    """The die numbers of the device's arrangement, as JSON (for drawing the pips)."""
    app = device.app
    layout = app.layout if app is not None else Layout.from_tiles(SETTINGS["side"],
                                                                  SETTINGS["tiles"])
    return json.dumps([layout.number(i) for i in range(36)])


def masks(text):
    """An events file as the buttons held from each time on: JSON ``[[ms, mask], ...]``,
    or ``{"error": "one line"}``."""
    try:
        lines = events.mask_lines(events.parse_events(text, "events"))
    except events.EventsError as e:
        return json.dumps({"error": str(e)})
    return json.dumps([[int(x) for x in line.split()] for line in lines])


def runtime():
    return "%s %s on %s" % (sys.implementation.name,
                            ".".join(str(v) for v in sys.implementation.version[:3]),
                            sys.platform)


def export_flash(root=FLASH):
    """The device's files on the flash as one file (flashfile.export), as text."""
    files = {}
    for name in flashfile.NAMES:
        try:
            with open(root + name, "rb") as f:
                files[name] = f.read()
        except OSError:
            pass
    return flashfile.export(files).decode()


def import_max():
    """The largest file import_flash can take, in bytes (the page refuses more unread)."""
    return flashfile.MAX_TOTAL


def import_flash(encoded):
    """A flash file (base64) checked as the device reads each of its files: JSON
    ``{"files": {name: text}}`` to put on the flash whole, or ``{"error": "one line"}``."""
    try:
        data = binascii.a2b_base64(encoded.encode())
    except Exception:  # noqa: BLE001 - (the page's own base64: never seen; a line, not a crash)
        return json.dumps({"error": "cannot be read"})
    files, problem = flashfile.check(data)
    if problem is not None:
        return json.dumps({"error": problem})
    return json.dumps({"files": {name: raw.decode() for name, raw in files.items()}})
