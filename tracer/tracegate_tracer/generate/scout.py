"""Scouting: what a test file runs of a package, for the instance generator.

One traced run of a test file records, for every function of the package's
own code that executes (never the tests', never another package's): its
invocations (with the test and the steps of each), the lines it ran, the
exceptions that entered it and which escaped, the package functions it
called, and a few values of its local variables. `propose.py` turns these
facts into candidate queries of every rule; the generator harvests them like
any instance and screens the oracles. The facts only choose what to ask:
every answer still comes from a harvested trace.

The recorder half runs in the test process (sitecustomize starts it when the
trace config has a "scout" key); `run` is the driver half.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import threading
from types import CodeType, FrameType
from typing import Any

from ..recording import frames
from ..recording.values import safe_repr, type_name
from ..runner import pytest_run
from ..runner.sandbox import Sandbox

MAX_LINE_EVENTS = 3_000_000
"""Line events recorded in all; beyond it only calls and invocations are counted."""
MAX_INVOCATIONS = 200
"""Invocations described one by one per function (all are counted)."""
SAMPLED_STEPS = 400
"""Steps per function whose locals are sampled."""
MAX_VALUES = 8
"""Distinct short values kept per variable."""
SHORT = 40
"""Characters of a value's repr kept for proposals (longer ones count as unknown)."""
SIMPLE = (int, float, str, bool, type(None))


class _Fn:
    __slots__ = ("file", "qualname", "first", "invocations", "described", "lines", "exc", "callees", "vars",
                 "line_names", "sampled")

    def __init__(self, file: str, qualname: str, first: int) -> None:
        self.file, self.qualname, self.first = file, qualname, first
        self.invocations = 0
        self.described: list[list[Any]] = []  # [test, steps, escaped exception type or None]
        self.lines: dict[int, int] = {}
        self.exc: dict[str, int] = {}
        self.callees: dict[tuple[str, str], int] = {}
        self.vars: dict[str, dict[str, Any]] = {}
        self.line_names: dict[int, list[str]] = {}
        self.sampled = 0

    def facts(self) -> dict[str, Any]:
        return {
            "file": self.file, "qualname": self.qualname, "first_line": self.first,
            "invocations": self.invocations, "described": self.described,
            "lines": {str(k): v for k, v in sorted(self.lines.items())},
            "exceptions": dict(sorted(self.exc.items())),
            "callees": sorted([f, q, n] for (f, q), n in self.callees.items()),
            "variables": {name: {"types": sorted(v["types"]), "values": sorted(v["values"])}
                          for name, v in sorted(self.vars.items())},
            "line_names": {str(k): v for k, v in sorted(self.line_names.items())},
        }


class _Inv:
    __slots__ = ("fn", "record", "last_exc")

    def __init__(self, fn: _Fn, record: list[Any] | None) -> None:
        self.fn, self.record, self.last_exc = fn, record, None


def package_roots(name: str) -> list[str] | None:
    """The directories of package `name` (or the file of a one-module distribution), once it is
    imported or importable; None while it is neither (the test's directory joins sys.path later)."""
    module = sys.modules.get(name)
    if module is not None:
        paths = list(getattr(module, "__path__", None) or ())
        origin = getattr(module, "__file__", None)
    else:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        if spec is None:
            return None
        paths, origin = list(spec.submodule_search_locations or ()), spec.origin
    if paths:
        return [os.path.realpath(p) + os.sep for p in paths]
    return [os.path.realpath(origin)] if origin else None


