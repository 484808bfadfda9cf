"""One group: the specs that share one run of their tests (dir, cwd, tests, backend, timeout, variant).

The run records every target its specs name, one recorder and one trace per
target and limits (a recording). A recording captures the union of what its
specs' queries need; each query reads only its own part of its trace, and a
recorder sees exactly the events it would see alone, so sharing never
changes an answer (tests/test_shared_runs.py). The group's results come back
in the order of its specs.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from typing import Any

from . import VERSION, queries, swe_flux
from .comet import reference
from .comet.verify import is_comet
from .parsers import instance_parser
from .prompt import questions
from .prompt.locate import Target, TargetNotFound
from .prompt.shown import prompt_slice
from .prompt.testfiles import TestFileRefused, read_tests
from .queries import complexity
from .recording import frames, trace
from .recording.values import value_cap
from .runner import forkserver, pytest_run
from .runner.sandbox import Sandbox
from .variants import variant
from .variants.pool import NoVariant
from .variants.sites import CALL_SITES
from .world import measure

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
                spec.get("kind"), spec.get("query") or {}, spec["target"], spec.get("tests"), spec.get("mutant"))
        except Exception:  # noqa: BLE001 - a malformed spec fails below, with its own reason
            pass
    return result


def crash_reason() -> str:
    lines = traceback.format_exc().strip().splitlines()
    return "tracer crash: " + (lines[-1] if lines else "unknown")


def run_key(spec: Spec) -> str:
    """Specs that can share one run of their tests: same dir, cwd, tests, backend, timeout and variant; the
    world-model kinds' measured runs (and each mutant) apart from the traced ones."""
    return json.dumps([os.path.abspath(spec["dir"]), spec.get("cwd"), spec["tests"], spec.get("backend"),
                       spec.get("timeout_seconds"), spec.get("variant_epoch"), spec.get("variant_candidate"),
                       spec.get("variant_edit"),
                       bool(spec.get("variant_search")), measure.is_world(spec.get("kind")), spec.get("mutant"),
                       # B1/B2: the specs of one bug (target, mutant, reference) verify its reference once.
                       [spec.get("target"), spec.get("query")] if is_comet(spec.get("kind")) else None])


def recording_key(spec: Spec) -> str:
    """Specs that can share one recording within a run: also the same target and limits."""
    target = spec.get("target") or {}
    return json.dumps([run_key(spec), target.get("file"), target.get("function"), spec.get("max_events"),
                       (spec.get("query") or {}).get("max_value_chars")])


def with_fields(results: list[Result], **fields: Any) -> list[Result]:
    """Each result with `fields` set (every spec of a group decided alike: a run that could not happen)."""
    return [dict(result, **fields) for result in results]


def _needs(specs: list[Spec]) -> dict[str, Any]:
    needs: dict[str, Any] = {"record_calls": False, "dataflow_nested": False, "raw_lines": False,
                             "variables": set(), "dataflow": set(), "count_calls": set(), "events_through": 0}
    for spec in specs:
        part = queries.recording_needs(spec["kind"], spec.get("query") or {})
        for flag in ("record_calls", "dataflow_nested", "raw_lines"):
            needs[flag] |= bool(part[flag])
        for key in ("variables", "dataflow", "count_calls"):
            needs[key] |= set(part[key] or ())
        # Every spec must read only the invocations it names (an instance's own parser reads the whole trace).
        through = None if spec.get("parser") or needs["events_through"] is None else part["events_through"]
        needs["events_through"] = None if through is None else max(needs["events_through"], through)
    return needs


FAMILIES = (
    # World-model kinds: the test measured in clean runs, not traced (measure.py).
    (measure.is_world, measure.run),
    # Comet's kinds: the reference input run against the buggy and the correct version (comet/reference.py).
    (is_comet, reference.harvest),
)
"""The kind families harvested otherwise than by tracing (the host's src/families): (claims a kind, harvests a
group of its specs). Every other kind is traced below."""


