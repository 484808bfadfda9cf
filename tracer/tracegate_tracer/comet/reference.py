"""The reference harvest of one B1/B2 bug: its gold, and the prompt's context (group.py sends its specs here).

The instance's reference input (`query.input`, the input that killed the mutant when the instance was made)
is verified once, as a reply's would be (verify.py): it must still expose the mutant, and the correct version
must not time out on it. The prompt's context is the buggy function, the functions it may reach (the slice every
kind's prompt shows: the bug may sit in one of them, and a mutated line the prompt does not show is refused) and
example calls (`query.examples`) on which both versions agree, with what they do. Each spec's gold is then B1 the
buggy version's behaviour on the reference input, B2 a fail-to-pass test built from it (reference_test; verified
too, respellings included).
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

from .. import queries
from ..queries import complexity
from ..runner.sandbox import Sandbox
from .runs import MAX_INPUT_CHARS, REFERENCE_SECONDS, call_batch, call_once
from .verify import exposes, fail_to_pass, target_names, verify
from .versions import Refused, Versions

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


def _reference_calls(given: Any, inputs: list[Any], module: str, qualname: str, versions: Versions,
                     sandbox: Sandbox, tracer_root: str,
                     ) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any] | None]:
    """The reference input's B1 verification (as verify() makes it; `seconds` the call's, without the import),
    what each version does on the prompt's examples (None: they did not run), and the buggy version's traced
    repeat of the reference call (None when it could not be made): one process per version, the reference
    called first in a forked child (call_batch), in a process of its own only when it could not be."""
    if len(json.dumps(given)) > MAX_INPUT_CHARS:
        raise Refused(f"the reference input cannot run: the input is over {MAX_INPUT_CHARS} characters")
    runs: dict[str, Any] = {}
    seen: dict[str, Any] = {}
    for name in ("buggy", "correct"):
        versions.install(name)
        # The buggy version's call is repeated, traced: the run B1 asks about, whose shape is the item's complexity.
        config = {"module": module, "qualname": qualname, "inputs": inputs, "first": given,
                  "trace_first": name == "buggy"}
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
    trace = runs["buggy"].pop("trace", None)
    return {"kind": "B1_BuggyIO", "runs": runs}, seen, trace


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
    from ..prompt.shown import Shown, prompt_slice

    query, mutant = spec.get("query") or {}, spec.get("mutant")
    module, qualname = target_names(spec.get("target"))
    unmasked = bool(spec.get("unmasked_for_tests"))
    if "input" not in query:
        raise Refused("B1/B2 instances need `query.input`: the input that exposes the mutant")
    if not isinstance(mutant, dict):
        raise Refused("B1/B2 need the instance's mutant")
    # The prompt's code first (the buggy version's target and the functions it may reach, as every kind's prompt
    # shows them): a bug it does not show cannot be asked about, and is refused before anything runs.
    versions.install("buggy")
    try:
        located = Target(spec["target"]["file"], qualname, [versions.root])
    except (TargetNotFound, SyntaxError, OSError) as exc:
        raise Refused(str(exc) or type(exc).__name__) from None
    code = dict(located.context, **prompt_slice(located))
    if not Shown(code).line(f"{mutant.get('file')}:{mutant.get('line')}"):
        raise Refused(f"the mutated line {mutant.get('file')}:{mutant.get('line')} is not in the prompt's code (the "
                      "target and the functions it may reach): a bug the model is not shown cannot be asked about")
    inputs = list(query.get("examples") or [])
    b1, seen, trace = _reference_calls(query["input"], inputs, module, qualname, versions, sandbox, tracer_root)
    if not exposes(b1):
        raise Refused("the reference input does not expose the mutant here (both versions behave the same)")
    if b1["runs"]["correct"].get("outcome") == "timeout":
        raise Refused("the correct version times out on the reference input")
    context = dict(code, calls=_examples(inputs, seen))
    return {"b1": b1, "context": context, "module": module, "qualname": qualname,
            "unmasked": unmasked, "trace": trace}


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
    done = dict(result, status="ok", answer=answer, context=shared["context"], verification=verification)
    measured_complexity = bug_complexity(shared, query["input"])
    if measured_complexity is not None:
        done["complexity"] = measured_complexity
    return done


def bug_complexity(shared: dict[str, Any], given: Any) -> dict[str, Any] | None:
    """The bug's intrinsic complexity, by the traced kinds' measure (queries/complexity.py): semantic from the
    buggy version's run on the reference input (its target's lines, branches, loop turns, exceptions and the
    calls under it), answer from what B1 asks (the exposing input and the buggy behaviour: B2's reference test
    is boilerplate around the same two), navigation from the prompt's code. B1 and B2 of one bug score the
    same. None when the run could not be traced (the import started threads; a call_once fallback)."""
    trace = shared.get("trace")
    if not isinstance(trace, dict) or not isinstance(trace.get("events"), list):
        return None
    buggy = shared["b1"]["runs"]["buggy"]
    behaviour = {k: buggy[k] for k in ("outcome", "return", "stdout", "exception") if k in buggy}
    try:
        return complexity.measure(trace, {"record_calls": True}, {"input": given, **behaviour}, shared["context"])
    except (KeyError, TypeError, ValueError, IndexError):
        return None  # a malformed trace (the code under test wrote it) costs the item its score, not its oracle
