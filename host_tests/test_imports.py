"""The import graph: no circle anywhere in firmware/ or tools/, and the layers of the
firmware point one way (rules below the device below the app; see docs/architecture.md).

Every import statement counts, a lazy one inside a function too: a circle that only
works because one side imports late is still a circle to a reader.
"""

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def modules():
    """``{module name: path}`` of every .py under firmware/ (names from firmware/) and
    tools/ (names from the checkout)."""
    out = {}
    for top, base in (("firmware", "firmware"), ("tools", "")):
        for folder, dirs, files in os.walk(os.path.join(ROOT, top)):
            dirs[:] = [d for d in dirs if d not in ("node_modules", "__pycache__")]
            for name in files:
                if not name.endswith(".py"):
                    continue
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, os.path.join(ROOT, base))[:-3].split(os.sep)
                if rel[-1] == "__init__":
                    rel = rel[:-1]
                out[".".join(rel)] = path
    return out


def imports(name, path, known):
    """The modules of ``known`` that module ``name`` imports."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[:len(parts) - node.level + 1] if node.level > 1 else parts
                base = ".".join(p for p in parts + [node.module or ""] if p)
            targets = [base + "." + alias.name for alias in node.names] + [base]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
                break
    return found


def graph():
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def circles(edges):
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_no_import_circle_in_firmware_or_tools():
    edges = graph()
    assert len(edges) > 80 and "microrobots.app" in edges and "tools.sim.driver" in edges
    assert circles(edges) == []


def test_the_circle_finder_finds_one():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


# Every firmware module's layer, by the longest matching name prefix, and the layers each
# layer may import (docs/architecture.md draws them). A module no prefix names fails the
# test: a new module is given its layer here. (tools/ folders join the same table.)
LAYERS = {
    "main": "handheld",
    "microrobots.__init__": "handheld",  # the package itself
    "microrobots.handheld": "handheld",
    "microrobots.app": "app",
    "microrobots.modes": "app",
    "microrobots.keys": "app",
    "microrobots.saving": "app",
    "microrobots.preferences": "app",
    "microrobots.frame": "pictures",  # frame.py and its kernels, frame_viper/_plain
    "microrobots.animations": "pictures",
    "microrobots.palette": "pictures",
    "microrobots.rules": "rules",
    "microrobots.device": "device",
    "microrobots.compat": "compat",
}
MAY_IMPORT = {
    "handheld": {"handheld", "app", "pictures", "rules", "device", "compat"},
    "app": {"app", "pictures", "rules", "device", "compat"},
    "pictures": {"pictures", "compat"},
    "rules": {"rules", "compat"},
    "device": {"device", "compat"},
    "compat": {"compat"},  # compat imports nothing of the project
}


def layer(name):
    """The layer of module ``name``: its longest prefix in LAYERS, or None."""
    if name == "microrobots":
        name = "microrobots.__init__"
    best = None
    for prefix in LAYERS:
        if (name == prefix or name.startswith(prefix + ".") or name.startswith(prefix + "_")
                ) and (best is None or len(prefix) > len(best)):
            best = prefix
    return LAYERS[best] if best is not None else None


def firmware_edges():
    firmware = os.path.join(ROOT, "firmware") + os.sep
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()
            if path.startswith(firmware)}


def test_every_firmware_module_has_a_layer_and_imports_only_what_its_layer_may():
    edges = firmware_edges()
    assert "microrobots.compat" in edges and "microrobots.rules.notation" in edges
    unplaced = sorted(name for name in edges if layer(name) is None)
    assert not unplaced, "modules with no layer in LAYERS: %s" % unplaced
    wrong = sorted((name, target) for name, targets in edges.items() for target in targets
                   if layer(target) not in MAY_IMPORT[layer(name)])
    assert not wrong, "imports against the layers: %s" % wrong


def test_the_layer_check_catches_an_arrow_up():
    assert layer("microrobots.compat") == "compat"
    assert layer("microrobots.frame_viper") == layer("microrobots.frame") == "pictures"
    assert layer("microrobots.rules.solver_viper") == "rules"
    assert layer("microrobots.device.hw.rp2") == "device"
    assert "rules" not in MAY_IMPORT[layer("microrobots.compat")]
    assert "app" not in MAY_IMPORT[layer("microrobots.device.display")]
    assert layer("microrobots.framework") is None  # a prefix is a whole name


# -- tools/ by kind (docs/tools.md draws the map) ---------------------------------------------
# Every folder and top-level module of tools/, its kind, and the other parts of tools/ it may
# import. The commands a user runs stand on cli.py (and on the firmware); the harness that
# the tests and make bench use (the emulated board, the benches) stands on the commands;
# Ricochet Robots is a product of its own: cli.py's conventions, nothing else of tools/ and
# nothing of the firmware; no tool imports the tests' helpers.
TOOLS = {
    # shared utility: paths, one-line errors, reading the user's files
    "tools.cli": ("utility", set()),
    # commands a user runs
    "tools.solve": ("command", {"tools.cli"}),
    "tools.boards": ("command", {"tools.cli"}),
    "tools.replay": ("command", {"tools.cli"}),
    "tools.lesson": ("command", {"tools.cli"}),
    "tools.worksheet": ("command", {"tools.cli", "tools.draw", "tools.lesson"}),
    "tools.flash": ("command", {"tools.cli", "tools.picoimage"}),
    "tools.circuitpy": ("command", {"tools.cli", "tools.flash", "tools.circuitpy_compiler"}),
    "tools.circuitpy_compiler": ("command", {"tools.cli"}),
    "tools.picoimage": ("command", {"tools.cli"}),
    "tools.sim": ("command", {"tools.cli", "tools.draw"}),
    "tools.sim.web": ("command", {"tools.cli", "tools.draw", "tools.sim"}),
    "tools.draw": ("command", {"tools.cli", "tools.sim"}),
    "tools.dist": ("command", {"tools.cli", "tools.picoimage", "tools.sim.web"}),
    # a product of its own
    "tools.ricochet": ("ricochet", {"tools.cli"}),
    # the harness of the tests and benches
    "tools.rp2040": ("harness", {"tools.cli", "tools.flash", "tools.picoimage", "tools.circuitpy",
                                 "tools.circuitpy_compiler", "tools.sim"}),
    "tools.mutate": ("harness", {"tools.cli"}),  # make mutate: mutmut over the rules and modes
    "tools.bench": ("harness", {"tools.cli", "tools.boards", "tools.draw", "tools.flash",
                                "tools.ricochet", "tools.rp2040", "tools.sim", "tools.sim.web"}),
}


def tools_part(name):
    """The entry of TOOLS a module of tools/ belongs to (the longest that contains it)."""
    best = None
    for part in TOOLS:
        if (name == part or name.startswith(part + ".")) and (best is None or len(part) > len(best)):
            best = part
    return best


def test_every_part_of_tools_has_a_declared_kind():
    folders = set()
    for entry in os.scandir(os.path.join(ROOT, "tools")):
        if entry.is_dir() and os.path.exists(os.path.join(entry.path, "__init__.py")):
            folders.add("tools." + entry.name)
        elif entry.name.endswith(".py") and entry.name != "__init__.py":
            folders.add("tools." + entry.name[:-3])
    folders.add("tools.sim.web")
    assert folders == set(TOOLS), (sorted(folders - set(TOOLS)), sorted(set(TOOLS) - folders))
    # the map of the commands names every part
    with open(os.path.join(ROOT, "docs", "tools.md"), encoding="utf-8") as f:
        doc = f.read()
    unnamed = [p for p in TOOLS if "tools/%s" % p[6:].replace(".", "/") not in doc]
    assert not unnamed, "docs/tools.md does not name %s" % unnamed


def test_each_part_of_tools_imports_only_what_its_kind_allows():
    edges = graph()
    wrong = []
    for name, targets in sorted(edges.items()):
        if name == "tools" or not name.startswith("tools."):
            continue
        part = tools_part(name)
        kind, allowed = TOOLS[part]
        for target in sorted(targets):
            if target.startswith("tools."):
                other = tools_part(target)
                if other != part and other not in allowed:
                    wrong.append("%s (%s) imports %s" % (name, kind, target))
            elif target.startswith("microrobots") and kind == "ricochet":
                wrong.append("%s (ricochet: self-contained) imports the firmware's %s"
                             % (name, target))
    assert wrong == []


def test_the_tools_layer_check_sees_a_wrong_import():
    assert tools_part("tools.sim.web.page") == "tools.sim.web"
    assert tools_part("tools.sim.headless") == "tools.sim"
    assert "tools.rp2040" not in TOOLS["tools.ricochet"][1]
    assert "tools.bench" not in set().union(*(a for k, (_, a) in TOOLS.items() if k != "tools.bench"))
