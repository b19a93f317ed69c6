"""The store's damaged-file reproductions (3, 4 and 6 of device/test_damaged_files.py)
inside MicroPython with a Pico-sized heap: each case's load and the files left after it."""

from fakefs import FakeFs
from microrobots.device.store import Store

GOOD = b'{"format": 1, "data": {"a": 1}}'
CASES = [
    {"solo.json": GOOD, "solo.tmp": b'{"format": 1, "data": ' + b"[" * 3000 + b"]" * 3000 + b"}"},
    {"solo.json": GOOD, "solo.tmp": b"\xff\xfe{\x00"},
    {"solo.json": b'{"format": 1, "data": ' + b"[" * 3000 + b"]" * 3000 + b"}"},
    {"solo.json": b'{"format": 1, "data": ' + b"[" * 6000 + b"]" * 6000 + b"}"},
    {"solo.json": b'{"format": 1, "data": "' + b"x" * 8000 + b'"}'},
    {"solo.json": b'{"format": 1, "data": null}'},
]


def main():
    for files in CASES:
        fs = FakeFs(files)
        print(Store(fs=fs).load("solo"), sorted(fs.files))
