"""How one run of a B1/B2 reply is bounded, started and judged (verify.py and reference.py ask; docs/comet.md,
"Bounds").

Each run is a fresh process as the group's uid with a clean environment and the bounds below; what it left is
scrubbed before the next. A B1 call's outcome comes from its runner (tracer/boot/tracegate_comet_call.py); a
B2 run's verdict from pytest's own status and how far the run got (tracer/boot/b2), by one rule whichever
bound a runaway reaches first.
"""

from __future__ import annotations

import json
import os
import resource
import stat
import sys
from collections.abc import Callable, Collection
from typing import Any

from ..runner import pytest_run
from ..runner.sandbox import Sandbox
from .versions import Refused


def _bound(name: str, default: float) -> float:
    """A bound as TRACEGATE_COMET_BOUNDS sets it (a JSON object in the driver's environment, never forwarded into
    a container: the tracer's tests scale the bounds to stand in for a much faster or slower machine), else
    `default`. The rule that judges a run does not depend on them (docs/comet.md, "Bounds")."""
    try:
        value = json.loads(os.environ.get("TRACEGATE_COMET_BOUNDS") or "{}").get(name)
    except (ValueError, AttributeError):
        value = None
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) and value > 0 else default


CALL_SECONDS = _bound("call_seconds", 2.0)
"""A B1 call that runs longer is a `timeout` (the function's own time: the import is not counted)."""
CALL_PROCESS_SECONDS = _bound("call_process_seconds", 15.0)
"""A B1 process, import included: past this it is killed (a call stuck where the alarm cannot reach)."""
TEST_SECONDS = _bound("test_seconds", 20.0)
"""A B2 pytest run past this is stopped: a `fail` once a test has started, an `error` before."""
REFERENCE_SECONDS = int(_bound("reference_seconds", 5))
"""A reference test stops its call after this long (a buggy version that hangs fails it)."""
MEMORY_BYTES = int(_bound("memory_bytes", 1 << 30))
"""Address space of each run: an allocation past it is a MemoryError inside the run. Which of this bound and a
time bound a runaway reaches first depends on the machine's speed, so a run is judged the same either way: B1's
call is a `timeout` (tracegate_comet_call.py), B2's test a `fail` (judge_test_run)."""
PROCESSES = 64
"""Processes (and threads) the run's uid may have at once: a fork bomb stops here."""
FILE_BYTES = 64 << 20
"""Largest file a run may write."""
CAP = 4096
"""Characters of a return value's repr and of standard output kept (a longer one keeps its head, length and
digest, so two different long values still differ)."""
MAX_INPUT_CHARS = 65536
MAX_TEST_CHARS = 262144


# -- one run ---------------------------------------------------------------------


RLIMITS = ((resource.RLIMIT_AS, MEMORY_BYTES, MEMORY_BYTES), (resource.RLIMIT_NPROC, PROCESSES, PROCESSES),
           (resource.RLIMIT_FSIZE, FILE_BYTES, FILE_BYTES), (resource.RLIMIT_CORE, 0, 0))
"""Each run's bounds, set in the child after it became the group's uid."""


class _Bounded:
    """The group's sandbox with each child's limits and a clean environment (nothing of the driver's)."""

    def __init__(self, sandbox: Sandbox) -> None:
        self.sandbox = sandbox

    def popen_options(self) -> dict[str, Any]:
        return self.sandbox.popen_options()

    def rlimits(self) -> tuple[tuple[int, int, int], ...]:
        return RLIMITS

    def environment(self, env: dict[str, str]) -> dict[str, str]:
        return self.sandbox.environment(env)

    def kill_processes(self, child: Any) -> int:
        return self.sandbox.kill_processes(child)


def _fresh(config: dict[str, Any], fresh: Collection[str]) -> set[str]:
    """What a call's process must import itself: the package asked for, and the called module's top."""
    return set(fresh) | {str(config.get("module", "")).split(".")[0]}


