"""make bench: the report() of every module in tools/bench/, one section each.

Figures, not pass/fail: timings depend on the machine. Each section says what it measured.
"""

import importlib
import os
import platform
import sys
import time


def sections():
    here = os.path.dirname(os.path.abspath(__file__))
    names = sorted(f[:-3] for f in os.listdir(here) if f.endswith(".py") and not f.startswith("_"))
    return ["tools.bench." + n for n in names if n != "reference_solver"]


def main(argv=None):
    only = (argv if argv is not None else sys.argv[1:])
    print("Micro Robots benchmark report — %s, Python %s, %s"
          % (time.strftime("%Y-%m-%d"), platform.python_version(), platform.machine()))
    for name in sections():
        if only and not any(o in name for o in only):
            continue
        print()
        importlib.import_module(name).report()
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
