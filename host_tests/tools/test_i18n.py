"""The translations (tools/i18n, locale/*.po): every message the code marks is in every
language with the English's placeholders (checked by Babel, as `python -m tools.i18n
check`), the stdlib reader the runtimes use agrees with Babel's, the language is chosen
as each place chooses it, the referee's console lines come out whole in each language,
and the worksheets print every language, Hangul included, inside their margins."""

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from tools import i18n
from tools.i18n import check, console
from tools.sim import terminal
from tools.sim.script import Session

ROOT = i18n.ROOT
OTHERS = ("de", "es", "ko")


# -- the catalogues -------------------------------------------------------------------------

def test_no_message_is_missing_in_any_language():
    problems = check.problems()
    assert not problems, problems[0]  # the first one, by name


def _broken_copy(tmp_path, lang, old, new):
    src = i18n.po_path(lang)
    with open(src, encoding="utf-8") as f:
        text = f.read()
    assert old in text, old
    dest = tmp_path / lang / "LC_MESSAGES"
    dest.mkdir(parents=True)
    (dest / "microrobots.po").write_text(text.replace(old, new, 1), encoding="utf-8")
    return str(tmp_path)


def test_the_check_fails_on_a_missing_message(tmp_path, monkeypatch):
    locale = _broken_copy(tmp_path, "de", 'msgid "Sound on"\nmsgstr "Ton an"\n', "")
    monkeypatch.setattr(i18n, "LOCALE", locale)
    assert check.problems(("de",)) == ["de: missing 'Sound on'"]


def test_the_check_fails_on_a_placeholder_that_differs(tmp_path, monkeypatch):
    locale = _broken_copy(tmp_path, "ko", 'msgstr "플레이어 %d"', 'msgstr "플레이어 %s"')
    monkeypatch.setattr(i18n, "LOCALE", locale)
    problems = check.problems(("ko",))
    assert len(problems) == 1 and "placeholders ['%s']" in problems[0], problems


def test_the_check_fails_on_an_empty_translation(tmp_path, monkeypatch):
    locale = _broken_copy(tmp_path, "es", 'msgstr "Idioma"', 'msgstr ""')
    monkeypatch.setattr(i18n, "LOCALE", locale)
    assert check.problems(("es",)) == ["es: untranslated 'Language'"]


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_runtimes_table_says_what_babel_reads(lang):
    """The stdlib reader (what make play and the build use, no Babel) against Babel's."""
    babel, _raw = check.catalogue(lang)
    table = i18n.table(lang)
    assert table[""] == {"lang": lang, "plural": i18n.PLURALS[lang]}
    for msgid, (plural, strs, _fuzzy) in babel.items():
        if plural is None:
            assert table.get(msgid, msgid) == strs[0], msgid
        else:
            assert len(strs) == (1 if lang == "ko" else 2), msgid
            if lang != "en":
                assert table[msgid + "\x00" + plural] == strs, msgid


def test_korean_has_one_plural_form_and_the_others_two():
    tr, ntr = i18n.gettext_for("de")
    assert [ntr("%d move", "%d moves", n) % n for n in (1, 2)] == ["1 Zug", "2 Züge"]
    tr, ntr = i18n.gettext_for("ko")
    assert [ntr("%d move", "%d moves", n) % n for n in (1, 2)] == ["1번 이동", "2번 이동"]
    tr, ntr = i18n.gettext_for("en")
    assert [ntr("%d move", "%d moves", n) % n for n in (1, 2)] == ["1 move", "2 moves"]


# -- choosing ----------------------------------------------------------------------------------

@pytest.mark.parametrize("env, asked, want", [
    ({"LANG": "de_DE.UTF-8"}, None, "de"),
    ({"LANG": "en_US.UTF-8", "LC_ALL": "es_ES.UTF-8"}, None, "es"),
    ({"LANG": "ko_KR.UTF-8"}, "es", "es"),  # --lang wins
    ({"LANG": "C.UTF-8"}, None, "en"),
    ({}, "KO", "ko"),
    ({}, None, "en"),
])
def test_the_language_from_lang_or_the_option(env, asked, want):
    assert i18n.choose(asked, env) == (want, None)


