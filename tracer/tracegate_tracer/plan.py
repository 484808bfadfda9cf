"""The driver's plan: `{work_dir, isolation: {uid_base} | null, instances: [spec, ...], keep_traces?}`.

Read once into a Plan; an unreadable plan is the only thing that stops the
driver (exit 2). A malformed spec is not: it gets an error result of its own.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from .group import group_key

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
    """Keep work_dir/g<N>/trace.json after the group (tests and debugging only)."""


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
    return Plan(os.path.abspath(work_dir), uid_base, instances, bool(raw.get("keep_traces")))


def groups(instances: list[Any]) -> list[list[int]]:
    """Indexes of the specs that share one recording, in plan order of each group's first spec."""
    found: dict[str, list[int]] = {}
    for index, spec in enumerate(instances):
        try:
            key = group_key(spec)
        except Exception:  # noqa: BLE001 - a malformed spec runs alone and fails alone
            key = f"#{index}"
        found.setdefault(key, []).append(index)
    return list(found.values())