def harvest_group(specs: list[Spec], sandbox: Sandbox, tracer_root: str) -> list[Result]:
    """Runs the tests of `specs` once in `sandbox`, recording every target they name; their results, in order.

    Each target gets its own recorder and trace (what it records does not
    depend on the others); each spec is answered from its target's trace.
    """
    first = specs[0]
    if first.get("scout") is not None:
        from .generate import scout

        return [scout.run(spec, sandbox, tracer_root) for spec in specs]
    results = [base_result(spec) for spec in specs]
    for result in results:
        result["stats"]["group"] = sandbox.index
    for claims, harvest in FAMILIES:
        if claims(first.get("kind")):
            return harvest(specs, results, sandbox, tracer_root)
    if first.get("swe_flux") is not None:
        # A SWE-Flux-format instance: its own harness (eval.sh, trace plugin, parser), not our recorder.
        pairs = enumerate(zip(specs, results, strict=True))
        return [swe_flux.run(spec, sandbox, result, tracer_root, slot) for slot, (spec, result) in pairs]
    instance_dir = os.path.abspath(first["dir"])
    run_dir = first.get("cwd") or instance_dir
    if not isinstance(run_dir, str) or not os.path.isabs(run_dir) or not os.path.isdir(run_dir):
        return with_fields(results, status="invalid", reason=f"cwd must be an absolute directory, got {run_dir!r}")
    epoch = first.get("variant_epoch")
    if epoch is not None:
        # A fresh variant: the instance's files copied into the sandbox, one input changed (variant.py).
        if first.get("cwd") or isinstance(epoch, bool) or not isinstance(epoch, int):
            return with_fields(results, status="invalid",
                               reason="no variant: variants need cwd instance and an int epoch")
        try:
            edit = first.get("variant_edit")
            if not isinstance(edit, dict):
                raise NoVariant("a variant needs variant_edit (the candidate its search answered)")
            instance_dir = run_dir = variant.prepare(instance_dir, first["tests"], sandbox.path("variant"),
                                                     edit.get("file"), edit.get("edits"))
        except (NoVariant, OSError) as exc:
            return with_fields(results, status="invalid", reason=f"no variant: {exc}")
    try:
        tests = read_tests(first["tests"], run_dir)
    except TestFileRefused as exc:
        return with_fields(results, status="invalid", reason=f"{exc} (test files must be regular files of at most "
                    "256 KiB inside the directory pytest runs in)")
    except ValueError as exc:
        return with_fields(results, status="invalid", reason=str(exc))
    recordings = make_recordings(specs, results, run_dir, instance_dir, tests, sandbox)
    if not recordings:
        return results
    backend = first.get("backend") or os.environ.get("TRACEGATE_BACKEND") or "auto"
    timeout = first.get("timeout_seconds") or DEFAULT_TIMEOUT
    # Hooks go in when pytest loads our plugin (pytest's start-up untraced: cheaper, same traces);
    # if a target's module was imported before that, the run is redone traced from the start.
    for defer in (True, False):
        config = {"backend": backend, "recorders": [r.config for r in recordings], "defer": defer}
        name = "trace-config.json" if defer else "trace-config-from-start.json"
        config_path = sandbox.write_private(name, json.dumps(config, indent=2))
        # Deferred hooks may start warm (pytest imported by a fork server); traced from the start, fresh.
        fresh = forkserver.fresh_for(specs) if defer else None
        run = pytest_run.run(first["tests"], run_dir, tracer_root, config_path, timeout, sandbox, fresh=fresh)
        if not defer or run.timed_out or run.problem():
            break
        _load(recordings[0], run)
        if not (recordings[0].trace or {}).get("retry_from_start"):
            break
        for recording in recordings:
            recording.reset()
            for index in recording.members:
                results[index]["stats"]["traced_from_start"] = True
        sandbox.fresh_tmp()
    for recording in recordings:
        for index in recording.members:
            try:
                results[index] = _decide(specs[index], results[index], recording, run, instance_dir, timeout, sandbox)
            except Exception:  # noqa: BLE001 - one spec's crash never costs the others
                results[index] = dict(results[index], status="error", reason=crash_reason())
        if recording.config.get("site_files") and not run.timed_out and not run.problem():
            CALL_SITES.put(specs[recording.members[0]], recording.trace)  # for this target's search (sites.py)
        recording.trace, recording.trace_text = None, b""  # decided: one target's trace in memory at a time
    return results


class Recording:
    """One target of a run: its specs (indexes), its Target, its recorder's config and the prompt's context."""

    def __init__(self, members: list[int], target: Target, config: dict[str, Any], context: dict[str, Any],
                 parsed: bool) -> None:
        self.members, self.target, self.config, self.context = members, target, config, context
        self.parsed = parsed  # a spec's own parser reads the trace: keep the text it gets
        self.rule_context = queries.Context(target.named_file, target.named_func, target.linemap, target.node)
        self.trace: dict[str, Any] | None = None
        self.trace_text = b""
        self.failed: str | None = None  # why the trace could not be read
        self._context = context

    def reset(self) -> None:
        """Forget the trace read (the run is about to be redone)."""
        self.trace, self.trace_text, self.failed, self.context = None, b"", None, self._context