def test_an_unknown_language_is_english_and_said():
    lang, notice = i18n.choose(None, {"LANG": "fr_FR.UTF-8"})
    assert lang == "en"
    assert notice == ("LANG=fr_FR.UTF-8: no catalogue for 'fr' (there are en, de, es, ko); "
                      "English instead")


# -- the referee's console lines ---------------------------------------------------------------

def _referee_lines():
    """The console lines of a correct claim, then a wrong one (one move more than shown)."""
    s = Session(seed=11)
    s.tap("right")
    s.tap("a")
    s.settle()
    route = s.app.current.game.route()
    s.claim(0, len(route) - 1, route[1:])
    s.wait(4000)
    s.tap("a")
    s.settle()
    route = s.app.current.game.route()
    s.claim(1, len(route), route[1:])
    s.wait(3000)
    return [json.loads(x)["console"] for x in s.lines if '"console"' in x]


ENGLISH = re.compile(r"\b(wrong|correct|player|claims|gives|takes|shown|round|pool|move|moves)\b")


@pytest.mark.parametrize("lang", OTHERS)
def test_the_referees_verdicts_come_out_whole_in_each_language(lang):
    lines = _referee_lines()
    assert len(lines) == 2 and "correct" in lines[0] and "wrong" in lines[1], lines
    tr, _ntr = i18n.gettext_for(lang)
    for line in lines:
        said = console.translate_line(line, tr)
        assert said != line
        left = ENGLISH.findall(said) if lang != "ko" else re.findall(r"[A-Za-z]{3,}", said)
        assert not left, (line, said)
        assert re.findall(r"\d+", said) == re.findall(r"\d+", line)  # the same numbers


def test_a_line_no_template_knows_is_left_alone():
    tr, _ntr = i18n.gettext_for("de")
    assert console.translate_line("bogus 12: nothing", tr) == "bogus 12: nothing"
    assert console.translate_line("notice: bogus", tr) == "Hinweis: bogus"


# -- the terminal's columns --------------------------------------------------------------------

def test_hangul_takes_two_columns_in_the_terminal():
    assert terminal.width("한국어 ok") == 9
    lines = terminal.wrap("방향 패드: 사분면 선택 – 솔로 (왼쪽 위), 심판 (오른쪽 위)", 20)
    assert all(terminal.width(x) <= 20 for x in lines) and len(lines) > 1
    assert terminal.width(terminal.center("교실", 9)) == 9


# -- the commands ------------------------------------------------------------------------------

def run(*args, env=None):
    e = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.path.join(ROOT, "firmware")]))
    e.pop("LC_ALL", None)
    e.update(env or {})
    return subprocess.run([sys.executable, "-m"] + list(args), capture_output=True, text=True,
                          cwd=ROOT, env=e)


def test_solve_speaks_the_language_asked():
    out = run("tools.solve", "G3", "W5", "--claim", "4", "--lang", "de")
    assert out.returncode == 0, out.stderr
    assert "Weg: " in out.stdout and "Ansage 4: " in out.stdout, out.stdout
    out = run("tools.solve", "G3", "W5", env={"LANG": "es_ES.UTF-8"})
    assert "camino: " in out.stdout, out.stdout


def test_an_unknown_language_is_said_once_on_stderr():
    out = run("tools.solve", "G3", "W5", "--lang", "fr")
    assert out.returncode == 0
    assert out.stderr.count("no catalogue for 'fr'") == 1, out.stderr
    assert "route: " in out.stdout


# -- the worksheets ----------------------------------------------------------------------------

