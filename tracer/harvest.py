"""tracegate's in-container driver: `python harvest.py PLAN_JSON`.

Reads the plan, runs each recording group in its own sandbox, and writes one
result line per spec to stdout (`{"tracegate_result": 1, ...}`), whatever
happens to any group. Logs go to stderr. Exit 0 unless the plan itself is
unreadable (2). See tracer/README.md, "The driver".
"""

from __future__ import annotations

import os
import signal
import sys
import time
from types import FrameType

TRACER_ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, TRACER_ROOT)


def _compile_tracer() -> None:
    """Byte-code of the tracer's modules, written beside them once per driver. Every test process imports
    them with PYTHONDONTWRITEBYTECODE set, so without it each one compiled them again (~15 ms a process).
    Where the tracer is read-only (a mounted checkout) nothing is written and nothing changes."""
    import compileall

    for folder in ("tracegate_tracer", "boot"):
        compileall.compile_dir(os.path.join(TRACER_ROOT, folder), quiet=2)


_compile_tracer()

from tracegate_tracer import plan as plans  # noqa: E402
from tracegate_tracer.comet.verify import run_verify  # noqa: E402
from tracegate_tracer.group import base_result, crash_reason, harvest_group  # noqa: E402
from tracegate_tracer.runner import forkserver  # noqa: E402
from tracegate_tracer.runner.output import ResultStream, log  # noqa: E402
from tracegate_tracer.runner.sandbox import Sandbox  # noqa: E402
from tracegate_tracer.variants import search  # noqa: E402
from tracegate_tracer.variants.sites import CALL_SITES  # noqa: E402


def _ignore(signum: int, frame: FrameType | None) -> None:
    # A Python handler, not SIG_IGN: exec() resets it, so the tests get the default back.
    log(f"tracegate: ignored {signal.Signals(signum).name} (the driver stops only when its plan is done)")


def _run_group(plan: plans.Plan, index: int, specs: list, isolated: bool) -> tuple[list[dict], str | None]:
    """The group's results, and why its cleanup failed (None when it did not)."""
    uid = plan.uid_base + index if isolated and plan.uid_base is not None else None
    sandbox = Sandbox(plan.work_dir, index, uid)
    failed = None
    try:
        problems = [plans.spec_problem(spec) for spec in specs]
        if any(problems):
            # A spec the protocol does not define runs alone (plans.groups) and fails alone.
            return [base_result(spec, reason=f"malformed spec: {problem or 'another spec of its group is'}")
                    for spec, problem in zip(specs, problems, strict=True)], None
        sandbox.prepare()
        # A variant search runs every candidate of its pool at once (search.py); any other group, its tests.
        if specs[0].get("verify") is not None:
            # A reply of B1/B2 to verify: run against both versions (comet/verify.py); always a group of one.
            results = [run_verify(specs[0], base_result(specs[0]), sandbox, TRACER_ROOT)]
        else:
            run_group = search.harvest if specs[0].get("variant_search") else harvest_group
            results = run_group(specs, sandbox, TRACER_ROOT)
        if len(results) != len(specs):
            raise RuntimeError(f"group {index} gave {len(results)} results for {len(specs)} specs")
    except Exception:  # noqa: BLE001 - one group never sinks the others
        results = [base_result(spec, reason=crash_reason()) for spec in specs]
    finally:
        try:
            sandbox.cleanup(keep=("trace-*.json",) if plan.keep_traces else ())
        except Exception as exc:  # noqa: BLE001
            failed = f"group {index}'s cleanup failed ({type(exc).__name__}: {str(exc)[:300]})"
            log(f"tracegate: {failed}")
    for result in results:
        result["stats"]["uid"] = uid
    return results, failed


def _not_run(specs: list, why: str) -> list[dict]:
    """Results of a group left unrun: what an earlier group left may still be in this container."""
    reason = f"not run: {why}; this container's later groups are harvested again in a fresh one"
    results = [base_result(spec, reason=reason) for spec in specs]
    for result in results:
        result["stats"]["not_run"] = why
    return results


def main(argv: list[str]) -> int:
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _ignore)
    stream = ResultStream()
    if len(argv) != 2:
        log("usage: harvest.py PLAN_JSON")
        return 2
    try:
        plan = plans.load(argv[1])
    except plans.PlanError as exc:
        log(f"tracegate: {exc}")
        return 2
    isolated = plan.uid_base is not None and os.geteuid() == 0
    if plan.uid_base is not None and not isolated:
        log("tracegate: isolation asked for but the driver is not root: running without")
    os.makedirs(plan.work_dir, mode=0o711, exist_ok=True)
    CALL_SITES.want(plan.instances)  # an original's run records where the targets its search needs are called
    tainted = None  # why this container is no longer clean (a group's cleanup failed)
    try:
        for index, members in enumerate(plans.groups(plan.instances, plan.share_runs)):
            specs = [plan.instances[i] for i in members]
            started = time.monotonic()
            if tainted is None:
                results, tainted = _run_group(plan, index, specs, isolated)
            else:
                results = _not_run(specs, tainted)
            seconds = round(time.monotonic() - started, 3)
            for result in results:
                result["stats"]["seconds"] = seconds
                stream.write(result)
                note = "" if result["status"] == "ok" else ": " + str(result.get("reason"))
                log(f"tracegate: {result.get('id')!r} {result['status']} ({seconds:.1f}s){note}")
    finally:
        forkserver.SERVERS.close_all()  # the fork servers (warm starts) end with the driver
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
