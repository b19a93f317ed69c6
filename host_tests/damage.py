"""Damaged files for the fuzz tests (test_fuzz_files.py, test_fuzz_cli.py): hypothesis
strategies that take a good file and break it as flash, editors and people do.

``damaged(good)``: bytes of one of the kinds in ``KINDS``, drawn from the good file's
bytes: cut short, bits flipped, nested deep, a number or a string made huge, a value
given the wrong type, or the text saved in a foreign encoding. ``KIND_OF[bytes]``
remembers which kind made a case (for the counts the tests report).
"""

import functools
import json
import os
import shutil
import tempfile

from hypothesis import strategies as st

KINDS = ("truncated", "bit flips", "deep nesting", "huge number", "huge string",
         "wrong type", "foreign encoding")

# Values of every JSON type, the odd ones included.
ODD_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-(2 ** 70), 2 ** 70),
    st.floats(allow_nan=False, allow_infinity=False), st.sampled_from([-0.0, 1e308, 5e-324]),
    st.text(max_size=20), st.just([]), st.just({}), st.lists(st.integers(-3, 40), max_size=5),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3))


def _paths(value, path=()):
    """Every path (a tuple of keys and indexes) to a value inside ``value``."""
    yield path
    if isinstance(value, dict):
        for k in value:
            yield from _paths(value[k], path + (k,))
    elif isinstance(value, list):
        for i in range(len(value)):
            yield from _paths(value[i], path + (i,))


def _replace(value, path, new):
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _replace(value[path[0]], path[1:], new)
    return copy


@st.composite
def truncated(draw, good):
    return good[:draw(st.integers(0, max(0, len(good) - 1)))]


@st.composite
def bit_flips(draw, good):
    data = bytearray(good)
    for _ in range(draw(st.integers(1, 8))):
        i = draw(st.integers(0, len(data) - 1))
        data[i] ^= 1 << draw(st.integers(0, 7))
    return bytes(data)


@st.composite
def deep_nesting(draw, good):
    depth = draw(st.sampled_from([17, 100, 1000, 6000, 20000]) | st.integers(10, 40))
    opener = draw(st.sampled_from(["[", "{\"a\":", "[{\"b\":"]))
    closer = {"[": "]", "{\"a\":": "}", "[{\"b\":": "}]"}[opener]
    nest = (opener * depth + "0" + closer * depth).encode()
    whole = json.loads(good)
    path = draw(st.sampled_from(list(_paths(whole))))
    text = json.dumps(_replace(whole, path, "@@NEST@@")).encode()
    return text.replace(b'"@@NEST@@"', nest)


@st.composite
def huge_number(draw, good):
    whole = json.loads(good)
    path = draw(st.sampled_from(list(_paths(whole))))
    number = draw(st.sampled_from(["9" * 5000, "-" + "9" * 400, "1e999999", "1" + "0" * 30,
                                   "0.000000000000000000000001", "123456789012345678901234"]))
    text = json.dumps(_replace(whole, path, "@@NUM@@")).encode()
    return text.replace(b'"@@NUM@@"', number.encode())


@st.composite
def huge_string(draw, good):
    whole = json.loads(good)
    path = draw(st.sampled_from(list(_paths(whole))))
    size = draw(st.sampled_from([2049, 8192, 15000, 70000]) | st.integers(100, 3000))
    char = draw(st.sampled_from(["x", "\u00e9", "\\\"", "\\u00e9", "-"]))
    return json.dumps(_replace(whole, path, "@@S@@")).encode().replace(
        b"@@S@@", (char * size).encode())


@st.composite
def wrong_type(draw, good):
    whole = json.loads(good)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(list(_paths(whole))))
        whole = _replace(whole, path, draw(ODD_VALUES))
    return json.dumps(whole).encode()


@st.composite
def foreign_encoding(draw, good):
    text = good.decode("utf-8")
    if draw(st.booleans()):  # a non-ASCII character in a string, as a note in a config
        text = text.replace('"', '"caf\u00e9 \u20ac ', 1) if '"' in text else text
    encoding = draw(st.sampled_from(["utf-16", "utf-16-le", "utf-16-be", "utf-32", "latin-1",
                                     "cp1252", "utf-8-sig", "mac-roman"]))
    return text.encode(encoding, errors="replace")


MAKERS = (truncated, bit_flips, deep_nesting, huge_number, huge_string, wrong_type,
          foreign_encoding)


def damaged(good, kind=None):
    """A strategy of ``(kind, bytes)``: ``good`` broken in one of KINDS (or ``kind``)."""
    kinds = KINDS if kind is None else (kind,)
    return st.sampled_from(kinds).flatmap(
        lambda k: st.tuples(st.just(k), MAKERS[KINDS.index(k)](good)))


@functools.lru_cache(None)
def good_files():
    """settings.json, solo.json and referee.json as the device writes them after some play,
    and a config.json with every key: the files the damage starts from (played once)."""
    from microrobots.device import config
    from microrobots.rules import notation
    from tools.sim.script import Session

    folder = tempfile.mkdtemp()
    try:
        s = Session(seed=7, state=folder)
        s.tap("a")
        s.settle()
        route = s.app.current.game.route()
        s.move(route[0], route[1])
        s.until_saved()
        s.hold("b")
        s.tap("right")
        s.tap("a")
        s.settle()
        notation.apply(s.app.current.game, "--")  # two rounds given up, saved
        s.app.current.save()
        s.until_saved()
        files = {}
        for name in ("settings", "solo", "referee"):
            with open(os.path.join(folder, name + ".json"), "rb") as f:
                files[name] = f.read()
    finally:
        shutil.rmtree(folder)
    files["config"] = json.dumps(dict(config.defaults(), matrix="panel8x8", led_count=64,
                                      window=[2, 1], rotation=90)).encode()
    return files