class ScoutRecorder:
    """sys.settrace over the package's own frames (any Python 3.11+)."""

    backend = "scout"

    def __init__(self, config: dict[str, Any]) -> None:
        self.trace_path = config["trace_path"]
        self.names = list(config["scout"]["packages"])
        self.roots: list[str] = []
        self.test_id = "<process>"
        self.stopped = False
        self.reason: str | None = None
        self.line_events = 0
        self._pid = os.getpid()
        self._codes: dict[CodeType, _Fn | None] = {}
        self._fns: dict[tuple[str, str], _Fn] = {}
        self._frames: dict[FrameType, _Inv] = {}
        self._lock = threading.Lock()
        self._pending = list(self.names)

    def install(self) -> None:
        self._resolve()
        sys.settrace(self._global)
        threading.settrace(self._global)

    def uninstall(self) -> None:
        sys.settrace(None)
        threading.settrace(None)

    def check_tracer(self) -> None:
        if not self.stopped and sys.gettrace() != self._global:
            self.reason = f"another tracer replaced tracegate's ({safe_repr(sys.gettrace(), 120)})"
            self.stopped = True
            self.uninstall()

    def _resolve(self) -> None:
        """Finds the roots of the packages not found yet (each is looked for until it is)."""
        for name in list(self._pending):
            roots = package_roots(name)
            if roots is not None:
                self.roots.extend(roots)
                self._pending.remove(name)

    def _fn(self, code: CodeType) -> _Fn | None:
        fn = self._codes.get(code, False)
        if fn is not False:
            return fn  # type: ignore[return-value]
        if self._pending:
            self._resolve()
        found = None
        qualname = getattr(code, "co_qualname", code.co_name)
        path = os.path.realpath(code.co_filename) if code.co_filename else ""
        if "<" not in qualname and path.endswith(".py"):
            for root in self.roots:
                if path.startswith(root) or path == root:
                    base = os.path.dirname(root.rstrip(os.sep))
                    rel = os.path.relpath(path, base).replace(os.sep, "/")
                    key = (rel, qualname)
                    found = self._fns.get(key)
                    if found is None:
                        found = self._fns[key] = _Fn(rel, qualname, code.co_firstlineno)
                    break
        self._codes[code] = found
        return found

    def _global(self, frame: FrameType, event: str, arg: Any) -> Any:
        if event != "call" or self.stopped:
            return None
        fn = self._fn(frame.f_code)
        if fn is None:
            return None
        with self._lock:
            inv = self._frames.get(frame)
            if inv is None:
                if frames.is_resumption(frame):
                    return None  # a generator started before tracing began
                fn.invocations += 1
                record = None
                if len(fn.described) < MAX_INVOCATIONS:
                    record = [self.test_id, 0, None]
                    fn.described.append(record)
                inv = self._frames[frame] = _Inv(fn, record)
                caller = frame.f_back
                while caller is not None and self._codes.get(caller.f_code, None) is None:
                    caller = caller.f_back  # through non-package frames (stdlib, C shims)
                if caller is not None:
                    owner = self._codes[caller.f_code]
                    if owner is not None and owner is not fn:
                        key = (fn.file, fn.qualname)
                        owner.callees[key] = owner.callees.get(key, 0) + 1
        return self._local(inv)

    def _local(self, inv: _Inv) -> Any:
        def tracer(frame: FrameType, event: str, arg: Any) -> Any:
            if self.stopped:
                return None
            if event == "line":
                self._line(inv, frame)
            elif event == "exception":
                name = type_name(type(arg[1]))
                inv.fn.exc[name] = inv.fn.exc.get(name, 0) + 1
                inv.last_exc = name
            elif event == "return":
                kind = frames.exit_kind(frame)
                if kind != "yield":
                    self._frames.pop(frame, None)
                    if kind == "unwind" and inv.record is not None:
                        inv.record[2] = inv.last_exc
            return tracer

        return tracer

    def _line(self, inv: _Inv, frame: FrameType) -> None:
        fn = inv.fn
        line = frame.f_lineno
        self.line_events += 1
        if self.line_events > MAX_LINE_EVENTS:
            return
        fn.lines[line] = fn.lines.get(line, 0) + 1
        if inv.record is not None:
            inv.record[1] += 1
        if fn.sampled >= SAMPLED_STEPS:
            return
        fn.sampled += 1
        bound = []
        for name, value in list(frame.f_locals.items()):
            slot = fn.vars.setdefault(name, {"types": set(), "values": set()})
            slot["types"].add(type(value).__name__ if isinstance(value, SIMPLE) else "other")
            if isinstance(value, SIMPLE):
                bound.append(name)
                text = safe_repr(value, SHORT + 1)
                if len(text) <= SHORT and len(slot["values"]) < MAX_VALUES:
                    slot["values"].add(text)
        if line not in fn.line_names:
            fn.line_names[line] = sorted(bound)

    def dump(self) -> None:
        if os.getpid() != self._pid:
            return  # a forked child never writes the facts
        self.stopped = True
        self.uninstall()
        facts = {
            "status": "ok" if self.reason is None else "invalid",
            "reason": self.reason,
            "roots": self.roots,
            "line_events": self.line_events,
            "functions": [fn.facts() for _key, fn in sorted(self._fns.items()) if fn.invocations],
        }
        tmp = self.trace_path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as handle:
            json.dump(facts, handle, separators=(",", ":"))
        os.replace(tmp, self.trace_path)


def run(spec: dict[str, Any], sandbox: Sandbox, tracer_root: str) -> dict[str, Any]:
    """Scouts one test file: {id, status, reason?, facts, candidates} (candidates from propose.py)."""
    from . import propose

    result: dict[str, Any] = {"id": spec.get("id"), "status": "error", "scout": True}
    run_dir = spec.get("cwd") or spec["dir"]
    packages = (spec.get("scout") or {}).get("packages")
    if not isinstance(packages, list) or not packages or not all(isinstance(p, str) for p in packages):
        return dict(result, status="invalid", reason="scout needs packages: the import names whose code is scouted")
    config = {"scout": {"packages": packages}, "trace_path": sandbox.path("scout.json")}
    config_path = sandbox.write_private("trace-config.json", json.dumps(config))
    timeout = spec.get("timeout_seconds") or 120
    outcome = pytest_run.run(spec["tests"], run_dir, tracer_root, config_path, timeout, sandbox,
                             fresh=set(packages))
    result["stats"] = {"pytest_exit_code": outcome.exit_code, "seconds": outcome.seconds}
    if outcome.timed_out:
        return dict(result, status="timeout", reason=f"timeout after {timeout}s")
    problem = outcome.problem() or outcome.failure()
    if problem:
        return dict(result, status="invalid", reason=problem)
    try:
        with open(config["trace_path"], encoding="utf-8") as handle:
            facts = json.load(handle)
    except (OSError, ValueError) as exc:
        last = (outcome.stderr.strip().splitlines() or ["no output"])[-1]
        return dict(result, status="error", reason=f"no scout facts ({type(exc).__name__}): {last}")
    if facts.get("status") != "ok":
        return dict(result, status="invalid", reason=facts.get("reason") or "scout failed")
    if not facts["functions"]:
        return dict(result, status="invalid", reason="the tests run no function of " + ", ".join(packages),
                    facts=facts)
    candidates, skipped = propose.candidates(facts, spec["tests"], packages, facts["roots"])
    return dict(result, status="ok", facts=facts, candidates=candidates, skipped=skipped)
