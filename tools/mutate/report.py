"""The mutation report, from mutmut's results in build/mutate/<scope>/mutants/.

A mutant is known by its module, its function and the one line it changes (the line
before and after, stripped of spaces): ``mutmut``'s own numbers change whenever a function
is edited, these do not, so the reviewed list of equivalents keeps working as the code moves.

host_tests/mutation_equivalents.txt, one mutant per entry, blank lines between entries::

    microrobots.rules.walk  Walk.undo
    - if self.kept > 0:
    + if self.kept >= 1:
    why: kept is a whole number; > 0 and >= 1 are the same test.
"""

import ast
import fnmatch
import json
import os

KILLED = {1, 3, 36, 37, -24, 24, 152, 255, -11, -9}  # failed, timed out or crashed: caught
SURVIVED = 0
NO_TESTS = {5, 33}


def retry_survivors(here, only=(), equivalents=None):
    """Forget the verdict of every survivor (and of every mutant no test reached), so this
    run tries them again against the tests as they are now; the kills stand, and so do
    the survivors listed as equivalent (``equivalents``, from read_equivalents: no test
    can kill them, and each retry costs every test that reaches its function). With
    ``only`` (mutmut's name globs): only the survivors this run will try."""
    listed = _listed(here, equivalents)
    for meta in _metas(here):
        with open(meta) as f:
            data = json.load(f)
        codes = data["exit_code_by_key"]
        changed = False
        for key, code in codes.items():
            if only and not any(fnmatch.fnmatch(key, glob) for glob in only):
                continue
            if (code == SURVIVED or code in NO_TESTS) and key not in listed:
                codes[key] = None
                changed = True
        if changed:
            with open(meta + ".tmp", "w") as f:
                json.dump(data, f, indent=4)
            os.replace(meta + ".tmp", meta)


def to_try(here, only, equivalents=None):
    """The names of the mutants a run of ``only`` (mutmut's name globs) should judge: those
    not judged yet and the survivors, less those listed as equivalent (reviewed: judging
    one costs every test that reaches it, and cannot kill it). Given by
    name, as mutmut judges again every mutant it is named, kills included: a glob would
    have it rerun a whole module's kills and its equivalents."""
    listed = _listed(here, equivalents)
    names = []
    for meta in sorted(_metas(here)):
        with open(meta) as f:
            codes = json.load(f)["exit_code_by_key"]
        for key, code in sorted(codes.items(), key=lambda kv: _order(kv[0])):
            if not any(fnmatch.fnmatch(key, glob) for glob in only):
                continue
            if (code is None or code == SURVIVED or code in NO_TESTS) and key not in listed:
                names.append(key)
    return names


def stale(here, package):
    """Has a file of ``package`` (e.g. "microrobots/modes") changed since mutmut last made
    its mutants? Then the verdicts read from mutants/ are older than the code: mutmut must
    make the mutants again (forgetting the verdicts of the changed functions) first."""
    top = os.path.join(here, package)
    for folder, _dirs, files in os.walk(top):
        for name in files:
            if not name.endswith(".py"):
                continue
            source = os.path.join(folder, name)
            mutant = os.path.join(here, "mutants", os.path.relpath(source, here))
            if not os.path.exists(mutant) or not os.path.exists(mutant + ".meta") or \
                    os.path.getmtime(source) >= os.path.getmtime(mutant):
                return True
    return False


def drop_torn(here, package):
    """Remove the mutated copies mutmut left empty (stopped while it wrote them): it would
    take one for done, newer than its source, and every mutant of that file would import
    nothing. Removed, it is copied and mutated again (the verdicts kept, by function)."""
    top = os.path.join(here, "mutants", package)
    torn = []
    for folder, _dirs, files in os.walk(top):
        for name in files:
            path = os.path.join(folder, name)
            source = os.path.join(here, os.path.relpath(path, os.path.join(here, "mutants")))
            if name.endswith(".py") and os.path.getsize(path) == 0 and \
                    os.path.exists(source) and os.path.getsize(source) > 0:
                os.remove(path)
                torn.append(path)
    return torn


def _listed(here, equivalents):
    """The keys of this mirror's surviving (or not yet judged) mutants that the reviewed
    list names: an equivalent needs no verdict, judged or not."""
    if not equivalents:
        return set()
    return {r["key"] for r in mutants(here) if r["status"] in ("survived", "no tests", "not run")
            and (r["module"], r["function"], r["before"], r["after"]) in equivalents}


