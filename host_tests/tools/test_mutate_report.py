"""make mutate's report (tools/mutate/report.py) from mutmut's results: the score per
module, survivors with their line, equivalents matched by their changed line."""

import json

import pytest

from tools.mutate import report

ORIGINAL = '''"""A module."""


def positive(x):
    """Is x over 0?"""
    return x > 0


class Box:
    def size(self, n):
        if n < 0:
            return 0
        return n * 2
'''

MUTATED = '''"""A module."""


def x_positive__mutmut_orig(x):
    """Is x over 0?"""
    return x > 0


def x_positive__mutmut_1(x):
    """Is x over 0?"""
    return x >= 0


def x_positive__mutmut_2(x):
    """Is x over 0?"""
    return x > 1


class Box:
    def xǁBoxǁsize__mutmut_orig(self, n):
        if n < 0:
            return 0
        return n * 2

    def xǁBoxǁsize__mutmut_1(self, n):
        if n <= 0:
            return 0
        return n * 2

    def xǁBoxǁsize__mutmut_2(self, n):
        if n < 0:
            return 0
        return n / 2
'''

CODES = {"pkg.mod.x_positive__mutmut_1": 0, "pkg.mod.x_positive__mutmut_2": 1,
         "pkg.mod.xǁBoxǁsize__mutmut_1": 0, "pkg.mod.xǁBoxǁsize__mutmut_2": 1}


def mirror(tmp_path):
    here = tmp_path / "rules"
    (here / "pkg").mkdir(parents=True)
    (here / "mutants" / "pkg").mkdir(parents=True)
    (here / "pkg" / "mod.py").write_text(ORIGINAL)
    (here / "mutants" / "pkg" / "mod.py").write_text(MUTATED)
    (here / "mutants" / "pkg" / "mod.py.meta").write_text(json.dumps({
        "exit_code_by_key": CODES, "durations_by_key": {}, "estimated_durations_by_key": {}}))
    return here


def test_scores_survivors_and_equivalents(tmp_path):
    here = mirror(tmp_path)
    eq = tmp_path / "eq.txt"
    eq.write_text("# reviewed\n\npkg.mod Box.size\n- if n < 0:\n+ if n <= 0:\n"
                  "why: size(0) is 0 either way.\n\npkg.mod gone\n- a\n+ b\nwhy: stale.\n")
    text = report.build([str(here)], report.read_equivalents(str(eq)))
    assert "| pkg.mod | 4 | 2 | 1 | 0 | 1 | 0 | 66.7 % |" in text
    assert "- pkg.mod:6 `positive` (x_positive__mutmut_1): `return x > 0` -> `return x >= 0`" \
        in text
    assert "- pkg.mod:11 `Box.size`: `if n < 0:` -> `if n <= 0:`. size(0) is 0 either way." \
        in text
    assert "- pkg.mod `gone`: `a` -> `b`" in text  # listed but not found: to be checked


def test_survivors_are_tried_again_and_kills_stand(tmp_path):
    here = mirror(tmp_path)
    report.retry_survivors(str(here))
    meta = json.loads((here / "mutants" / "pkg" / "mod.py.meta").read_text())
    assert meta["exit_code_by_key"] == {k: (None if v == 0 else v) for k, v in CODES.items()}


def test_a_run_of_some_mutants_tries_again_only_their_survivors(tmp_path):
    here = mirror(tmp_path)
    report.retry_survivors(str(here), ["pkg.mod.xǁBoxǁ*"])
    meta = json.loads((here / "mutants" / "pkg" / "mod.py.meta").read_text())
    assert meta["exit_code_by_key"] == dict(CODES, **{"pkg.mod.xǁBoxǁsize__mutmut_1": None})


def test_a_malformed_equivalent_entry_is_named(tmp_path):
    eq = tmp_path / "eq.txt"
    eq.write_text("pkg.mod positive\n- return x > 0\nwhy: no after line\n")
    with pytest.raises(ValueError, match="entry 1 is not"):
        report.read_equivalents(str(eq))


def test_the_reviewed_list_in_the_repository_reads():
    report.read_equivalents(report_path())


def report_path():
    from tools.mutate.__main__ import EQUIVALENTS

    return EQUIVALENTS


def test_a_survivor_on_the_second_of_two_same_lines_is_named_by_its_own_line(tmp_path):
    here = tmp_path / "rules"
    (here / "pkg").mkdir(parents=True)
    (here / "mutants" / "pkg").mkdir(parents=True)
    (here / "pkg" / "mod.py").write_text(
        "def twice(n):\n    n = n + 1\n    n = n + 1\n    return n\n")
    (here / "mutants" / "pkg" / "mod.py").write_text(
        "def x_twice__mutmut_orig(n):\n    n = n + 1\n    n = n + 1\n    return n\n\n\n"
        "def x_twice__mutmut_1(n):\n    n = n + 1\n    n = n - 1\n    return n\n")
    (here / "mutants" / "pkg" / "mod.py.meta").write_text(json.dumps({
        "exit_code_by_key": {"pkg.mod.x_twice__mutmut_1": 0}}))
    text = report.build([str(here)], {})
    assert "- pkg.mod:3 `twice` (x_twice__mutmut_1): `n = n + 1` -> `n = n - 1`" in text



