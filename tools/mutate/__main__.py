"""make mutate: mutation testing of the rules and the game modes (docs/testing.md).

    python -m tools.mutate [--scope rules|modes|all] [--max-children 1] [--report PATH]

For each scope (a package and the test files that cover it) the checkout's firmware,
tools and tests are mirrored into ``build/mutate/<scope>/`` (files copied only when they
changed, so their times tell mutmut what is new), and mutmut runs there: it changes
one thing at a time in the package (an operator, a constant, a condition) and runs the
tests that reach the changed function (found once by tracing the test run), with one
worker, in forked processes (no emulated board, no browser, no MicroPython).

Why a mirror: mutmut names a mutant after its file's path (``microrobots.rules.game``
here, as the tests import it); run from the checkout it would say ``firmware.microrobots``
and match no test. The mirror is also where its results live between runs.

Incremental: mutmut keeps every verdict whose function is unchanged since the last run
(its ``mutants/`` folder, under build/). Survivors are tried again every run, so a new
test that kills one counts at once; those listed as equivalent in
host_tests/mutation_equivalents.txt are not (no test can kill them, and each retry costs
every test that reaches its function). ``--only`` judges the matching mutants not yet
judged and the survivors, by name (kills and equivalents stand). ``--fresh`` forgets
everything.

The report (build/mutation-report.md by default): the score per module, each survivor
with its line, and the equivalent mutants (changes that cannot alter behaviour), read
from host_tests/mutation_equivalents.txt, each with the reason a reviewer accepted.
"""

import os
import shutil
import signal
import subprocess
import sys
import time

from tools import cli
from tools.cli import ROOT
from tools.mutate import report

EQUIVALENTS = os.path.join(ROOT, "host_tests", "mutation_equivalents.txt")

# The test files each package is judged by: the fast ones that play it on CPython.
# (The *_micropython.py files compare against MicroPython in a subprocess: slow, and
# the CPython side they check is covered here already.)
SCOPES = {
    "rules": ("microrobots/rules", [
        "host_tests/rules/test_rules_properties.py",
        "host_tests/rules/test_rolls_golden.py",
        "host_tests/rules/test_board.py",
        "host_tests/rules/test_rng.py",
        "host_tests/rules/test_kernels.py",
        "host_tests/rules/test_solver.py",
        "host_tests/rules/test_game_play.py",
        "host_tests/rules/test_game_notation.py",
        "host_tests/app/test_robust.py",  # the solo walk (rules/walk.py)
    ]),
    "modes": ("microrobots/modes", [
        "host_tests/app/test_settings_screen.py",
        "host_tests/app/test_pieces_line.py",
        "host_tests/app/test_classroom_screen.py",
        "host_tests/app/test_guarded_behaviours.py",
        "host_tests/app/test_app.py",
        "host_tests/app/test_robust.py",
        "host_tests/app/test_saving.py",
        "host_tests/app/test_guide.py",
        "host_tests/app/test_classroom_lesson.py",
        "host_tests/app/test_step_cursor.py",
        "host_tests/app/test_work.py",
        "host_tests/app/test_selftest.py",
        "host_tests/app/test_table_fixes.py",
        "host_tests/app/test_screens_guarded.py",
    ]),
}
# Tests left out of every selection: they start MicroPython or another interpreter, or
# compare source files' text (under mutation every source file is rewritten).
DESELECT = "not micropython and not plain_twin"

# pytest starts afresh for every mutant, in a process forked from mutmut's (which holds
# every module and the tests' objects): these two plugins each run a full garbage
# collection over that heap at the end of a session, half of a quick mutant's start-up
# (0.27 -> 0.13 CPU-s). They only turn an exception in a __del__ or a thread into a
# warning; no test here makes warnings errors, so no verdict can change.
QUIET_PLUGINS = "-p no:unraisableexception -p no:threadexception"

SKIP_DIRS = {"node_modules", "__pycache__", ".hypothesis", "build"}