def write_times(here, seconds):
    with open(os.path.join(here, "last-run.json"), "w") as f:
        json.dump({"seconds": round(seconds, 1)}, f)


def _metas(here):
    top = os.path.join(here, "mutants")
    for folder, _dirs, files in os.walk(top):
        for name in files:
            if name.endswith(".py.meta"):
                yield os.path.join(folder, name)


def _function_names(source):
    """mutmut's name of each function -> (first line, last line) in the file."""
    spans = {}
    tree = ast.parse(source)
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            spans["x_" + node.name] = _span(node)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    spans["x\u01c1%s\u01c1%s" % (node.name, item.name)] = _span(item)
    return spans


def _span(node):
    first = min([node.lineno] + [d.lineno for d in node.decorator_list])
    return first, node.end_lineno


def _readable(mangled):
    if mangled.startswith("x\u01c1"):
        _, cls, name = mangled.split("\u01c1")
        return "%s.%s" % (cls, name)
    return mangled[2:]


def _mutant_functions(source, mangled):
    """The original function and the given mutant, as text, from a mutated file."""
    tree = ast.parse(source)
    want_orig = mangled + "__mutmut_orig"
    found = {}
    lines = source.split("\n")

    def visit(body):
        for node in body:
            if isinstance(node, ast.ClassDef):
                visit(node.body)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found[node.name] = "\n".join(lines[node.lineno - 1:node.end_lineno])

    visit(tree.body)
    return found, want_orig


def _changed_lines(orig, mutant):
    """The first differing line of two versions of a function, stripped, and its index."""
    a = orig.split("\n")[1:]
    b = mutant.split("\n")[1:]
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i + 1, x.strip(), y.strip()
    if len(a) != len(b):
        i = min(len(a), len(b))
        return i + 1, (a[i].strip() if i < len(a) else ""), (b[i].strip() if i < len(b) else "")
    # Only the header differs (a default argument): the two carry mutmut's names, so each is
    # shown under the function's own name.
    x, y = orig.split("\n")[0], mutant.split("\n")[0]
    if x[x.find("("):] != y[y.find("("):]:
        name = x[x.find("def ") + 4:x.find("(")].split("\u01c1")[-1]
        name = name[2:] if name.startswith("x_") else name
        name = name.partition("__mutmut_")[0]
        return 0, "def " + name + x[x.find("("):].strip(), "def " + name + y[y.find("("):].strip()
    return 0, "", ""


def mutants(here):
    """Every mutant of one scope: dicts of module, function, line, before, after, status."""
    out = []
    for meta in sorted(_metas(here)):
        rel = os.path.relpath(meta, os.path.join(here, "mutants"))[:-len(".meta")]
        module = rel[:-3].replace(os.sep, ".").replace(".__init__", "")
        with open(meta) as f:
            codes = json.load(f)["exit_code_by_key"]
        original_path = os.path.join(here, rel)
        with open(original_path) as f:
            original = f.read()
        spans = _function_names(original)
        with open(os.path.join(here, "mutants", rel)) as f:
            mutated = f.read()
        functions, _ = _mutant_functions(mutated, "")
        lines = original.split("\n")
        for key, code in sorted(codes.items(), key=lambda kv: _order(kv[0])):
            generated = key.rpartition(".")[2]
            mangled = generated.partition("__mutmut_")[0]
            orig = functions.get(mangled + "__mutmut_orig", "")
            mutant = functions.get(generated, "")
            offset, before, after = _changed_lines(orig, mutant)
            first, last = spans.get(mangled, (0, 0))
            line = _find_line(lines, first, last, before, first + offset) if first else 0
            out.append({
                "module": module, "function": _readable(mangled), "key": key,
                "line": line, "before": before, "after": after, "status": _status(code),
            })
    return out


def _order(key):
    name, _, number = key.rpartition("__mutmut_")
    return name, int(number) if number.isdigit() else 0


def _find_line(lines, first, last, text, guess=0):
    """The line of the function that reads ``text``: ``guess`` (its place in mutmut's copy)
    when it does, as two lines may read the same; else the first that does."""
    if first <= guess <= min(last, len(lines)) and lines[guess - 1].strip() == text:
        return guess
    for n in range(first, min(last, len(lines)) + 1):
        if lines[n - 1].strip() == text:
            return n
    for n in range(first, min(last, len(lines)) + 1):  # a line mutmut re-wrapped
        if text and text[:20] in lines[n - 1]:
            return n
    return first