class Recorder:
    """A canvas that keeps what is written, to measure it as the PDF prints it."""

    def __init__(self, fonts):
        self.fonts = fonts
        self.texts = []

    def text(self, x, y, text, size, fill=(0, 0, 0), bold=False, anchor="start", cls=None):
        self.texts.append((x, y, text, size, bold, anchor, cls))

    def __getattr__(self, name):  # begin, end, rect, circle, line, polygon
        return lambda *a, **k: None


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_sheet_keeps_its_words_inside_the_page(lang, monkeypatch):
    from microrobots.rules.board import Layout
    from tools import worksheet as ws

    layout = Layout.named("black:ABCD0000")
    start, target, waypoint = ws.classroom_puzzle(layout, 7, 1)
    data = ws.puzzle_data(layout, start, target, waypoint)
    i18n.install(lang)
    try:
        fonts = ws.pdf_fonts(lang)
        for sheet in ws.SHEETS:
            canvas = Recorder(fonts)
            ws.draw_sheet(canvas, sheet, data, ws._info(data, 7, 1))
            title = canvas.texts[0]
            for x, _y, text, size, bold, anchor, cls in canvas.texts:
                w = ws._width(text, size, bold, fonts)
                left = x - w / 2 if anchor == "middle" else x
                assert left >= ws.MARGIN - 0.01 or cls in ("colour", "mark", "distance"), text
                assert left + w <= ws.PAGE[0] - ws.MARGIN + 0.01, (sheet, text, w)
                if cls == "colour":  # the colour's word stays on its die
                    assert w <= 0.85 * ws.PITCH, text
            name_x = ws.PAGE[0] - ws.MARGIN - ws.NAME_FIELD
            assert title[0] + ws._width(title[2], title[3], True, fonts) < name_x, title[2]
    finally:
        i18n.install("en")


needs_pdftotext = pytest.mark.skipif(shutil.which("pdftotext") is None or not os.path.exists(
    "/usr/share/fonts/truetype/nanum/NanumGothic.ttf"),
    reason="pdftotext (poppler-utils) or the Korean font (fonts-nanum) is missing")


@needs_pdftotext
@pytest.mark.parametrize("lang, words", [
    ("en", ["Warm-up: one move", "How far is every die?", "Answers (for the teacher)", "pink"]),
    ("de", ["Aufwärmen: ein Zug", "Wie weit ist jeder Würfel entfernt?", "Lösungen", "grün"]),
    ("es", ["Calentamiento: un movimiento", "¿A qué distancia está cada dado?", "amarillo"]),
    ("ko", ["준비 운동: 한 번의 이동", "주사위마다 얼마나 먼가요?", "정답 (교사용)", "초록"]),
])
def test_the_seed_7_sheets_text_is_extractable(tmp_path, lang, words):
    pdf = tmp_path / ("sheets-%s.pdf" % lang)
    out = run("tools.worksheet", "--seed", "7", "--lang", lang, "-o", str(pdf))
    assert out.returncode == 0, out.stderr
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout
    flat = re.sub(r"\s+", " ", text)
    for w in words:
        assert w in flat, (w, flat[:400])
    if lang == "ko":
        assert len(re.findall("[\uac00-\ud7a3]", text)) > 300  # Hangul syllables
        fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True).stdout
        nanum = [x for x in fonts.splitlines() if "NanumGothic" in x]
        assert nanum and all("+NanumGothic" in x.split()[0] for x in nanum), fonts  # a subset
        assert all(" yes yes " in x for x in nanum), fonts  # embedded, subset


# -- the glossary ------------------------------------------------------------------------------

# docs/glossary.md's terms (English word -> what each translation of a message with it
# contains), for the game's things whose word never changes with the sentence.
TERMS = [
    (r"\btokens?\b", {"de": "Siegmarke", "es": "token", "ko": "토큰"}),
    (r"\bwaypoint\b", {"de": "Zwischenziel", "es": "intermedio", "ko": "경유지"}),
    (r"\bvortex\b", {"de": "Strudel", "es": "vórtice", "ko": "소용돌이"}),
    (r"\b(clear|transparent) robot\b", {"de": "transparente", "es": "transparente", "ko": "투명"}),
    (r"\b(die|dice)\b", {"de": "Würfel", "es": "dado", "ko": "주사위"}),
    (r"\btarget\b", {"de": "Ziel", "es": "objetivo", "ko": "목표"}),
    (r"\bclaim\b", {"de": "Ansage", "es": "reclam", "ko": "선언"}),
    (r"\bD-pad\b", {"de": "Steuerkreuz", "es": "cruceta", "ko": "방향 패드"}),
]


