"""Every command line the README and docs/ show runs as documented.

The command lines come from the Markdown itself, so that docs and code cannot drift apart:

- in a fenced block, a line ``$ CMD`` is a transcript: CMD runs and must print exactly the
  lines that follow it (stdout and stderr together; a time in seconds, ``0.01 s``, may
  differ; a line ``...`` stands for any number of lines left out);
- other lines of a fenced block that start a command (``make``, ``python -m tools...``,
  ``.venv/bin/...``, ``openscad``, ``mpremote``) must run and exit 0;
- an inline ``python -m tools...`` or ``make ...`` span runs too;
- a synopsis (``[--clear]``, ``a|b``, a metavariable such as ``N`` or ``FILE``) is a usage
  line, not a command line, and is not run.

Commands run in a scratch copy of the checkout (the tracked files, with ``.venv`` linked),
so that what they write (films, pictures, package.json, build/) never touches the tree.
The lines run in order, file by file, in one scratch copy: a later line may read what an
earlier one wrote (``frames.jsonl``); a line shown again is run once. A ``make`` line is checked with ``make -n``
(its target exists and expands) when running it here is not possible or is another test's
job: those are listed in ``NOT_RUN`` with the reason, and each entry must still match a
documented line (no stale excuses). A line of minutes whose outcome depends only on the
tree (a bench) is listed in ``KEPT``: it runs once per state of its inputs, and its output is
kept in the board runs' cache and judged every time as if it had just run.
"""

import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# A dated log records the commands as they were run then; it is not a page of instructions.
LOGS = ("docs/ricochet-log.md",)
DOCS = ["README.md", "hardware/README.md"] + sorted(
    "docs/" + f for f in os.listdir(os.path.join(ROOT, "docs"))
    if f.endswith(".md") and "docs/" + f not in LOGS) + sorted(
    "docs/%s/%s" % (lang, f) for lang in ("de", "es", "ko")  # the translated docs
    for f in os.listdir(os.path.join(ROOT, "docs", lang)) if f.endswith(".md"))

# Documented lines that cannot run here, by prefix, and why. `make -n` still checks a make line.
NOT_RUN = {
    "make test": "the suite itself",
    "make play": "interactive: host_tests/tools/test_terminal.py plays it in tmux",
    "make bench": "minutes of measurements: run by hand, its figures are in docs/performance.md",
    "make soak": "hours of play, minutes of CPU: host_tests/tools/test_soak.py plays a short soak",
    "make dist": "a minute or more (openscad, the page, the images): host_tests/tools/test_dist.py "
                 "runs it into a scratch folder and checks every file it makes",
    "python -m tools.dist": "a minute or more: host_tests/tools/test_dist.py runs it into a scratch "
                            "folder and checks every file it makes",
    "make stl": "openscad renders: host_tests/tools/test_hardware.py renders the enclosure",
    "openscad ": "host_tests/tools/test_hardware.py renders the enclosure",
    "make images": "host_tests/tools/test_images.py regenerates the pictures and compares them",
    "make web": "serves until stopped (make web-build, web-images: Chromium); "
                "host_tests/web/test_web.py builds, serves and drives the page itself",
    "make firmware": "builds MicroPython for the Pico, minutes the first time: make test builds "
                     "the RPI_PICO image itself (cached), device/test_rp2040.py boots it, "
                     "tools/test_picoimage.py covers the tool",
    "make ricochet": "serves until stopped: host_tests/web/test_ricochet_page.py serves and drives "
                     "the table page itself",
    "python -m tools.ricochet serve": "serves until stopped: host_tests/web/test_ricochet_page.py "
                                      "serves and drives the table page itself",
    "make flash PORT=": "needs a Pico on that port: host_tests/tools/test_flash.py uses a fake board",
    "python -m tools.flash --source": "needs a Pico: host_tests/tools/test_flash.py uses a fake board",
    "mpremote ": "talks to a Pico",
    ".venv/bin/python -m pytest": "a part of make test, which runs it anyway",
    "make venv": "installs every pinned tool into .venv: make test's first step",
    "make clean": "removes .venv and build/, which the lines after it use",
    "make mutate": "an hour of mutation testing, run by hand (docs/testing.md); "
                   "host_tests/tools/test_mutate_report.py covers its report",
}
# Documented lines run once per state of what they read and kept (board_runs.kept_by_files:
# the tracked files of firmware/ and of every folder of tools/ that holds a module the
# command imports, directly or not (board_runs.closure: its data, such as the deals file and
# csearch.c, lies beside its code), Python's and every package's version, the command
# line), by prefix, and what a run costs (dev machine, 2-core x86_64, load 1).
KEPT = {
    "python -m tools.bench.ricochet --issue-table": "the issue's table: 24 deals solved in fresh "
                                                   "processes, warm and cold, 87 s of CPU",
}
# The checkout's build caches the scratch copy shares rather than fills again: the
# Ricochet search compiled ahead of time and in C, and numba's machine code, each named by
# a checksum of its sources (tools/ricochet/aot.py, ckernel.py; numba by the source's size
# and time, which the copy keeps), so that a copy and the checkout can only load the same
# build; some 20 s of CPU a fresh checkout would spend twice (dev machine, 2-core x86_64).
SHARED_CACHES = ("tools/ricochet/__pycache__",)
# `make flash` (and -circuitpython) alone looks for a board: with none it must say so in one line.
NO_BOARD = ("make flash", "make flash-circuitpython")

