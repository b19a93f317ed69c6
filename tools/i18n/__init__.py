"""Every word a person reads, in their language: English, German, Spanish and Korean.

The catalogues are gettext ``.po`` files, one per language, in ``locale/``::

    locale/microrobots.pot                      the template: every message, extracted
    locale/<lang>/LC_MESSAGES/microrobots.po    en, de, es, ko (en: msgstr = msgid)

(docs/translating.md: how to add a message or a language; docs/glossary.md: the game's
own words in each language, from the rulebooks, which the translations follow.)

The code marks a message with ``_("...")``, a count with ``ngettext(one, many, n)``
(plural forms the gettext way: the catalogue's ``Plural-Forms`` header) and a message
defined before its language is known with ``N_("...")``. Babel (PyPI, pinned in
requirements/test.txt) extracts them and checks the catalogues (python -m tools.i18n
extract / update / check; host_tests/tools/test_i18n.py). At run time nothing needs
Babel: ``compiled(lang)`` turns a ``.po`` into a compact JSON table once (build/i18n/,
rebuilt when the .po is newer) that every runtime reads the same way:

- the host tools (tools.solve, tools.replay, tools.worksheet, the terminal's chrome):
  ``install(lang)``, then this module's ``_`` / ``ngettext``;
- the web pages: tools/sim/web/build.py and the Ricochet server ship the tables as JSON;
- the firmware's guide lines in the simulators: firmware/microrobots/i18n.py gets the
  table installed by tools/sim/driver.py or the page (a Pico never installs one: its
  ``_`` stays the identity).

A table: ``{"": {"lang": "de", "plural": "n != 1"}, msgid: msgstr, one + "\\x00" + many:
[form0, form1, ...]}`` (the gettext .mo convention for plural keys). Untranslated
entries are left out (the English shows).
"""

import json
import os
import re

from tools.cli import ROOT
LOCALE = os.path.join(ROOT, "locale")
BUILD = os.path.join(ROOT, "build", "i18n")
DOMAIN = "microrobots"
LANGUAGES = ("en", "de", "es", "ko")
NAMES = {"en": "English", "de": "Deutsch", "es": "Español", "ko": "한국어"}
# The plural rules of the four languages, as their catalogues' Plural-Forms say, and as
# code: Korean has one form.
PLURALS = {"en": "n != 1", "de": "n != 1", "es": "n != 1", "ko": "0"}


def plural_index(lang, n):
    """Which of ``lang``'s plural forms a count of ``n`` takes."""
    return 0 if PLURALS.get(lang, "n != 1") == "0" else int(n != 1)


def po_path(lang):
    return os.path.join(LOCALE, lang, "LC_MESSAGES", DOMAIN + ".po")


# -- choosing the language --------------------------------------------------------------------

def normalise(tag):
    """``"de_DE.UTF-8"``, ``"de-AT"``, ``"DE"`` -> ``"de"``; ``"C"``/``"POSIX"``/empty ->
    ``""`` (no preference); anything else its language part, lower case."""
    tag = (tag or "").strip().split(".")[0].split("@")[0]
    if tag in ("", "C", "POSIX"):
        return ""
    return re.split("[-_]", tag)[0].lower()


def choose(requested=None, environ=None):
    """``(lang, notice)``: ``requested`` (a --lang) if given, else the environment's
    LC_ALL, LC_MESSAGES, LANG (the first set, as POSIX reads them). A language without a
    catalogue: English, and a one-line notice to say so once (else ``notice`` is None)."""
    environ = os.environ if environ is None else environ
    source = "--lang"
    tag = requested
    if not tag:
        for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
            if environ.get(var):
                tag, source = environ[var], var
                break
    lang = normalise(tag)
    if not lang:
        return "en", None
    if lang in LANGUAGES:
        return lang, None
    return "en", ("%s=%s: no catalogue for %r (there are %s); English instead"
                  % (source, tag, lang, ", ".join(LANGUAGES)))


# -- the .po files --------------------------------------------------------------------------

_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}


def _unquote(text, where):
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise ValueError("%s: not a quoted string: %s" % (where, text[:40]))
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), text[1:-1])


