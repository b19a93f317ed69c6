"""classroom.lesson_game inside MicroPython, run by app/test_classroom_lesson.py: the
start and target of every lesson's puzzles 1 and 3 on the default layout, one line each
(``lesson puzzle start target``)."""

from microrobots.modes.classroom import lesson_game
from microrobots.rules.board import Layout
from microrobots.rules.solver import Solver

PUZZLES = (1, 3)


def main():
    layout = Layout.from_tiles("black", "ABCD0000")
    solver = Solver(layout)
    for lesson in range(1, 100):
        for puzzle in PUZZLES:
            g = lesson_game(layout, solver, lesson, puzzle)
            print(lesson, puzzle, g.start, g.target)