# Files the docs' examples take for granted, made in the scratch copy before the lines run.
EXAMPLE_FILES = {
    "play.txt": "docs/images/solo.events",  # "an events file", as in docs/simulator.md
    "config.json": None,  # the README's example config.json, below
}
EXAMPLE_CONFIG = '{"matrix": "panel8x8", "order": "progressive", "rotation": 90, "buzzer_pin": null}\n'

COMMAND_START = re.compile(
    r"^(make\b|python3? -m tools\b|\.venv/bin/(python|micropython|mpremote)\b|micropython\b|"
    r"mpremote\b|openscad\b)")
METAVARS = {"N", "MS", "FILE", "CODE", "SIDE", "CELL", "PORT", "DIR", "FROM", "TO", "VIA", "CLAIM",
            "ID", "NAME", "OUT", "SCRIPT", "..."}
SECONDS = re.compile(r"\d+(\.\d+)? s\b")


class Line:
    def __init__(self, doc, lineno, command, expected=None, inline=False):
        self.doc = doc
        self.lineno = lineno
        self.command = command
        self.expected = expected  # the transcript's output lines, or None
        self.inline = inline

    def __repr__(self):
        return "%s:%d: %s" % (self.doc, self.lineno, self.command)


def _strip_comment(text):
    """The command without a trailing ``# comment`` (a # inside quotes stays)."""
    lexer = shlex.shlex(text, posix=True, punctuation_chars=False)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        words = list(lexer)
    except ValueError:
        return text.strip()
    return " ".join(shlex.quote(w) if re.search(r"[\s\"'$]", w) else w for w in words)


def documented_lines(doc):
    """The command lines of one Markdown file, in order."""
    with open(os.path.join(ROOT, doc)) as f:
        lines = f.read().splitlines()
    out = []
    fenced = False
    block = []
    for lineno, text in enumerate(lines, 1):
        if text.lstrip().startswith("```"):
            if fenced:
                out.extend(_block_lines(doc, block))
                block = []
            fenced = not fenced
            continue
        if fenced:
            block.append((lineno, text))
            continue
        for span in re.findall(r"`([^`]+)`", text):
            if re.match(r"^(\.venv/bin/)?python3? -m tools\.|^make \w", span) and not is_synopsis(span):
                out.append(Line(doc, lineno, span, inline=True))
    return out


def is_synopsis(command):
    """A usage line, not a command line: ``[--clear]``, ``a|b`` or a metavariable (``N``)."""
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        return True
    return any(w in METAVARS or w[:1] == "[" or w[-1:] == "]" or "|" in w for w in words)


def _block_lines(doc, block):
    transcript = any(t.startswith("$ ") for _, t in block)
    out = []
    i = 0
    while i < len(block):
        lineno, text = block[i]
        i += 1
        if transcript:
            if not text.startswith("$ "):
                continue
            command = text[2:]
        else:
            command = text.strip()
            if not COMMAND_START.match(command):
                continue
        while command.rstrip().endswith("\\") and i < len(block):
            command = command.rstrip()[:-1] + " " + block[i][1].strip()
            i += 1
        expected = None
        if transcript:
            expected = []
            while i < len(block) and not block[i][1].startswith("$ "):
                expected.append(block[i][1])
                i += 1
        if expected is None and is_synopsis(command):
            continue
        out.append(Line(doc, lineno, _strip_comment(command), expected))
    return out


def _excuse(command):
    for prefix, why in NOT_RUN.items():
        if command.startswith(prefix):
            return prefix, why
    return None, None


ALL = [line for doc in DOCS for line in documented_lines(doc)]


def test_the_docs_show_command_lines():
    # The extraction itself: a README without commands would make every test below vacuous.
    assert len(ALL) > 40
    assert sum(line.expected is not None for line in ALL) > 10


def test_every_excuse_still_matches_a_documented_line():
    used = {_excuse(line.command)[0] for line in ALL}
    assert set(NOT_RUN) <= used, "stale NOT_RUN entries: %s" % sorted(set(NOT_RUN) - used)
    kept = {prefix for prefix in KEPT for line in ALL if line.command.startswith(prefix)}
    assert set(KEPT) == kept, "stale KEPT entries: %s" % sorted(set(KEPT) - kept)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    """``(folder, commands already run)``: one scratch copy for every documented line."""
    return _scratch_copy(tmp_path_factory.mktemp("checkout")), set()


