"""tracegate's in-container driver: `python harvest.py PLAN_JSON`.

For each instance of the plan: run its tests under the recorder, answer its
query from the trace, write OUT_DIR/<id>/result.json (and trace.json). One
instance's failure never touches another's. Exit 0 unless the plan itself is
unreadable; the host reads the result files.
"""

import json
import os
import sys
import time
import traceback

TRACER_ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, TRACER_ROOT)

from tracegate_tracer import (  # noqa: E402
    VERSION,
    instance_parser,
    pytest_run,  # noqa: E402
    queries,
    questions,
    trace,
)
from tracegate_tracer.locate import Target, TargetNotFound, build_slice  # noqa: E402
from tracegate_tracer.testfiles import TestFileRefused, read_tests  # noqa: E402
from tracegate_tracer.values import value_cap  # noqa: E402

DEFAULT_TIMEOUT = 60


def _base_result(spec):
    result = {"id": spec.get("id"), "status": "error", "python": sys.version, "tracer_version": VERSION,
              "question": None, "template_answer": None,
              "stats": {"events": 0, "invocations": 0, "pytest_exit_code": None, "seconds": 0.0}}
    if not spec.get("parser"):
        # Rendered from the query alone: present whatever the run's status.
        try:
            result["question"], result["template_answer"] = questions.render(
                spec.get("kind"), spec.get("query") or {}, spec["target"], spec.get("tests"))
        except Exception:  # noqa: BLE001 - a malformed spec fails below, with its own reason
            pass
    return result


def _group_key(spec):
    """Instances that can share one recorded run: same dir, tests, target, limits."""
    target = spec.get("target") or {}
    return json.dumps([os.path.abspath(spec["dir"]), spec.get("cwd"), spec["tests"], target.get("file"),
                       target.get("function"),
                       spec.get("backend"), spec.get("timeout_seconds"), spec.get("max_events"),
                       (spec.get("query") or {}).get("max_value_chars")])


