"""The board model: tiles, arrangement codes, parsing and printing."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from layouts import PAIRS, layouts
from microrobots.rules import board
from microrobots.rules.board import TILES, Layout, LayoutError, parse_cell


def test_tiles_are_the_transcribed_boards():
    # Each side's four boards hold every colour-number pair exactly once.
    for side in ("black", "copper"):
        tokens = " ".join(TILES[side]).split()
        assert sorted(parse_cell(t) for t in tokens) == PAIRS


def test_identity_arrangement_places_boards_as_transcribed():
    layout = Layout.from_tiles("black", "ABCD0000")
    assert [layout.token(i) for i in (0, 1, 2, 6, 7, 8)] == "W6 B6 B2 R3 Y4 W3".split()
    assert layout.token(3) == "P5"  # board B, top-right
    assert layout.token(18) == "B1"  # board C, bottom-left
    assert layout.token(35) == "G1"  # board D, bottom-right corner
    assert layout.name == "black:ABCD0000"


def test_quarter_turn_is_clockwise():
    # Turning board A once clockwise brings its left column, read upwards, to the top.
    layout = Layout.from_tiles("black", "ABCD1000")
    assert [layout.token(i) for i in (0, 1, 2)] == ["B3", "R3", "W6"]
    assert [layout.token(i) for i in (12, 13, 14)] == ["W5", "W3", "B2"]


@given(st.permutations("ABCD"), st.lists(st.sampled_from("0123"), min_size=4, max_size=4),
       st.sampled_from(["black", "copper"]))
def test_every_arrangement_is_a_full_layout(order, turns, side):
    code = "".join(order) + "".join(turns)
    layout = Layout.from_tiles(side, code)
    assert sorted((layout.colour(i), layout.number(i)) for i in range(36)) == PAIRS
    assert Layout.named("%s:%s" % (side, code.lower())) == layout


def test_every_arrangement_matches_the_printed_tiles_turned_by_hand():
    """from_tiles reads the dice straight off the transcription (a Pico shuffles in a
    frame); the reference turns each tile's list of tokens a quarter at a time."""
    import itertools

    def turned(cells, turns):
        for _ in range(turns):
            cells = [cells[(2 - c) * 3 + r] for r in range(3) for c in range(3)]
        return cells

    for side in ("black", "copper"):
        for text in TILES[side]:  # the format from_tiles relies on: die k at 3 * k
            assert text == " ".join(t.upper() for t in text.split()) and len(text) == 26
        for order in itertools.permutations("ABCD"):
            for turns in itertools.product(range(4), repeat=4):
                layout = Layout.from_tiles(side, "".join(order) + "".join(map(str, turns)))
                for q in range(4):
                    tile = turned(TILES[side]["ABCD".index(order[q])].split(), turns[q])
                    for k in range(9):
                        cell = ((q // 2) * 3 + k // 3) * 6 + (q % 2) * 3 + k % 3
                        assert (layout.colour(cell), layout.number(cell)) == \
                            parse_cell(tile[k])


def test_four_turns_of_one_board_cycle_back():
    seen = [str(Layout.from_tiles("copper", "ABCD%d000" % t)) for t in range(4)]
    assert len(set(seen)) == 4


@given(layouts)
def test_text_round_trip(layout):
    text = str(layout)
    assert Layout.parse(text) == layout
    for i in range(36):
        assert layout.index(layout.token(i)) == i


def test_cell_token_spellings():
    layout = Layout.named("black")
    assert layout.index("G3") == layout.index("g3") == layout.index("3-green") == \
        layout.index("green-3") == layout.index("Green-3")


@pytest.mark.parametrize("token", ["X3", "G7", "G0", "G", "purple-3", "3-3", "green-9", "G33"])
def test_bad_tokens_are_refused(token):
    with pytest.raises(LayoutError):
        parse_cell(token)


DEFAULT_TEXT = str(Layout.named("black:ABCD0000"))


def test_parse_ignores_comments_and_blank_lines():
    text = "# my table\n\n" + DEFAULT_TEXT.replace("\n", "   # row\n", 2)
    assert Layout.parse(text) == Layout.named("black")


@pytest.mark.parametrize("edit,message", [
    (lambda t: t.replace("W6", "X6", 1), "line 1, column 1: unknown colour"),
    (lambda t: t.replace("Y4", "Y9", 1), "line 2, column 2: unknown number"),
    (lambda t: t.replace("R3 Y4 W3", "R3 Y4", 1), "line 2: 5 cells, expected 6"),
    (lambda t: "\n".join(t.split("\n")[:5]), "only 5 rows"),
    (lambda t: t + "W6 B6 B2 P5 P2 P3\n", "line 7: more than 6 rows"),
    (lambda t: t.replace("G1", "W6", 1), "line 6, column 6: W6 appears twice (first at line 1, "
                                         "column 1); missing: G1"),
])
def test_parse_errors_name_line_and_column(edit, message):
    with pytest.raises(LayoutError) as err:
        Layout.parse(edit(DEFAULT_TEXT))
    assert message in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("code", ["ABCD", "ABCC0000", "ABCD0004", "ABCD4000", "ABCDE0000",
                                  "black:ABCD000x", "gold:ABCD0000"])
def test_bad_arrangement_codes(code):
    with pytest.raises(LayoutError):
        Layout.named(code if ":" in code else "black:" + code)


@pytest.mark.parametrize("text, message", [
    ("W6 B6\n", "line 1: 2 cells, expected 6"),
    ("W6\n", "line 1: 1 cell, expected 6"),
    ("W6,B6,Y6,G6,R6,P6\n", "line 1: a comma; separate the 6 cells with spaces, not commas"),
    ("# a layout\nW6, B6, Y6, G6, R6, P6\n",
     "line 2: a comma; separate the 6 cells with spaces, not commas"),
    ("W6 B6 Y6 G6 R6 P6\n", "only 1 row, expected 6"),
    ("W6 B6 Y6 G6 R6 P6\nW5 B5 Y5 G5 R5 P5\n", "only 2 rows, expected 6"),
])
def test_short_layouts_say_what_they_hold(text, message):
    with pytest.raises(LayoutError, match="^%s$" % message):
        Layout.parse(text)


@pytest.mark.parametrize("edit,message", [
    (lambda t: t.replace("W6", "X6", 1),
     "line 1, column 1: unknown colour in 'X6' (use B Y G R P W)"),
    (lambda t: t.replace("Y4", "Y9", 1), "line 2, column 2: unknown number in 'Y9' (use 1-6)"),
    (lambda t: t + "W6 B6 B2 P5 P2 P3\n", "line 7: more than 6 rows"),
])
def test_a_bad_cell_or_a_seventh_row_is_the_whole_line_shown(edit, message):
    """The line the player reads, whole: where first, then what is wrong."""
    with pytest.raises(LayoutError) as err:
        Layout.parse(edit(DEFAULT_TEXT))
    assert str(err.value) == message


@pytest.mark.parametrize("token, line", [
    ("teal-3", "unknown colour 'teal' in 'teal-3'"),
    ("3-Teal", "unknown colour 'teal' in '3-Teal'"),
    ("green-3-1", "unknown number in 'green-3-1' (use 1-6)"),  # split at the first dash
    ("X3", "unknown colour in 'X3' (use B Y G R P W)"),
    ("G7", "unknown number in 'G7' (use 1-6)"),
])
def test_a_bad_token_is_refused_with_its_own_line(token, line):
    with pytest.raises(LayoutError) as err:
        parse_cell(token)
    assert str(err.value) == line


def test_the_dice_are_made_from_the_printed_boards_and_then_kept(monkeypatch):
    """``dice(side)``: each board's faces, board A's 9 first, ``colour << 3 | number``;
    every face once. Made afresh here (the module keeps them once made)."""
    monkeypatch.setattr(board, "_DICE", {})
    for side in board.SIDES:
        faces = board.dice(side)
        tokens = " ".join(TILES[side]).split()
        assert len(faces) == len(tokens) == 36 and len(set(faces)) == 36
        assert [(f >> 3, f & 7) for f in faces] == [parse_cell(t) for t in tokens]
        assert board.dice(side) is faces
