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


def test_step_cursor_allocates_nothing_in_micropython():
    out = run_file(os.path.join(os.path.dirname(os.path.abspath(__file__)), "step_cursor_mpy.py"))
    assert json.loads(out.strip().splitlines()[-1]) == 0
