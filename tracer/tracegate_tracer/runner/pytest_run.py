"""Runs an instance's tests under the recorder in a child process.

The child gets its own session (process group); its stdout and stderr are
pipes that the driver reads with one poll loop (no threads), keeping only a
bounded head and tail of each. The loop ends when the child exits or the
timeout passes; then every process the run left is killed (the sandbox
decides how) and the pipes get a short grace to drain before they are
closed: a daemon that keeps a pipe open, or floods it, costs only its own
instance.
"""

from __future__ import annotations

import os
import re
import selectors
import subprocess
import sys
import time
from collections.abc import Collection, Sequence
from typing import Any, Protocol

from . import forkserver
from .capture import Bounded, linger, register, watch

PLUGIN = "tracegate_pytest_plugin"
PIPE_GRACE_SECONDS = 2.0
# pytest exit codes that leave no trustworthy run behind.
_EXIT_REASONS = {
    2: "pytest collection error", 3: "pytest internal error", 4: "pytest usage error", 5: "no tests collected",
}

_EXCEPTION_LINE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt)\b")


class Sandbox(Protocol):
    """Where and as whom the child runs (sandbox.py)."""

    def popen_options(self) -> dict[str, Any]: ...

    def environment(self, env: dict[str, str]) -> dict[str, str]: ...

    def kill_processes(self, child: subprocess.Popen[bytes]) -> int: ...


def _rlimits(sandbox: Sandbox) -> list[tuple[int, int, int]]:
    """The resource limits a sandbox sets in each child after it became the group's uid (none by default)."""
    found = getattr(sandbox, "rlimits", None)
    return list(found()) if found is not None else []


def _setting(rlimits: list[tuple[int, int, int]]) -> Any:
    def preexec() -> None:
        import resource

        for which, soft, hard in rlimits:
            try:
                resource.setrlimit(which, (soft, hard))
            except (ValueError, OSError):
                pass

    return preexec


class Outcome:
    def __init__(self, exit_code: int | None, timed_out: bool, seconds: float, stdout: Bounded,
                 stderr: Bounded, notes: list[str], max_rss_bytes: int | None = None, warm: bool = False) -> None:
        self.exit_code, self.timed_out, self.seconds = exit_code, timed_out, seconds
        self.stdout, self.stderr = stdout.text(), stderr.text()
        self.notes = notes
        self.max_rss_bytes = max_rss_bytes
        """The child's peak resident size as the kernel reports it to its parent (wait4), when reaped here."""
        self.warm = warm
        """The run was forked by a fork server (the driver's to know: the run itself sees a fresh process's
        sys.argv and sys.orig_argv)."""

    def problem(self) -> str | None:
        """Why the run cannot give an oracle (None if it can)."""
        reason = _EXIT_REASONS.get(self.exit_code) if self.exit_code is not None else None
        if reason is None:
            return None
        line = _error_line(self.stdout + "\n" + self.stderr)
        return f"{reason}: {line}" if line else reason

    def failed_tests(self) -> list[str]:
        """Node ids of the tests pytest reported FAILED or ERROR (its `-rfE` summary), in order."""
        found: list[str] = []
        for line in self.stdout.splitlines():
            for marker in ("FAILED ", "ERROR "):
                if line.startswith(marker):
                    node = line[len(marker):].split(" - ", 1)[0].strip()
                    if node and node not in found:
                        found.append(node)
        return found

    def failure(self) -> str | None:
        """Why a run whose tests failed is not an oracle (None unless pytest exited 1)."""
        if self.exit_code != 1:
            return None
        failed = self.failed_tests()
        if not failed:
            return "tests failed (pytest exit 1)"
        shown = ", ".join(failed[:5]) + (f" and {len(failed) - 5} more" if len(failed) > 5 else "")
        return f"tests failed: {shown} (a failing test is not an oracle unless the instance sets expect_failure)"


