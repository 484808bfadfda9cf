"""The spec's test files, read for the host's prompt (result `context.tests`).

Read confined: each file named by a test id (the part before `::`) must
resolve, symlinks followed, to a regular file inside the directory pytest
runs in, of at most MAX_TEST_FILE_BYTES. Anything else refuses the instance
rather than show the host a file it did not ask for.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence

MAX_TEST_FILE_BYTES = 256 * 1024


class TestFileRefused(ValueError):
    """A test file that may not be read (the instance is invalid)."""

    __test__ = False  # not a pytest test class


def test_files(tests: Sequence[str]) -> list[str]:
    """The distinct files named by the test ids, in order."""
    files: list[str] = []
    for test in tests:
        name = str(test).split("::", 1)[0]
        if name not in files:
            files.append(name)
    return files


def _read(name: str, root: str) -> str:
    path = os.path.realpath(os.path.join(root, name))
    if not path.startswith(root + os.sep):
        raise TestFileRefused(f"test file {name} is outside the test directory {root}")
    try:
        # O_NONBLOCK: a fifo must not block the driver; O_NOFOLLOW: the resolved path is what was checked.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise TestFileRefused(f"test file {name} cannot be read: {exc.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise TestFileRefused(f"test file {name} is not a regular file")
        data = b""
        while len(data) <= MAX_TEST_FILE_BYTES:
            chunk = os.read(fd, MAX_TEST_FILE_BYTES + 1 - len(data))
            if not chunk:
                break
            data += chunk
    finally:
        os.close(fd)
    if len(data) > MAX_TEST_FILE_BYTES:
        raise TestFileRefused(f"test file {name} is larger than {MAX_TEST_FILE_BYTES // 1024} KiB")
    return data.decode("utf-8", "replace")


def read_tests(tests: Sequence[str], run_dir: str) -> list[dict[str, str]]:
    """[{name, source}] of the spec's test files, `name` relative to `run_dir`."""
    base, root = os.path.abspath(run_dir), os.path.realpath(run_dir)
    read = []
    for name in test_files(tests):
        rel = os.path.relpath(os.path.join(base, name), base).replace(os.sep, "/")
        read.append({"name": rel, "source": _read(name, root)})
    return read
