"""pytest plugin (loaded through PYTEST_PLUGINS): tells the recorder which
test is running, and installs a deferred recorder when pytest imports it. A
no-op in processes that tracegate does not trace."""

from __future__ import annotations

import os
import signal
import sys
import time
from typing import Any


def _recorder() -> Any:
    module = sys.modules.get("tracegate_tracer.recording.recorder")
    return getattr(module, "ACTIVE", None)


def _install_deferred() -> None:
    """The recorder's hooks go in now, unless a target's module is already imported (then the run is redone
    with tracing from the interpreter's start: code of that module may have run untraced)."""
    active = _recorder()
    if active is None or not getattr(active, "deferred", False):
        return
    active.deferred = False
    early = active.imported_targets()
    if early:
        active.retry_from_start(early)
    else:
        active.install()


_install_deferred()


def _cap_memory() -> None:
    """With TRACEGATE_MEMORY_BYTES (a variant search), the process's address space is capped there: a candidate
    whose input explodes gets a MemoryError in its own test (it fails, the run goes on) instead of the whole
    search being killed for memory."""
    try:
        wanted = int(os.environ.get("TRACEGATE_MEMORY_BYTES") or 0)
        import resource
    except (ValueError, ImportError):
        return
    if wanted <= 0:
        return
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


_cap_memory()


class TestTimeLimit(BaseException):
    """A test ran past TRACEGATE_TEST_SECONDS (a variant search: that candidate fails, the run goes on)."""


def _seconds(name: str) -> float:
    try:
        return float(os.environ.get(name) or 0)
    except ValueError:
        return 0.0


RELATIVE_FACTOR = 10.0
"""With TRACEGATE_TEST_REFERENCE (a variant search: the unchanged copy's mark), a test that is not a reference
test is stopped after this many times the slowest reference test (known from TRACEGATE_TEST_SLOWEST, or
measured in this run), within TRACEGATE_TEST_SECONDS: a candidate whose input makes its test crawl costs a few
times the original's time, not the whole allowance. Both sides are the process's CPU time, not the clock's: a
loaded machine stretches a test's wall time (a candidate near the limit was stopped in one of two generate runs
side by side and not in the other, and the suites differed) but not the CPU time it takes, and a machine that
is slower throughout scales the reference's and the candidate's alike."""
RELATIVE_FLOOR = 2.0
"""The relative limit is never below this many CPU seconds (a fast test's candidate may import or compile more).
A candidate that waits instead of computing (a sleep, a lock) takes no CPU: the allowance stops it on the clock.
No tighter clock limit (it was five times the CPU limit): load alone must not reach it, and a test on a core
shared six ways, as the test suites' lanes may share theirs, takes six times its CPU time on the clock."""
# Read once, as the plugin loads (before any test module is imported): a test that rewrites os.environ
# does not switch its own limit off.
_ALLOWANCE = _seconds("TRACEGATE_TEST_SECONDS")
_REFERENCE = os.environ.get("TRACEGATE_TEST_REFERENCE") or ""
_slowest = [_seconds("TRACEGATE_TEST_SLOWEST")]
_started = [0.0]
_current = [0.0, 0.0]  # the running test's limits: wall seconds (the allowance), CPU seconds (relative)
_TIMERS = ((signal.SIGALRM, "ITIMER_REAL", ""), (getattr(signal, "SIGPROF", None), "ITIMER_PROF", " of CPU"))
"""The two limits' signals and timers: the allowance on the clock, the relative limit on the process's CPU."""


def _is_reference(nodeid: str) -> bool:
    return bool(_REFERENCE) and _REFERENCE in nodeid


def _limits(nodeid: str) -> tuple[float, float]:
    """How long test `nodeid` may run: wall seconds, CPU seconds (0: no such limit)."""
    hard = _ALLOWANCE
    if hard <= 0 or _slowest[0] <= 0 or not _REFERENCE or _is_reference(nodeid):
        return hard, 0.0
    relative = max(RELATIVE_FLOOR, RELATIVE_FACTOR * _slowest[0])
    if relative >= hard:
        return hard, 0.0
    return hard, relative


def _in_tracer(frame: Any) -> bool:
    """Whether `frame` is the recorder's own code (an exception raised there would unhook the tracer)."""
    package = sys.modules.get("tracegate_tracer")
    root = os.path.dirname(getattr(package, "__file__", None) or "") or None
    while frame is not None:
        name = frame.f_code.co_filename
        if (root and name.startswith(root + os.sep)) or name == __file__:
            return True
        frame = frame.f_back
    return False


_PYTEST_CODE = (f"{os.sep}_pytest{os.sep}", f"{os.sep}pluggy{os.sep}")


def _in_pytest(frame: Any) -> bool:
    """Whether `frame` is pytest's own code (between the test's phases, reporting: raised there, the limit would
    end the whole run as an internal error instead of the test)."""
    return frame is not None and any(part in frame.f_code.co_filename for part in _PYTEST_CODE)


def _alarm(signum: int, frame: Any) -> None:
    which = 0 if signum == signal.SIGALRM else 1
    _signal, timer, unit = _TIMERS[which]
    if _in_tracer(frame) or _in_pytest(frame):
        signal.setitimer(getattr(signal, timer), 0.001)  # again as soon as the tests' code runs
        return
    # One limit ends the test: the other timer is stopped too, or it could fire while pytest reports the
    # failure (a loaded machine can bring the clock limit and the CPU limit close) and end the run there.
    _arm(False)
    raise TestTimeLimit(f"the test ran past {_current[which]:g}s{unit}")


def _arm(on: bool) -> None:
    """The running test's limits, each on its own timer (`on`), or both timers stopped."""
    if not hasattr(signal, "setitimer"):
        return
    for limit, (signum, timer, _unit) in zip(_current, _TIMERS, strict=True):
        if limit > 0 and signum is not None:
            if on:
                signal.signal(signum, _alarm)
            signal.setitimer(getattr(signal, timer), limit if on else 0)


def pytest_runtest_logstart(nodeid: str, location: object) -> None:
    active = _recorder()
    if active is not None:
        active.test_id = nodeid
    _current[:] = _limits(nodeid)
    _started[0] = time.process_time()
    _arm(True)


def pytest_runtest_logfinish(nodeid: str, location: object) -> None:
    _arm(False)
    active = _recorder()
    if _is_reference(nodeid):
        _slowest[0] = max(_slowest[0], time.process_time() - _started[0])
        for member in getattr(active, "members", ()):
            member.writer.reference_seconds = _slowest[0]
    if active is not None:
        active.test_id = "<process>"
        active.check_tracer()


def pytest_collection_modifyitems(session: Any, config: Any, items: list[Any]) -> None:
    """With TRACEGATE_SELECT (a file of test ids, one per line; a variant search), only those tests run."""
    path = os.environ.get("TRACEGATE_SELECT")
    if not path:
        return
    with open(path, encoding="utf-8") as handle:
        wanted = {line for line in handle.read().splitlines() if line}
    files = {w for w in wanted if "::" not in w}
    root = str(config.invocation_params.dir)
    keep, drop = [], []
    for item in items:
        rel = os.path.relpath(str(item.path), root).replace(os.sep, "/")
        name = item.nodeid.split("::", 1)[1] if "::" in item.nodeid else ""
        (keep if rel in files or f"{rel}::{name}" in wanted else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
