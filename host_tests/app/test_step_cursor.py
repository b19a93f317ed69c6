"""modes.step_cursor: the D-pad along the robot's row and column, allocation-free."""

import json
import os

from microrobots.modes import step_cursor
from mpy import run_file


def test_step_cursor_moves_along_the_robots_row_and_column():
    assert step_cursor(14, 14, 3) == 15 and step_cursor(14, 14, 2) == 13
    assert step_cursor(14, 14, 0) == 8 and step_cursor(14, 14, 1) == 20
    assert step_cursor(14, 20, 3) == 15  # from the column back to the row
    assert step_cursor(0, 0, 0) == 0 and step_cursor(5, 5, 3) == 5  # the edge


def test_step_cursor_from_every_cell_and_cursor_with_every_key():
    """The rule, cell by cell: LEFT/RIGHT one column along the robot's row, UP/DOWN one row
    along its column, from wherever the cursor is on that line (off it: from the robot),
    and no further than the edge."""
    for robot in range(36):
        row, col = divmod(robot, 6)
        for cursor in range(36):
            r, c = divmod(cursor, 6)
            if r != row and c != col:
                continue  # the cursor is always on the robot's row or column
            for key, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
                fr, fc = (row, c) if dr == 0 and r == row else (r, col) if dc == 0 and \
                    c == col else (row, col)
                nr, nc = fr + dr, fc + dc
                want = nr * 6 + nc if 0 <= nr < 6 and 0 <= nc < 6 else cursor
                assert step_cursor(robot, cursor, key) == want, (robot, cursor, key)


def test_step_cursor_allocates_nothing_in_micropython():
    out = run_file(os.path.join(os.path.dirname(os.path.abspath(__file__)), "step_cursor_mpy.py"))
    assert json.loads(out.strip().splitlines()[-1]) == 0
