"""An instance's own parser: `answer(trace, query)` over the recorded trace, in a process of its own.

SWE-Flux instances carry a parser.py that turns their trace into the answer;
a tracegate instance may do the same (plan key `parser`, a path relative to
the instance dir) when no declarative query asks what it wants. The parser is
code from the instance, so it gets what the instance's tests get: a child
process with the sandbox's identity (the group's uid when isolated), started
after the tests' processes are gone, and everything of that uid killed after
it. The child (parser_child.py) reads a private copy of the trace and the
query on stdin and sends its answer back on a pipe that the driver reads with
a bound and a timeout; whatever the parser prints is logged, never a result.
Every way it can fail is its own instance's result.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import time
from typing import IO, Any, Protocol

from ..runner.capture import Bounded, linger, register, watch
from ..runner.output import log

ANSWER_LIMIT = 4 << 20
MAX_SECONDS = 60
OUTPUT_LIMIT = 64 * 1024
PIPE_GRACE_SECONDS = 2.0
CHILD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "parser_child.py")


class Sandbox(Protocol):
    """Where and as whom the parser runs (sandbox.py)."""

    index: int
    tmp: str

    def popen_options(self) -> dict[str, Any]: ...

    def environment(self, env: dict[str, str]) -> dict[str, str]: ...

    def kill_processes(self, child: subprocess.Popen[bytes]) -> int: ...

    def handover(self, data: bytes) -> IO[bytes]: ...

    def fresh_tmp(self) -> None: ...


def _locate(rel_path: str, instance_dir: str) -> str | None:
    root = os.path.realpath(instance_dir)
    path = os.path.realpath(os.path.join(root, rel_path))
    return path if path.startswith(root + os.sep) and os.path.isfile(path) else None


def _environment(sandbox: Sandbox) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TRACEGATE_")}
    env.update(PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0")  # as the tests: set orders stable across runs
    return sandbox.environment(env)


class _Run:
    """What the driver saw of one parser process."""

    def __init__(self, child: subprocess.Popen[bytes], result: Bounded, output: Bounded, timed_out: bool,
                 left_running: int) -> None:
        self.returncode = child.returncode
        self.result, self.output = result, output
        self.timed_out, self.left_running = timed_out, left_running

    @property
    def over(self) -> bool:
        return self.result.total > ANSWER_LIMIT


def _watch(child: subprocess.Popen[bytes], result_fd: int, timeout: float, sandbox: Sandbox) -> _Run:
    """One poll loop over the result pipe and the output pipe, until the parser's process ends (or must)."""
    assert child.stdout is not None
    result, output = Bounded(ANSWER_LIMIT), Bounded(OUTPUT_LIMIT)
    sinks = {result_fd: result, child.stdout.fileno(): output}
    deadline = time.monotonic() + timeout
    enough = lambda: result.total > ANSWER_LIMIT  # noqa: E731 - over the bound: stop reading
    with selectors.DefaultSelector() as selector:
        register(selector, sinks)
        timed_out = watch(child, selector, sinks, deadline, enough)
        # Ended: what is still in the pipes gets a short grace (a process it left may hold them open).
        if not timed_out:
            linger(selector, sinks, min(deadline, time.monotonic() + PIPE_GRACE_SECONDS), enough)
        left_running = sandbox.kill_processes(child)
    return _Run(child, result, output, timed_out, left_running)


def _ended(returncode: int | None, answered: bool) -> str:
    """How the parser's process ended, for a reason: `was killed by SIGKILL`, `exited with status 0 without …`."""
    if returncode is not None and returncode < 0:
        try:
            return f"was killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"was killed by signal {-returncode}"
    return f"exited with status {returncode}" + ("" if answered else " without an answer")


def _decide(run: _Run, timeout: float) -> dict[str, Any]:
    """{status, answer} or {status, reason} from what the parser's process did."""
    if run.over:
        return {"status": "error", "reason": f"instance parser's answer is larger than {ANSWER_LIMIT >> 20} MiB"}
    if run.timed_out:
        return {"status": "timeout", "reason": f"instance parser timed out after {timeout:g}s"}
    try:
        message = json.loads(bytes(run.result.head)) if run.result.total else None
    except ValueError:
        message = ()  # unreadable: not one JSON message
    if run.returncode != 0 or message is None:
        return {"status": "error", "reason": f"instance parser {_ended(run.returncode, message is not None)}"}
    if isinstance(message, dict) and len(message) == 1:
        if "answer" in message:
            return {"status": "ok", "answer": message["answer"]}
        if isinstance(message.get("raised"), str):
            return {"status": "error", "reason": f"instance parser raised {message['raised']}"}
        if isinstance(message.get("unserialisable"), str):
            return {"status": "error", "reason": "instance parser returned a non-JSON value"}
    return {"status": "error", "reason": "instance parser wrote something other than its answer on the result pipe"}


def _log_output(run: _Run, label: str, sandbox: Sandbox) -> None:
    if not run.output.total:
        return
    lines = run.output.text().splitlines() or [""]
    log(f"tracegate: group {sandbox.index}: instance parser of {label!r} printed ({run.output.total} bytes):\n"
        + "\n".join("  | " + line for line in lines))


def _start(path: str, stdin: IO[bytes], result_fd: int, sandbox: Sandbox) -> subprocess.Popen[bytes]:
    # -s: no user site dir (HOME is the group's temp dir, where anything of the uid may have been left).
    return subprocess.Popen(
        [sys.executable, "-P", "-s", CHILD, path, str(result_fd)], cwd=sandbox.tmp, env=_environment(sandbox),
        stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True, close_fds=True,
        pass_fds=(result_fd,), **sandbox.popen_options(),
    )


def run(rel_path: str, instance_dir: str, trace_text: bytes, query: dict[str, Any], timeout: float,
        sandbox: Sandbox, label: str) -> dict[str, Any]:
    """{status, answer} or {status, reason}, plus `notes` if any: the fields of the result the parser decides.

    `trace_text` is the trace document as JSON; `timeout` is capped at MAX_SECONDS.
    """
    path = _locate(rel_path, instance_dir)
    if path is None:
        return {"status": "error", "reason": f"instance parser not found: {rel_path}"}
    timeout = min(timeout, MAX_SECONDS)
    job = b'{"query": ' + json.dumps(query).encode() + b', "trace": ' + trace_text + b"}"
    sandbox.fresh_tmp()
    read_end, write_end = os.pipe()
    try:
        with sandbox.handover(job) as stdin:
            try:
                child = _start(path, stdin, write_end, sandbox)
            except (OSError, subprocess.SubprocessError) as exc:
                return {"status": "error", "reason": f"instance parser could not start: {exc}"}
            finally:
                os.close(write_end)  # the child holds the only other copy: EOF when the parser's side is done
        try:
            outcome = _watch(child, read_end, timeout, sandbox)
        finally:
            if child.stdout is not None:
                child.stdout.close()
    finally:
        os.close(read_end)
    _log_output(outcome, label, sandbox)
    decided = _decide(outcome, timeout)
    if outcome.left_running:
        decided["notes"] = [f"killed {outcome.left_running} process(es) the instance parser left running"]
    return decided
