"""Calls with literal arguments of a package's module-level functions, seen while its bundled tests run.

`python3 capture.py OUT TOP TEST_DIR...` (PYTHONPATH holds the package's wheels, unpacked): runs each test
directory's test files under pytest with a profile hook, and writes OUT: {"<file>::<qualname>": {file,
qualname, test_dir, test_file, inputs: [<the call's arguments as Python literals>]}}. An argument counts only
when its repr reads back (ast.literal_eval) as an equal value of a plain type, is short, and names no path of
this machine's temporary directory (a test's `tmp_path`: it does not exist where the item is asked). Generation only
(scripts/generate-comet.py): the bundle's own tests, on the host.
"""

from __future__ import annotations

import ast
import json
import math
import os
import sys
import tempfile

import pytest

PLAIN = (str, int, float, bool, type(None), bytes)
MAX_REPR = 160
MAX_INPUTS = 40
MACHINE = (tempfile.gettempdir().rstrip(os.sep) + os.sep, "pytest-of-")
"""Text that names where the generator ran, never where an item is asked."""


def plain(value: object, depth: int = 0) -> bool:
    if depth > 3:
        return False
    if isinstance(value, bool) or type(value) in PLAIN:
        return not (isinstance(value, float) and math.isnan(value))
    if type(value) in (list, tuple, set, frozenset):
        return len(value) <= 20 and all(plain(v, depth + 1) for v in value)
    if type(value) is dict:
        return len(value) <= 20 and all(plain(k, depth + 1) and plain(v, depth + 1) for k, v in value.items())
    return False


def literal(value: object) -> str | None:
    if not plain(value):
        return None
    text = repr(value)
    if len(text) > MAX_REPR or any(mark in text for mark in MACHINE):
        return None
    try:
        back = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    return text if back == value and type(back) is type(value) else None


class Capture:
    def __init__(self, root: str, top: str) -> None:
        self.prefix = os.path.join(root, top) + os.sep
        self.root = root
        self.found: dict[str, dict] = {}
        self.test_dir = ""
        self.test_file = ""

    def hook(self, frame, event, arg):
        if event != "call":
            return
        code = frame.f_code
        if not code.co_filename.startswith(self.prefix) or "." in code.co_qualname or "<" in code.co_qualname:
            return
        if code.co_flags & 0x20 or code.co_flags & 0x80 or code.co_flags & 0x200:
            return  # generators and coroutines: a call returns a generator, not a behaviour
        names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
        parts = []
        for index, name in enumerate(names):
            text = literal(frame.f_locals.get(name))
            if text is None:
                return
            parts.append(text if index < code.co_argcount else f"{name}={text}")
        if code.co_flags & 0x04 or code.co_flags & 0x08:
            return  # *args / **kwargs: the frame does not say how it was called
        rel = os.path.relpath(code.co_filename, self.root).replace(os.sep, "/")
        key = f"{rel}::{code.co_qualname}"
        entry = self.found.setdefault(key, {"file": rel, "qualname": code.co_qualname, "test_dir": self.test_dir,
                                            "test_file": self.test_file, "inputs": []})
        given = ", ".join(parts)
        if given not in entry["inputs"] and len(entry["inputs"]) < MAX_INPUTS:
            entry["inputs"].append(given)


def main(argv: list[str]) -> int:
    out, top, dirs = argv[1], argv[2], argv[3:]
    root = os.path.dirname(os.path.dirname(__import__(top).__file__))
    capture = Capture(root, top)

    class Plugin:
        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_call(self, item):
            sys.setprofile(capture.hook)
            try:
                yield
            finally:
                sys.setprofile(None)

    for directory in dirs:
        files = sorted(f for f in os.listdir(directory) if f.startswith("test_") and f.endswith(".py"))
        for name in files:
            capture.test_dir, capture.test_file = os.path.basename(directory), name
            here = os.getcwd()
            os.chdir(directory)
            try:
                pytest.main(["-q", "-p", "no:cacheprovider", "-x", "--no-header", "-o", "addopts=", name],
                            plugins=[Plugin()])
            finally:
                os.chdir(here)
    with open(out, "w", encoding="utf-8") as handle:
        json.dump(capture.found, handle, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
