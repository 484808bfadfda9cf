"""An instance parser's own process: `python -P parser_child.py PARSER_FILE RESULT_FD`, the job on stdin.

Started by instance_parser.py (as the group's uid when isolated) with stdin a
private copy of the job, `{"query": ..., "trace": ...}`, and RESULT_FD the
write end of the driver's result pipe. This process forks and waits: the
parser runs in the child, so the parser's parent (`os.getppid()`) is this
process, never the driver; then it ends as the child did (the same exit code,
or killed by the same signal). The child loads PARSER_FILE, calls
`answer(trace, query)`, writes one message on RESULT_FD and exits at once:

    {"answer": <the answer, as JSON>}
    {"raised": "<ExcType>: <message>"}      # anything it raised, SystemExit and KeyboardInterrupt included
    {"unserialisable": "<why>"}             # not JSON: NaN, a non-string key, an object

Whatever the parser prints goes to stdout and stderr, which the driver keeps
bounded and logs. Address space is capped (RLIMIT_AS, see `memory_limit`), so
an allocation without bound raises MemoryError here, and the OOM killer is
told to pick this process first.

Standard library only, nothing from tracegate: it runs in the project's
environment, and `-P` keeps this directory off `sys.path` (the parser's
`import trace` is the standard library's, not tracegate_tracer/recording/trace.py).
"""

from __future__ import annotations

import importlib.util
import json
import os
import resource
import signal
import sys
from typing import Any

MESSAGE_CHARS = 500
BASE_MEMORY = 4 << 30
MEMORY_PER_JOB_BYTE = 16  # a JSON trace loaded as Python objects takes several times its text


def memory_limit(job_bytes: int) -> int:
    """The parser's address-space cap: 4 GiB plus 16 bytes per byte of the job (the trace and the query)."""
    return BASE_MEMORY + MEMORY_PER_JOB_BYTE * job_bytes


def _limit_memory(job_bytes: int) -> None:
    limit = memory_limit(job_bytes)
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _oom_first() -> None:
    try:  # raising one's own score needs no privilege
        with open("/proc/self/oom_score_adj", "w") as handle:
            handle.write("1000")
    except OSError:
        pass


def _describe(exc: BaseException) -> str:
    try:
        text = str(exc)
    except BaseException:  # noqa: BLE001 - a hostile __str__ still gets a reason
        text = "<unprintable message>"
    text = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return text if len(text) <= MESSAGE_CHARS else text[:MESSAGE_CHARS] + "…"


def _check_plain(value: Any) -> None:
    """JSON as written: str-keyed dicts, lists (tuples), strings, numbers, booleans, null; nothing else."""
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"a key is {type(key).__name__}, not str")
            _check_plain(item)
    elif isinstance(value, list | tuple):
        for item in value:
            _check_plain(item)
    elif value is not None and not isinstance(value, str | int | float):
        raise TypeError(f"{type(value).__name__} is not JSON")


def _message(parser_file: str) -> bytes:
    try:
        _limit_memory(os.fstat(0).st_size)
        with open(0, "rb", closefd=False) as stdin:
            job = json.load(stdin)
        spec = importlib.util.spec_from_file_location("tracegate_instance_parser", parser_file)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        value = module.answer(job["trace"], job["query"])
    except BaseException as exc:  # noqa: BLE001 - SystemExit and KeyboardInterrupt are the parser's answer too
        return json.dumps({"raised": _describe(exc)}).encode()
    try:
        _check_plain(value)
        text = json.dumps(value, allow_nan=False)
    except BaseException as exc:  # noqa: BLE001 - TypeError, ValueError (NaN), RecursionError, a hostile subclass
        return json.dumps({"unserialisable": _describe(exc)}).encode()
    return b'{"answer": ' + text.encode() + b"}"


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _parser_process(parser_file: str, result_fd: int) -> None:
    """The fork's child: never returns."""
    code = 1
    try:
        data = _message(parser_file)
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:  # noqa: BLE001 - the parser may have closed or replaced them
                pass
        _write_all(result_fd, data)
        code = 0
    finally:
        os._exit(code)


def main(argv: list[str]) -> None:
    parser_file, result_fd = argv[1], int(argv[2])
    sys.dont_write_bytecode = True  # nothing written into the instance dir
    _oom_first()
    pid = os.fork()
    if pid == 0:
        _parser_process(parser_file, result_fd)
    os.close(result_fd)  # the pipe reaches EOF when the parser's side closes
    os.close(0)
    _pid, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        signum = os.WTERMSIG(status)
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        os._exit(128 + signum)
    os._exit(os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    main(sys.argv)