def harvest_group(specs, out_dir):
    """Runs one recording for instances that share tests and target; {id: result}.

    The recorder captures the union of what their queries need; each query
    reads only its own part of the trace, so sharing never changes an answer.
    """
    first = specs[0]
    results = {spec["id"]: _base_result(spec) for spec in specs}
    work = os.path.join(out_dir, first["id"])
    os.makedirs(work, exist_ok=True)
    instance_dir = os.path.abspath(first["dir"])
    run_dir = first.get("cwd") or instance_dir
    if not isinstance(run_dir, str) or not os.path.isabs(run_dir) or not os.path.isdir(run_dir):
        reason = f"cwd must be an absolute directory, got {run_dir!r}"
        return {i: dict(r, status="invalid", reason=reason) for i, r in results.items()}
    try:
        target = Target(first["target"]["file"], first["target"]["function"], [run_dir, instance_dir])
        tests = read_tests(first["tests"], run_dir)
    except TargetNotFound as exc:
        return {i: dict(r, status="invalid", reason=str(exc)) for i, r in results.items()}
    except SyntaxError as exc:
        return {i: dict(r, status="invalid", reason=f"target file does not parse: {exc}") for i, r in results.items()}
    except TestFileRefused as exc:
        return {i: dict(r, status="invalid", reason=f"{exc} (test files must be regular files of at most 256 KiB "
                        "inside the directory pytest runs in)") for i, r in results.items()}
    context = dict(target.context, tests=tests)
    try:
        cap = value_cap(first.get("query") or {})
    except ValueError as exc:
        return {i: dict(r, status="invalid", reason=str(exc)) for i, r in results.items()}
    trace_path = os.path.join(work, "trace.json")
    if os.path.exists(trace_path):
        os.remove(trace_path)
    needs = {"record_calls": False, "variables": set(), "dataflow": set()}
    for spec in specs:
        part = queries.recording_needs(spec["kind"], spec.get("query") or {})
        needs["record_calls"] |= bool(part["record_calls"])
        needs["variables"] |= set(part["variables"] or ())
        needs["dataflow"] |= set(part["dataflow"] or ())
    config = dict(target=first["target"], trace_path=trace_path, instance_dir=run_dir,
                  record_calls=needs["record_calls"], variables=sorted(needs["variables"]) or None,
                  dataflow=sorted(needs["dataflow"]) or None, max_events=first.get("max_events"), max_value_chars=cap,
                  backend=first.get("backend") or os.environ.get("TRACEGATE_BACKEND") or "auto")
    config_path = os.path.join(work, "trace-config.json")
    with open(config_path, "w", encoding="utf-8") as handle:
        json.dump(config, handle, indent=2)
    timeout = first.get("timeout_seconds") or DEFAULT_TIMEOUT
    run = pytest_run.run(first["tests"], run_dir, TRACER_ROOT, config_path, timeout)
    for result in results.values():
        result["context"] = context
        result["stats"].update(pytest_exit_code=run.exit_code, seconds=run.seconds)
    if run.timed_out:
        return {i: dict(r, status="timeout", reason=f"timeout after {timeout}s") for i, r in results.items()}
    problem = run.problem()
    if problem:
        return {i: dict(r, status="invalid", reason=problem) for i, r in results.items()}
    if not os.path.exists(trace_path):
        last = (run.stderr.strip().splitlines() or ["no output"])[-1]
        reason = f"no trace written (pytest exit {run.exit_code}): {last}"
        return {i: dict(r, status="error", reason=reason) for i, r in results.items()}
    failure = run.failure()
    if failure:
        for spec in specs:
            if not spec.get("expect_failure"):
                results[spec["id"]] = dict(results[spec["id"]], status="invalid", reason=failure)
    recorded = trace.load(trace_path)
    try:
        context_with_slice = dict(context, slice=build_slice(target, recorded.get("executed")))
    except Exception as exc:  # noqa: BLE001 - the prompt's slice never costs an oracle
        context_with_slice = context
        names = ",".join(sorted(results))
        sys.stderr.write(f"tracegate: {names}: no prompt slice ({type(exc).__name__}: {exc})\n")
    for result in results.values():
        result["context"] = context_with_slice
    context = queries.Context(target.file, target.func, target.linemap)
    for spec in specs:
        result = results[spec["id"]]
        result["stats"].update(events=len(recorded["events"]), invocations=len(recorded["invocations"]),
                               backend=recorded["backend"], trace=os.path.relpath(trace_path, out_dir))
        if failure and not spec.get("expect_failure"):
            continue
        if recorded["status"] != "ok":
            results[spec["id"]] = dict(result, status="invalid", reason=recorded["reason"])
            continue
        if spec.get("parser"):
            if not recorded["invocations"]:
                results[spec["id"]] = dict(result, status="invalid", reason="target not executed")
                continue
            decided = instance_parser.run(spec["parser"], instance_dir, trace_path, spec.get("query") or {})
            if decided["status"] == "ok":
                try:
                    queries.ensure_uncut(recorded, queries.leaves(decided["answer"]))
                except queries.Invalid as exc:
                    decided = {"status": "invalid", "reason": str(exc)}
            results[spec["id"]] = dict(result, **decided)
            continue
        try:
            answer = queries.answer(spec["kind"], spec.get("query") or {}, recorded, context)
        except queries.Invalid as exc:
            results[spec["id"]] = dict(result, status="invalid", reason=str(exc))
            continue
        except Exception:  # noqa: BLE001 - a crashing rule sinks only its instance
            results[spec["id"]] = dict(result, status="error", reason=_crash_reason())
            continue
        results[spec["id"]] = dict(result, status="ok", answer=answer)
    return results


def _crash_reason():
    lines = traceback.format_exc().strip().splitlines()
    return "tracer crash: " + (lines[-1] if lines else "unknown")


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: harvest.py PLAN_JSON\n")
        return 2
    try:
        with open(argv[1], encoding="utf-8") as handle:
            plan = json.load(handle)
        out_dir = os.path.abspath(plan["out_dir"])
        specs = list(plan["instances"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        sys.stderr.write(f"tracegate: unreadable plan {argv[1]}: {exc}\n")
        return 2
    groups = {}
    for spec in specs:
        try:
            key = _group_key(spec)
        except Exception:  # noqa: BLE001 - a malformed spec runs alone and fails alone
            key = id(spec)
        groups.setdefault(key, []).append(spec)
    for group in groups.values():
        started = time.monotonic()
        idents = [str(spec.get("id") if isinstance(spec, dict) else spec) for spec in group]
        try:
            results = harvest_group(group, out_dir)
        except Exception:  # noqa: BLE001 - one group never sinks the others
            reason = _crash_reason()
            results = {ident: dict(_base_result(spec if isinstance(spec, dict) else {}), id=ident, reason=reason)
                       for ident, spec in zip(idents, group, strict=False)}
        seconds = round(time.monotonic() - started, 3)
        for ident in idents:
            result = results[ident]
            result["stats"]["seconds"] = seconds
            _write_result(out_dir, ident, result)
            note = "" if result["status"] == "ok" else ": " + str(result.get("reason"))
            sys.stderr.write("tracegate: {} {} ({:.1f}s){}\n".format(ident, result["status"], seconds, note))
    return 0


def _write_result(out_dir, ident, result):
    work = os.path.join(out_dir, ident)
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "result.json"), "w", encoding="utf-8") as handle:
        json.dump(result, handle, indent=2, sort_keys=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
