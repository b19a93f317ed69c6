// The reader's language in a page (the handheld's page and the Ricochet table share it).
// The tables come from the gettext catalogues (locale/*.po), compiled by tools/i18n into
// catalogs.js: {lang: {"": {lang, plural}, msgid: msgstr, one + "\0" + many: [forms]}}.
//
// Chosen as: ?lang=de|es|ko|en (remembered in localStorage), else the language
// remembered, else the browser's first language that has a catalogue, else English.
// An unknown ?lang=: English, and a one-line notice (said once: the caller shows it).

import { CATALOGS, CONSOLE, FIRMWARE, LANGUAGES } from "./catalogs.js";

const KEY = "microrobots.lang";
let table = { "": { lang: "en", plural: "n != 1" } };

export function chooseLanguage(search = location.search, navigatorLanguages = navigator.languages) {
  const asked = new URLSearchParams(search).get("lang");
  let notice = null;
  if (asked !== null) {
    const code = asked.toLowerCase().split(/[-_]/)[0];
    if (LANGUAGES.includes(code)) {
      remember(code);
      return { lang: code, notice };
    }
    notice = format(_("URL lang=%s: no catalogue for it (there are %s); English instead"),
      JSON.stringify(asked.slice(0, 24)), LANGUAGES.join(", "));
    return { lang: "en", notice };
  }
  const kept = recalled();
  if (kept && LANGUAGES.includes(kept)) return { lang: kept, notice };
  for (const tag of navigatorLanguages || []) {
    const code = String(tag).toLowerCase().split(/[-_]/)[0];
    if (LANGUAGES.includes(code)) return { lang: code, notice };
  }
  return { lang: "en", notice };
}

function recalled() {
  try { return window.localStorage.getItem(KEY); } catch (e) { return null; }
}

export function remember(lang) {
  try { window.localStorage.setItem(KEY, lang); } catch (e) { /* no storage: this page only */ }
}

export function setLanguage(lang) {
  table = lang !== "en" && CATALOGS[lang] ? CATALOGS[lang] : { "": { lang: "en", plural: "n != 1" } };
  document.documentElement.lang = lang;
  return table;
}

export function language() { return table[""].lang; }
export function catalogue() { return table; }
// The firmware's share (its guide's lines only: what MicroPython keeps on its heap).
export function firmwareCatalogue() { return FIRMWARE[table[""].lang] || { "": table[""] }; }

export function _(message) {
  // ("" is the table's header, never a message)
  return message && Object.prototype.hasOwnProperty.call(table, message) ? table[message] : message;
}

export function N_(message) { return message; }

export function ngettext(one, many, n) {
  const forms = table[one + "\u0000" + many];
  if (!forms) return n === 1 ? one : many;
  return forms[table[""].plural === "0" ? 0 : (n === 1 ? 0 : Math.min(1, forms.length - 1))];
}

// "%s" / "%d" / "%.2f" / "%02x" filled in order, as Python's % does for the same messages.
export function format(text, ...args) {
  let k = 0;
  return text.replace(/%(\.\d+|02)?([sdfx%])/g, (whole, precision, kind) => {
    if (kind === "%") return "%";
    const v = args[k++];
    if (kind === "f") return Number(v).toFixed(precision ? Number(precision.slice(1)) : 6);
    if (kind === "x") return Number(v).toString(16).padStart(precision === "02" ? 2 : 1, "0");
    return String(v);
  });
}

// The firmware's console lines (the referee's verdicts and reasons, notices) are English
// on a Pico; here each is matched against the catalogue's console templates
// (tools/i18n/console.py) and said in the reader's language, its %s parts in turn.
const patterns = CONSOLE.map((template) => {
  const kinds = [];
  const source = template.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/%(?:02)?([sdx])/g, (w, kind) => {
    kinds.push(kind);
    return kind === "d" ? "(-?\\d+)" : kind === "x" ? "([0-9a-f]+)" : "(.+?)";
  });
  return { template, kinds, re: new RegExp(`^${source}$`) };
});

export function translateLine(line, depth = 0) {
  if (!line || table[""].lang === "en" || depth > 4) return line;
  if (Object.prototype.hasOwnProperty.call(table, line)) return table[line];
  for (const p of patterns) {
    const m = p.re.exec(line);
    if (!m) continue;
    const args = m.slice(1).map((v, k) => (p.kinds[k] === "s" ? translateLine(v, depth + 1)
      : p.kinds[k] === "x" ? parseInt(v, 16) : v));
    return format(_(p.template), ...args);
  }
  return line;
}

// Every element marked data-i18n gets its text, and data-i18n-ATTR its attribute, in the
// language set (the English, whitespace collapsed, is the key: tools/i18n/extract.py).
const ATTRIBUTES = ["title", "aria-label", "placeholder", "content"];
export function translatePage(root = document) {
  const squeeze = (text) => text.replace(/\s+/g, " ").trim();
  for (const el of root.querySelectorAll("[data-i18n]")) {
    if (el.dataset.i18nSource === undefined) el.dataset.i18nSource = squeeze(el.textContent);
    el.textContent = _(el.dataset.i18nSource);
  }
  for (const name of ATTRIBUTES) {
    for (const el of root.querySelectorAll(`[data-i18n-${name}]`)) {
      const keep = `i18nSource${name.replace(/(^|-)(\w)/g, (w, d, c) => c.toUpperCase())}`;
      if (el.dataset[keep] === undefined) el.dataset[keep] = squeeze(el.getAttribute(name) || "");
      el.setAttribute(name, _(el.dataset[keep]));
    }
  }
}
