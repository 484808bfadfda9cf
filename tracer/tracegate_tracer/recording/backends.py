"""Picks the recorder classes for this interpreter (as coverage.py's core picks its tracer).

The backends import the backend-neutral Recorder and RecorderGroup; nothing in recorder.py or
recorder_group.py imports a backend back.
"""

from __future__ import annotations

import sys
from typing import Any

from .recorder_group import RecorderGroup


def create(config: dict[str, Any]) -> RecorderGroup:
    """The hooks for one run: `config` is one recording's config, or `{"backend", "recorders": [config, ...]}`.

    `backend` is "settrace", "monitoring" or "auto" (monitoring where the interpreter has it).
    """
    configs = config["recorders"] if "recorders" in config else [config]
    backend = config.get("backend") or configs[0].get("backend") or "auto"
    if backend == "auto":
        backend = "monitoring" if hasattr(sys, "monitoring") else "settrace"
    if backend == "monitoring":
        from .monitoring_backend import MonitoringGroup
        from .monitoring_recorder import MonitoringRecorder

        return MonitoringGroup([MonitoringRecorder(c) for c in configs])
    if backend == "settrace":
        from .settrace_backend import SettraceGroup, SettraceRecorder

        return SettraceGroup([SettraceRecorder(c) for c in configs])
    raise ValueError(f"unknown tracer backend {backend!r}")
