"""Comet's program-state kinds: a reply run against the buggy and the correct version, in the sandbox.

B1_BuggyIO and B2_RegressionTest ask about a function with a seeded mutant (a
hidden correct version exists). Their answers are not read off a trace: the
reply itself is run, once against each version, and the host scores what
happened (src/families/comet/score.ts). The same run gives the harvest its
oracle: the instance's reference input (`query.input`, the input that killed
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
import re
import sys
from collections.abc import Collection
from typing import Any

from .. import queries
from ..recording.linemap import module_name
from ..runner import pytest_run
from ..runner.sandbox import Sandbox
from .runs import (  # noqa: F401 - one run's bounds and judgement, named here as callers know them
    CALL_PROCESS_SECONDS,
    CALL_SECONDS,
    CAP,
    MAX_INPUT_CHARS,
    MAX_TEST_CHARS,
    MEMORY_BYTES,
    REFERENCE_SECONDS,
    RLIMITS,
    TEST_SECONDS,
    _between,
    _Bounded,
    _clean_env,
    _fresh,
    call_once,
    judge_test_run,
    run_test_file,
)
from .versions import _PRISTINE, Refused, Versions, apply_mutant, respell  # noqa: F401 - as callers know them

COMET_KINDS = ("B1_BuggyIO", "B2_RegressionTest")


def is_comet(kind: object) -> bool:
    return kind in COMET_KINDS


# -- a spec ---------------------------------------------------------------------


def _target(target: Any) -> tuple[str, str]:
    if not isinstance(target, dict) or not isinstance(target.get("file"), str) \
            or not isinstance(target.get("function"), str):
        raise Refused("target must be {file, function}")
    return module_name(target["file"]), target["function"]


def verify(kind: str, target: Any, mutant: Any, reply: Any, sandbox: Sandbox, tracer_root: str,
           unmasked_ok: bool = False, versions: Versions | None = None) -> dict[str, Any]:
    """What the reply does against each version: the `verification` of the result line. With `versions`
    (a harvest's, shared by one bug's specs) they are used and left open; else made here and closed."""
    if not isinstance(mutant, dict):
        raise Refused("B1/B2 need the instance's mutant")
    module, qualname = _target(target)
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
        runs = {}
        for name in ("buggy", "correct"):
            versions.install(name)
            runs[name] = run_test_file(test, versions.root, sandbox, tracer_root, {versions.top})
        if runs["buggy"]["verdict"] == "fail" and runs["correct"]["verdict"] == "pass":
            # Only a test that tells the versions apart is run against their respellings.
            versions.respelled(qualname)
            for name in ("buggy_respelled", "correct_respelled"):
                versions.install(name)
                runs[name] = run_test_file(test, versions.root, sandbox, tracer_root, {versions.top})
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
        and verdict.get("buggy_respelled") == "fail" and verdict.get("correct_respelled") == "pass"


IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def reference_test(module: str, qualname: str, reply_input: Any, correct: dict[str, Any]) -> str:
    """A fail-to-pass test from a killing input and the correct version's behaviour on it (B2's reference): the
    call (stopped after REFERENCE_SECONDS, so a buggy version that hangs fails it; the alarm is cancelled as the
    call ends, so it never fires in pytest's own work after the test) must behave as the correct version did."""
    head = qualname.split(".")[0]
    rest = qualname[len(head):]
    if isinstance(reply_input, str):
        call = [f"    return {head}{rest}({reply_input})"]
    else:
        call = [f"    given = json.loads({json.dumps(reply_input)!r})",
                "    if isinstance(given, list):",
                "        given = {'args': given, 'kwargs': {}}",
                f"    return {head}{rest}(*given.get('args', []), **given.get('kwargs', {{}}))"]
    lines = ["import contextlib", "import io", "import json", "import re", "import signal", "",
             f"from {module} import {head}", "", "",
             "def _stop(signum, frame):", f"    raise TimeoutError('over {REFERENCE_SECONDS:g}s')", "", "",
             "def _target():", *call, "", "",
             "def _call():", "    signal.signal(signal.SIGALRM, _stop)", f"    signal.alarm({REFERENCE_SECONDS})",
             "    try:", "        return _target()", "    finally:", "        signal.alarm(0)", "", "",
             "def _shown(text):", "    return re.sub(r' at 0x[0-9a-fA-F]+', ' at 0x…', text)", "", "",
             "def test_regression():", "    out = io.StringIO()"]
    if correct.get("outcome") == "crash":
        name = str(correct.get("exception"))
        lines += ["    try:", "        with contextlib.redirect_stdout(out):", "            _call()",
                  "    except TimeoutError:", "        raise",
                  "    except BaseException as exc:", "        kind = type(exc)",
                  "        found = kind.__name__ if kind.__module__ == 'builtins' else "
                  "f'{kind.__module__}.{kind.__qualname__}'",
                  f"        assert found == {name!r}", "    else:",
                  f"        raise AssertionError({'expected ' + name!r})"]
    else:
        lines += ["    with contextlib.redirect_stdout(out):", "        value = _call()",
                  f"    assert _shown(repr(value)) == {correct.get('return')!r}",
                  f"    assert _shown(out.getvalue()) == {correct.get('stdout')!r}"]
    return "\n".join(lines) + "\n"


def call_batch(config: dict[str, Any], root: str, sandbox: Sandbox, tracer_root: str,
               fresh: Collection[str] = ()) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """Several calls in one fresh process (the prompt's examples: they describe, they are not verified), after
    `config["first"]` if given (the reference input: called in a child forked after the import, the state a
    fresh process's call meets, so the harvest's reference costs no process of its own). (first's result,
    or None when it was not called or the import started threads — then it needs call_once; the calls')."""
    out = sandbox.path("calls-result.json")
    count = len(config["inputs"])
    first = "first" in config
    config = dict(config, out=out, cap=CAP, call_seconds=CALL_SECONDS, first_seconds=CALL_PROCESS_SECONDS)
    path = sandbox.write_private("calls.json", json.dumps(config))
    runner = os.path.join(tracer_root, "boot", "tracegate_comet_call.py")
    run = pytest_run.run_command([sys.executable, "-P", "-s", runner, path], sandbox.tmp, _clean_env(root),
                                 CALL_PROCESS_SECONDS * (1 + first) + CALL_SECONDS * count, _Bounded(sandbox),
                                 fresh=_fresh(config, fresh))
    try:
        with open(out, encoding="utf-8") as handle:
            written = json.load(handle)
    except (OSError, ValueError):
        written = None
    _between(sandbox)
    if first and isinstance(written, dict):
        called, written = written.get("first"), written.get("calls")
        if not isinstance(called, dict | None):
            written = None
    else:
        called = None
    if run.timed_out or run.exit_code != 0 or not isinstance(written, list) or len(written) != count:
        raise Refused(f"the example calls did not run (exit {run.exit_code}{', timed out' if run.timed_out else ''})")
    return called, written


def _reference_calls(given: Any, inputs: list[Any], module: str, qualname: str, versions: Versions,
                     sandbox: Sandbox, tracer_root: str) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]:
    """The reference input's B1 verification (as verify() makes it; `seconds` the call's, without the import)
    and what each version does on the prompt's examples (None: they did not run): one process per version,
    the reference called first in a forked child (call_batch), in a process of its own only when it could
    not be."""
    if len(json.dumps(given)) > MAX_INPUT_CHARS:
        raise Refused(f"the reference input cannot run: the input is over {MAX_INPUT_CHARS} characters")
    runs: dict[str, Any] = {}
    seen: dict[str, Any] = {}
    for name in ("buggy", "correct"):
        versions.install(name)
        config = {"module": module, "qualname": qualname, "inputs": inputs, "first": given}
        try:
            called, seen[name] = call_batch(config, versions.root, sandbox, tracer_root, {versions.top})
        except Refused:
            called, seen[name] = None, None
        if called is None:
            runs[name] = call_once({"module": module, "qualname": qualname, "input": given}, versions.root,
                                   sandbox, tracer_root, {versions.top})
        else:
            runs[name] = {"seconds": called.get("seconds"), **{k: v for k, v in called.items() if k != "seconds"}}
        if runs[name].get("refused"):
            raise Refused(f"the reference input cannot run: {runs[name]['refused']}")
    return {"kind": "B1_BuggyIO", "runs": runs}, seen


