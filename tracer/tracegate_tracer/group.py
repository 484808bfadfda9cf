"""One recording group: instances that share dir, cwd, tests, target and limits.

The recorder captures the union of what their queries need; each query reads
only its own part of the trace, so sharing never changes an answer. The
group's results come back in the order of its specs.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from typing import Any

from . import VERSION, instance_parser, pytest_run, queries, questions, trace, variant
from .locate import Target, TargetNotFound, build_slice
from .sandbox import Sandbox
from .testfiles import TestFileRefused, read_tests
from .values import value_cap

DEFAULT_TIMEOUT = 60
Spec = dict[str, Any]
Result = dict[str, Any]
ECHOED = ("instance_hash", "env_digest")  # opaque strings the host sends and checks on the way back


def base_result(spec: Spec | Any, reason: str | None = None) -> Result:
    """A result with what is known before any run (status error until decided)."""
    spec = spec if isinstance(spec, dict) else {}
    result: Result = {"id": spec.get("id"), "status": "error", "python": sys.version, "tracer_version": VERSION,
                      "question": None, "template_answer": None,
                      "stats": {"events": 0, "invocations": 0, "pytest_exit_code": None, "seconds": 0.0}}
    for key in ECHOED:
        if key in spec:
            result[key] = spec[key]
    if reason is not None:
        result["reason"] = reason
    if not spec.get("parser"):
        # Rendered from the query alone: present whatever the run's status.
        try:
            result["question"], result["template_answer"] = questions.render(
                spec.get("kind"), spec.get("query") or {}, spec["target"], spec.get("tests"))
        except Exception:  # noqa: BLE001 - a malformed spec fails below, with its own reason
            pass
    return result


def crash_reason() -> str:
    lines = traceback.format_exc().strip().splitlines()
    return "tracer crash: " + (lines[-1] if lines else "unknown")


def group_key(spec: Spec) -> str:
    """Instances that can share one recorded run: same dir, cwd, tests, target, limits."""
    target = spec.get("target") or {}
    return json.dumps([os.path.abspath(spec["dir"]), spec.get("cwd"), spec["tests"], target.get("file"),
                       target.get("function"), spec.get("backend"), spec.get("timeout_seconds"),
                       spec.get("max_events"), (spec.get("query") or {}).get("max_value_chars"),
                       spec.get("variant_epoch"), spec.get("variant_key"), spec.get("variant_attempt")])


def _all(results: list[Result], **fields: Any) -> list[Result]:
    return [dict(result, **fields) for result in results]


def _needs(specs: list[Spec]) -> dict[str, Any]:
    needs: dict[str, Any] = {"record_calls": False, "variables": set(), "dataflow": set()}
    for spec in specs:
        part = queries.recording_needs(spec["kind"], spec.get("query") or {})
        needs["record_calls"] |= bool(part["record_calls"])
        needs["variables"] |= set(part["variables"] or ())
        needs["dataflow"] |= set(part["dataflow"] or ())
    return needs


def harvest_group(specs: list[Spec], sandbox: Sandbox, tracer_root: str) -> list[Result]:
    """Runs one recording for `specs` in `sandbox`; their results, in order."""
    first = specs[0]
    if first.get("scout") is not None:
        from . import scout

        return [scout.run(spec, sandbox, tracer_root) for spec in specs]
    results = [base_result(spec) for spec in specs]
    for result in results:
        result["stats"]["group"] = sandbox.index
    instance_dir = os.path.abspath(first["dir"])
    run_dir = first.get("cwd") or instance_dir
    if not isinstance(run_dir, str) or not os.path.isabs(run_dir) or not os.path.isdir(run_dir):
        return _all(results, status="invalid", reason=f"cwd must be an absolute directory, got {run_dir!r}")
    epoch = first.get("variant_epoch")
    if epoch is not None:
        # A fresh variant: the instance's files copied into the sandbox, its test inputs perturbed.
        if first.get("cwd") or isinstance(epoch, bool) or not isinstance(epoch, int):
            return _all(results, status="invalid", reason="no variant: variants need cwd instance and an int epoch")
        try:
            attempt = first.get("variant_attempt") or 0
            if isinstance(attempt, bool) or not isinstance(attempt, int):
                raise variant.NoVariant(f"variant_attempt must be an int, got {attempt!r}")
            instance_dir = run_dir = variant.prepare(instance_dir, first["tests"], epoch,
                                                     str(first.get("variant_key") or ""), sandbox.path("variant"),
                                                     attempt)
        except (variant.NoVariant, OSError) as exc:
            return _all(results, status="invalid", reason=f"no variant: {exc}")
    try:
        target = Target(first["target"]["file"], first["target"]["function"], [run_dir, instance_dir])
        tests = read_tests(first["tests"], run_dir)
        cap = value_cap(first.get("query") or {})
    except TargetNotFound as exc:
        return _all(results, status="invalid", reason=str(exc))
    except SyntaxError as exc:
        return _all(results, status="invalid", reason=f"target file does not parse: {exc}")
    except TestFileRefused as exc:
        return _all(results, status="invalid", reason=f"{exc} (test files must be regular files of at most "
                    "256 KiB inside the directory pytest runs in)")
    except ValueError as exc:
        return _all(results, status="invalid", reason=str(exc))
    context = dict(target.context, tests=tests)
    needs = _needs(specs)
    trace_path = sandbox.path("trace.json")
    config = dict(target=first["target"], trace_path=trace_path, instance_dir=run_dir,
                  record_calls=needs["record_calls"], variables=sorted(needs["variables"]) or None,
                  dataflow=sorted(needs["dataflow"]) or None, max_events=first.get("max_events"),
                  max_value_chars=cap, backend=first.get("backend") or os.environ.get("TRACEGATE_BACKEND") or "auto")
    config_path = sandbox.write_private("trace-config.json", json.dumps(config, indent=2))
    timeout = first.get("timeout_seconds") or DEFAULT_TIMEOUT
    run = pytest_run.run(first["tests"], run_dir, tracer_root, config_path, timeout, sandbox)
    for result in results:
        result["context"] = context
        result["stats"].update(pytest_exit_code=run.exit_code, seconds=run.seconds)
        if run.notes:
            result["stats"]["notes"] = run.notes
    if run.timed_out:
        return _all(results, status="timeout", reason=f"timeout after {timeout}s")
    problem = run.problem()
    if problem:
        return _all(results, status="invalid", reason=problem)
    try:
        recorded = trace.load(trace_path)
    except (OSError, ValueError) as exc:
        last = (run.stderr.strip().splitlines() or ["no output"])[-1]
        missing = isinstance(exc, FileNotFoundError)
        what = "no trace written" if missing else f"unreadable trace ({type(exc).__name__}: {exc})"
        return _all(results, status="error", reason=f"{what} (pytest exit {run.exit_code}): {last}")
    # The parsers' copy, serialised as loaded, before anything else reads it, and only when a parser will read it.
    parsed = recorded["status"] == "ok" and recorded["invocations"] and any(s.get("parser") for s in specs)
    trace_text = json.dumps(recorded, separators=(",", ":")).encode() if parsed else b""
    try:
        context = dict(context, slice=build_slice(target, recorded.get("executed")))
    except Exception as exc:  # noqa: BLE001 - the prompt's slice never costs an oracle
        sys.stderr.write(f"tracegate: group {sandbox.index}: no prompt slice ({type(exc).__name__}: {exc})\n")
    failure = run.failure()
    rule_context = queries.Context(target.file, target.func, target.linemap)
    decided = []
    for spec, result in zip(specs, results, strict=True):
        result["context"] = context
        result["stats"].update(events=len(recorded["events"]), invocations=len(recorded["invocations"]),
                               backend=recorded["backend"])
        if failure and not spec.get("expect_failure"):
            decided.append(dict(result, status="invalid", reason=failure))
        elif spec.get("parser"):
            decided.append(dict(result, **_parse(spec, recorded, trace_text, instance_dir, timeout, sandbox, result)))
        else:
            decided.append(dict(result, **_answer(spec, recorded, rule_context)))
    return decided


def _parse(spec: Spec, recorded: dict[str, Any], trace_text: bytes, instance_dir: str, timeout: float,
           sandbox: Sandbox, result: Result) -> dict[str, Any]:
    """{status, answer} or {status, reason} of an instance with its own parser (run in its own process)."""
    if recorded["status"] != "ok":
        return {"status": "invalid", "reason": recorded["reason"]}
    if not recorded["invocations"]:
        return {"status": "invalid", "reason": "target not executed"}
    decided = instance_parser.run(spec["parser"], instance_dir, trace_text, spec.get("query") or {}, timeout,
                                  sandbox, str(spec.get("id")))
    notes = decided.pop("notes", None)
    if notes:
        result["stats"]["notes"] = list(result["stats"].get("notes", ())) + notes
    if decided["status"] == "ok":
        try:
            queries.ensure_uncut(recorded, queries.leaves(decided["answer"]))
        except queries.Invalid as exc:
            return {"status": "invalid", "reason": str(exc)}
    return decided


def _answer(spec: Spec, recorded: dict[str, Any], ctx: queries.Context) -> dict[str, Any]:
    """{status, answer} or {status, reason} of one instance over the group's trace, by its kind's rule."""
    if recorded["status"] != "ok":
        return {"status": "invalid", "reason": recorded["reason"]}
    query = spec.get("query") or {}
    try:
        return {"status": "ok", "answer": queries.answer(spec["kind"], query, recorded, ctx)}
    except queries.Invalid as exc:
        return {"status": "invalid", "reason": str(exc)}
    except Exception:  # noqa: BLE001 - a crashing rule sinks only its instance
        return {"status": "error", "reason": crash_reason()}
