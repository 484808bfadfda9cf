"""Where a world-model measurement came from, recorded beside its oracle (`meta`): the machine (its cpus,
memory and the container's limits), the runtime, the load around the runs, the clean runs' spread, the
mutant, and every name a profile saw run."""

from __future__ import annotations

import os
import platform
import statistics
from typing import Any

from ..queries.world import near_top


def meta(measurement: dict[str, Any], mutant: Any, scope: str) -> dict[str, Any]:
    """Where the gold came from: the machine, the runtime, the runs' spread, the mutant."""
    walls = measurement.get("wall_ms") or []
    meta: dict[str, Any] = {
        "machine": machine(),
        "runtime": {"python": platform.python_version(), "implementation": platform.python_implementation(),
                    "platform": platform.platform()},
        "clean_runs": len(walls) or 1,
        # The machine's load around the clean runs (the host's: a container shares its kernel's figure).
        "load": measurement.get("load"),
    }
    if len(walls) > 1:
        meta["wall_ms"] = {"runs": [round(w, 3) for w in walls], "median": round(statistics.median(walls), 3),
                           "min": round(min(walls), 3), "max": round(max(walls), 3),
                           "spread": round((max(walls) - min(walls)) / max(statistics.median(walls), 1e-9), 4)}
    peak = measurement.get("peak")
    if peak:
        meta["peak"] = peak
    outcome = measurement.get("outcome") or {}
    if outcome.get("signal"):
        meta["signal"] = outcome["signal"]
    if mutant:
        meta["mutant"] = mutant
    profile = measurement.get("profile")
    if profile:
        # Every name that ran, for the execution rate of predicted names (not an answer).
        meta["executed"] = {key: [name for name, _v in profile[key]] for key in ("time_func", "time_line")}
        meta["near_top"] = near_top(profile)
    meta["scope"] = os.path.basename(scope.rstrip(os.sep)) or scope
    return meta


def load() -> float | None:
    """The 1-minute load average of the machine, or None where it cannot be read."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def machine() -> dict[str, Any]:
    found: dict[str, Any] = {"arch": platform.machine(), "cpus": os.cpu_count()}
    if hasattr(os, "sched_getaffinity"):
        found["cpus_allowed"] = sorted(os.sched_getaffinity(0))  # the one a pinned (measured) job has
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if line.startswith("model name"):
                    found["cpu"] = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    if "MemTotal" in (info := meminfo()):
        found["memory_bytes"] = info["MemTotal"]
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/cpu.max"):
        try:
            with open(path, encoding="ascii") as handle:
                found[os.path.basename(path).replace(".", "_")] = handle.read().strip()
        except OSError:
            pass
    # The memory the measured process could have: the container's limit where one is set, not the host's.
    limit = str(found.get("memory_max") or "")
    if limit.isdigit() and int(limit) < found.get("memory_bytes", 1 << 62):
        found["host_memory_bytes"] = found.get("memory_bytes")
        found["memory_bytes"] = int(limit)
    return found


def meminfo() -> dict[str, int]:
    """/proc/meminfo's fields in bytes (none if it cannot be read)."""
    found: dict[str, int] = {}
    try:
        with open("/proc/meminfo", encoding="ascii") as handle:
            for line in handle:
                name, _, rest = line.partition(":")
                parts = rest.split()
                if parts and parts[0].isdigit():
                    found[name] = int(parts[0]) * 1024
    except OSError:
        pass
    return found