def _error_line(output: str) -> str:
    """pytest's most telling error line (`E   SyntaxError: ...`, `ERROR: not found: ...`)."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    errors = [line[1:].strip() for line in lines if line.startswith("E ")]
    for line in errors:
        if _EXCEPTION_LINE.match(line):
            return line
    if errors:
        return errors[0]
    for line in lines:
        if line.startswith("ERROR"):
            return line
    return lines[-1] if lines else ""


def environment(tracer_root: str, plugin: str, **settings: str) -> dict[str, str]:
    """The tests' environment: tracegate's boot folder first on PYTHONPATH, `plugin` loaded by pytest,
    stable hashes, no bytecode written, the user's PYTEST_ADDOPTS dropped, and `settings` (the plugin's
    config path) set in place of any config path the driver inherited."""
    env = dict(os.environ)
    env.pop("TRACEGATE_TRACE", None)
    env.pop("TRACEGATE_MEASURE", None)
    for name in ("TRACEGATE_TEST_SECONDS", "TRACEGATE_TEST_REFERENCE", "TRACEGATE_TEST_SLOWEST"):
        env.pop(name, None)
    env.pop("TRACEGATE_SELECT", None)
    boot = os.path.join(tracer_root, "boot")
    env["PYTHONPATH"] = os.pathsep.join([boot] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["PYTHONHASHSEED"] = "0"  # str hashes (and so set/dict-of-set orders) stable across runs
    plugins = [p for p in env.get("PYTEST_PLUGINS", "").split(",") if p.strip()]
    env["PYTEST_PLUGINS"] = ",".join(plugins + [plugin])
    env.pop("PYTEST_ADDOPTS", None)
    env.update(settings)
    return env


def run(tests: Sequence[str], run_dir: str, tracer_root: str, config_path: str, timeout: float,
        sandbox: Sandbox, extra_args: Sequence[str] = (), test_seconds: float | None = None,
        select_path: str | None = None, memory_bytes: int | None = None,
        reference: tuple[str, float] | None = None, fresh: Collection[str] | None = None) -> Outcome:
    """pytest over `tests` under the recorder; `test_seconds` stops each test after that long (the plugin's
    alarm: the test fails, the run goes on). With `select_path` (a file listing `tests`, one per line),
    pytest is given their files and the plugin keeps only those tests, past any file that fails to
    import (a variant search: one broken copy costs only its own tests). `memory_bytes` caps the process's
    address space (the plugin's RLIMIT_AS: a test past it gets a MemoryError, the run goes on). `reference`
    (a mark of test ids, the slowest such test's CPU seconds if known) limits each other test's CPU time to a
    multiple of the slowest one's, within `test_seconds` on the clock (the plugin's RELATIVE_FACTOR).
    `fresh`: run_command's."""
    # -rfE: the summary names each failed or erroring test (`FAILED <nodeid> - …`).
    args = list(tests)
    if select_path is not None:
        args = ["--continue-on-collection-errors", *dict.fromkeys(t.split("::", 1)[0] for t in tests)]
    command = [sys.executable, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider", *extra_args, *args]
    settings = {"TRACEGATE_TRACE": config_path}
    if select_path is not None:
        settings["TRACEGATE_SELECT"] = select_path
    if test_seconds is not None:
        settings["TRACEGATE_TEST_SECONDS"] = f"{test_seconds:g}"
    if memory_bytes is not None:
        settings["TRACEGATE_MEMORY_BYTES"] = str(memory_bytes)
    if reference is not None:
        settings["TRACEGATE_TEST_REFERENCE"], settings["TRACEGATE_TEST_SLOWEST"] = reference[0], f"{reference[1]:g}"
    return run_command(command, run_dir, environment(tracer_root, PLUGIN, **settings), timeout, sandbox, fresh)


def run_command(command: Sequence[str], cwd: str, env: dict[str, str], timeout: float, sandbox: Sandbox,
                fresh: Collection[str] | None = None, populate: bool = False) -> Outcome:
    """Runs `command` in `cwd` as the sandbox's child: bounded output, the timeout, what it left killed.
    With `fresh` (top-level modules the run must import itself) a Python command may start warm, forked
    from a server that imported what it imports first (forkserver.py); None: a fresh process always.
    `populate`: a warm start for a measurement (forkserver.Servers.spawn)."""
    env = sandbox.environment(env)
    options, rlimits = sandbox.popen_options(), _rlimits(sandbox)
    started = time.monotonic()
    child: Any = None
    if fresh is not None:
        child = forkserver.SERVERS.spawn(command, cwd, env, options, rlimits, fresh, populate)
    if child is None:
        if rlimits:
            options = dict(options, preexec_fn=_setting(rlimits))
        child = subprocess.Popen(
            list(command), cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, start_new_session=True, close_fds=True, **options,
        )
    assert child.stdout is not None and child.stderr is not None
    out, err = Bounded(), Bounded()
    sinks = {child.stdout.fileno(): out, child.stderr.fileno(): err}
    notes: list[str] = []
    with selectors.DefaultSelector() as selector:
        register(selector, sinks)
        timed_out = watch(child, selector, sinks, started + timeout)
        seconds = round(time.monotonic() - started, 3)
        left_running = sandbox.kill_processes(child)
        if left_running:
            notes.append(f"killed {left_running} process(es) the tests left running")
        linger(selector, sinks, time.monotonic() + PIPE_GRACE_SECONDS)
        if selector.get_map():
            notes.append(f"test output pipes still open {PIPE_GRACE_SECONDS:g}s after the tests ended: closed")
    child.stdout.close()
    child.stderr.close()
    for name, sink in (("stdout", out), ("stderr", err)):
        if sink.overflowed:
            notes.append(f"test output exceeded the capture limit ({name}: {sink.total} bytes, "
                         f"kept the first and last {sink.limit // 1024} KiB)")
    usage = getattr(child, "rusage", None)
    max_rss = usage.ru_maxrss * 1024 if usage is not None else None  # KiB on Linux
    return Outcome(child.returncode, timed_out, seconds, out, err, notes, max_rss,
                   warm=isinstance(child, forkserver.ForkedChild))