def sync_tree(src, dst):
    """Make ``dst`` a copy of ``src``'s Python and data files; unchanged files keep their
    time (mutmut regenerates a file's mutants only when it changed)."""
    wanted = set()
    for folder, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
        rel = os.path.relpath(folder, src)
        for name in files:
            if name.endswith((".pyc", ".mpy")):
                continue
            s = os.path.join(folder, name)
            d = os.path.normpath(os.path.join(dst, rel, name))
            wanted.add(d)
            if os.path.exists(d) and _same(s, d):
                continue
            os.makedirs(os.path.dirname(d), exist_ok=True)
            shutil.copy2(s, d)
    for folder, _dirs, files in os.walk(dst):
        for name in files:
            d = os.path.join(folder, name)
            if d not in wanted and not name.endswith(".pyc"):
                os.remove(d)


def _same(a, b):
    if os.path.getsize(a) != os.path.getsize(b):
        return False
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def config_text(package, tests):
    """The mirror's pyproject.toml: mutmut's settings and pytest's (as the checkout's)."""
    args = ", ".join('"%s"' % t for t in tests)
    return "\n".join([
        "[tool.mutmut]",
        'source_paths = ["%s"]' % package,
        # the rest of the package, the simulator and the tests, beside the mutants
        'also_copy = ["microrobots", "tools", "host_tests", "firmware", "docs"]',
        "pytest_add_cli_args_test_selection = [%s, \"-k\", \"%s\"]" % (args, DESELECT),
        'pytest_add_cli_args = ["-p", "no:cacheprovider", "-p", "tools.mutate.order", "-x", "-q"]',
        # one change at a time must not hang: a mutant slower than this is a timeout
        "timeout_multiplier = 5.0",
        "timeout_constant = 10.0",
        "",
        "[tool.pytest.ini_options]",
        'pythonpath = [".", "host_tests"]',
        "",
    ])


def prepare(scope):
    package, tests = SCOPES[scope]
    here = os.path.join(ROOT, "build", "mutate", scope)
    os.makedirs(here, exist_ok=True)
    sync_tree(os.path.join(ROOT, "firmware", "microrobots"), os.path.join(here, "microrobots"))
    sync_tree(os.path.join(ROOT, "tools"), os.path.join(here, "tools"))
    sync_tree(os.path.join(ROOT, "host_tests"), os.path.join(here, "host_tests"))
    sync_tree(os.path.join(ROOT, "docs"), os.path.join(here, "docs"))  # (a test reads one)
    # tools.cli looks for firmware/ beside tools/: an empty one (the package is above)
    os.makedirs(os.path.join(here, "firmware"), exist_ok=True)
    text = config_text(package, [t for t in tests if os.path.exists(os.path.join(ROOT, t))])
    path = os.path.join(here, "pyproject.toml")
    old = open(path).read() if os.path.exists(path) else None
    if old != text:
        with open(path, "w") as f:
            f.write(text)
    return here


def run_scope(scope, max_children, fresh, log, only=(), budget=None, elapsed=0.0):
    here = prepare(scope)
    if fresh:
        shutil.rmtree(os.path.join(here, "mutants"), ignore_errors=True)
    report.drop_torn(here, SCOPES[scope][0])
    mutmut = os.path.join(os.path.dirname(sys.executable), "mutmut")
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", MICROROBOTS_HYPOTHESIS="mutate",
               MUTATE_TEST_ORDER=",".join(SCOPES[scope][1]),
               PYTEST_ADDOPTS=(os.environ.get("PYTEST_ADDOPTS", "") + " " + QUIET_PLUGINS).strip())
    start = time.monotonic()
    equivalents = report.read_equivalents(EQUIVALENTS)
    with open(log, "a") as out:
        out.write("\n== %s ==\n" % scope)
        out.flush()
        if only:
            # by name: mutmut judges again every mutant it is named (kills included)
            names = _to_try(here, scope, only, equivalents, mutmut, env, out)
            if not names:
                print("mutate: %s: nothing to judge in %s (every mutant killed or listed "
                      "as equivalent)" % (scope, " ".join(only)))
                return here, time.monotonic() - start, 0
        else:
            report.retry_survivors(here, equivalents=equivalents)
            names = []
        # its own session: a budget that runs out stops mutmut and the mutant it is testing
        proc = subprocess.Popen([mutmut, "run", "--max-children", str(max_children)] + names,
                                cwd=here, stdout=out, stderr=subprocess.STDOUT, env=env,
                                start_new_session=True)
        try:
            code = proc.wait(timeout=None if budget is None else max(1.0, budget - elapsed))
        except KeyboardInterrupt:  # Ctrl-C: mutmut, in its own session, did not see it
            os.killpg(proc.pid, signal.SIGTERM)  # every verdict so far is kept (per mutant)
            proc.wait()
            raise
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait()
            code = 0
            out.write("\nmutate: the time budget ran out; the rest is judged next run\n")
            print("mutate: %s stopped: the time budget ran out (the verdicts so far are kept; "
                  "the next run goes on from there)" % scope)
    took = time.monotonic() - start
    if code != 0:
        print("mutate: mutmut stopped with status %d in %s; see %s" % (code, scope, log))
    return here, took, code