@pytest.mark.parametrize("lang", OTHERS)
def test_the_translations_follow_the_glossary(lang):
    babel, _raw = check.catalogue(lang)
    for msgid, (_plural, strs, _fuzzy) in sorted(babel.items()):
        for pattern, words in TERMS:
            if re.search(pattern, msgid):
                assert all(words[lang].lower() in s.lower() for s in strs), (msgid, strs, words[lang])


# -- the firmware's guide, as the simulators run it ---------------------------------------------

def _guides(out):
    return [json.loads(x)["guide"] for x in out if x.startswith("{") and '"guide"' in x]


EVENTS = ["300 8", "360 0", "700 16", "760 0"]  # right (referee), A: the dice roll


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_the_drivers_guide_speaks_the_table_it_is_given(runtime, tmp_path):
    from tools.cli import ROOT as CHECKOUT

    if runtime == "micropython":
        if shutil.which("micropython", path=os.path.join(CHECKOUT, ".venv", "bin")) is None:
            pytest.skip("no micropython in .venv (make venv)")
        cmd = terminal.driver_command("micropython", 5, str(tmp_path) + "/", "ko")
        proc = subprocess.run(cmd + ["--until", "3000"], input="\n".join(EVENTS) + "\n",
                              capture_output=True, text=True, cwd=CHECKOUT)
        out = proc.stdout.splitlines()
        assert proc.returncode == 0, out[-3:]
    else:
        from microrobots import i18n as words
        from tools.sim import driver as simdriver

        out = []
        argv = ["--seed", "5", "--until", "3000", "--words", i18n.compiled("ko", i18n.FIRMWARE)]
        try:
            simdriver.run(argv, EVENTS, out.append)
        finally:
            words.install(None)  # English again for the other tests in this process
    guides = _guides(out)
    assert guides[0].startswith("마이크로 로봇에 오신 것을 환영합니다! 메뉴: 솔로") or \
        guides[0] == "솔로: A로 열기 · 방향 패드: 다른 모드", guides
    assert any(g.startswith("심판: A로 열기") for g in guides), guides
    assert any("주사위가 새 목표를 굴림" in g for g in guides), guides


def test_the_driver_names_a_table_it_cannot_read():
    from tools.sim import driver as simdriver

    out = []
    assert simdriver.run(["--words", "/nonexistent/ko.json"], [], out.append) == 2
    assert "--words /nonexistent/ko.json: cannot read it" in out[0]


def test_the_terminal_gives_the_driver_its_language():
    assert terminal.build_parser().parse_args(["--lang", "ko"]).lang == "ko"
    cmd = terminal.driver_command("cpython", 3, "/tmp/x/", "ko")
    assert cmd[-2:] == ["--words", i18n.compiled("ko", i18n.FIRMWARE)]
    assert "--words" not in terminal.driver_command("cpython", 3, "/tmp/x/", "en")


def test_no_firmware_module_but_the_guide_imports_the_words():
    """A Pico never asks for the guide (its picture says it), so it never loads the words:
    modes/guide.py and modes/pieces.py (the pieces named after the guide) alone import
    i18n, no firmware module imports the guide (the simulators ask ``guide.words(mode)``),
    and none imports the pieces: the simulators do."""
    firmware = os.path.join(ROOT, "firmware", "microrobots")
    users = []
    for folder, _dirs, files in os.walk(firmware):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                if re.search(r"^\s*from \.+(\w+\.)*i18n import|^\s*import .*i18n", text, re.M):
                    users.append(os.path.relpath(path, firmware))
                if re.search(r"^\s*from \.+ import guide|^\s*from \.+modes import guide|"
                             r"^\s*from \.guide import", text, re.M):
                    users.append(os.path.relpath(path, firmware) + " (the guide)")
                if re.search(r"^from \.+(modes)? import pieces|^from \.pieces import", text,
                             re.M):
                    users.append(os.path.relpath(path, firmware) + " (pieces at import)")
    assert sorted(users) == [os.path.join("modes", "guide.py"),
                             os.path.join("modes", "pieces.py")], users


