"""The driver's plan: `{work_dir, isolation: {uid_base} | null, instances: [spec, ...], keep_traces?, share_runs?}`.

Read once into a Plan; an unreadable plan is the only thing that stops the
driver (exit 2). A malformed spec is not: it gets an error result of its own.
The keys below are the protocol's (src/contracts/tracer-protocol.ts, whose
JSON Schemas are tracer/protocol/*.schema.json; tests/test_protocol.py checks
that both name the same keys): a key the driver does not know is refused, never
ignored, so the host and the tracer cannot drift apart in silence.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from .group import recording_key, run_key

MAX_UID = 2**31 - 2

PLAN_KEYS = frozenset({"work_dir", "isolation", "instances", "keep_traces", "share_runs"})
ISOLATION_KEYS = frozenset({"uid_base"})
SPEC_KEYS = frozenset({
    "id", "dir", "tests", "kind", "target", "query", "timeout_seconds", "parser", "cwd", "expect_failure",
    "instance_hash", "env_digest", "variant_epoch", "variant_candidate", "variant_edit", "variant_search", "mutant",
    "swe_flux", "repo_root",
    "backend", "max_events", "unmasked_for_tests",
})
"""A question's spec (group.py and the modules it runs: measure.py, swe_flux.py, variant.py)."""
SCOUT_KEYS = frozenset({"id", "scout", "dir", "tests", "timeout_seconds", "cwd"})
"""A scouting spec (scout.py): it has a `scout` key."""
VERIFY_KEYS = frozenset({"id", "verify", "timeout_seconds", "instance_hash", "env_digest", "unmasked_for_tests"})
"""A reply to verify (comet/verify.py, B1/B2): it has a `verify` key."""
NESTED_KEYS = {
    "target": frozenset({"file", "function"}),
    "mutant": frozenset({"file", "line", "original", "replacement"}),
    "swe_flux": frozenset({"qa", "instance"}),
    "scout": frozenset({"packages"}),
    "verify": frozenset({"kind", "target", "mutant", "reply", "runs"}),
}
"""The keys of a spec's objects."""


class PlanError(ValueError):
    """The plan itself cannot be read; the message names the key and the bad value."""


@dataclass(frozen=True)
class Plan:
    work_dir: str
    """Private scratch space (traces, configs, temp dirs); the host never reads it."""
    uid_base: int | None
    """Group N runs as uid uid_base + N when the driver is root; None: no isolation."""
    instances: list[Any]
    """The specs, as given (each is validated when its group runs)."""
    keep_traces: bool = False
    """Keep work_dir/g<N>/trace-<K>.json after the group (tests and debugging only)."""
    share_runs: bool = True
    """One test run records every target its specs ask about (False: one run per target; for comparisons)."""


def load(path: str) -> Plan:
    try:
        with open(path, encoding="utf-8") as handle:
            raw = json.load(handle)
    except (OSError, ValueError) as exc:
        raise PlanError(f"unreadable plan {path}: {exc}") from None
    if not isinstance(raw, dict):
        raise PlanError(f"plan {path} must be a JSON object, got {type(raw).__name__}")
    unknown = _unknown(raw, PLAN_KEYS)
    if unknown:
        raise PlanError(f"plan key {unknown} is not part of the protocol (plan keys: {', '.join(sorted(PLAN_KEYS))})")
    work_dir = raw.get("work_dir")
    if not isinstance(work_dir, str) or not work_dir:
        raise PlanError(f"plan key work_dir must be a directory path, got {work_dir!r}")
    instances = raw.get("instances")
    if not isinstance(instances, list):
        raise PlanError(f"plan key instances must be a list, got {instances!r}")
    isolation = raw.get("isolation")
    uid_base = None
    if isolation is not None:
        unknown = _unknown(isolation, ISOLATION_KEYS) if isinstance(isolation, dict) else None
        if unknown:
            raise PlanError(f"plan key isolation has key {unknown}, which is not part of the protocol "
                            f"(isolation keys: {', '.join(sorted(ISOLATION_KEYS))})")
        base = isolation.get("uid_base") if isinstance(isolation, dict) else None
        if isinstance(base, bool) or not isinstance(base, int) or not 1 <= base <= MAX_UID - len(instances):
            raise PlanError(f"plan key isolation must be null or {{\"uid_base\": <uid >= 1>}}, got {isolation!r}")
        uid_base = base
    share = raw.get("share_runs", True)
    if not isinstance(share, bool):
        raise PlanError(f"plan key share_runs must be true or false, got {share!r}")
    return Plan(os.path.abspath(work_dir), uid_base, instances, bool(raw.get("keep_traces")), share)


def _unknown(found: dict[str, Any], known: frozenset[str]) -> str | None:
    """The first key of `found` that is not in `known`, quoted (None: all known)."""
    extra = sorted(str(key) for key in found if key not in known)
    return repr(extra[0]) if extra else None


def spec_problem(spec: Any) -> str | None:
    """Why a spec cannot run as the protocol stands (a key it does not define), or None.

    Only the keys are checked here; each value is checked where it is read,
    and a bad one fails that spec alone.
    """
    if not isinstance(spec, dict):
        return "the spec is not a JSON object"
    known = SCOUT_KEYS if spec.get("scout") is not None else VERIFY_KEYS if spec.get("verify") is not None \
        else SPEC_KEYS
    unknown = _unknown(spec, known)
    if unknown:
        return f"spec key {unknown} is not part of the protocol (spec keys: {', '.join(sorted(known))})"
    for key, keys in NESTED_KEYS.items():
        value = spec.get(key)
        unknown = _unknown(value, keys) if isinstance(value, dict) and key in known else None
        if unknown:
            return (f"spec key {key} has key {unknown}, which is not part of the protocol "
                    f"({key} keys: {', '.join(sorted(keys))})")
    return None


def groups(instances: list[Any], share_runs: bool = True) -> list[list[int]]:
    """Indexes of the specs that share one test run, in plan order of each group's first spec.

    A group is one run of the tests (one sandbox); with `share_runs` it records
    every target its specs name, else one target each.
    """
    key_of = run_key if share_runs else recording_key
    found: dict[str, list[int]] = {}
    for index, spec in enumerate(instances):
        try:
            key = f"#{index}" if spec_problem(spec) or spec.get("verify") is not None else key_of(spec)
        except Exception:  # noqa: BLE001 - a malformed spec runs alone and fails alone
            key = f"#{index}"
        found.setdefault(key, []).append(index)
    return list(found.values())