def _to_try(here, scope, only, equivalents, mutmut, env, out):
    """The mutants of ``only`` to judge (report.to_try), after mutmut has made the mutants
    again if the package changed since (else a changed function's old verdicts would
    decide what to try): it makes them, traces any new test, and then stops, finding no
    mutant of the name it is given."""
    if report.stale(here, SCOPES[scope][0]):
        out.write("mutate: the package changed; making its mutants again\n")
        out.flush()
        subprocess.call([mutmut, "run", "--max-children", "1", PRIME], cwd=here, stdout=out,
                        stderr=subprocess.STDOUT, env=env, start_new_session=True)
    return report.to_try(here, only, equivalents)


# A mutant name no mutant has (see _to_try).
PRIME = "no.such.mutant__mutmut_0"


def main(argv=None):
    p = cli.Parser(prog="python -m tools.mutate")
    p.add_argument("--scope", choices=("rules", "modes", "all"), default="all")
    p.add_argument("--max-children", type=int, default=1,
                   help="mutants tested at once (default 1: the machine is shared)")
    p.add_argument("--fresh", action="store_true", help="forget earlier verdicts")
    p.add_argument("--budget", type=float, metavar="MINUTES",
                   help="stop after this many minutes of wall clock (all scopes together), "
                        "keeping every verdict: the next run goes on where this one stopped")
    p.add_argument("--report", default=os.path.join(ROOT, "build", "mutation-report.md"))
    p.add_argument("--only", action="append", default=[], metavar="GLOB",
                   help="mutants whose name matches, e.g. 'microrobots.modes.solo.*' "
                        "(those not judged yet and the survivors not listed as equivalent)")
    try:
        args = p.parse_args(argv)
    except cli.UsageError as e:
        return cli.fail(p.prog, e)
    scopes = ("rules", "modes") if args.scope == "all" else (args.scope,)
    os.makedirs(os.path.join(ROOT, "build"), exist_ok=True)
    log = os.path.join(ROOT, "build", "mutate.log")
    status = 0
    started = time.monotonic()
    budget = None if args.budget is None else args.budget * 60.0
    for scope in scopes:
        print("mutate: %s (log: %s)" % (scope, log), flush=True)
        only = [g for g in args.only if g.startswith(SCOPES[scope][0].replace("/", "."))]
        if args.only and not only:
            continue
        if budget is not None and time.monotonic() - started >= budget:
            print("mutate: %s not started: the time budget ran out" % scope)
            continue
        here, took, code = run_scope(scope, args.max_children, args.fresh, log, only, budget,
                                     time.monotonic() - started)
        report.write_times(here, took)
        status = status or code
    equivalents = report.read_equivalents(EQUIVALENTS)
    text = report.build([os.path.join(ROOT, "build", "mutate", s) for s in ("rules", "modes")],
                        equivalents)
    with open(args.report + ".tmp", "w") as f:
        f.write(text)
    os.replace(args.report + ".tmp", args.report)
    print(report.summary(text))
    print("mutate: report in %s" % os.path.relpath(args.report, os.getcwd()))
    return status


if __name__ == "__main__":
    cli.run(main)
