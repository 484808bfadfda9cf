"""tracegate's injection point: starts the recorder when TRACEGATE_TRACE is set.

The driver puts this folder on PYTHONPATH. TRACEGATE_TRACE names a JSON
config file; it is removed from the environment at once so that processes
started by the tests are not traced too. Any sitecustomize that this one
shadows (a distribution's, a venv's) is run afterwards.
"""

from __future__ import annotations

import os
import sys


def _start_recorder() -> None:
    config_path = os.environ.pop("TRACEGATE_TRACE", None)
    if not config_path:
        return
    import atexit
    import json

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if root not in sys.path:
        sys.path.append(root)
    from tracegate_tracer.recording import backends, recorder

    with open(config_path, encoding="utf-8") as handle:
        config = json.load(handle)
    if "scout" in config:
        from tracegate_tracer.generate.scout import ScoutRecorder

        active = ScoutRecorder(config)
    else:
        active = backends.create(config)
    recorder.ACTIVE = active
    atexit.register(active.dump)
    if config.get("defer"):
        # Installed by tracegate's pytest plugin when pytest loads it: pytest's own
        # start-up runs untraced (no target can run before its module is imported,
        # and the plugin checks that none was).
        active.deferred = True
    else:
        active.install()


def _run_shadowed_sitecustomize() -> None:
    import importlib.machinery
    import importlib.util

    here = os.path.dirname(os.path.abspath(__file__))
    path = [p for p in sys.path if os.path.abspath(p or ".") != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)


try:
    _run_shadowed_sitecustomize()
except Exception as exc:  # noqa: BLE001 - a broken shadowed file must not stop tracing
    sys.stderr.write(f"tracegate: shadowed sitecustomize failed: {exc!r}\n")
_start_recorder()
