"""The driver's plan: `{work_dir, isolation: {uid_base} | null, instances: [spec, ...], keep_traces?, share_runs?}`.

Read once into a Plan; an unreadable plan is the only thing that stops the
driver (exit 2). A malformed spec is not: it gets an error result of its own.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from .group import recording_key, run_key

MAX_UID = 2**31 - 2


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
    work_dir = raw.get("work_dir")
    if not isinstance(work_dir, str) or not work_dir:
        raise PlanError(f"plan key work_dir must be a directory path, got {work_dir!r}")
    instances = raw.get("instances")
    if not isinstance(instances, list):
        raise PlanError(f"plan key instances must be a list, got {instances!r}")
    isolation = raw.get("isolation")
    uid_base = None
    if isolation is not None:
        base = isolation.get("uid_base") if isinstance(isolation, dict) else None
        if isinstance(base, bool) or not isinstance(base, int) or not 1 <= base <= MAX_UID - len(instances):
            raise PlanError(f"plan key isolation must be null or {{\"uid_base\": <uid >= 1>}}, got {isolation!r}")
        uid_base = base
    share = raw.get("share_runs", True)
    if not isinstance(share, bool):
        raise PlanError(f"plan key share_runs must be true or false, got {share!r}")
    return Plan(os.path.abspath(work_dir), uid_base, instances, bool(raw.get("keep_traces")), share)


def groups(instances: list[Any], share_runs: bool = True) -> list[list[int]]:
    """Indexes of the specs that share one test run, in plan order of each group's first spec.

    A group is one run of the tests (one sandbox); with `share_runs` it records
    every target its specs name, else one target each.
    """
    key_of = run_key if share_runs else recording_key
    found: dict[str, list[int]] = {}
    for index, spec in enumerate(instances):
        try:
            key = key_of(spec)
        except Exception:  # noqa: BLE001 - a malformed spec runs alone and fails alone
            key = f"#{index}"
        found.setdefault(key, []).append(index)
    return list(found.values())
