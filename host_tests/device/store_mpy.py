"""store.py's atomic saves inside MicroPython, run by device/test_store.py (``main``:
``webassembly`` or ``power-cut`` in argv); its EmscriptenFs serves the CPython side too."""

import json
import sys

from fakefs import FakeFs, PowerCut
from microrobots.device.store import Store


class EmscriptenFs(FakeFs):
    """Files as MicroPython's WebAssembly port sees them: a missing file is OSError(44)."""

    def open(self, path, mode):
        if "r" in mode and path not in self.files:
            raise OSError(44)
        return super().open(path, mode)


def power_cuts(old, new):
    """``[step, "old"/"new"/None, problem]``: what loads after a save of ``new`` over
    ``old`` cut at each step, on littlefs and on FAT."""
    results = []
    for fat in (False, True):
        before = {"s.json": json.dumps({"format": 1, "data": old}).encode()}
        probe = FakeFs(before, fat=fat)
        Store(fs=probe).save("s", new)
        for k in range(probe.steps + 1):
            fs = FakeFs(before, budget=k, fat=fat)
            try:
                Store(fs=fs).save("s", new)
            except PowerCut:
                pass
            data, problem = Store(fs=FakeFs(fs.files, fat=fat)).load("s")
            results.append([k, data["v"] if data else None, problem])
    return results


def main():
    if sys.argv[1] == "webassembly":
        fs = EmscriptenFs()
        print(Store(fs=fs).load("s"), Store(fs=fs).save("s", [1]), Store(fs=fs).load("s"))
    else:
        print(json.dumps(power_cuts({"v": "old"}, {"v": "new", "list": [1, 2, 3]})))
