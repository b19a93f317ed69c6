"""The pages' catalogs.js: every language's table, the firmware's share of each, and the
console's templates, for tools/i18n/lang.js (the handheld's page: tools/sim/web/build.py;
the Ricochet table: tools/ricochet/serve.py)."""

import json

from tools import i18n
from tools.i18n import console


def catalogs_js():
    """The pages' catalogs.js (tools/i18n/lang.js imports it): every language's table,
    and the templates of the lines the host or the firmware say in English
    (tools/i18n/console.py), which the page translates where it shows them."""
    tables = {lang: i18n.load(lang) for lang in i18n.LANGUAGES if lang != "en"}
    firmware = {lang: i18n.load(lang, i18n.FIRMWARE) for lang in i18n.LANGUAGES if lang != "en"}
    return ("export const LANGUAGES = %s;\nexport const CATALOGS = %s;\n"
            "export const FIRMWARE = %s;\nexport const CONSOLE = %s;\n"
            % (json.dumps(list(i18n.LANGUAGES)), json.dumps(tables, ensure_ascii=False),
               json.dumps(firmware, ensure_ascii=False),
               json.dumps(console.TEMPLATES + console.RICOCHET + console.GENERAL)))
