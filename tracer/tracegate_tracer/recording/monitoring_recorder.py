"""One target's recording under sys.monitoring: what its target code objects report, and to which invocation.

Its MonitoringGroup (monitoring_backend.py, which says which events are on and why) finds the frame of each
event once and calls the methods below for the recorders the event concerns.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from types import CodeType, FrameType
from typing import Any, Protocol

from .codeinfo import CodeInfo
from .invocation import Invocation
from .recorder import Recorder


class MonitoringGroup(Protocol):
    """What a recording asks of its group (monitoring_backend.MonitoringGroup), which turns events on and off:
    said here, so that this module imports nothing of the backend's."""

    def instrument(self, code: CodeType, member: MonitoringRecorder, events: int) -> None: ...

    def instrument_nested(self, code: CodeType, member: MonitoringRecorder) -> None: ...

    def events_changed(self) -> None: ...

M = getattr(sys, "monitoring", None)


class CodeObjects:
    """Code objects by identity. Code objects compare equal by value, and a module run again (a reload)
    compiles equal ones: each gets its own local events, sys.monitoring's being per object. Each is held,
    so no id is reused while it is in here."""

    __slots__ = ("_by_id",)

    def __init__(self) -> None:
        self._by_id: dict[int, CodeType] = {}

    def add(self, code: CodeType) -> None:
        self._by_id[id(code)] = code

    def __contains__(self, code: object) -> bool:
        return self._by_id.get(id(code)) is code

    def __iter__(self) -> Iterator[CodeType]:
        return iter(tuple(self._by_id.values()))


def nested_in(code: CodeType) -> Iterator[CodeType]:
    """The code objects nested in `code`, at any depth."""
    for const in code.co_consts:
        if isinstance(const, CodeType):
            yield const
            yield from nested_in(const)


class MonitoringRecorder(Recorder):
    """One target's recording; its group calls the methods below with the event's frame."""

    backend = "monitoring"

    def __init__(self, config: dict[str, Any]) -> None:
        super().__init__(config)
        self.group: MonitoringGroup | None = None
        self._instrumented = CodeObjects()

    # -- calls while an invocation runs (the group's second tool) ------------

    def _calls(self) -> None:
        if self.group is not None:
            self.group.events_changed()

    def any_start(self, frame: FrameType, code: CodeType) -> object:
        if self.stopped:
            return None
        if not self._active:
            # Code outside the slice's scope needs no more reports unless calls
            # are recorded (it may still run under a target).
            if not self.record_calls and self._scope is not None and self.note_out_of_scope(code):
                return M.DISABLE
            return None
        if self.record_calls:
            if self.info(code) is None:
                self.record_call(frame)
            self.note_executed(frame)
            return None
        # Only the slice is wanted: a code object once noted never reports again.
        return M.DISABLE if self.note_executed(frame) else None

    def begin(self, frame: FrameType, info: CodeInfo) -> Invocation:
        invocation = super().begin(frame, info)
        self._calls()
        return invocation

    def resume(self, frame: FrameType) -> Invocation | None:
        invocation = super().resume(frame)
        if invocation is not None:
            self._calls()
        return invocation

    def leave(self, frame: FrameType, invocation: Invocation, kind: str) -> None:
        super().leave(frame, invocation, kind)
        self._calls()

    # -- target frames and control flow --------------------------------------

    def start(self, frame: FrameType, code: CodeType) -> None:
        if self.stopped:
            return
        info = self._infos[code]
        if code not in self._instrumented and not self.quiet:
            E = M.events
            events = E.LINE | E.JUMP | E.PY_RETURN | E.PY_YIELD | E.PY_RESUME
            if info.accesses:
                events |= E.INSTRUCTION
            self.group.instrument(code, self, events)
            self._instrumented.add(code)
            for child in nested_in(code):
                # Nested scopes reading the target's variables (found in this code object: a reloaded
                # module's are new objects, equal to the ones nested_infos was built from).
                if child in self.nested_infos and child not in self._instrumented:
                    self.group.instrument_nested(child, self)
                    self._instrumented.add(child)
        if self._active and self.record_calls:
            self.record_call(frame)
        self.begin(frame, info)

    def quieted(self) -> None:
        # Later invocations are only listed (their starts are the global PY_START): no local event is needed.
        for code in self._instrumented:
            self.group.instrument(code, self, 0)
        self._calls()

    def resumed(self, frame: FrameType) -> None:
        if not self.stopped:
            self.resume(frame)  # resumptions are never calls

    def exited(self, frame: FrameType, kind: str, value: object) -> None:
        if self.stopped:
            return
        invocation = self._active.get(frame)
        if invocation is not None:
            invocation.exit(frame, kind, frame.f_lineno, value)

    def raised(self, frame: FrameType, exc: BaseException) -> None:
        if self.stopped:
            return
        invocation = self._active.get(frame)
        if invocation is not None:
            invocation.exception(frame.f_lineno, exc)

    def line_at(self, frame: FrameType, line: int) -> None:
        if self.stopped:
            return
        invocation = self._active.get(frame)
        if invocation is not None:
            invocation.line(frame, line, frame.f_lasti)

    def jumped(self, frame: FrameType, code: CodeType, source: int, destination: int) -> object:
        # What settrace reports: a backward jump that stays on one line is a
        # new line event (instruction = the jump); others are left to LINE.
        info = self._infos[code]
        line = info.line_at.get(destination)
        if line is None or line != info.line_at.get(source):
            return M.DISABLE
        if self.stopped:
            return None
        invocation = self._active.get(frame)
        if invocation is not None:
            invocation.line(frame, line, source)
        return None

    def instruction(self, frame: FrameType, code: CodeType, offset: int) -> object:
        info = self._infos[code]
        if offset not in info.accesses:
            return M.DISABLE
        if self.stopped:
            return None
        invocation = self._active.get(frame)
        if invocation is not None:
            invocation.access(offset)
        return None


    def nested_instruction(self, frame: FrameType, code: CodeType, offset: int) -> object:
        info = self.nested_infos[code]
        if offset not in info.accesses:
            return M.DISABLE
        if self.stopped:
            return None
        invocation = self.enclosing(frame)
        if invocation is not None:
            invocation.access(offset, info)
        return None
