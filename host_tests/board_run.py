"""One emulated-board run, for board_runs.py: ``python -m board_run IMPORTED MODULE ARGS...``
runs ``python -m MODULE ARGS...`` and then writes to IMPORTED (JSON) the files of the
checkout the run imported, so that board_runs can check that its cache key covered them.
``BOARD_RUN_NICE`` (environment): how much lower than its parent's the run's priority is."""

import json
import os
import runpy
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def imported():
    """The checkout's files among the modules imported so far (relative paths)."""
    out = set()
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if path and os.path.abspath(path).startswith(ROOT + os.sep):
            out.add(os.path.relpath(os.path.abspath(path), ROOT))
    return sorted(out)


def main():
    where, module = sys.argv[1], sys.argv[2]
    os.nice(int(os.environ.get("BOARD_RUN_NICE") or 0))
    sys.argv = [module] + sys.argv[3:]
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    finally:
        with open(where, "w") as f:
            json.dump(imported(), f)


if __name__ == "__main__":
    main()