def _clean_env(root: str) -> dict[str, str]:
    """Nothing of the driver's environment: the path, the package's root (already on sys.path in an environment
    image; a host test's package is not), stable hashes, no bytecode written."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "PYTHONHASHSEED": "0",
            "PYTHONDONTWRITEBYTECODE": "1", "PYTHONIOENCODING": "utf-8", "PYTHONPATH": root}


def _between(sandbox: Sandbox) -> None:
    """What one run left (its files anywhere, IPC objects, temp dir) gone before the next."""
    sandbox.cleanup()
    sandbox.prepare()


def call_once(config: dict[str, Any], root: str, sandbox: Sandbox, tracer_root: str,
              fresh: Collection[str] = ()) -> dict[str, Any]:
    """One B1 call in a fresh process: {outcome, return, stdout, exception, seconds} or {refused}. `fresh`:
    the mutated package (a warm start's server must not have imported it: pytest_run.run_command)."""
    out = sandbox.path("call-result.json")
    path = sandbox.write_private("call.json", json.dumps(dict(config, out=out, cap=CAP, call_seconds=CALL_SECONDS)))
    runner = os.path.join(tracer_root, "boot", "tracegate_comet_call.py")
    command = [sys.executable, "-P", "-s", runner, path]
    run = pytest_run.run_command(command, sandbox.tmp, _clean_env(root), CALL_PROCESS_SECONDS, _Bounded(sandbox),
                                 fresh=_fresh(config, fresh))
    found: dict[str, Any] = {"seconds": run.seconds}
    if run.timed_out:
        found.update(outcome="timeout")
    else:
        try:
            with open(out, encoding="utf-8") as handle:
                written = json.load(handle)
        except (OSError, ValueError):
            written = None
        if isinstance(written, dict) and run.exit_code == 0 and (
                written.get("refused") or written.get("outcome") in ("ok", "crash", "timeout")):
            found.update({k: v for k, v in written.items() if k in ("outcome", "return", "stdout", "exception",
                                                                    "message", "refused")})
        elif isinstance(run.exit_code, int) and run.exit_code < 0:
            import signal

            found.update(outcome="crash", exception=signal.Signals(-run.exit_code).name,
                         message="the process was killed by a signal")
        else:
            found.update(outcome="crash", exception="SystemExit",
                         message=f"the process ended (exit {run.exit_code}) before the call returned")
    _between(sandbox)
    return found


def call_batch(config: dict[str, Any], root: str, sandbox: Sandbox, tracer_root: str,
               fresh: Collection[str] = ()) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """Several calls in one fresh process (the prompt's examples: they describe, they are not verified), after
    `config["first"]` if given (the reference input: called in a child forked after the import, the state a
    fresh process's call meets, so the harvest's reference costs no process of its own). (first's result,
    or None when it was not called or the import started threads — then it needs call_once; the calls').
    With `config["trace_first"]` first's result holds its traced repeat as `trace` (when one was made)."""
    out = sandbox.path("calls-result.json")
    count = len(config["inputs"])
    first = "first" in config
    children = first * (1 + bool(config.get("trace_first")))  # the first call, and its traced repeat
    config = dict(config, out=out, cap=CAP, call_seconds=CALL_SECONDS, first_seconds=CALL_PROCESS_SECONDS)
    path = sandbox.write_private("calls.json", json.dumps(config))
    runner = os.path.join(tracer_root, "boot", "tracegate_comet_call.py")
    run = pytest_run.run_command([sys.executable, "-P", "-s", runner, path], sandbox.tmp, _clean_env(root),
                                 CALL_PROCESS_SECONDS * (1 + children) + CALL_SECONDS * count, _Bounded(sandbox),
                                 fresh=_fresh(config, fresh))
    try:
        with open(out, encoding="utf-8") as handle:
            written = json.load(handle)
    except (OSError, ValueError):
        written = None
    _between(sandbox)
    if first and isinstance(written, dict):
        traced = written.get("trace")
        called, written = written.get("first"), written.get("calls")
        if not isinstance(called, dict | None):
            written = None
        elif isinstance(called, dict) and isinstance(traced, dict):
            called = dict(called, trace=traced)
    else:
        called = None
    if run.timed_out or run.exit_code != 0 or not isinstance(written, list) or len(written) != count:
        raise Refused(f"the example calls did not run (exit {run.exit_code}{', timed out' if run.timed_out else ''})")
    return called, written



B2_PLUGIN = "tracegate_b2_plugin"
"""tracer/boot/b2/: tells the driver how far a B2 run got (a test started, a MemoryError, pytest's status)."""


def run_test_file(test_text: str, root: str, sandbox: Sandbox, tracer_root: str,
                  fresh: Collection[str] = (), target: dict[str, str] | None = None) -> dict[str, Any]:
    """One B2 run of the reply's test file in a fresh pytest process: {verdict, exit_code, seconds, called,
    reason?}. `called`: the process called `target` ({file, qualname}: the function under test, as imported),
    seen by the plugin (tracegate_b2_plugin); a run whose test never calls it counts for nothing
    (src/families/comet/score.ts)."""
    folder = sandbox.path("regression")
    os.mkdir(folder, 0o700)
    if sandbox.uid is not None:
        os.chown(folder, sandbox.uid, sandbox.uid)
    name = os.path.join(folder, "test_regression.py")
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(test_text)
    progress = os.path.join(folder, ".tracegate-progress")
    env = dict(_clean_env(root), TRACEGATE_B2_PROGRESS=progress)
    if target is not None:
        env["TRACEGATE_B2_TARGET"] = json.dumps(target)
    env["PYTHONPATH"] = os.pathsep.join([env["PYTHONPATH"], os.path.join(tracer_root, "boot", "b2")])
    command = [sys.executable, "-P", "-s", "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider",
               "-p", B2_PLUGIN, "-o", "addopts=", "test_regression.py"]
    run = pytest_run.run_command(command, folder, env, TEST_SECONDS, _Bounded(sandbox), fresh=fresh)
    lines = _progress(progress)
    found = judge_test_run(run.exit_code, run.timed_out, lines, run.problem)
    found.update(exit_code=run.exit_code, seconds=run.seconds, called="called" in lines)
    _between(sandbox)
    return found


def _progress(path: str) -> list[str]:
    """The plugin's lines (a few bytes each), read without following a link the test may have put there."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return []
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return []
        data = os.read(fd, 4096)
    finally:
        os.close(fd)
    return data.decode("ascii", "replace").split()[:64] if data else []


def judge_test_run(exit_code: int | None, timed_out: bool, progress: list[str],
                   problem: Callable[[], str | None] = lambda: None) -> dict[str, Any]:
    """A B2 run's verdict by one rule, whichever bound a runaway reaches first and wherever the exhaustion
    surfaces (docs/comet.md, "Bounds"):

    * `pass` — pytest's own verdict was that every test passed (its session ended with status 0, and so did
      the process);
    * `fail` — a test started and the run did not pass: a test failed, or the run ended otherwise once tests
      were running (out of memory, past TEST_SECONDS, killed, the interpreter crashed);
    * `error` — no test started: the file did not collect, held no test, or the run ended before a test began.

    `progress` is what tracegate_b2_plugin wrote (`start`, `memory`, `finish N`)."""
    import signal

    started = "start" in progress
    statuses = [progress[i + 1] for i, word in enumerate(progress[:-1]) if word == "finish"]
    finished = int(statuses[-1]) if statuses and statuses[-1].lstrip("-").isdigit() else None
    if not timed_out and exit_code == 0 and finished == 0:
        return {"verdict": "pass"}
    if timed_out:
        why = f"the test ran past {TEST_SECONDS:g}s"
    elif "memory" in progress:
        why = f"the test ran out of memory (MemoryError past the run's {MEMORY_BYTES >> 20} MiB)"
    elif isinstance(exit_code, int) and exit_code < 0:
        why = f"the test process was killed by {signal.Signals(-exit_code).name}"
    elif finished is None or finished != exit_code:
        why = f"the test process ended (exit {exit_code}) without pytest's verdict"
    else:
        why = None
    if started:
        return {"verdict": "fail", **({"reason": why[:300]} if why else {})}
    if why is None or finished is not None:
        why = problem() or f"pytest exit {exit_code}"
    return {"verdict": "error", "reason": f"no test started: {why}"[:300]}
