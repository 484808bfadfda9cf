"""Bounded capture of a child's output: the head and the tail, never all of it.

A test may write gigabytes into its stdout; only the first and the last
LIMIT bytes are kept (pytest's error lines and its summary are at the ends),
and the total is counted. `watch` and `linger` are the poll loop that feeds
them (pytest_run.py, instance_parser.py); `drain` is one turn of it.
"""

from __future__ import annotations

import os
import selectors
import subprocess
import time
from collections.abc import Callable

LIMIT = 256 * 1024
_READ_SIZE = 1 << 20


class Bounded:
    """Keeps the first and the last `limit` bytes of a stream."""

    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def add(self, data: bytes) -> None:
        self.total += len(data)
        room = self.limit - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        if data:
            self.tail += data
            if len(self.tail) > 2 * self.limit:  # trim in batches: amortised O(1) per byte
                del self.tail[: len(self.tail) - self.limit]

    @property
    def overflowed(self) -> bool:
        return self.total > 2 * self.limit

    def text(self) -> str:
        tail = bytes(self.tail[-self.limit:]) if self.tail else b""
        if self.total > len(self.head) + len(tail):
            skipped = self.total - len(self.head) - len(tail)
            middle = f"\n[tracegate: {skipped} bytes of output not kept]\n".encode()
        else:
            middle = b""
        return (bytes(self.head) + middle + tail).decode("utf-8", "replace")


def drain(selector: selectors.BaseSelector, sinks: dict[int, Bounded], wait: float) -> None:
    """Reads whatever is ready (waiting at most `wait` seconds); unregisters pipes at EOF."""
    for key, _events in selector.select(timeout=wait):
        try:
            data = os.read(key.fd, _READ_SIZE)
        except (BlockingIOError, InterruptedError):
            continue
        except OSError:
            data = b""
        if data:
            sinks[key.fd].add(data)
        else:
            selector.unregister(key.fd)


def register(selector: selectors.BaseSelector, sinks: dict[int, Bounded]) -> None:
    """Makes each pipe non-blocking and watches it for reading."""
    for fd in sinks:
        os.set_blocking(fd, False)
        selector.register(fd, selectors.EVENT_READ)


def reap(child: subprocess.Popen[bytes]) -> int | None:
    """`child`'s exit code once it has exited (None while it runs), reaped with wait4 so that its resource use
    is kept as `child.rusage`: the parent's view of it, which nothing the child does can write."""
    if child.returncode is not None:
        return child.returncode
    if not isinstance(child, subprocess.Popen):
        return child.poll()  # a warm start (forkserver.ForkedChild): its server reaps it and says so
    try:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
    except ChildProcessError:
        return child.poll()
    if pid == 0:
        return None
    child.rusage = usage  # type: ignore[attr-defined]
    child.returncode = os.waitstatus_to_exitcode(status)
    return child.returncode


def watch(child: subprocess.Popen[bytes], selector: selectors.BaseSelector, sinks: dict[int, Bounded],
          deadline: float, enough: Callable[[], bool] = lambda: False) -> bool:
    """Drains the pipes while `child` runs, until it exits or `enough()`; True if `deadline` came first."""
    while reap(child) is None and not enough():
        left = deadline - time.monotonic()
        if left <= 0:
            return True
        if selector.get_map():
            drain(selector, sinks, min(left, 0.2))
        elif hasattr(child, "idle"):
            child.idle(min(left, 0.05))
        else:
            time.sleep(min(left, 0.05))
    return False


def linger(selector: selectors.BaseSelector, sinks: dict[int, Bounded], until: float,
           enough: Callable[[], bool] = lambda: False) -> None:
    """Gives the pipes until `until` to deliver the rest (a process left behind may hold them open)."""
    while selector.get_map() and not enough() and time.monotonic() < until:
        drain(selector, sinks, max(0.0, min(0.2, until - time.monotonic())))
