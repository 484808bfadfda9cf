"""One B1 call: `python -P -s tracegate_comet_call.py CONFIG`, run by comet/runs.py as the group's uid.

CONFIG is {module, qualname, input, call_seconds, out, cap} (or `inputs`, a list: one call each, in this
process, and a list written; with `first` too, an object {first, calls} written, `first` called before
them in a child forked after the import: first_call(); and with `trace_first`, `first` called once more, traced,
its trace written as `trace`: traced_call()). The input is the
reply's, as data: a JSON object {args, kwargs}, a JSON array (the positional
arguments), or a string holding the call's arguments as Python literals, as
written between the call's parentheses (`'abc', 3, width=10`). Nothing in it
is executed: each argument is `ast.literal_eval`'d.

Writes one JSON object to `out`:

* {"refused": why} — the input is not JSON or literals, or does not fit the
  function's signature, or the module does not import: the reply's fault (or
  the instance's), never a behaviour of the program;
* {"outcome": "ok", "return": repr, "stdout": text} — the call returned;
* {"outcome": "crash", "exception": name, "message": text, "stdout": text};
* {"outcome": "timeout", "message": why} — the call did not finish within its bounds: it ran past
  `call_seconds`, or a MemoryError ended it (the run's address space is bounded; which bound a runaway reaches
  first depends on the machine's speed, so both are one outcome).

Standalone on purpose: the package under test is the only code imported
besides the standard library (no tracegate module, no sitecustomize).
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import hashlib
import importlib
import inspect
import io
import json
import os
import re
import signal
import sys
import threading
import time
import traceback
from typing import Any

ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


class _CallTimeout(BaseException):
    """Raised by the alarm in the middle of the call (a BaseException: `except Exception` does not swallow it)."""


def _alarm(signum: int, frame: object) -> None:
    raise _CallTimeout


def _shown(text: str, cap: int) -> str:
    """`text` with addresses masked, capped: a longer one keeps its head and names its length and digest."""
    text = ADDRESS.sub(" at 0x…", text)
    if len(text) <= cap:
        return text
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"{text[:cap]}…[{len(text)} chars, sha256 {digest}]"


def exception_name(error: BaseException) -> str:
    kind = type(error)
    if kind.__module__ == "builtins" and getattr(builtins, kind.__name__, None) is kind:
        return kind.__name__
    return f"{kind.__module__}.{kind.__qualname__}"


def arguments(given: Any) -> tuple[list[Any], dict[str, Any]]:
    """(args, kwargs) of the reply's input; ValueError (why) when it is neither JSON arguments nor literals."""
    if isinstance(given, list):
        return list(given), {}
    if isinstance(given, dict):
        unknown = sorted(set(given) - {"args", "kwargs"})
        if unknown:
            raise ValueError(f"an input object has `args` and `kwargs` only, not {unknown[0]!r}")
        args, kwargs = given.get("args", []), given.get("kwargs", {})
        if not isinstance(args, list) or not isinstance(kwargs, dict):
            raise ValueError("`args` must be a list and `kwargs` an object")
        return list(args), dict(kwargs)
    if not isinstance(given, str):
        raise ValueError("the input must be an object {args, kwargs}, a list or a string, "
                         f"not {type(given).__name__}")
    try:
        call = ast.parse(f"f({given}\n)", mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise ValueError(f"the input is not a call's arguments as Python literals ({type(exc).__name__})") from None
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name) or call.func.id != "f":
        raise ValueError("the input is not a call's arguments as Python literals")
    try:
        args = []
        for node in call.args:
            if isinstance(node, ast.Starred):
                raise ValueError("a starred argument is not a literal")
            args.append(ast.literal_eval(node))
        kwargs = {}
        for keyword in call.keywords:
            if keyword.arg is None:
                raise ValueError("`**` is not a literal")
            kwargs[keyword.arg] = ast.literal_eval(keyword.value)
    except ValueError as exc:
        raise ValueError(f"an argument is not a Python literal ({exc})") from None
    except (TypeError, SyntaxError, RecursionError, MemoryError) as exc:
        raise ValueError(f"an argument is not a Python literal ({type(exc).__name__})") from None
    return args, kwargs


