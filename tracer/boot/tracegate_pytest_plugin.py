"""pytest plugin (loaded through PYTEST_PLUGINS): tells the recorder which
test is running. A no-op in processes that tracegate does not trace."""

import sys


def _recorder():
    module = sys.modules.get("tracegate_tracer.recorder")
    return getattr(module, "ACTIVE", None)


def pytest_runtest_logstart(nodeid, location):
    active = _recorder()
    if active is not None:
        active.test_id = nodeid


def pytest_runtest_logfinish(nodeid, location):
    active = _recorder()
    if active is not None:
        active.test_id = "<process>"
        active.check_tracer()
