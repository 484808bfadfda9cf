"""Bounded capture of a child's output: the head and the tail, never all of it.

A test may write gigabytes into its stdout; only the first and the last
LIMIT bytes are kept (pytest's error lines and its summary are at the ends),
and the total is counted.
"""

from __future__ import annotations

LIMIT = 256 * 1024


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
