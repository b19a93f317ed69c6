"""The tour in four languages, in Chromium: every screen of the handheld's page (the
menu, settings, the referee with a correct and a wrong claim, solo, the classroom and
its projector view) and of the Ricochet table (set-up, a round, a verdict), at a phone's
390x844, a desktop's 1280x800 and a 1080p projector's 1920x1080, opened with ?lang=...

At each screen and size the page's own layout is measured, not looked at: no element's
text overflows or is clipped by its box (scrollWidth/scrollHeight beyond clientWidth/
clientHeight), none sticks out of the window, the page never scrolls sideways. In Korean
the browser is asked (DevTools' CSS.getPlatformFontsForNode) which fonts drew the text:
every Hangul syllable must come from a font that has Hangul, never a fallback box. And
no visible text, title or label is left in English (english_left). Each
screen is captured (a screenshot in the test's folder; MICROROBOTS_TOUR=DIR keeps them).
"""

import os
import re
import threading

import pytest

from tools.sim.web import browser as web

_why = web.missing()
if _why:
    pytest.skip("browser tests: " + _why, allow_module_level=True)

import test_ricochet_page as table  # noqa: E402 - the table page's helpers
import tour  # noqa: E402

LANGS = ("en", "de", "es", "ko")
SIZES = {"phone": (390, 844), "desktop": (1280, 800), "projector": (1920, 1080)}
# The tour's screens, by the English words of the help line at that step (host_tests/tour.py).
SCREENS = {
    "welcome to Micro Robots": "menu",
    "4 of 13, players: 3": "settings",
    "correct: player 2 takes a token": "referee-correct",
    "wrong: ": "referee-wrong",
    "solved in": "solo",
    "layer 2: every cell 2 moves away": "classroom",
}
CJK_FONT = re.compile(r"Nanum|Noto Sans CJK|Noto Serif CJK|Source Han|Apple SD Gothic|Malgun|"
                      r"UnDotum|Baekmuk|WenQuanYi|Droid Sans Fallback", re.I)

# Every element showing text: does it fit its box, and the window?
MEASURE = r"""() => {
  const bad = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth + 1)
    bad.push(`the page scrolls sideways: ${root.scrollWidth} > ${root.clientWidth}`);
  for (const el of document.body.querySelectorAll("*")) {
    const cs = getComputedStyle(el);
    if (cs.display === "none" || cs.visibility === "hidden" || el.closest("[hidden]")) continue;
    if (["svg", "canvas", "noscript", "script", "option"].includes(el.localName) || el.closest("svg")) continue;
    const text = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join("").trim();
    if (!text && el.localName !== "select") continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const name = `${el.localName}${el.id ? "#" + el.id : ""} "${(text || el.value).slice(0, 40)}"`;
    if (r.right > root.clientWidth + 1 || r.left < -1) bad.push(`${name} leaves the window (${Math.round(r.left)}..${Math.round(r.right)})`);
    if (cs.display === "inline") continue;  // an inline box has no client size: its parent is measured
    if (el.scrollWidth > el.clientWidth + 1) bad.push(`${name} overflows its box sideways (${el.scrollWidth} > ${el.clientWidth})`);
    const scrolls = cs.overflowY === "auto" || cs.overflowY === "scroll";
    if (!scrolls && el.scrollHeight > el.clientHeight + 1 && cs.overflowY !== "visible")
      bad.push(`${name} is clipped (${el.scrollHeight} > ${el.clientHeight})`);
    if (cs.textOverflow === "ellipsis" && el.scrollWidth > el.clientWidth) bad.push(`${name} is cut short`);
  }
  return bad;
}"""


def measure(page, where):
    bad = page.evaluate(MEASURE)
    assert not bad, "%s: %s" % (where, bad[0])


# Each element whose own text (its text nodes) has Hangul, visible, not an option nor in
# an SVG, marked with its count of syllables in one call: only those few are then asked
# for their fonts (a round trip to the browser each; a walk over every element took
# thousands of them on the table's page, minutes on a busy machine).
MARK_HANGUL = """() => {
  const counts = [];
  for (const el of document.querySelectorAll('body *')) {
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || !el.getClientRects().length) continue;
    if (el.localName === 'option' || el.closest('svg')) continue;
    const n = [...el.childNodes].filter((t) => t.nodeType === 3).map((t) => t.textContent)
      .join('').replace(/[^\\uac00-\\ud7a3]/g, '').length;
    if (n) { el.setAttribute('data-hangul-test', n); counts.push(n); }
  }
  return counts;
}"""
UNMARK_HANGUL = """() => document.querySelectorAll('[data-hangul-test]').forEach(
  (el) => el.removeAttribute('data-hangul-test'))"""


