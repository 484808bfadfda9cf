"""pytest plugin for the world-model kinds (W1-W4): measures each test as the runner runs it.

Loaded through PYTEST_PLUGINS when TRACEGATE_MEASURE names a JSON config
{mode, out, scope?}; a no-op otherwise. Modes (one per process, so that no
measurement disturbs another):

* clean: outcome (passed / failed / error / skipped, the exception's type and
  the test file's line it escaped from) and wall time of the runner's protocol
  for the test (setup, call, teardown: fixtures included; collection not);
* memory: the peak bytes above the test's starting baseline, the larger of the
  tracemalloc peak and the process's resident peak (VmHWM, reset through
  /proc/self/clear_refs; sampled every millisecond where that is refused);
* profile: exclusive time and allocation growth per function and per line of
  the repository's code (files under `scope`), with time and allocations of
  any other code (stdlib, third-party, C) credited to the in-repository frame
  that called it (tracegate_tracer/profile.py).

It appends one JSON line when a test starts and one when it ends to `out`,
so a test that kills its process (a signal, the memory limit) is still seen
to have started. tracer/README.md, "World-model kinds", defines each number.
"""

from __future__ import annotations

import gc
import json
import os
import sys
import threading
import time
from typing import Any

import pytest

_CONFIG: dict[str, Any] | None = None
_OUT: int | None = None


def _load() -> None:
    global _CONFIG, _OUT
    path = os.environ.pop("TRACEGATE_MEASURE", None)
    if not path:
        return
    with open(path, encoding="utf-8") as handle:
        _CONFIG = json.load(handle)
    _OUT = os.open(_CONFIG["out"], os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if root not in sys.path:
        sys.path.append(root)
    mutant = _CONFIG.get("mutant")
    if mutant:
        sys.meta_path.insert(0, _MutantFinder(mutant["root"], mutant["top"]))


class _MutantFinder:
    """Imports the mutated package from its private copy, wherever else sys.path would find it first (the test
    directory pytest puts in front, say); its submodules follow from the copy's own `__path__`."""

    def __init__(self, root: str, top: str) -> None:
        self.root, self.top = root, top

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != self.top:
            return None
        import importlib.machinery

        return importlib.machinery.PathFinder.find_spec(name, [self.root])


_load()


def _emit(record: dict[str, Any]) -> None:
    if _OUT is not None:
        os.write(_OUT, (json.dumps(record, separators=(",", ":")) + "\n").encode())


def _type_name(kind: type) -> str:
    module = getattr(kind, "__module__", None)
    name = getattr(kind, "__qualname__", kind.__name__)
    return name if module in (None, "builtins") else f"{module}.{name}"


def _status(field: str) -> int | None:
    """A /proc/self/status size field, in bytes (None where there is no /proc)."""
    try:
        with open("/proc/self/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


class _RssSampler:
    """The resident peak: VmHWM after resetting it, or else the largest VmRSS seen every millisecond."""

    def __init__(self) -> None:
        self.base = _status("VmRSS")
        self.method = "VmHWM"
        try:
            with open("/proc/self/clear_refs", "w", encoding="ascii") as handle:
                handle.write("5")  # resets VmHWM to the current RSS
        except OSError:
            self.method = "sampled"
        self.seen = self.base or 0
        self._stop = threading.Event()
        self._thread = None
        if self.method == "sampled" and self.base is not None:
            self._thread = threading.Thread(target=self._sample, daemon=True)
            self._thread.start()

    def _sample(self) -> None:
        while not self._stop.wait(0.001):
            self.seen = max(self.seen, _status("VmRSS") or 0)

    def peak_delta(self) -> int | None:
        if self.base is None:
            return None
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            peak = max(self.seen, _status("VmRSS") or 0)
        else:
            peak = _status("VmHWM") or 0
        return max(0, peak - self.base)


class _Test:
    """What one test's protocol produced."""

    def __init__(self, nodeid: str, path: str) -> None:
        self.nodeid, self.path = nodeid, path
        self.phases: dict[str, str] = {}
        self.exception: dict[str, Any] | None = None


_CURRENT: _Test | None = None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: Any, nextitem: Any) -> Any:
    global _CURRENT
    if _CONFIG is None:
        yield
        return
    mode = _CONFIG["mode"]
    _CURRENT = test = _Test(item.nodeid, str(item.path))
    _emit({"event": "start", "nodeid": item.nodeid})
    record: dict[str, Any] = {"event": "end", "nodeid": item.nodeid, "mode": mode}
    profiler = rss = None
    if mode == "memory":
        import tracemalloc

        gc.collect()
        if not tracemalloc.is_tracing():
            tracemalloc.start()
        tracemalloc.reset_peak()
        traced_base = tracemalloc.get_traced_memory()[0]
        rss = _RssSampler()
    elif mode == "profile":
        from tracegate_tracer.world.profile import Profiler

        profiler = Profiler(_CONFIG["scope"], _CONFIG.get("instance_dir") or os.getcwd())
        profiler.start()
    started = time.perf_counter_ns()
    try:
        yield
    finally:
        elapsed = time.perf_counter_ns() - started
        if profiler is not None:
            profiler.stop()
            record["profile"] = profiler.result()
        if rss is not None:
            import tracemalloc

            record["traced_peak"] = max(0, tracemalloc.get_traced_memory()[1] - traced_base)
            record["rss_peak"] = rss.peak_delta()
            record["rss_method"] = rss.method
        record.update(wall_ns=elapsed, phases=test.phases, exception=test.exception)
        _emit(record)
        _CURRENT = None


def _escape_line(excinfo: Any, path: str) -> int | None:
    """The line of the test's own file the exception last passed through (None if it never did)."""
    found, tb = None, excinfo.tb
    while tb is not None:
        if os.path.abspath(tb.tb_frame.f_code.co_filename) == os.path.abspath(path):
            found = tb.tb_lineno
        tb = tb.tb_next
    return found


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Any:
    outcome = yield
    test = _CURRENT
    if test is None:
        return
    report = outcome.get_result()
    test.phases[report.when] = "xfailed" if hasattr(report, "wasxfail") else report.outcome
    if report.failed and call.excinfo is not None and test.exception is None:
        test.exception = {"type": _type_name(call.excinfo.type), "line": _escape_line(call.excinfo, test.path),
                          "when": report.when}