def read_po(path):
    """The messages of a .po file (a small reader for the subset Babel writes: no
    msgctxt): ``[(msgid, msgid_plural or None, [msgstr...], fuzzy, files)]``, the header
    first; ``files`` the source files its ``#:`` lines name. ValueError names the file
    and line of anything it cannot read."""
    entries = []
    cur = None
    key = None
    fuzzy = False
    files = []

    def close():
        nonlocal cur
        if cur is not None:
            strs = [cur["msgstr"][k] for k in sorted(cur["msgstr"])]
            entries.append((cur["msgid"], cur.get("msgid_plural"), strs, cur["fuzzy"],
                            cur["files"]))
        cur = None

    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            where = "%s:%d" % (os.path.relpath(path, ROOT), n)
            line = line.strip()
            if not line:
                continue
            if line.startswith("#"):
                if cur is not None and key is not None and key != "msgid":
                    close()
                if line.startswith("#,") and "fuzzy" in line:
                    fuzzy = True
                elif line.startswith("#:"):
                    files.extend(ref.rsplit(":", 1)[0] if ref[-1:].isdigit() and ":" in ref
                                 else ref for ref in line[2:].split())
                continue
            m = re.match(r"(msgid_plural|msgid|msgstr(?:\[(\d+)\])?|msgctxt)\s+(.*)", line)
            if m:
                word, index, rest = m.group(1), m.group(2), m.group(3)
                if word == "msgctxt":
                    raise ValueError("%s: msgctxt is not used in this project" % where)
                if word == "msgid":
                    close()
                    cur = {"msgid": "", "msgstr": {}, "fuzzy": fuzzy, "files": files}
                    fuzzy = False
                    files = []
                    key = "msgid"
                elif cur is None:
                    raise ValueError("%s: %s before any msgid" % (where, word))
                elif word == "msgid_plural":
                    cur["msgid_plural"] = ""
                    key = "msgid_plural"
                else:
                    key = int(index or 0)
                    cur["msgstr"][key] = ""
                text = _unquote(rest, where)
            elif line.startswith('"') and cur is not None:
                text = _unquote(line, where)
            else:
                raise ValueError("%s: cannot read %r" % (where, line[:40]))
            if isinstance(key, int):
                cur["msgstr"][key] += text
            else:
                cur[key] += text
    close()
    return entries


# The firmware's share of a table: only the messages its own files mark (the guide's
# lines), small enough for the simulators' MicroPython heap (a Pico's 190 KB).
FIRMWARE = "firmware/"


def table(lang, path=None, part=None):
    """``lang``'s catalogue as the runtimes' table (see the module's docstring); with
    ``part`` (a folder such as FIRMWARE) only the messages found in files under it."""
    out = {"": {"lang": lang, "plural": PLURALS[lang]}}
    for msgid, plural, strs, fuzzy, files in read_po(path or po_path(lang)):
        if not msgid or fuzzy:
            continue
        if part is not None and not any(f.startswith(part) for f in files):
            continue
        if plural is None:
            if strs and strs[0] and strs[0] != msgid:
                out[msgid] = strs[0]
        elif strs and all(strs) and (lang != "en" or strs != [msgid, plural]):
            out[msgid + "\x00" + plural] = strs
            if strs[0] != msgid:  # the singular alone too (a console template's piece)
                out.setdefault(msgid, strs[0])
    return out


def compiled(lang, part=None):
    """The path of ``lang``'s compiled table (build/i18n/<lang>.json; the firmware's
    share: <lang>.firmware.json), written when it is missing or older than the .po
    (atomically: a reader never sees half of it)."""
    src = po_path(lang)
    out = os.path.join(BUILD, lang + (".firmware" if part == FIRMWARE else "") + ".json")
    try:
        fresh = os.path.getmtime(out) >= os.path.getmtime(src)
    except OSError:
        fresh = False
    if not fresh:
        os.makedirs(BUILD, exist_ok=True)
        data = json.dumps(table(lang, part=part), ensure_ascii=False, separators=(",", ":"))
        tmp = out + ".%d.tmp" % os.getpid()
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(data)
        os.replace(tmp, out)
    return out


def load(lang, part=None):
    """``lang``'s table (compiled first if needed)."""
    with open(compiled(lang, part), encoding="utf-8") as f:
        return json.load(f)


# -- the host tools' lookups ----------------------------------------------------------------

_current = {"": {"lang": "en", "plural": "n != 1"}}


def install(lang):
    """From now on ``_`` and ``ngettext`` answer in ``lang`` (one of LANGUAGES). (A
    command: tools.i18n.usage.install, for its parser's and errors' words too.)"""
    global _current
    _current = load(lang) if lang != "en" else {"": {"lang": "en", "plural": "n != 1"}}
    return lang


def current():
    return _current[""]["lang"]


def _(message):
    return _current.get(message, message) if message else message  # "": the header


def N_(message):
    """Marks a message for extraction; translated later, where it is shown."""
    return message


def ngettext(one, many, n):
    forms = _current.get(one + "\x00" + many)
    if forms is None:
        return one if n == 1 else many
    return forms[min(plural_index(current(), n), len(forms) - 1)]


def gettext_for(lang):
    """``(_, ngettext)`` of ``lang`` without changing the installed language."""
    t = load(lang) if lang != "en" else {}

    def tr(message):
        return t.get(message, message) if message else message

    def ntr(one, many, n):
        forms = t.get(one + "\x00" + many)
        if forms is None:
            return one if n == 1 else many
        return forms[min(plural_index(lang, n), len(forms) - 1)]

    return tr, ntr


def add_lang_option(parser):
    parser.add_argument("--lang", metavar="LANG", help=_(
        "language: %s (default: from LC_ALL / LANG)") % ", ".join(LANGUAGES))


def asked(argv):
    """The ``--lang X`` / ``--lang=X`` of a command line (the last one), read before it is
    parsed: the parser's help and errors are then in that language; or None."""
    found = None
    for k, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and k + 1 < len(argv):
            found = argv[k + 1]
        elif arg.startswith("--lang="):
            found = arg[len("--lang="):]
    return found
