"""The commands' usage, help and one-line errors in the reader's language.

argparse says its own words ("usage: ", "the following arguments are required: %s" ...)
through ``gettext``'s functions, bound in its module as ``_`` and ``ngettext``: ``install``
points them at this project's catalogue, where ARGPARSE below marks them for extraction (host_tests/tools/test_i18n.py checks the list against
the messages of the running Python's argparse). The one-line errors of tools/cli.py and
the firmware's board (LayoutError) and game notation (GameStateError) are English where
they are raised (cli.py cannot import tools.i18n, which imports it; the firmware's words
stay the firmware's): ``cli.fail`` says them through ``translate_error``, by template, as
the simulators say the firmware's console lines (tools/i18n/console.py).

A command installs its language with ``install_from(argv, prog)`` before it builds its
parser (so that the help strings, marked ``_``, are in it), the terminal with
``install(lang)``.
"""

from tools import cli, i18n
from tools.i18n import N_, _, console, ngettext

ARGPARSE = [
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
]


def _argparse_plurals():  # never called: marks argparse's plural message for Babel
    return ngettext("expected %s argument", "expected %s arguments", 2)


# Messages argparse has that only a programmer's mistake in a parser can raise: no
# reader of a command meets them (the test's list of what ARGPARSE leaves out).
PROGRAMMERS = {
    ".__call__() not defined", "conflicting subparser: %s", "conflicting subparser alias: %s",
    'argument "-" with mode %r', "cannot merge actions - two groups are named %r",
    "'required' is an invalid argument for positionals",
    "invalid option string %(option)r: must start with a character %(prefix_chars)r",
    "dest= is required for options like %r", "invalid conflict_resolution value: %r",
    "conflicting option string: %s", "mutually exclusive arguments must be optional",
    "cannot have multiple subparser arguments", "%r is not callable",
}

# tools/cli.py's errors and the firmware's LayoutError/GameStateError, as their % formats
# give them (most specific first), and the words that fill their %s.
ERRORS = [
    N_("%s: cannot read %s (%s)"),
    N_("%s: %s is over %d MiB"),
    N_("%s: %s is not text (byte 0x%02x at offset %d is not UTF-8)"),
    N_("%s: cannot hold %s (%s)"),
    N_("--side conflicts with the side in --tiles %s"),
    N_("the micropython command is missing: run `make venv`"),
    N_("layout file"), N_("events file"), N_("saved game file"), N_("JSON file"), N_("file"),
    N_("No such file or directory"), N_("Permission denied"), N_("Is a directory"),
    # rules/board.py's LayoutError
    N_("unknown colour %s in %s"),
    N_("unknown colour in %s (use B Y G R P W)"),
    N_("unknown number in %s (use 1-6)"),
    N_("line %d: more than 6 rows"),
    N_("line %d: %d cell, expected 6"),
    N_("line %d: %d cells, expected 6"),
    N_("line %d, column %d: %s"),
    N_("only %d row, expected 6"),
    N_("only %d rows, expected 6"),
    N_("unknown side %s (use black or copper)"),
    N_("line %d: a comma; separate the 6 cells with spaces, not commas"),
    N_("line %d, column %d: %s appears twice (first at %s); missing: %s"),
    N_("bad arrangement %s: 4 boards (a permutation of ABCD) then 4 turns 0-3, e.g. CADB0312"),
    # rules/notation.py's GameStateError of a share string (console.py: a saved game's)
    N_("share string"), N_("saved game"),
    N_("expected %s.<players>.<seed>.<layout>[.<decisions>], got %s"),
    N_("bad options %s (players, then x, then d<difficulty>)"),
    N_("bad seed %s"),
    N_("decisions must be text, not %s"),
    N_("expected text, not %s"),
    N_("decision %d: %s is not %s"),
    N_("the one player, a"), N_("one of the %d players"),
]

# tools/cli.py's help of the layout options
LAYOUT_OPTIONS = [
    N_("a layout file: six lines of six dice (or a name, black:CADB0312)"),
    N_("an arrangement: black:CADB0312, or CADB0312 with --side"),
    N_("board side for --tiles CODE (default black)"),
]

translate_error = console.translator(ERRORS + console.TEMPLATES + console.GENERAL)


def install(lang):
    """``lang`` installed (tools.i18n.install), and argparse's words, the layout options'
    help and cli.fail's lines in it too."""
    import argparse

    i18n.install(lang)
    argparse._ = _  # (gettext's names, bound in argparse: it looks them up at each call)
    argparse.ngettext = ngettext
    cli.translate_error = translate_error
    cli.translate = _
    return lang


def install_from(argv, prog, stream=None):
    """Install the language a command line asks for (``tools.i18n.asked(argv)``, else the
    environment), before its parser is built; an unknown one is English, said once on
    stderr. ``argv`` None: sys.argv's."""
    import sys

    lang, notice = i18n.choose(i18n.asked(sys.argv[1:] if argv is None else argv))
    if notice:
        print("%s: %s" % (prog, notice), file=stream or sys.stderr)
    return install(lang)
