"""config.py's checks on both runtimes: ``outcomes`` is called by device/test_config.py
under CPython and, through ``main`` (config texts as a JSON list on stdin), inside
MicroPython."""

import json
import sys

from microrobots.device.config import ConfigError, load


def outcomes(texts):
    """Each config text as loaded, or its one-line error."""
    out = []
    for text in texts:
        try:
            out.append(load(text))
        except ConfigError as error:
            out.append(str(error))
    return out


def main():
    print(json.dumps(outcomes(json.loads(sys.stdin.read()))))