def make_recordings(specs: list[Spec], results: list[Result], run_dir: str, instance_dir: str, tests: Any,
                    sandbox: Sandbox) -> list[Recording]:
    """The run's recordings, one per target and limits; a spec whose target cannot be found is decided here."""
    repo_root = specs[0].get("repo_root")
    repo = [repo_root] if isinstance(repo_root, str) and os.path.isabs(repo_root) and os.path.isdir(repo_root) else []
    by_key: dict[str, list[int]] = {}
    for index, spec in enumerate(specs):
        by_key.setdefault(recording_key(spec), []).append(index)
    recordings = []
    for members in by_key.values():
        head = specs[members[0]]
        status = "invalid"
        try:
            target = Target(head["target"]["file"], head["target"]["function"], [run_dir, instance_dir, *repo],
                            namer=frames.FileNamer(run_dir, repo[0] if repo else None))
            cap = value_cap(head.get("query") or {})
        except TargetNotFound as exc:
            reason = str(exc)
        except SyntaxError as exc:
            reason = f"target file does not parse: {exc}"
        except ValueError as exc:
            reason = str(exc)
        except Exception:  # noqa: BLE001 - a malformed spec sinks only its own recording
            status, reason = "error", crash_reason()
        else:
            needs = _needs([specs[i] for i in members])
            trace_name = f"trace-{len(recordings)}.json"
            config = dict(target=head["target"], trace_path=sandbox.path(trace_name), instance_dir=run_dir,
                          record_calls=needs["record_calls"], variables=sorted(needs["variables"]) or None,
                          dataflow=sorted(needs["dataflow"]) or None, dataflow_nested=needs["dataflow_nested"],
                          count_calls=sorted(needs["count_calls"]) or None, raw_lines=needs["raw_lines"],
                          events_through=needs["events_through"],
                          repo_root=repo[0] if repo else None,
                          max_events=head.get("max_events"),
                          max_value_chars=cap,
                          **({"site_files": where} if (where := CALL_SITES.files(head, run_dir)) else {}))
            parsed = any(specs[i].get("parser") for i in members)
            context = dict(target.context, tests=tests, **prompt_slice(target))
            recordings.append(Recording(members, target, config, context, parsed))
            for index in members:
                results[index]["stats"]["trace"] = trace_name
            continue
        for index in members:
            results[index] = dict(results[index], status=status, reason=reason)
    return recordings


def _load(recording: Recording, run: pytest_run.Outcome) -> None:
    """Reads the recording's trace once (and the parsers' copy, when a parser will read it)."""
    try:
        recorded = trace.load(recording.config["trace_path"])
    except (OSError, ValueError) as exc:
        last = (run.stderr.strip().splitlines() or ["no output"])[-1]
        missing = isinstance(exc, FileNotFoundError)
        what = "no trace written" if missing else f"unreadable trace ({type(exc).__name__}: {exc})"
        recording.failed = f"{what} (pytest exit {run.exit_code}): {last}"
        return
    # The parsers' copy, serialised as loaded, before anything else reads it.
    if recorded["status"] == "ok" and recorded["invocations"] and recording.parsed:
        recording.trace_text = json.dumps(recorded, separators=(",", ":")).encode()
    recording.trace = recorded


def _decide(spec: Spec, result: Result, recording: Recording, run: pytest_run.Outcome, instance_dir: str,
            timeout: float, sandbox: Sandbox) -> Result:
    """One spec's result from the run and its target's recording."""
    result["stats"].update(pytest_exit_code=run.exit_code, seconds=run.seconds)
    if run.notes:
        result["stats"]["notes"] = run.notes
    result["context"] = recording.context
    if run.timed_out:
        return dict(result, status="timeout", reason=f"timeout after {timeout}s")
    problem = run.problem()
    if problem:
        return dict(result, status="invalid", reason=problem)
    if recording.trace is None and recording.failed is None:
        _load(recording, run)
    if recording.trace is None:
        return dict(result, status="error", reason=recording.failed)
    recorded = recording.trace
    result["context"] = recording.context
    result["stats"].update(events=len(recorded["events"]), invocations=len(recorded["invocations"]),
                           backend=recorded["backend"])
    failure = run.failure()
    if failure and not spec.get("expect_failure"):
        return dict(result, status="invalid", reason=failure)
    if spec.get("parser"):
        decided = _parse(spec, recorded, recording.trace_text, instance_dir, timeout, sandbox, result)
    else:
        decided = answer_by_rule(spec, recorded, recording.rule_context)
    if decided["status"] == "ok":
        # The item's intrinsic complexity, from the part of the run its question reads (queries/complexity.py).
        needs = queries.recording_needs(spec["kind"], spec.get("query") or {})
        try:
            decided["complexity"] = complexity.measure(recorded, needs, decided["answer"], result.get("context") or {})
        except Exception:  # noqa: BLE001 - a measure that fails costs the item its score, not its oracle
            result["stats"]["notes"] = [*result["stats"].get("notes", ()), f"no complexity: {crash_reason()}"]
    return dict(result, **decided)


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


def answer_by_rule(spec: Spec, recorded: dict[str, Any], ctx: queries.Context) -> dict[str, Any]:
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