def test_a_survivor_in_a_default_argument_is_named_by_its_header_and_can_be_listed(tmp_path):
    here = tmp_path / "rules"
    (here / "pkg").mkdir(parents=True)
    (here / "mutants" / "pkg").mkdir(parents=True)
    (here / "pkg" / "mod.py").write_text(
        "class Log:\n    def add(self, what, move=0):\n        return what\n")
    (here / "mutants" / "pkg" / "mod.py").write_text(
        "class Log:\n    def x\u01c1Log\u01c1add__mutmut_orig(self, what, move=0):\n"
        "        return what\n\n    def x\u01c1Log\u01c1add__mutmut_1(self, what, move=1):\n"
        "        return what\n")
    (here / "mutants" / "pkg" / "mod.py.meta").write_text(json.dumps({
        "exit_code_by_key": {"pkg.mod.x\u01c1Log\u01c1add__mutmut_1": 0}}))
    text = report.build([str(here)], {})
    assert ("`Log.add` (x\u01c1Log\u01c1add__mutmut_1): `def add(self, what, move=0):` -> "
            "`def add(self, what, move=1):`") in text
    listed = tmp_path / "equivalents.txt"
    listed.write_text("pkg.mod Log.add\n- def add(self, what, move=0):\n"
                      "+ def add(self, what, move=1):\nwhy: move is never read.\n")
    text = report.build([str(here)], report.read_equivalents(str(listed)))
    assert "| pkg.mod | 1 | 0 | 0 | 0 | 1 | 0 | - |" in text
    assert "`def add(self, what, move=1):`. move is never read." in text

EQUIVALENT = "pkg.mod Box.size\n- if n < 0:\n+ if n <= 0:\nwhy: size(0) is 0 either way.\n"


def test_a_survivor_listed_as_equivalent_is_not_tried_again(tmp_path):
    here = mirror(tmp_path)
    eq = tmp_path / "eq.txt"
    eq.write_text(EQUIVALENT)
    report.retry_survivors(str(here), equivalents=report.read_equivalents(str(eq)))
    meta = json.loads((here / "mutants" / "pkg" / "mod.py.meta").read_text())
    assert meta["exit_code_by_key"] == dict(CODES, **{"pkg.mod.x_positive__mutmut_1": None})
    text = report.build([str(here)], report.read_equivalents(str(eq)))
    assert "| pkg.mod | 4 | 2 | 0 | 0 | 1 | 1 | 100.0 % |" in text  # still equivalent


def test_a_run_of_some_mutants_names_the_unjudged_and_the_survivors_not_listed(tmp_path):
    here = mirror(tmp_path)
    meta = here / "mutants" / "pkg" / "mod.py.meta"
    codes = dict(CODES, **{"pkg.mod.x_positive__mutmut_2": None})  # not judged yet
    meta.write_text(json.dumps({"exit_code_by_key": codes}))
    eq = tmp_path / "eq.txt"
    eq.write_text(EQUIVALENT)
    listed = report.read_equivalents(str(eq))
    # the kill (Box.size 2) and the equivalent (Box.size 1) stand: mutmut is not told of them
    assert report.to_try(str(here), ["pkg.mod.*"], listed) == [
        "pkg.mod.x_positive__mutmut_1", "pkg.mod.x_positive__mutmut_2"]
    assert report.to_try(str(here), ["pkg.mod.xǁBoxǁ*"], listed) == []
    assert report.to_try(str(here), ["pkg.mod.xǁBoxǁ*"], {}) == ["pkg.mod.xǁBoxǁsize__mutmut_1"]


def test_a_mutant_listed_as_equivalent_is_not_judged_even_once(tmp_path):
    """Listed before mutmut ever judged it (the list is reviewed, keyed by the change): no
    run tries it, and the report counts it as equivalent, not as not run."""
    here = mirror(tmp_path)
    meta = here / "mutants" / "pkg" / "mod.py.meta"
    meta.write_text(json.dumps({"exit_code_by_key": dict(
        CODES, **{"pkg.mod.xǁBoxǁsize__mutmut_1": None})}))
    eq = tmp_path / "eq.txt"
    eq.write_text(EQUIVALENT)
    listed = report.read_equivalents(str(eq))
    assert report.to_try(str(here), ["pkg.mod.xǁBoxǁ*"], listed) == []
    text = report.build([str(here)], listed)
    assert "| pkg.mod | 4 | 2 | 1 | 0 | 1 | 0 | 66.7 % |" in text


def test_a_package_changed_since_its_mutants_were_made_is_stale(tmp_path):
    import os

    here = mirror(tmp_path)
    source, mutant = here / "pkg" / "mod.py", here / "mutants" / "pkg" / "mod.py"
    os.utime(source, (1000, 1000))
    os.utime(mutant, (2000, 2000))  # mutmut wrote its mutants after the copy
    assert not report.stale(str(here), "pkg")
    os.utime(source, (3000, 3000))  # the checkout's file changed since
    assert report.stale(str(here), "pkg")
    os.utime(source, (1000, 1000))
    (here / "pkg" / "new.py").write_text("X = 1\n")  # a file mutmut has not seen
    assert report.stale(str(here), "pkg")


def test_a_mutated_copy_left_empty_by_a_stop_is_made_again(tmp_path):
    here = mirror(tmp_path)
    (here / "mutants" / "pkg" / "mod.py").write_text("")  # stopped while writing it
    assert report.drop_torn(str(here), "pkg") == [str(here / "mutants" / "pkg" / "mod.py")]
    assert report.stale(str(here), "pkg")  # so mutmut copies and mutates it again
    (here / "mutants" / "pkg" / "mod.py").write_text(MUTATED)
    assert report.drop_torn(str(here), "pkg") == []
