"""Shared test setup: the firmware package and the tools are importable under CPython."""

import os
import sys

from hypothesis import settings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for path in (ROOT, os.path.join(ROOT, "firmware")):
    if path not in sys.path:
        sys.path.insert(0, path)

# CI has two cores and a time budget: keep property tests thorough but bounded.
settings.register_profile("default", max_examples=150, deadline=None)
settings.register_profile("ci", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "default")
