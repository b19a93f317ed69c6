"""Run inside MicroPython by app/test_app_micropython.py (not a test module itself):
microrobots.app.App driven directly (no store) through every mode and screen, the heap
allocation measured over 60 frames of each; prints {screen: bytes allocated}."""
# ruff: noqa: E702 - a script of short steps, several a line
import gc, json
from microrobots.app import App
fr = bytearray(108)
app = App(None, seed=9)
T = [0]
out = {}

def ev(kind, b):
    app.handle(kind << 3 | b, T[0])

def switched():  # a mode switch takes a few frames
    while app.switching:
        T[0] += 20
        app.update(T[0])
        app.render(T[0], fr)

def tap(b, n=1):
    for _ in range(n):
        ev(1, b); T[0] += 60; ev(2, b); ev(5, b); T[0] += 80  # press, release, tap
        app.update(T[0])
        app.render(T[0], fr)
        switched()

def hold(b):
    ev(1, b); T[0] += 700; ev(3, b); T[0] += 100; ev(2, b); T[0] += 80
    if app.switching:
        app.update(T[0])
        app.render(T[0], fr)
        switched()

def measure(name, frames=60):
    app.update(T[0])
    app.render(T[0], fr)
    gc.collect(); gc.disable()
    a = gc.mem_alloc()
    for _ in range(frames):
        T[0] += 20
        app.update(T[0])
        app.render(T[0], fr)
    out[name] = gc.mem_alloc() - a
    gc.enable()

def goto(robot, cell):
    dr = cell // 6 - robot // 6
    dc = cell % 6 - robot % 6
    if dc:
        tap(3 if dc > 0 else 2, abs(dc))
    else:
        tap(1 if dr > 0 else 0, abs(dr))

measure("menu")
tap(4)                                  # solo
measure("solo dice", 40)
tap(5)
solo = app.current
route = solo.game.route()
measure("solo board")
goto(route[0], route[1])
measure("solo cursor")
hold(4)
measure("solo hint")
tap(5)
robot = route[0]
line = [c for c in range(36) if c != robot and (c // 6 == robot // 6 or c % 6 == robot % 6)
        and not app.solver.is_move(robot, c)]
if line:
    goto(robot, line[0]); tap(4)
    measure("solo refused", 20)
    tap(5)
solo.cursor = solo.robot
for c in route[1:]:
    goto(robot, c); tap(4); robot = c
assert solo.screen is solo.solved
measure("solo celebration", 100)
T[0] += 3000
measure("solo score", 100)
tap(4)
measure("solo replay", 200)
hold(5)                                 # menu
tap(3); tap(4)                          # referee
assert app.mode == "referee"
measure("referee dice", 40)
tap(5)
ref = app.current
measure("referee board")
tap(0)
measure("referee scores", 200)
tap(4)
tap(4)
measure("referee player nobody")
tap(1)
measure("referee player")
tap(4)
measure("referee count")
tap(0, 2); tap(4)
if ref.screen is ref.demo:
    measure("referee demonstration")
    hold(4)
measure("referee verdict", 40)
measure("referee why", 300)
tap(4)  # A: understood (B would ask to take the verdict back)
measure("referee verdict scores", 40)
tap(4); tap(5)
g = ref.game
s0 = g.start
bad = [c for c in range(36) if c != s0 and (c // 6 == s0 // 6 or c % 6 == s0 % 6)
       and not app.solver.is_move(s0, c)]
tap(4); tap(1); tap(4); tap(0, g.optimum() - 1); tap(4)
assert ref.screen is ref.demo and bad
goto(s0, bad[0]); tap(4)
if ref.screen is ref.demo:
    hold(4)
measure("referee verdict 2", 40)
assert ref.screen is ref.why and ref.code == 1
measure("referee why illegal", 300)
tap(4); tap(4); tap(5)
tap(5)
assert ref.screen is ref.undo
measure("referee undo question", 100)
tap(2)
hold(4)
measure("referee reveal", 200)
T[0] += 8000
while not ref.game.over:
    tap(5)
    r = ref.game.route()
    tap(4); tap(1); tap(4); tap(0, len(r) - 2); tap(4)
    robot = r[0]
    for c in r[1:]:
        goto(robot, c); tap(4); robot = c
    T[0] += 3000
    app.update(T[0])
    app.render(T[0], fr)
assert ref.game.over
measure("referee celebration", 100)
T[0] += 3000
measure("referee over", 100)
hold(5)
tap(1); tap(2); tap(4)                  # classroom (the menu remembers referee)
assert app.mode == "classroom"
measure("classroom dice", 40)
tap(4)
app.current.paused = True
measure("classroom wave")
tap(4, 2)
measure("classroom wave 2")
hold(5)
tap(3); tap(4)                          # settings
assert app.mode == "settings"
for item in range(13):  # the eleven settings, the battery and the self-test
    measure("settings %d" % (item + 1), 20)
    if item == 8:                       # the lesson: 57 takes two rows, its puzzle a third
        tap(3, 57)
        measure("settings 9, lesson 57", 20)
    if item == 12:                      # the self-test's four screens
        tap(4)
        assert app.mode == "selftest"
        measure("selftest colours", 40)
        tap(4, 4)
        ev(1, 0)
        measure("selftest buttons, up held", 20)
        ev(2, 0)
        for b in range(1, 6):           # (A and B tested here, not obeyed)
            tap(b)
        T[0] += 1100
        measure("selftest supply", 20)
        assert app.current.screen is app.current.supply
        tap(4)
        measure("selftest piezo", 80)
        hold(5)                         # the menu, then the settings again, at item 1
        tap(3); tap(1); tap(4)
        assert app.mode == "settings" and app.current.item == 0
        continue
    tap(1)
tap(1)                                  # arrangement
tap(3); tap(4)                          # shuffle
assert app.current.screen is app.current.shuffle
measure("settings shuffle", 80)
tap(5)
tap(3); tap(4)                          # match
assert app.current.screen is app.current.match
measure("settings match", 40)
tap(5); hold(5)
tap(2); tap(4)                          # the classroom with lesson 57
assert app.mode == "classroom" and app.settings["lesson"] == 57
measure("classroom lesson dice", 40)
tap(4)
app.current.paused = True
measure("classroom lesson wave")
print(json.dumps(out))
