"""One invocation of a target (one frame): the raw events a backend reports, turned into trace events.

The Recorder (recorder.py) starts an Invocation when a target frame begins and hands it that frame's line,
instruction, exception and exit events; what each becomes in the trace is decided here, once for both backends.
"""

from __future__ import annotations

from types import FrameType
from typing import Any, Protocol

from .codeinfo import CodeInfo, NestedInfo
from .values import render, safe_str, type_name


class Recorder(Protocol):
    """What an Invocation asks of the recorder that started it (recorder.Recorder): said here, so that this
    module imports nothing of the recorder's."""

    quiet: bool
    raw_lines: bool
    max_value: int
    writer: Any

    def emit(self, event: list[Any]) -> bool: ...

    def snapshot(self, frame: FrameType) -> dict[str, str] | None: ...

    def leave(self, frame: FrameType, invocation: Invocation, kind: str) -> None: ...


class Invocation:
    """One target invocation (one frame): turns raw events into trace events."""

    __slots__ = ("rec", "inv", "info", "last_line", "last_phys", "last_lasti", "pending")

    def __init__(self, rec: Recorder, inv: int, info: CodeInfo) -> None:
        self.rec, self.inv, self.info = rec, inv, info
        self.last_line, self.last_phys, self.last_lasti = None, None, -1
        self.pending = []  # [event, exception object] not yet known caught/propagated

    def line(self, frame: FrameType, phys: int, lasti: int) -> None:
        """A line event at physical line `phys`, instruction `lasti`."""
        rec = self.rec
        if lasti in self.info.skip or rec.quiet:
            return  # inside an inlined comprehension (3.12+), or nothing more is recorded
        if rec.raw_lines:
            rec.emit(["raw", self.inv, phys])
        stmt = self.info.linemap.stmt_line(phys)
        if stmt == self.last_line and phys != self.last_phys and lasti > self.last_lasti:
            # Same statement, a later physical line, execution moved forward: one step.
            self.last_phys, self.last_lasti = phys, lasti
            return
        self.last_line, self.last_phys, self.last_lasti = stmt, phys, lasti
        rec.emit(["line", self.inv, stmt, rec.snapshot(frame)])

    def access(self, offset: int, info: CodeInfo | NestedInfo | None = None) -> None:
        """Instruction `offset` ran in this invocation's frame, or in a nested scope's (`info`)."""
        found = (info or self.info).accesses.get(offset)
        if found:
            for kind, line, name, phys in found:
                self.rec.emit([kind, self.inv, line, name, phys])

    def exception(self, phys: int, exc: BaseException) -> None:
        if self.rec.quiet:
            return
        record = ["exception", self.inv, self.info.linemap.stmt_line(phys), type_name(type(exc)),
                  safe_str(exc, self.rec.max_value, self.rec.writer.cut_values), None]
        if self.rec.emit(record):
            self.pending.append([record, exc])
        self.last_line = None

    def exit(self, frame: FrameType, kind: str, phys: int, value: object = None) -> None:
        """The frame returns, yields or unwinds."""
        rec = self.rec
        if rec.quiet:
            rec.leave(frame, self, kind)
            return
        line = self.info.linemap.stmt_line(phys)
        if kind == "unwind":
            rec.emit(["unwind", self.inv, line, rec.snapshot(frame)])
        else:
            rec.emit([kind, self.inv, line, render(value, rec.max_value, rec.writer.cut_values), rec.snapshot(frame)])
        if kind != "yield":
            escaping = self.pending[-1][1] if kind == "unwind" and self.pending else None
            for record, exc in self.pending:
                # Caught unless it is the exception that unwinds the frame.
                record[5] = exc is not escaping
            self.pending = []  # drop references to exceptions (and their tracebacks)
        rec.leave(frame, self, kind)
