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

from tracegate_tracer import VERSION, queries, trace  # noqa: E402
from tracegate_tracer.locate import Target, TargetNotFound  # noqa: E402
from tracegate_tracer import pytest_run  # noqa: E402

DEFAULT_TIMEOUT = 60


def harvest_one(spec, out_dir):
    """Runs one instance; returns its result document."""
    result = {"id": spec.get("id"), "status": "error", "python": sys.version, "tracer_version": VERSION,
              "stats": {"events": 0, "invocations": 0, "pytest_exit_code": None, "seconds": 0.0}}
    work = os.path.join(out_dir, spec["id"])
    os.makedirs(work, exist_ok=True)
    instance_dir = os.path.abspath(spec["dir"])
    kind, query = spec["kind"], spec.get("query") or {}
    try:
        target = Target(spec["target"]["file"], spec["target"]["function"], instance_dir)
    except TargetNotFound as exc:
        return dict(result, status="invalid", reason=str(exc))
    except SyntaxError as exc:
        return dict(result, status="invalid", reason="target file does not parse: %s" % exc)
    result["context"] = target.context
    trace_path = os.path.join(work, "trace.json")
    if os.path.exists(trace_path):
        os.remove(trace_path)
    config = dict(queries.recording_needs(kind, query), target=spec["target"], trace_path=trace_path,
                  instance_dir=instance_dir, max_events=spec.get("max_events"))
    config_path = os.path.join(work, "trace-config.json")
    with open(config_path, "w", encoding="utf-8") as handle:
        json.dump(config, handle, indent=2)
    timeout = spec.get("timeout_seconds") or DEFAULT_TIMEOUT
    run = pytest_run.run(spec["tests"], instance_dir, TRACER_ROOT, config_path, timeout)
    result["stats"].update(pytest_exit_code=run.exit_code, seconds=run.seconds)
    if run.timed_out:
        return dict(result, status="timeout", reason="timeout after %ss" % timeout)
    problem = run.problem()
    if problem:
        return dict(result, status="invalid", reason=problem)
    if not os.path.exists(trace_path):
        last = (run.stderr.strip().splitlines() or ["no output"])[-1]
        return dict(result, status="error", reason="no trace written (pytest exit %s): %s" % (run.exit_code, last))
    recorded = trace.load(trace_path)
    result["stats"].update(events=len(recorded["events"]), invocations=len(recorded["invocations"]))
    if recorded["status"] != "ok":
        return dict(result, status="invalid", reason=recorded["reason"])
    context = queries.Context(target.file, target.func, target.linemap)
    try:
        answer = queries.answer(kind, query, recorded, context)
    except queries.Invalid as exc:
        return dict(result, status="invalid", reason=str(exc))
    return dict(result, status="ok", answer=answer)


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
        sys.stderr.write("tracegate: unreadable plan %s: %s\n" % (argv[1], exc))
        return 2
    for spec in specs:
        started = time.monotonic()
        ident = str(spec.get("id") if isinstance(spec, dict) else spec)
        try:
            result = harvest_one(spec, out_dir)
        except Exception:  # noqa: BLE001 - one instance never sinks the others
            result = {"id": ident, "status": "error", "reason": _crash_reason(), "python": sys.version,
                      "tracer_version": VERSION,
                      "stats": {"events": 0, "invocations": 0, "pytest_exit_code": None, "seconds": 0.0}}
        result["stats"]["seconds"] = round(time.monotonic() - started, 3)
        _write_result(out_dir, ident, result)
        note = "" if result["status"] == "ok" else ": " + str(result.get("reason"))
        sys.stderr.write("tracegate: %s %s (%.1fs)%s\n" % (ident, result["status"], result["stats"]["seconds"], note))
    return 0


def _write_result(out_dir, ident, result):
    work = os.path.join(out_dir, ident)
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "result.json"), "w", encoding="utf-8") as handle:
        json.dump(result, handle, indent=2, sort_keys=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
