"""Comet's program-state kinds: a reply run against the buggy and the correct version, in the sandbox.

B1_BuggyIO and B2_RegressionTest ask about a function with a seeded mutant (a
hidden correct version exists). Their answers are not read off a trace: the
reply itself is run, once against each version, and the host scores what
happened (src/families/comet/score.ts). The same run gives the harvest its
oracle (reference.py): the instance's reference input (`query.input`, the input that killed
the mutant when the instance was made) must expose the mutant here too.

* B1: the reply's input (data: JSON or Python literals, never code) is given
  to the function in a fresh process per version (tracer/boot/tracegate_comet_call.py):
  `ok` with the return value's repr and the standard output, `crash` with the
  exception class, or `timeout` past CALL_SECONDS.
* B2: the reply's pytest file runs in a fresh pytest process per version, and
  again against a respelling of each (respell(): renamed locals, the module
  reformatted) whose file shows the *other* version's text while the
  interpreter runs its own (an unchecked hash-based .pyc): a test that reads
  source text or file bytes instead of behaviour gets different verdicts there.

Where the versions live (Versions): the package's own directory must be a
mount of its own (the Docker backend puts an anonymous volume there: a copy
of the image's package, writable by the driver only). The driver keeps both
versions in a directory only root can read, and installs one at a time at
the package's place before each run, with only its own byte-code (compiled
once per version, checked against the source's hash at each import, so no
other version's .pyc can be run); the reply's code
runs as the group's uid with no capabilities, so during a buggy run nothing
it can read holds the correct version. Without that mount (the local
backend) verification is refused, never run with the correct version lying
about. Every run is bounded (RLIMITS: address space, processes, file size; a
wall-clock limit), its processes killed and its files scrubbed before the
next, so state cannot pass from one version's run to the other's.
"""

from __future__ import annotations

import json
import os
from typing import Any

from ..recording.linemap import module_name
from ..runner.sandbox import Sandbox
from .runs import MAX_INPUT_CHARS, MAX_TEST_CHARS, call_once, run_test_file
from .versions import B2_RUNS, Refused, Versions

COMET_KINDS = ("B1_BuggyIO", "B2_RegressionTest")


def is_comet(kind: object) -> bool:
    return kind in COMET_KINDS


# -- a spec ---------------------------------------------------------------------


def target_names(target: Any) -> tuple[str, str]:
    """(module, qualname) of a spec's `{file, function}`; Refused when it is not one."""
    if not isinstance(target, dict) or not isinstance(target.get("file"), str) \
            or not isinstance(target.get("function"), str):
        raise Refused("target must be {file, function}")
    return module_name(target["file"]), target["function"]


def b2_runs_of(runs: Any) -> list[str] | None:
    """A verify spec's `runs` (B2: which of B2_RUNS to run here, each in a container of its own: the Docker
    backend sends one per spec), or None for all of them in one sandbox, the respelled ones only when the
    plain ones tell the versions apart (a host test's, and the reference's)."""
    if runs is None:
        return None
    if not isinstance(runs, list) or not runs or len(set(runs)) != len(runs) or \
            not all(isinstance(r, str) and r in B2_RUNS for r in runs):
        raise Refused(f"runs must be a list of distinct names among {', '.join(B2_RUNS)}")
    return list(runs)


def verify(kind: str, target: Any, mutant: Any, reply: Any, sandbox: Sandbox, tracer_root: str,
           unmasked_ok: bool = False, versions: Versions | None = None, order_runs: Any = None) -> dict[str, Any]:
    """What the reply does against each version: the `verification` of the result line. With `versions`
    (a harvest's, shared by one bug's specs) they are used and left open; else made here and closed.
    `order_runs`: B2's runs to run (b2_runs_of)."""
    if not isinstance(mutant, dict):
        raise Refused("B1/B2 need the instance's mutant")
    module, qualname = target_names(target)
    if not isinstance(reply, dict):
        raise Refused("the reply to verify must be an object")
    own = versions is None
    if versions is None:
        versions = Versions(mutant, os.path.join(sandbox.work_dir, f"comet-{sandbox.index}"), unmasked_ok)
    try:
        if kind == "B1_BuggyIO":
            given = reply.get("input")
            if len(json.dumps(given)) > MAX_INPUT_CHARS:
                return {"kind": kind, "refused": f"the input is over {MAX_INPUT_CHARS} characters"}
            runs = {}
            for name in ("buggy", "correct"):
                versions.install(name)
                runs[name] = call_once({"module": module, "qualname": qualname, "input": given},
                                       versions.root, sandbox, tracer_root, {versions.top})
                if runs[name].get("refused"):
                    return {"kind": kind, "refused": runs[name]["refused"]}
            return {"kind": kind, "runs": runs}
        test = reply.get("test")
        if not isinstance(test, str) or not test.strip():
            return {"kind": kind, "refused": "the reply has no test file"}
        if len(test) > MAX_TEST_CHARS:
            return {"kind": kind, "refused": f"the test file is over {MAX_TEST_CHARS} characters"}
        wanted = b2_runs_of(order_runs)
        target = {"file": os.path.join(versions.place, versions.inner), "qualname": qualname}
        versions.b2_runs(qualname, wanted or ())
        runs = {}
        for name in wanted or B2_RUNS[:2]:
            versions.install(f"b2_{name}")
            runs[name] = run_test_file(test, versions.root, sandbox, tracer_root, {versions.top}, target)
        if wanted is None and runs["buggy"]["verdict"] == "fail" and runs["correct"]["verdict"] == "pass":
            # Only a test that tells the versions apart is run against their respellings.
            for name in B2_RUNS[2:]:
                versions.install(f"b2_{name}")
                runs[name] = run_test_file(test, versions.root, sandbox, tracer_root, {versions.top}, target)
        return {"kind": kind, "runs": runs}
    finally:
        if own:
            versions.close()


def exposes(verification: dict[str, Any]) -> bool:
    """B1: the two versions behave differently on the input (outcome, return value, output or exception)."""
    runs = verification.get("runs") or {}
    keys = ("outcome", "return", "stdout", "exception")
    buggy, correct = runs.get("buggy") or {}, runs.get("correct") or {}
    return bool(buggy and correct) and any(buggy.get(k) != correct.get(k) for k in keys)


def fail_to_pass(verification: dict[str, Any]) -> bool:
    runs = verification.get("runs") or {}
    verdict = {name: (run or {}).get("verdict") for name, run in runs.items()}
    return verdict.get("buggy") == "fail" and verdict.get("correct") == "pass" \
        and verdict.get("buggy_respelled") == "fail" and verdict.get("correct_respelled") == "pass" \
        and all((run or {}).get("called") is True for run in runs.values())

def run_verify(spec: dict[str, Any], result: dict[str, Any], sandbox: Sandbox, tracer_root: str) -> dict[str, Any]:
    """A verify spec ({id, verify: {kind, target, mutant, reply}}): the reply run against both versions."""
    order = spec.get("verify")
    if not isinstance(order, dict) or not is_comet(order.get("kind")):
        return dict(result, status="invalid", reason="verify needs {kind: B1_BuggyIO | B2_RegressionTest, target, "
                                                     "mutant, reply}")
    try:
        verification = verify(order["kind"], order.get("target"), order.get("mutant"), order.get("reply"), sandbox,
                              tracer_root, bool(spec.get("unmasked_for_tests")), order_runs=order.get("runs"))
    except Refused as exc:
        return dict(result, status="invalid", reason=str(exc))
    return dict(result, status="ok", verification=verification)