def _status(code):
    if code is None:
        return "not run"
    if code in KILLED:
        return "killed"
    if code == SURVIVED:
        return "survived"
    if code in NO_TESTS:
        return "no tests"
    if code == 34:
        return "skipped"
    return "suspicious"


def read_equivalents(path):
    """(module, function, before, after) -> reason, from the reviewed file."""
    found = {}
    if not os.path.exists(path):
        return found
    with open(path) as f:
        blocks = f.read().split("\n\n")
    for n, block in enumerate(blocks):
        rows = [r for r in block.strip().split("\n") if r and not r.startswith("#")]
        if not rows:
            continue
        if len(rows) != 4 or not rows[1].startswith("- ") or not rows[2].startswith("+ ") \
                or not rows[3].startswith("why: ") or len(rows[0].split()) != 2:
            raise ValueError("%s: entry %d is not 'module function / - line / + line / "
                             "why: reason'" % (path, n + 1))
        module, function = rows[0].split()
        found[(module, function, rows[1][2:].strip(), rows[2][2:].strip())] = rows[3][5:]
    return found


def build(heres, equivalents):
    rows = []
    seconds = 0.0
    for here in heres:
        if os.path.isdir(os.path.join(here, "mutants")):
            rows += mutants(here)
        times = os.path.join(here, "last-run.json")
        if os.path.exists(times):
            with open(times) as f:
                seconds += json.load(f)["seconds"]
    used = set()
    for r in rows:
        k = (r["module"], r["function"], r["before"], r["after"])
        if r["status"] in ("survived", "no tests", "not run") and k in equivalents:
            r["status"] = "equivalent"
            r["why"] = equivalents[k]
            used.add(k)
    out = ["# Mutation report", "",
           "mutmut (requirements/mutate.txt) over firmware/microrobots/rules and modes, "
           "one worker; `make mutate` (docs/testing.md). Score = killed / (mutants - "
           "equivalents). Last run's time: %.0f s (the scopes run this time; 2-core x86_64 "
           "dev machine, shared)." % seconds, ""]
    out += ["| module | mutants | killed | survived | no tests | equivalent | not run | score |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    groups = {}
    for r in rows:
        groups.setdefault(r["module"], []).append(r)
        top = ".".join(r["module"].split(".")[:2]) + " (all)"
        groups.setdefault(top, []).append(r)
    for name in sorted(groups):
        g = groups[name]
        c = {s: sum(1 for r in g if r["status"] == s)
             for s in ("killed", "survived", "no tests", "equivalent", "not run")}
        judged = len(g) - c["equivalent"] - c["not run"]
        score = "%.1f %%" % (100.0 * c["killed"] / judged) if judged else "-"
        label = "**%s**" % name if name.endswith("(all)") else name
        out.append("| %s | %d | %d | %d | %d | %d | %d | %s |" % (
            label, len(g), c["killed"], c["survived"], c["no tests"], c["equivalent"],
            c["not run"], score))
    out += ["", "## Survivors", ""]
    alive = [r for r in rows if r["status"] in ("survived", "no tests", "suspicious")]
    if not alive:
        out.append("None.")
    for r in alive:
        out.append("- %s:%d `%s` (%s)%s: `%s` -> `%s`" % (
            r["module"], r["line"], r["function"], r["key"].rpartition(".")[2],
            "" if r["status"] == "survived" else " [%s]" % r["status"], r["before"],
            r["after"]))
    out += ["", "## Equivalent mutants (host_tests/mutation_equivalents.txt)", ""]
    eq = [r for r in rows if r["status"] == "equivalent"]
    if not eq:
        out.append("None.")
    for r in eq:
        out.append("- %s:%d `%s`: `%s` -> `%s`. %s" % (
            r["module"], r["line"], r["function"], r["before"], r["after"], r["why"]))
    stale = sorted(set(equivalents) - used)
    if stale:
        out += ["", "## Listed as equivalent but not found surviving (check the list)", ""]
        for module, function, before, after in stale:
            out.append("- %s `%s`: `%s` -> `%s`" % (module, function, before, after))
    out.append("")
    return "\n".join(out)


def summary(text):
    """The score table of a report, for the terminal."""
    return "\n".join(r for r in text.split("\n") if r.startswith("| **") or r.startswith(
        "| module"))