def hangul_fonts(page, where):
    """Every element whose own text has Hangul: drawn with a font that has it."""
    counts = page.evaluate(MARK_HANGUL)
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    doc = cdp.send("DOM.getDocument", {"depth": -1})
    nodes = cdp.send("DOM.querySelectorAll", {"nodeId": doc["root"]["nodeId"],
                                              "selector": "[data-hangul-test]"})["nodeIds"]
    assert len(nodes) == len(counts), where  # (both in the document's order)
    for node, syllables in zip(nodes, counts):
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        hangul = sum(f["glyphCount"] for f in fonts if CJK_FONT.search(f["familyName"]))
        other = [f["familyName"] for f in fonts if not CJK_FONT.search(f["familyName"])]
        assert hangul >= syllables, "%s: %d Hangul drawn by %s" % (where, syllables, other)
    cdp.detach()
    page.evaluate(UNMARK_HANGUL)
    return len(counts)


# The words a screen left in English: every visible text node and every title, label
# and placeholder (what a reader sees or hears), in German and Spanish any word only
# English has, in Korean any Latin word but the names kept in every language (the
# glossary: the notation, the keys, the languages' own names, the game's name).
TEXTS = r"""() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest("script,style,noscript,[hidden]") || !el.getClientRects().length) continue;
    if (getComputedStyle(el).visibility === "hidden") continue;
    const text = n.textContent.replace(/\s+/g, " ").trim();
    if (text) out.push(text);
  }
  for (const el of document.querySelectorAll("[title],[aria-label],[placeholder]"))
    for (const a of ["title", "aria-label", "placeholder"]) if (el.getAttribute(a)) out.push(el.getAttribute(a));
  return out;
}"""
ENGLISH_ONLY = re.compile(r"\b(the|and|of|is|are|with|not|your|you|tap|press|moves|round|"
                          r"player|players|claims?|target|shown|sound|settings|wrong|correct|"
                          r"takes|gives|pool|board|chip|bid|bids|wins|clear|silver)\b", re.I)  # (es: "token")
KEPT = re.compile(r"(?<![A-Za-z])(USB|LED|English|Deutsch|Español|Micro|Robots|Ricochet|"
                  r"MR\d[\w.:-]*|black|copper|[A-Z]{1,2}\d+[\w:]*|Enter|Esc|Shift|Space|"
                  r"Backspace|PageDown|PageUp)(?![A-Za-z])")  # (Hangul may follow)


def english_left(page, where, lang):
    if lang == "en":
        return
    for text in page.evaluate(TEXTS):
        rest = KEPT.sub("", text)
        left = (re.findall(r"[A-Za-z]{3,}", rest) if lang == "ko"
                else ENGLISH_ONLY.findall(rest))
        assert not left, "%s: %r is English (%s)" % (where, text, left)


def capture(page, folder, name):
    page.screenshot(path=os.path.join(folder, name + ".png"))


@pytest.fixture(scope="module")
def handheld():
    with web.session() as (browser, url):
        yield browser, url


@pytest.fixture(scope="module")
def steps(tmp_path_factory):
    return tour.tour(str(tmp_path_factory.mktemp("tour")))


@pytest.fixture
def shots(tmp_path):
    keep = os.environ.get("MICROROBOTS_TOUR")
    if keep:
        os.makedirs(keep, exist_ok=True)
        return keep
    return str(tmp_path)


