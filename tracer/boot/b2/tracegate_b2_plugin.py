"""pytest plugin for B2 runs: tells the driver how far a reply's test file got (comet/runs.py, run_test_file).

Loaded with `-p tracegate_b2_plugin` when TRACEGATE_B2_PROGRESS names a file
(removed from the environment at once: the tests' own processes do not
inherit it). It appends one line per event, each a few bytes written
straight to a descriptor opened at load (nothing to allocate when memory has
run out):

* `start` when the first test starts (its setup begins): from here on the run
  is judged by its tests, not by its collection;
* `memory` when a MemoryError ends a test's setup, call or teardown;
* `finish N` when pytest's session ends with status N;
* `called` the first time the function under test starts (TRACEGATE_B2_TARGET,
  `{file, qualname}`, also removed from the environment): a run whose test never
  calls it counts for nothing, whatever its verdict. Seen by sys.monitoring's
  PY_START where it exists (3.12+: every other function is switched off after
  its first start), else by a profile function on every thread.

So a run that ends without pytest's own verdict (a bound hit, a crash of the
interpreter, a kill) is judged by where it ended, and the same way on a fast
machine and a slow one (docs/comet.md, "Bounds"). When a MemoryError ends a
test, the frames of its traceback are cleared before pytest reports it: what
the code under test allocated is released at once, so pytest's own reporting
never runs out of memory in its place, and the tests after it run.

The test's code can write here too: `start` and `finish` only move a run
between `fail` and `error` (a pass needs pytest's exit status 0 as well),
which the test can do anyway by failing or by not collecting. A test that
writes `called` itself, or switches the watch off, is a test working on the
interpreter instead of the function: docs/comet.md says what no check here
can reach.
"""

from __future__ import annotations

import json
import os
import sys
import threading
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


def _watch() -> None:
    """Emits `called` when the function under test first starts (the module docstring)."""
    try:
        target = json.loads(os.environ.pop("TRACEGATE_B2_TARGET", "") or "null")
        file, qualname = target["file"], target["qualname"]
    except (ValueError, TypeError, KeyError):
        return
    seen = False

    def hit(code: Any) -> bool:
        nonlocal seen
        if seen or code.co_qualname != qualname or \
                (code.co_filename != file and os.path.realpath(code.co_filename) != file):
            return False
        seen = True
        _emit(b"called\n")
        return True

    monitoring = getattr(sys, "monitoring", None)
    if monitoring is not None:
        for tool in (5, 4, 3, 2, 1, 0):
            try:
                monitoring.use_tool_id(tool, "tracegate-b2")
            except ValueError:
                continue

            def started(code: Any, offset: int, tool: int = tool) -> Any:
                if hit(code):
                    monitoring.set_events(tool, 0)
                return monitoring.DISABLE

            monitoring.register_callback(tool, monitoring.events.PY_START, started)
            monitoring.set_events(tool, monitoring.events.PY_START)
            return

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "call" and hit(frame.f_code):
            sys.setprofile(None)
            threading.setprofile(None)  # type: ignore[arg-type]

    sys.setprofile(profile)
    threading.setprofile(profile)


_load()
_watch()


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
