"""The catalogues' tools (Babel: requirements/test.txt)::

    python -m tools.i18n extract   # the code's messages -> locale/microrobots.pot
    python -m tools.i18n update    # the .pot's messages into every .po (new ones empty)
    python -m tools.i18n check     # 0 missing in any language, placeholders as the English
    python -m tools.i18n compile   # build/i18n/<lang>.json for every language

docs/translating.md says when to run which.
"""

import os
import sys

from tools import cli
from tools import i18n
from tools.i18n import check as checks

POT = os.path.join(i18n.LOCALE, i18n.DOMAIN + ".pot")
KEYWORDS = ["-k", "N_", "-k", "ngettext:1,2"]


def _babel(args):
    from babel.messages.frontend import CommandLineInterface

    CommandLineInterface().run(["pybabel", "-q"] + args)


def extract():
    os.makedirs(i18n.LOCALE, exist_ok=True)
    here = os.getcwd()
    os.chdir(i18n.ROOT)  # the #: lines name files from the top of the checkout
    try:
        _babel(["extract", "-F", "babel.cfg"] + KEYWORDS + [
            "--add-location=file", "--sort-output", "--omit-header", "-o", POT, "."])
    finally:
        os.chdir(here)
    return POT


def update():
    for lang in i18n.LANGUAGES:
        if not os.path.exists(i18n.po_path(lang)):
            _babel(["init", "-i", POT, "-d", i18n.LOCALE, "-D", i18n.DOMAIN, "-l", lang])
    _babel(["update", "-i", POT, "-d", i18n.LOCALE, "-D", i18n.DOMAIN, "--no-fuzzy-matching",
            "--ignore-obsolete"])


def main(argv=None):
    p = cli.Parser(prog="python -m tools.i18n", description="The translation catalogues.")
    p.add_argument("what", choices=("extract", "update", "check", "compile"))
    try:
        args = p.parse_args(argv)
    except cli.UsageError as e:
        return cli.fail("i18n", e)
    if args.what == "extract":
        print(os.path.relpath(extract(), i18n.ROOT))
    elif args.what == "update":
        update()
    elif args.what == "compile":
        for lang in i18n.LANGUAGES:
            print(os.path.relpath(i18n.compiled(lang), i18n.ROOT))
    else:
        problems = checks.problems()
        for line in problems:
            print(line)
        if problems:
            return 1
        print("every message in %s" % ", ".join(i18n.LANGUAGES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