def resolve(module_name: str, qualname: str) -> Any:
    found: Any = importlib.import_module(module_name)
    for part in qualname.split("."):
        found = getattr(found, part)
    if not callable(found):
        raise TypeError(f"{module_name}.{qualname} is not callable")
    return found


def call(config: dict[str, Any]) -> dict[str, Any]:
    cap = int(config.get("cap") or 4096)
    try:
        args, kwargs = arguments(config.get("input"))
    except ValueError as exc:
        return {"refused": f"bad input: {exc}"}
    try:
        function = resolve(config["module"], config["qualname"])
    except Exception as exc:  # noqa: BLE001 - the program's failure to import is the instance's, not a behaviour
        return {"refused": f"the target does not import: {exception_name(exc)}: {str(exc)[:200]}"}
    try:
        inspect.signature(function).bind(*args, **kwargs)
    except TypeError as exc:
        return {"refused": f"the input does not fit the signature {config['qualname']}"
                           f"{_signature(function)}: {str(exc)[:200]}"}
    except ValueError:
        pass  # no signature to check against (a builtin): the call itself says
    stdout = io.StringIO()
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, float(config.get("call_seconds") or 2.0))
    try:
        with contextlib.redirect_stdout(stdout):
            value = function(*args, **kwargs)
            text = repr(value)
        signal.setitimer(signal.ITIMER_REAL, 0)
        return {"outcome": "ok", "return": _shown(text, cap), "stdout": _shown(stdout.getvalue(), cap)}
    except _CallTimeout:
        return {"outcome": "timeout", "message": f"ran past {float(config.get('call_seconds') or 2.0):g}s"}
    except MemoryError as exc:
        # Out of memory is out of a bound, like the alarm: a runaway reaches one or the other first depending
        # on the machine's speed, so both are `timeout` (docs/comet.md, "Bounds"). The frames go first: they
        # hold what the call allocated, and nothing below could allocate while they do.
        signal.setitimer(signal.ITIMER_REAL, 0)
        traceback.clear_frames(exc.__traceback__)
        del exc
        return {"outcome": "timeout", "message": "ran out of memory"}
    except BaseException as exc:  # noqa: BLE001 - every way the call ends is a behaviour
        signal.setitimer(signal.ITIMER_REAL, 0)
        try:
            message = _shown(str(exc), 200)
        except BaseException:  # noqa: BLE001 - an exception whose str() fails
            message = ""
        return {"outcome": "crash", "exception": exception_name(exc), "message": message,
                "stdout": _shown(stdout.getvalue(), cap)}


def _signature(function: Any) -> str:
    try:
        return str(inspect.signature(function))
    except (TypeError, ValueError):
        return "(…)"


def first_call(config: dict[str, Any]) -> dict[str, Any] | None:
    """`config["first"]` called in a child forked once the module is imported: the state a fresh process's
    call meets (nothing has run but the import), at a fork's cost instead of a process's, and this process
    left as it was for the calls after it. Ends as call_once's process would: a signal or an exit before the
    result is a crash, past `first_seconds` a timeout. None when the import started threads (a fork keeps
    only this one, and a lock another held would never be released): the caller runs it in a process."""
    try:
        resolve(config["module"], config["qualname"])
    except Exception:  # noqa: BLE001 - call() in the child says why, as a fresh process's would
        pass
    if threading.active_count() > 1:
        return None
    started = time.monotonic()
    ended, written = _in_child(config, ".first", lambda: call(dict(config, input=config["first"])))
    seconds = round(time.monotonic() - started, 3)
    if ended == "timeout":
        return {"outcome": "timeout", "seconds": seconds}
    if isinstance(ended, int) and ended < 0:
        return {"outcome": "crash", "exception": signal.Signals(-ended).name,
                "message": "the process was killed by a signal", "seconds": seconds}
    if isinstance(written, dict):
        return dict(written, seconds=seconds)
    return {"outcome": "crash", "exception": "SystemExit", "seconds": seconds,
            "message": f"the process ended (exit {ended}) before the call returned"}


