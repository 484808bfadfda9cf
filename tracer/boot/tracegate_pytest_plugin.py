"""pytest plugin (loaded through PYTEST_PLUGINS): tells the recorder which
test is running, and installs a deferred recorder when pytest imports it. A
no-op in processes that tracegate does not trace."""

from __future__ import annotations

import sys
from typing import Any


def _recorder() -> Any:
    module = sys.modules.get("tracegate_tracer.recorder")
    return getattr(module, "ACTIVE", None)


def _install_deferred() -> None:
    """The recorder's hooks go in now, unless a target's module is already imported (then the run is redone
    with tracing from the interpreter's start: code of that module may have run untraced)."""
    active = _recorder()
    if active is None or not getattr(active, "deferred", False):
        return
    active.deferred = False
    early = active.imported_targets()
    if early:
        active.retry_from_start(early)
    else:
        active.install()


_install_deferred()


def pytest_runtest_logstart(nodeid: str, location: object) -> None:
    active = _recorder()
    if active is not None:
        active.test_id = nodeid


def pytest_runtest_logfinish(nodeid: str, location: object) -> None:
    active = _recorder()
    if active is not None:
        active.test_id = "<process>"
        active.check_tracer()
