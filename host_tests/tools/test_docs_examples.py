"""Every Python example in the README and docs/ runs, and prints what it shows.

A fenced block marked ``python`` is a doctest (``>>>`` lines and the output they print):
each block runs in a fresh namespace, in order, and its output must match (``...``
stands for any text, as in a traceback). An example that could not be run would be a
claim about an API nobody checks; so a ``python`` block without ``>>>`` fails too.
Command lines are test_docs_commands.py's.
"""

import doctest
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCS = ["README.md", "hardware/README.md"] + sorted(
    "docs/" + f for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md"))
BLOCK = re.compile(r"^```(python|py|pycon)[ \t]*\n(.*?)^```", re.M | re.S)


def examples(doc):
    """``[(line number, text)]``: the doc's Python blocks."""
    with open(os.path.join(ROOT, doc), encoding="utf-8") as f:
        text = f.read()
    return [(text[:m.start()].count("\n") + 2, m.group(2)) for m in BLOCK.finditer(text)]


ALL = [(doc, line, text) for doc in DOCS for line, text in examples(doc)]


def test_the_docs_have_examples_to_run():
    assert len(ALL) >= 2 and {"docs/game.md", "docs/ricochet.md"} <= {d for d, _, _ in ALL}


@pytest.mark.parametrize("doc, line, text", ALL, ids=["%s:%d" % (d, n) for d, n, _ in ALL])
def test_every_python_example_in_the_docs_runs_as_shown(doc, line, text):
    assert ">>> " in text, "%s:%d: a python block with no >>> lines: nothing checks it" % (
        doc, line)
    test = doctest.DocTestParser().get_doctest(text, {}, doc, doc, line - 1)
    out = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)


def test_a_wrong_example_fails():
    """The check itself: an example whose shown output is not what it prints."""
    test = doctest.DocTestParser().get_doctest(">>> 1 + 1\n3\n", {}, "x", "x", 0)
    runner = doctest.DocTestRunner()
    runner.run(test, out=lambda _: None)
    assert runner.failures == 1


def _where(pattern):
    found = []
    for doc in DOCS:
        with open(os.path.join(ROOT, doc), encoding="utf-8") as f:
            found += [doc] * len(re.findall(pattern, f.read(), re.M))
    return found


def test_the_button_table_and_the_power_caps_arithmetic_are_written_once():
    """Facts with one home, linked from elsewhere: what each button does (docs/playing.md)
    and how the LEDs' 500 mA become brightness_cap (hardware/README.md)."""
    assert _where(r"^\| \*\*B held\*\* \|") == ["docs/playing.md"]
    assert _where(r"^\| D-pad \|") == ["docs/playing.md"]
    assert _where(r"\b5916\b") == ["hardware/README.md"]