def test_the_pieces_and_a_refused_move_are_named_in_the_readers_language():
    """The pieces after the guide (modes/pieces.py) and solo's refused move (guide.refused)
    take their colour words from the firmware's share of the catalogue."""
    from microrobots import i18n as words
    from microrobots.modes import guide
    from microrobots.rules.board import COLOUR_NAMES

    s = Session(seed=5)
    s.tap("a")  # solo
    s.settle()
    s.wait(200)
    solo = s.app.current
    layout = s.app.layout
    solver = s.app.solver
    bad = next(c for c in range(36) if c != solo.robot and not solver.is_move(solo.robot, c))
    solo.refused = bad
    words.install(i18n.table("de", part=i18n.FIRMWARE))
    try:
        named = guide.words(solo)
        from microrobots.modes import pieces

        line = pieces.line(s.app)
    finally:
        words.install(None)
        solo.refused = -1
    german = {"blau", "gelb", "grün", "rot", "pink", "weiß"}
    assert named.startswith("abgelehnt: "), named
    words_of = named.split()  # abgelehnt: weiß 6 ist weder rot noch eine 5: ...
    assert words_of[1] in german and words_of[5] in german, named
    assert words_of[2] == str(layout.number(bad)), named
    assert line.startswith("Roboter auf ") and ", Zielfeld " in line, line
    assert guide.COLOURS == COLOUR_NAMES  # the marked words are the board's, in order


# -- the commands' usage, help and errors --------------------------------------------------------

def test_every_argparse_message_a_reader_can_meet_is_in_the_catalogue():
    """usage.ARGPARSE holds every message of this Python's argparse (read by Babel from its
    source) but those only a programmer's mistake raises: a newer Python's new message
    fails here, by name, until it is marked and translated."""
    import argparse

    from babel.messages.extract import extract_from_file

    from tools.i18n import usage

    found = set()
    for _line, message, _comments, _ctx in extract_from_file(
            "python", argparse.__file__, keywords={"_": None, "ngettext": (1, 2)}):
        found.add(message[0] if isinstance(message, tuple) else message)
    marked = set(usage.ARGPARSE) | {"expected %s argument"}
    assert not found - marked - usage.PROGRAMMERS, sorted(found - marked - usage.PROGRAMMERS)
    assert not marked - found, sorted(marked - found)  # (none left over from an older one)


ENGLISH_USAGE = re.compile(r"\b(usage|error|options|show this help|arguments|unrecognized|"
                           r"required|give|unknown|colour|use|not|start|target|dice)\b")


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("args", [
    ("tools.solve", "--help"),
    ("tools.solve", "--bogus"),
    ("tools.solve", "G3"),
    ("tools.solve", "Q3", "W5"),  # the firmware's LayoutError, by template
    ("tools.solve", "G3", "W5", "--claim", "x"),
    ("tools.worksheet",),  # argparse's "the following arguments are required"
    ("tools.worksheet", "--help"),
    ("tools.worksheet", "--seed", "x", "-o", "/dev/null"),
    ("tools.replay", "MR2.x"),  # the firmware's GameStateError, by template
    ("tools.replay", "--help"),
    ("tools.sim", "--seed", "-4"),
    ("tools.sim", "--help"),
])
def test_the_commands_usage_and_errors_speak_the_language_asked(lang, args):
    out = run(*(args + ("--lang", lang)))
    said = out.stdout if "--help" in args else out.stderr
    assert out.returncode == (0 if "--help" in args else 2), (out.stdout, out.stderr)
    assert said.strip(), out
    lines = [x for x in said.splitlines() if x.strip() and not x.startswith(" " * 8)
             and not x.lstrip().startswith(("-", "[", "python -m"))]
    # (the options, the usage line and the defaults, wrapped, are what is typed)
    if lang == "ko":
        assert all(re.search("[\uac00-\ud7a3]", x) for x in lines), said
    else:
        # (after the command's name; Spanish's "error" is the English word)
        left = [x for x in lines if ENGLISH_USAGE.search(re.sub(r"^\S+: (error: )?", "", x))]
        assert not left, said


