"""An in-memory filesystem for store.py tests that can lose power at any step.

Runs under CPython and inside MicroPython (tests put host_tests/ on its path).

Every step costs one unit of ``budget``: opening a file, each byte written (bytes reach
the "flash" one at a time), closing, renaming, removing. When the budget runs out the
step raises ``PowerCut`` and the files stay as they were at that instant; a "reboot" is
a new FakeFs over a copy of ``files``. ``fat=True`` behaves like a FAT that refuses to
rename onto an existing file; ``fat="vfs"`` like CircuitPython 10's FAT, whose VFS
removes the existing file and then renames (two steps: a cut may fall between them).
"""

ENOENT = 2
EEXIST = 17


class PowerCut(BaseException):
    """The power went: not an OSError, so no code under test can swallow it."""


class FakeFile:
    def __init__(self, fs, path, writing):
        self.fs = fs
        self.path = path
        self.writing = writing
        self.pos = 0

    def write(self, text):
        data = text.encode() if isinstance(text, str) else bytes(text)
        for byte in data:
            self.fs.step()
            self.fs.files[self.path] += bytes((byte,))
        return len(data)

    def seek(self, offset, whence=0):
        self.pos = offset + (len(self.fs.files[self.path]) if whence == 2 else 0)
        return self.pos

    def read(self, size=-1):
        data = self.fs.files[self.path]
        end = len(data) if size < 0 else self.pos + size
        part = data[self.pos:end]
        self.pos += len(part)
        return part

    def close(self):
        if self.writing:
            self.fs.step()


class FakeFs:
    def __init__(self, files=None, budget=-1, fat=False):
        self.files = dict(files or {})
        self.budget = budget  # steps left; -1 = never cut
        self.fat = fat
        self.steps = 0  # steps taken, to learn the cost of an operation

    def step(self):
        if self.budget == 0:
            raise PowerCut()
        if self.budget > 0:
            self.budget -= 1
        self.steps += 1

    def open(self, path, mode):
        if "r" in mode:
            if path not in self.files:
                raise OSError(ENOENT)
            return FakeFile(self, path, False)
        self.step()
        self.files[path] = b""
        return FakeFile(self, path, True)

    def rename(self, old, new):
        if old not in self.files:
            raise OSError(ENOENT)
        if self.fat == "vfs" and new in self.files:
            # CircuitPython's FAT (MicroPython's vfs_fat): the VFS itself removes the
            # old file, then renames; the power may go between the two
            self.remove(new)
        elif self.fat and new in self.files:
            raise OSError(EEXIST)
        self.step()
        self.files[new] = self.files.pop(old)

    def remove(self, path):
        if path not in self.files:
            raise OSError(ENOENT)
        self.step()
        del self.files[path]
