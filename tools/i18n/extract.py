"""Babel's extractor for the pages' HTML (babel.cfg: ``[tools.i18n.extract:extract_html:
...]``): an element's text is a message when it carries ``data-i18n``, an attribute's
(``title``, ``aria-label``, ``placeholder``, ``content``) when ``data-i18n-<attr>`` is
set. The page's script translates the same texts, whitespace collapsed (page.js,
table.js: ``translatePage``), so what is extracted is what is looked up.
"""

import html.parser
import re

ATTRIBUTES = ("title", "aria-label", "placeholder", "content")


def squeeze(text):
    return re.sub(r"\s+", " ", text).strip()


class _Parser(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found = []  # (line, message)
        self.stack = []  # [tag, collecting?, parts, line]

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        line = self.getpos()[0]
        for name in ATTRIBUTES:
            if "data-i18n-" + name in a and a.get(name):
                self.found.append((line, squeeze(a[name])))
        if tag in ("meta", "link", "input", "br", "img"):
            return
        self.stack.append([tag, "data-i18n" in a, [], line])

    def handle_endtag(self, tag):
        while self.stack:
            t, collecting, parts, line = self.stack.pop()
            if collecting and squeeze("".join(parts)):
                self.found.append((line, squeeze("".join(parts))))
            if t == tag:
                break

    def handle_data(self, data):
        for entry in self.stack:
            if entry[1]:
                entry[2].append(data)


def messages(text):
    p = _Parser()
    p.feed(text)
    p.close()
    return sorted(p.found)


def extract_html(fileobj, keywords, comment_tags, options):
    """Babel's extractor interface: ``(lineno, funcname, message, comments)``."""
    text = fileobj.read().decode(options.get("encoding", "utf-8"))
    for line, message in messages(text):
        yield line, None, message, []