def test_help_and_errors_stay_english_in_english():
    out = run("tools.solve", "--bogus", "--lang", "en")
    assert out.stderr == "tools.solve: error: unrecognized arguments: --bogus\n", out.stderr
    out = run("tools.solve", "--help", env={"LANG": "C"})
    assert out.stdout.startswith("usage: python -m tools.solve") and "options:" in out.stdout


def test_the_language_is_read_before_the_command_line_is_parsed():
    assert i18n.asked(["G3", "--lang", "ko"]) == "ko"
    assert i18n.asked(["--lang=es", "G3"]) == "es"
    assert i18n.asked(["--lang"]) is None  # (argparse says what is missing)
    assert i18n.asked(["--", "--lang", "de"]) is None


# -- the firmware's notices, said whole ----------------------------------------------------------

DAMAGED = {  # the files a family's device may hold, and what the store makes of them
    "settings": b'{"format": 1, "data": ',
    "solo": "\ufeff{}".encode("utf-16"),
    "referee": b'{"format": 1, "data": null}',
    "a": b'{"format": 7, "data": {}}',
    "b": b"[" * 40 + b"]" * 40,
    "c": b'{"format": 1, "data": "\xe9t\xe9"}',
    "d": b'{"format": 1, "data": {} x',
}


def _notices(tmp_path):
    from microrobots.device.store import Store

    for name, data in DAMAGED.items():
        (tmp_path / (name + ".json")).write_bytes(data)
    store = Store(str(tmp_path) + "/")
    lines = ["notice: " + store.load(name)[1].replace(str(tmp_path) + "/", "")
             for name in DAMAGED]
    return lines + [
        "notice: settings.json: corrupt or cut short (not valid JSON); using defaults; kept as "
        "settings.bad.json",  # (app.py: set aside)
        "notice: solo.json: the app stopped with it (MemoryError); kept as solo.bad.json",
        "notice: saved game: not a solo game on this layout",
        "notice: saved game: truncated, 'round' is missing; referee.json: a number out of range"
        "; using defaults"]


NOTICE_ENGLISH = re.compile(r"\b(notice|cannot|using|defaults|not|saved|valid|corrupt|"
                            r"nested|deeper|format|reads|game|stopped|kept|as|missing|number)\b")


@pytest.mark.parametrize("lang", OTHERS)
def test_the_firmwares_notices_come_out_whole_in_each_language(lang, tmp_path):
    lines = _notices(tmp_path)
    assert len(set(lines)) == len(lines), lines  # (each damage a problem of its own)
    tr, _ntr = i18n.gettext_for(lang)
    for line in lines:
        said = console.translate_line(line, tr)
        words = re.sub(r"[\w.]+\.json", "", said).replace("MemoryError", "").replace("UTF-", "")
        if lang == "ko":
            words = re.sub(r"JSON|Latin-1|null", "", words)  # (names, as the glossary keeps them)
            assert not re.findall(r"[A-Za-z]{3,}", re.sub(r"'[^']*'", "", words)), (line, said)
        else:
            assert not NOTICE_ENGLISH.findall(words), (line, said)
        assert re.findall(r"\d+", said) == re.findall(r"\d+", line), (line, said)


# -- the Ricochet server's refusals --------------------------------------------------------------