def _examples(inputs: list[Any], seen: dict[str, Any]) -> list[dict[str, Any]]:
    """The prompt's example calls with what the buggy version does; each must not expose the mutant."""
    if not inputs:
        return []
    if not isinstance(seen.get("buggy"), list) or not isinstance(seen.get("correct"), list):
        raise Refused("the example calls did not run")
    examples = []
    for given, buggy, correct in zip(inputs, seen["buggy"], seen["correct"], strict=True):
        if buggy.get("refused") or correct.get("refused"):
            why = buggy.get("refused") or correct.get("refused")
            raise Refused(f"example {json.dumps(given)[:80]} cannot run: {why}")
        if exposes({"runs": {"buggy": buggy, "correct": correct}}):
            raise Refused(f"example {json.dumps(given)[:80]} exposes the mutant: not an example")
        examples.append({"input": given, **{k: buggy[k] for k in ("outcome", "return", "stdout", "exception")
                                            if k in buggy}})
    return examples


def harvest(specs: list[dict[str, Any]], results: list[dict[str, Any]], sandbox: Sandbox,
            tracer_root: str) -> list[dict[str, Any]]:
    """B1/B2 instances of one bug (the same target, mutant and query: group.py runs them together): the
    reference input verified once (it must still expose the mutant), the prompt's context once (the buggy
    function, example calls on which both versions agree), then each spec's gold: B1 the buggy version's
    behaviour on the reference input, B2 a fail-to-pass test built from it (verified too)."""
    first = specs[0]
    try:
        if not isinstance(first.get("mutant"), dict):
            raise Refused("B1/B2 need the instance's mutant")
        # One copy of both versions for the group: every spec of the bug uses it.
        versions = Versions(first["mutant"], os.path.join(sandbox.work_dir, f"comet-{sandbox.index}"),
                            bool(first.get("unmasked_for_tests")))
    except Refused as exc:
        return [dict(result, status="invalid", reason=str(exc)) for result in results]
    try:
        try:
            shared = _reference(first, versions, sandbox, tracer_root)
        except Refused as exc:
            return [dict(result, status="invalid", reason=str(exc)) for result in results]
        out = []
        for spec, result in zip(specs, results, strict=True):
            try:
                out.append(_gold(spec, result, shared, versions, sandbox, tracer_root))
            except Refused as exc:
                out.append(dict(result, status="invalid", reason=str(exc)))
        return out
    finally:
        versions.close()


