"""pytest plugin (loaded through PYTEST_PLUGINS): tells the recorder which
test is running. A no-op in processes that tracegate does not trace."""

from __future__ import annotations

import sys
from typing import Any


def _recorder() -> Any:
    module = sys.modules.get("tracegate_tracer.recorder")
    return getattr(module, "ACTIVE", None)


def pytest_runtest_logstart(nodeid: str, location: object) -> None:
    active = _recorder()
    if active is not None:
        active.test_id = nodeid


def pytest_runtest_logfinish(nodeid: str, location: object) -> None:
    active = _recorder()
    if active is not None:
        active.test_id = "<process>"
        active.check_tracer()
