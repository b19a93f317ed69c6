"""Damaged files inside MicroPython with a Pico-sized heap, run by
device/test_fuzz_files.py: for each case folder under the folder in argv (named
``NNN-file-kind``), the firmware's loader of that file, then the device booted on it with
every mode entered; prints ``case ok``, ``case STOPPED`` or ``case RAISED ...``."""

import gc
import os
import sys

from microrobots import handheld
from microrobots.device import config
from microrobots.device.hw.fake import Hardware
from microrobots.device.store import Store


def check(folder, name):
    """Whether the damaged ``name`` in ``folder`` loads as the rules say and the device
    runs every mode on it (or, for a bad config, shows its problem)."""
    if name == "config":
        try:
            config.load_file(folder + "config.json")
        except config.ConfigError as error:
            assert "\n" not in str(error)
    else:
        data, problem = Store(folder).load(name)
        assert problem is None or data is None
    gc.collect()
    d = handheld.Device(Hardware, config_path=folder + "config.json", root=folder)
    d.run(5)
    for mode in ("solo", "referee", "classroom", "settings", "menu"):
        if d.app is None:
            break
        d.app.go(mode, d.now)
        d.run(15)
    return d.app is not None or (name == "config" and d.problem)


def main():
    top = sys.argv[1]
    for case in sorted(os.listdir(top)):
        try:
            ok = check(top + "/" + case + "/", case.split("-")[1])
            print(case, "ok" if ok else "STOPPED")
        except Exception as error:
            print(case, "RAISED", type(error).__name__, error)
        gc.collect()
