"""Loaded into a SWE-Flux instance's pytest (PYTEST_PLUGINS) when the instance runs as its own uid.

An instance's `eval.sh` pipes pytest into `tee` and then runs its parser, so a
process the tests leave running (a daemon holding the pipe, a watcher that
rewrites the parser's output) would live until `eval.sh` times out, and see
the parser's run. When pytest ends, this plugin kills every process of its
uid that started after pytest did: what the tests started. Processes that
were there before (the shell running eval.sh, `tee`) and pytest's own
ancestors are left alone. Only the driver sets TRACEGATE_REAP, and only when
the uid is the group's own (in a container), never the user's.
"""

from __future__ import annotations

import os
import signal
import time

PASSES = 50


def _uid_processes(uid: int) -> set[tuple[int, int]]:
    """(pid, start time in clock ticks) of every live process whose real uid is `uid` (zombies are dead)."""
    found = set()
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/status", encoding="ascii", errors="replace") as handle:
                status = dict(line.split(":", 1) for line in handle if ":" in line)
            if int(status["Uid"].split()[0]) != uid or status["State"].split()[0] in ("Z", "X"):
                continue
            with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as handle:
                fields = handle.read().rpartition(")")[2].split()
            found.add((int(name), int(fields[19])))
        except (OSError, ValueError, IndexError, KeyError):
            continue  # gone meanwhile
    return found


def _ancestors() -> set[int]:
    pids, pid = set(), os.getpid()
    while pid > 1 and pid not in pids:
        pids.add(pid)
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
                pid = int(handle.read().rpartition(")")[2].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return pids


_ACTIVE = os.environ.pop("TRACEGATE_REAP", None) == "1"
_BEFORE = _uid_processes(os.getuid()) if _ACTIVE else set()


def reap() -> int:
    """Kills the uid's processes that started after pytest (none of its ancestors); how many were found."""
    spared = _ancestors()
    killed: set[int] = set()
    for _ in range(PASSES):
        targets = [pid for pid, started in _uid_processes(os.getuid()) - _BEFORE if pid not in spared]
        if not targets:
            break
        for pid in targets:
            try:
                os.kill(pid, signal.SIGKILL)
                killed.add(pid)
            except OSError:
                pass
        time.sleep(0.01)
    return len(killed)


def pytest_unconfigure(config: object) -> None:
    if _ACTIVE:
        reap()