def _reference(spec: dict[str, Any], versions: Versions, sandbox: Sandbox, tracer_root: str) -> dict[str, Any]:
    """What every spec of one bug shares: the reference input's verification and the prompt's context."""
    from ..prompt.locate import Target, TargetNotFound

    query, mutant = spec.get("query") or {}, spec.get("mutant")
    module, qualname = _target(spec.get("target"))
    unmasked = bool(spec.get("unmasked_for_tests"))
    if "input" not in query:
        raise Refused("B1/B2 instances need `query.input`: the input that exposes the mutant")
    if not isinstance(mutant, dict):
        raise Refused("B1/B2 need the instance's mutant")
    inputs = list(query.get("examples") or [])
    b1, seen = _reference_calls(query["input"], inputs, module, qualname, versions, sandbox, tracer_root)
    if not exposes(b1):
        raise Refused("the reference input does not expose the mutant here (both versions behave the same)")
    if b1["runs"]["correct"].get("outcome") == "timeout":
        raise Refused("the correct version times out on the reference input")
    examples = _examples(inputs, seen)
    versions.install("buggy")
    try:
        located = Target(spec["target"]["file"], qualname, [versions.root])
    except (TargetNotFound, SyntaxError, OSError) as exc:
        raise Refused(str(exc) or type(exc).__name__) from None
    return {"b1": b1, "context": dict(located.context, calls=examples), "module": module, "qualname": qualname,
            "unmasked": unmasked}


def _gold(spec: dict[str, Any], result: dict[str, Any], shared: dict[str, Any], versions: Versions,
          sandbox: Sandbox, tracer_root: str) -> dict[str, Any]:
    kind, query = spec.get("kind"), spec.get("query") or {}
    b1 = shared["b1"]
    buggy, correct = b1["runs"]["buggy"], b1["runs"]["correct"]
    measured: dict[str, Any] = {"input": query["input"], "buggy": buggy, "test": None}
    verification = b1
    if kind == "B2_RegressionTest":
        measured["test"] = reference_test(shared["module"], shared["qualname"], query["input"], correct)
        verification = verify(kind, spec["target"], spec.get("mutant"), {"test": measured["test"]}, sandbox,
                              tracer_root, shared["unmasked"], versions)
        if not fail_to_pass(verification):
            runs = {k: v.get("verdict") for k, v in (verification.get("runs") or {}).items()}
            raise Refused(f"the reference test is not fail-to-pass here ({runs})")
    answer = queries.rule_for(kind, query).answer(measured, query, None)
    return dict(result, status="ok", answer=answer, context=shared["context"], verification=verification)


def run_verify(spec: dict[str, Any], result: dict[str, Any], sandbox: Sandbox, tracer_root: str) -> dict[str, Any]:
    """A verify spec ({id, verify: {kind, target, mutant, reply}}): the reply run against both versions."""
    order = spec.get("verify")
    if not isinstance(order, dict) or not is_comet(order.get("kind")):
        return dict(result, status="invalid", reason="verify needs {kind: B1_BuggyIO | B2_RegressionTest, target, "
                                                     "mutant, reply}")
    try:
        verification = verify(order["kind"], order.get("target"), order.get("mutant"), order.get("reply"), sandbox,
                              tracer_root, bool(spec.get("unmasked_for_tests")))
    except Refused as exc:
        return dict(result, status="invalid", reason=str(exc))
    return dict(result, status="ok", verification=verification)