@pytest.mark.parametrize("lang", OTHERS)
def test_the_ricochet_servers_refusals_have_templates(lang):
    """Every BadRequest the table's routes raise for a bad request comes out translated
    through the page's templates (console.RICOCHET, shipped in catalogs.js)."""
    from tools.ricochet import table

    translate = console.translator(console.RICOCHET + console.GENERAL)
    tr, _ntr = i18n.gettext_for(lang)
    requests = [
        ("board", []), ("board", {"faces": "9Z"}), ("board", {"faces": "1A,1A,2B,3A"}),
        ("solve", {"faces": "1A,2A,3A,4A"}),
        ("solve", {"faces": "1A,2A,3A,4A", "robots": 5}),
        ("solve", {"faces": "1A,2A,3A,4A", "robots": {"red": 0, "green": 1, "blue": 2,
                                                      "yellow": 3}, "target": 99}),
        ("solve", {"faces": "1A,2A,3A,4A", "robots": {"red": 0, "green": 1, "blue": 2,
                                                      "yellow": 3}, "target": "purple"}),
        ("solve", {"faces": "1A,2A,3A,4A", "robots": {"red": 0, "green": 0, "blue": 2,
                                                      "yellow": 3}, "target": 0}),
    ]
    said = []
    for route, request in requests:
        with pytest.raises(table.BadRequest) as e:
            table.ROUTES[route](request, prepare=False) if route == "board" else \
                table.ROUTES[route](request)
        line = str(e.value)
        out = translate(line, tr)
        said.append((line, out))
        assert out != line, line
        if lang != "ko":
            assert not re.search(r"\b(the|is|are|not|give|use|missing|unknown)\b",
                                 out.replace("true", "").replace("false", "")), (line, out)
    assert len({line for line, _out in said}) == len(said), said


def test_the_page_says_the_notices_and_refusals_as_the_terminal_does(tmp_path):
    """tools/i18n/lang.js, run in node with the page's catalogs.js: every damaged-file
    notice (the one with a byte in hex too) and every Ricochet refusal above comes out
    as the host's translator says it, in each language."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is missing: the page's lookup cannot be run")
    from tools.i18n import web

    (tmp_path / "catalogs.js").write_text(web.catalogs_js(), encoding="utf-8")
    shutil.copy(os.path.join(ROOT, "tools", "i18n", "lang.js"), tmp_path / "lang.js")
    lines = _notices(tmp_path) + [
        "notice: solo.json: not UTF-8 text (byte 0xe9 at offset 23; saved as Latin-1? save "
        "as UTF-8); using defaults",
        "faces: unknown face '9Z' (use 1A-4A or 1B-4B)",
        "robots: robot red is missing",
        "the search took over 2.5 s without an answer (the server's budget)"]
    (tmp_path / "check.mjs").write_text(
        'globalThis.document = { documentElement: {} };\n'
        'import { setLanguage, translateLine } from "./lang.js";\n'
        "const lines = %s, out = {};\n"
        'for (const lang of ["de", "es", "ko"]) { setLanguage(lang); '
        "out[lang] = lines.map((l) => translateLine(l)); }\n"
        "console.log(JSON.stringify(out));\n" % json.dumps(lines), encoding="utf-8")
    proc = subprocess.run([node, str(tmp_path / "check.mjs")], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    page = json.loads(proc.stdout)
    host = console.translator(console.TEMPLATES + console.RICOCHET + console.GENERAL)
    for lang in OTHERS:
        tr, _ntr = i18n.gettext_for(lang)
        for line, said in zip(lines, page[lang]):
            assert said == host(line, tr) != line, (lang, line)


@pytest.mark.parametrize("lang", OTHERS)
def test_a_verdict_on_the_vortex_is_said_whole(lang):
    """'no robot stops on the vortex at (10,7)' also fits '%s stops on the %s': the
    specific template is tried first."""
    host = console.translator(console.TEMPLATES + console.RICOCHET + console.GENERAL)
    tr, _ntr = i18n.gettext_for(lang)
    said = host("the target is not reached: no robot stops on the vortex at (10,7)", tr)
    assert said == tr("the target is not reached: %s") % (
        tr("no robot stops on the vortex at %s") % "(10,7)"), said
