"""An instance's own parser: `answer(trace, query)` over the recorded trace.

SWE-Flux instances carry a parser.py that turns their trace into the answer;
a tracegate instance may do the same (plan key `parser`, a path relative to
the instance dir) when no declarative query asks what it wants. It runs in
the harvest process, inside the container, after the recording; `trace` is
the document written to trace.json (format "tracegate-trace/1", see
tracer/README.md), freshly loaded for each parser so that no parser can
change what another sees.
"""

from __future__ import annotations

import importlib.util
import json
import os
from collections.abc import Callable
from typing import Any

from . import trace as trace_format


def _load(path: str, ident: int) -> Callable[[dict[str, Any], dict[str, Any]], Any]:
    spec = importlib.util.spec_from_file_location(f"tracegate_instance_parser_{ident}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.answer


_loaded = 0


def run(rel_path: str, instance_dir: str, trace_path: str, query: dict[str, Any]) -> dict[str, Any]:
    """{status, answer} or {status, reason}: the fields of result.json the parser decides."""
    global _loaded
    root = os.path.realpath(instance_dir)
    path = os.path.realpath(os.path.join(root, rel_path))
    if not path.startswith(root + os.sep) or not os.path.isfile(path):
        return {"status": "error", "reason": f"instance parser not found: {rel_path}"}
    try:
        _loaded += 1
        answer = _load(path, _loaded)(trace_format.load(trace_path), json.loads(json.dumps(query)))
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - a broken parser (even sys.exit) sinks only its instance
        return {"status": "error", "reason": f"instance parser failed: {type(exc).__name__}: {exc}"}
    try:
        text = json.dumps(answer, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return {"status": "error", "reason": "instance parser returned a non-JSON value"}
    return {"status": "ok", "answer": json.loads(text)}
