"""pytest plugin for B2 runs: tells the driver how far a reply's test file got (comet/runs.py, run_test_file).

Loaded with `-p tracegate_b2_plugin` when TRACEGATE_B2_PROGRESS names a file
(removed from the environment at once: the tests' own processes do not
inherit it). It appends one line per event, each a few bytes written
straight to a descriptor opened at load (nothing to allocate when memory has
run out):

* `start` when the first test starts (its setup begins): from here on the run
  is judged by its tests, not by its collection;
* `memory` when a MemoryError ends a test's setup, call or teardown;
* `finish N` when pytest's session ends with status N.

So a run that ends without pytest's own verdict (a bound hit, a crash of the
interpreter, a kill) is judged by where it ended, and the same way on a fast
machine and a slow one (docs/comet.md, "Bounds"). When a MemoryError ends a
test, the frames of its traceback are cleared before pytest reports it: what
the code under test allocated is released at once, so pytest's own reporting
never runs out of memory in its place, and the tests after it run.

The test's code can write here too: what it could forge only moves a run
between `fail` and `error` (a pass needs pytest's exit status 0 as well),
which the test can do anyway by failing or by not collecting.
"""

from __future__ import annotations

import os
import traceback
from typing import Any

import pytest

_OUT: int | None = None
_STARTED = False


def _load() -> None:
    global _OUT
    path = os.environ.pop("TRACEGATE_B2_PROGRESS", None)
    if path:
        _OUT = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)


_load()


def _emit(line: bytes) -> None:
    if _OUT is not None:
        try:
            os.write(_OUT, line)
        except OSError:
            pass  # the test closed or replaced the descriptor: the driver judges without this line


def _after(outcome: Any) -> None:
    """A test phase ended: when a MemoryError ended it, the frames its traceback holds are cleared."""
    excinfo = outcome.excinfo
    if not excinfo:
        return
    error = excinfo[1]
    chain: list[BaseException] = []
    while error is not None and error not in chain:
        chain.append(error)
        error = error.__cause__ or error.__context__
    if not any(isinstance(e, MemoryError) for e in chain):
        return
    for link in chain:
        traceback.clear_frames(link.__traceback__)  # skips a frame still running (this hook's caller)
    del chain, error
    _emit(b"memory\n")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_logstart(nodeid: str, location: Any) -> None:
    global _STARTED
    if not _STARTED:
        _STARTED = True
        _emit(b"start\n")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: Any) -> Any:
    _after((yield))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: Any) -> Any:
    _after((yield))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: Any, nextitem: Any) -> Any:
    _after((yield))


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: Any, exitstatus: Any) -> None:
    _emit(f"finish {int(exitstatus)}\n".encode())