def _scratch_copy(tmp_path):
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        src = os.path.join(ROOT, name)
        if not os.path.isfile(src):
            continue  # deleted in the working tree
        dst = tmp_path / name
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst)
    os.symlink(os.path.join(ROOT, ".venv"), tmp_path / ".venv")
    for cache in SHARED_CACHES:
        os.makedirs(os.path.join(ROOT, cache), exist_ok=True)
        os.symlink(os.path.join(ROOT, cache), tmp_path / cache)
    for name, source in EXAMPLE_FILES.items():
        if source is None:
            (tmp_path / name).write_text(EXAMPLE_CONFIG)
        else:
            shutil.copy(os.path.join(ROOT, source), tmp_path / name)
    return tmp_path


def _argv(command):
    words = shlex.split(command)
    if words[0] in ("python", "python3"):
        words[0] = sys.executable
    elif words[0].startswith(".venv/bin/python"):
        words[0] = sys.executable
    elif words[0] == "micropython":
        words[0] = ".venv/bin/micropython"
    return words


def _normalise(text):
    return [SECONDS.sub("<t> s", line.rstrip()) for line in text.rstrip("\n").splitlines()]


def _matches(output, expected):
    """Whether ``output`` lines are ``expected`` lines, where a line "..." matches any run."""
    if not expected:
        return not output
    if expected[0] == "...":
        return any(_matches(output[i:], expected[1:]) for i in range(len(output) + 1))
    return bool(output) and output[0] == expected[0] and _matches(output[1:], expected[1:])


def _run(argv, where, env):
    """(exit status, stdout and stderr together) of ``argv`` run in ``where``."""
    proc = subprocess.run(argv, cwd=where, capture_output=True, text=True, env=env, timeout=600)
    return proc.returncode, proc.stdout + proc.stderr


def _run_kept(argv, where, env):
    """``_run``'s answer, from the cache when the same line ran on the same inputs."""
    import board_runs

    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    folders = {os.path.dirname(f) for f in board_runs.closure(argv[2])}  # (argv: python -m M)
    files = [f for f in files if (f.startswith("firmware/") or os.path.dirname(f) in folders)
             and os.path.isfile(os.path.join(ROOT, f))]
    words = [os.path.basename(argv[0])] + argv[1:]
    done = board_runs.kept_by_files("doc-command", words, files, lambda: dict(
        zip(("returncode", "output"), _run(argv, where, env))),
        keep=lambda done: done["returncode"] == 0 and "Traceback" not in done["output"])
    return done["returncode"], done["output"]


@pytest.mark.skipif(shutil.which("make") is None or not os.path.isdir(os.path.join(ROOT, ".venv")),
                    reason="needs make and the project's .venv (make test creates it)")
@pytest.mark.parametrize("doc", sorted({line.doc for line in ALL}, key=DOCS.index))
def test_documented_commands_run(doc, scratch):
    lines = [line for line in ALL if line.doc == doc]
    where, seen = scratch
    env = dict(os.environ, PYTHONPATH="", COLUMNS="100")
    for line in lines:
        if line.command in seen:
            continue
        seen.add(line.command)
        argv = _argv(line.command)
        if line.inline and len(argv) == 3 and argv[1] == "-m":
            argv.append("--help")  # a command named in prose, not a command line to run
        prefix, _ = _excuse(line.command)
        if argv[0] == "make" and (prefix is not None or line.command in NO_BOARD):
            proc = subprocess.run(["make", "-n"] + argv[1:], cwd=where, capture_output=True,
                                  text=True, env=env, timeout=60)
            assert proc.returncode == 0, "%r: make -n fails: %s" % (line, proc.stderr.strip())
            if line.command in NO_BOARD:
                proc = subprocess.run(argv, cwd=where, capture_output=True, text=True, env=env,
                                      timeout=120)
                message = (proc.stdout + proc.stderr).strip().splitlines()
                assert proc.returncode != 0 and message, repr(line)
                assert "Traceback" not in proc.stderr, repr(line)
            continue
        if prefix is not None:
            continue
        run = _run_kept if any(line.command.startswith(p) for p in KEPT) else _run
        returncode, output = run(argv, where, env)
        assert "Traceback" not in output, "%r:\n%s" % (line, output)
        if line.expected is not None:
            shown = _normalise("\n".join(line.expected))
            assert _matches(_normalise(output), shown), "%r prints:\n%s" % (line, output)
        else:
            assert returncode == 0, "%r exits %d:\n%s" % (line, returncode, output)
