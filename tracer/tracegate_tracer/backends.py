"""Picks the recorder class for this interpreter (as coverage.py's core picks its tracer).

The backends import the backend-neutral Recorder; nothing in recorder.py
imports a backend back.
"""

from __future__ import annotations

import sys
from typing import Any

from .recorder import Recorder


def create(config: dict[str, Any]) -> Recorder:
    """The recorder for `config["backend"]`: "settrace", "monitoring" or "auto"."""
    backend = config.get("backend") or "auto"
    if backend == "auto":
        backend = "monitoring" if hasattr(sys, "monitoring") else "settrace"
    if backend == "monitoring":
        from .monitoring_backend import MonitoringRecorder

        return MonitoringRecorder(config)
    if backend == "settrace":
        from .settrace_backend import SettraceRecorder

        return SettraceRecorder(config)
    raise ValueError(f"unknown tracer backend {backend!r}")
