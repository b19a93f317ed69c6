"""The guide's words in the reader's language, when a simulator asks for them.

A Pico shows light, not words, and never imports this module (only modes/guide.py does,
which only the simulators call): ``_`` is the identity until a simulator (the terminal's
tools/sim/driver.py, the page's page.py) installs a table compiled from the catalogues
(tools/i18n: ``{msgid: msgstr, one + "\\x00" + many: [forms]}``).
"""

_table = None
_one_form = False  # Korean: one plural form


def install(table):
    """Words from ``table`` (None: English again)."""
    global _table, _one_form
    _table = table or None
    _one_form = bool(table) and table.get("", {}).get("plural") == "0"


def _(text):
    if _table is None or not text:  # ("": the table's header, never a message)
        return text
    return _table.get(text, text)


def ngettext(one, many, n):
    if _table is not None:
        forms = _table.get(one + "\x00" + many)
        if forms:
            return forms[0] if _one_form or n == 1 else forms[-1]
    return one if n == 1 else many