def _in_child(config: dict[str, Any], suffix: str, body: Any) -> tuple[int | str, Any]:
    """`body()` in a child forked now, its JSON result written to `out + suffix`: (how the child ended: its
    exit code, minus the signal that killed it, or "timeout" past `first_seconds`; what it wrote or None)."""
    out = config["out"] + suffix
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the child: one call, its result, and out without the interpreter's exit
        code = 0
        try:
            result = json.dumps(body())
            with open(out, "w", encoding="utf-8") as handle:
                handle.write(result)
        except BaseException:  # noqa: BLE001 - a result that cannot be written is no result
            code = 70
        os._exit(code)
    deadline = started + float(config.get("first_seconds") or 15.0)
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return "timeout", None
        time.sleep(0.001)
    if os.WIFSIGNALED(status):
        return -os.WTERMSIG(status), None
    try:
        with open(out, encoding="utf-8") as handle:
            return os.WEXITSTATUS(status), json.load(handle)
    except (OSError, ValueError):
        return os.WEXITSTATUS(status), None


TRACE_STEPS = 20000
"""Line events of the target a traced call records at most (every complexity feature saturates far below)."""
COMPREHENSIONS = ("<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>")


def traced_call(config: dict[str, Any]) -> dict[str, Any] | None:
    """`config["first"]` called again in a child forked after the import, under `sys.settrace`: the trace the
    item's complexity is measured on (the harvest's queries/complexity.py reads it as a traced kind's), in
    the shape the recorder writes: {invocations: [{inv}], events: ["line", inv, line] | ["exception", inv,
    line] | ["call", [[inv, depth], ...], file, func], capped}. The target's own frames are its invocations;
    a call is any Python frame started under one (comprehensions are neither calls nor a level, as the
    recorder has it). Only the run's shape is kept, never a value. None when the import started threads."""
    try:
        target = resolve(config["module"], config["qualname"])
    except Exception:  # noqa: BLE001 - no trace: the reference run says why
        return None
    code = getattr(inspect.unwrap(target), "__code__", None)
    if code is None or threading.active_count() > 1:
        return None
    events: list[list[Any]] = []
    invocations: list[dict[str, int]] = []
    active: dict[Any, int] = {}  # a frame of the target → its invocation
    steps = [0]

    def local(frame: Any, event: str, arg: Any) -> Any:
        inv = active.get(frame)
        if inv is None:
            return None
        if event == "line":
            steps[0] += 1
            if steps[0] <= TRACE_STEPS:
                events.append(["line", inv, frame.f_lineno])
        elif event == "exception" and steps[0] <= TRACE_STEPS:
            events.append(["exception", inv, frame.f_lineno])
        return local

    def on_call(frame: Any, event: str, arg: Any) -> Any:
        if event != "call" or steps[0] > TRACE_STEPS:
            return None
        if active and frame.f_code.co_name not in COMPREHENSIONS:
            owners, depth, walker = [], 0, frame.f_back
            while walker is not None:
                if walker.f_code.co_name not in COMPREHENSIONS:
                    depth += 1
                if walker in active:
                    owners.append([active[walker], depth])
                walker = walker.f_back
            if owners:
                events.append(["call", owners, frame.f_code.co_filename, frame.f_code.co_qualname])
        if frame.f_code is code:
            active[frame] = len(invocations) + 1
            invocations.append({"inv": len(invocations) + 1})
            return local
        return None

    def body() -> dict[str, Any]:
        sys.settrace(on_call)
        try:
            call(dict(config, input=config["first"]))
        finally:
            sys.settrace(None)
        return {"invocations": invocations, "events": events, "capped": steps[0] > TRACE_STEPS}

    _ended, written = _in_child(config, ".traced", body)
    return written if isinstance(written, dict) else None


def main(argv: list[str]) -> int:
    with open(argv[1], encoding="utf-8") as handle:
        config = json.load(handle)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
    # `inputs`: several calls in this one process (the prompt's example calls; never a reply's).
    if "first" in config:
        first = first_call(config)
        result: Any = {"first": first, "calls": [call(dict(config, input=given)) for given in config["inputs"]]}
        if config.get("trace_first"):
            result["trace"] = traced_call(config)
    elif "inputs" in config:
        result = [call(dict(config, input=given)) for given in config["inputs"]]
    else:
        result = call(config)
    with open(config["out"], "w", encoding="utf-8") as handle:
        json.dump(result, handle)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