@pytest.mark.parametrize("lang", LANGS)
def test_the_handhelds_tour_fits_every_screen_in_each_language(handheld, steps, lang, shots):
    browser, url = handheld
    page, problems = web.open_page(browser, url, "?clock=manual&seed=%d&lang=%s"
                                   % (tour.SEED, lang), SIZES["desktop"])
    assert page.evaluate("document.documentElement.lang") == lang
    seen = set()
    for step in steps:
        page.evaluate("([text, until]) => { window.microrobots.replay(text, until); }",
                      ["\n".join(step.events) + "\n", step.t])
        screen = next((name for words, name in SCREENS.items() if words in step.guide), None)
        if screen is None or screen in seen:
            continue
        seen.add(screen)
        if lang != "en":  # the words on show are the language's, the guide's too
            assert page.inner_text("#now") != step.guide, (lang, screen)
        for size, (w, h) in SIZES.items():
            page.set_viewport_size({"width": w, "height": h})
            big = size == "projector"
            if page.evaluate("document.body.classList.contains('big')") != big:
                page.keyboard.press("p")  # the projector view on the projector
            page.evaluate("() => new Promise((r) => requestAnimationFrame(() => "
                          "requestAnimationFrame(r)))")
            where = "%s, %s, %s" % (lang, screen, size)
            measure(page, where)
            english_left(page, where, lang)
            if lang == "ko":
                assert hangul_fonts(page, where) > 3
            capture(page, shots, "%s-%s-%s" % (lang, screen, size))
    assert seen == set(SCREENS.values())
    assert problems == []


@pytest.fixture(scope="module")
def ricochet(handheld):
    """The Ricochet table's host in this process, in the same browser."""
    from tools.ricochet import serve

    httpd = serve.server()
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield handheld[0], "http://127.0.0.1:%d/" % httpd.server_port
    httpd.shutdown()
    httpd.server_close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_ricochet_table_fits_every_screen_in_each_language(ricochet, lang, shots):
    browser, url = ricochet
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.problems = web.watch(page)
    page.url0 = url
    table.open_page(page, "&lang=%s" % lang)
    assert page.evaluate("document.documentElement.lang") == lang

    def every_size(screen):
        for size, (w, h) in SIZES.items():
            page.set_viewport_size({"width": w, "height": h})
            where = "Ricochet, %s, %s, %s" % (lang, screen, size)
            measure(page, where)
            english_left(page, where, lang)
            if lang == "ko":
                assert hangul_fonts(page, where) > 2
            capture(page, shots, "%s-ricochet-%s-%s" % (lang, screen, size))
        page.set_viewport_size({"width": 1280, "height": 800})

    table.set_up(page, "0B7P6ZBDXVGFEG", by_drag=())
    every_size("set-up")
    page.click("#start")  # no players added: two are made up, named in the language
    names = page.locator("#players th").all_text_contents()
    table.bid(page, names[0], 3)
    table.bid(page, names[1], 9)  # both have bid: the demonstration starts at once
    every_size("bids")
    table.demo_move(page, "clear", 0)
    table.demo_move(page, "clear", 3, passes=1)  # three moves made, the bid: not there
    verdict = page.text_content("#verdict")
    if lang != "en":
        assert "fails" not in verdict and "reaches" not in verdict, verdict
    every_size("verdict")
    assert page.problems == []
    context.close()


def test_the_page_takes_the_browsers_language_then_the_url_then_remembers(handheld):
    """No ?lang=: the browser's language (here es-ES); ?lang=ko wins and is remembered;
    the picker changes every word at once, the firmware's guide too; ?lang=fr: English,
    said once as the device's notice."""
    browser, url = handheld
    context = browser.new_context(locale="es-ES", viewport={"width": 1280, "height": 800})
    page = context.new_page()
    problems = web.watch(page)

    def start(query):
        page.goto(url + query)
        assert page.evaluate("window.microrobots.ready")
        page.wait_for_function("window.microrobots.guide !== ''", timeout=20000)
        return page.evaluate("document.documentElement.lang")

    assert start("?fresh") == "es"
    assert page.inner_text("#big") == "Vista de proyector"
    assert start("?fresh&lang=ko") == "ko"
    assert start("?fresh") == "ko"  # remembered
    assert "솔로: A로 열기" in page.inner_text("#now")
    page.select_option("#lang", "de")
    assert page.evaluate("document.documentElement.lang") == "de"
    assert page.inner_text("#big") == "Projektoransicht"
    assert "Solo: A öffnet" in page.inner_text("#now")  # the firmware's words
    assert page.inner_text("#help").startswith("Steuerkreuz: einen Quadranten wählen")
    assert start("?fresh") == "de"  # the picker's choice is remembered too
    assert start("?fresh&lang=fr") == "en"
    assert page.evaluate("window.microrobots.status") == (
        'notice: URL lang="fr": no catalogue for it (there are en, de, es, ko); English instead')
    assert "solo: A opens it" in page.inner_text("#now")
    assert problems == []
    context.close()
