"""The catalogues checked with Babel: every message the code has (extracted now, not the
.pot on disk) translated in every language, and each translation with the same
placeholders as its English (``%d``, ``%s``, ``%.2f`` ... in order: the code fills them
positionally). The first problem of each kind, one line each."""

import re

from tools import i18n

PLACEHOLDER = re.compile(r"%(?:\([a-z_]+\))?[-+ #0]*\d*(?:\.\d+)?[sdfrx%]")


def placeholders(text):
    return [p for p in PLACEHOLDER.findall(text) if p != "%%"]


def code_messages():
    """``{msgid: msgid_plural or None}`` of every message the code marks, by Babel."""
    import os

    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with open(os.path.join(i18n.ROOT, "babel.cfg")) as f:
        method_map, options_map = parse_mapping_cfg(f)
    keywords = {"_": None, "N_": None, "ngettext": (1, 2)}
    found = {}
    for _path, _line, message, _comments, _ctx in extract_from_dir(
            i18n.ROOT, method_map, options_map, keywords=keywords):
        if isinstance(message, tuple):
            found[message[0]] = message[1]
        else:
            found.setdefault(message, None)
    return found


def catalogue(lang):
    """Babel's reading of ``lang``'s .po: ``{msgid: (plural or None, [strs], fuzzy)}``."""
    from babel.messages.pofile import read_po

    with open(i18n.po_path(lang), "rb") as f:
        cat = read_po(f, locale=lang if lang != "en" else "en")
    out = {}
    for m in cat:
        if not m.id:
            continue
        if isinstance(m.id, tuple):
            strs = list(m.string) if isinstance(m.string, tuple) else [m.string]
            out[m.id[0]] = (m.id[1], strs, m.fuzzy)
        else:
            out[m.id] = (None, [m.string], m.fuzzy)
    return out, cat


def problems(langs=i18n.LANGUAGES):
    """One line per problem (empty: all well)."""
    code = code_messages()
    out = []
    for lang in langs:
        cat, raw = catalogue(lang)
        want = "nplurals=%d" % (1 if i18n.PLURALS[lang] == "0" else 2)
        if want not in (raw.plural_forms or "").replace(" ", ""):
            out.append("%s: Plural-Forms %r, not %s" % (lang, raw.plural_forms, want))
        for msgid, plural in sorted(code.items()):
            entry = cat.get(msgid)
            if entry is None:
                out.append("%s: missing %r" % (lang, msgid))
                continue
            got_plural, strs, fuzzy = entry
            if fuzzy:
                out.append("%s: fuzzy %r" % (lang, msgid))
            elif got_plural != plural:
                out.append("%s: %r: plural %r, the code says %r" % (lang, msgid, got_plural,
                                                                   plural))
            elif not all(strs):
                out.append("%s: untranslated %r" % (lang, msgid))
            else:
                english = placeholders(msgid if plural is None else plural)
                for s in strs:
                    if placeholders(s) != english and not (
                            plural is not None and placeholders(s) == placeholders(msgid)):
                        out.append("%s: %r: placeholders %s, the English has %s"
                                   % (lang, s, placeholders(s), english))
                        break
    return out
