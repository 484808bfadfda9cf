"""The sys.settrace backend (any Python; the only one below 3.12).

Only frames of a target code object get a local tracer; every other frame
returns None from the global tracer (one dict look-up per call and
recorder). Target frames get opcode events only when the query tracks names
(dataflow). A group of several recorders installs one global tracer that asks
only the recorders concerned: those with an invocation running and those
whose target the starting code is.
"""

from __future__ import annotations

import sys
import threading
from types import FrameType
from typing import Any

from . import frames
from .codeinfo import NestedInfo
from .invocation import Invocation
from .recorder import Recorder
from .recorder_group import RecorderGroup
from .values import safe_repr


class SettraceRecorder(Recorder):
    backend = "settrace"

    def _global(self, frame: FrameType, event: str, arg: Any) -> LocalTracer | None:
        if event != "call" or self.stopped:
            return None
        code = frame.f_code
        if self.counted is not None and not frames.is_resumption(frame):
            self.count_start(frame, code)
        try:
            info = self._infos[code]  # the hot path: one look-up for a code object seen before
        except KeyError:
            info = self.info(code)
        if info is None and not self._active:
            return None
        if self._active and not frames.is_resumption(frame):
            if self.record_calls:
                self.record_call(frame)
            self.note_executed(frame)
        if info is None:
            nested = self.nested_infos.get(code) if self.nested else None
            return self._nested_tracer(frame, nested) if nested is not None else None
        invocation = self.resume(frame)
        if invocation is None:
            if frames.is_resumption(frame):
                return None  # a generator started before tracing began
            invocation = self.begin(frame, info)
            if invocation is None:
                return None  # listed only: the recording is quiet (Recorder.events_through)
        tracer = LocalTracer(self, invocation)
        if info.accesses:
            # 3.12+ turns opcode events on only for a frame that already has its tracer.
            frame.f_trace = tracer
            frame.f_trace_opcodes = True
        return tracer


    def _nested_tracer(self, frame: FrameType, nested: NestedInfo) -> NestedTracer | None:
        invocation = self.enclosing(frame)
        if invocation is None:
            return None
        tracer = NestedTracer(self, invocation, nested)
        frame.f_trace = tracer
        frame.f_trace_opcodes = True
        return tracer


class SettraceGroup(RecorderGroup):
    backend = "settrace"

    def __init__(self, members: list[SettraceRecorder]) -> None:
        super().__init__(members)
        self._owners: dict[Any, tuple[SettraceRecorder, ...]] = {}  # code -> recorders targeting it
        # One recorder needs no dispatch: its own global tracer is the hook.
        self.hook = members[0]._global if len(members) == 1 else self._global

    def install(self) -> None:
        sys.settrace(self.hook)
        threading.settrace(self.hook)

    def uninstall(self) -> None:
        sys.settrace(None)
        threading.settrace(None)

    def tracer_intact(self) -> str | None:
        current = sys.gettrace()
        return None if current == self.hook else safe_repr(current, 120)

    def _global(self, frame: FrameType, event: str, arg: Any) -> LocalTracer | FanOut | None:
        if event != "call" or self.stopped:
            return None
        code = frame.f_code
        owners = self._owners.get(code)
        if owners is None:
            owners = self._owners[code] = tuple(m for m in self.members if m.info(code) is not None)
        found = None
        for member in self.members:
            # Any other recorder would answer None without recording anything.
            if member._active or member in owners or member.counted is not None:
                tracer = member._global(frame, event, arg)
                if tracer is not None:
                    found = tracer if found is None else FanOut(found, tracer)
        return found


class FanOut:
    """The local tracer of a frame that is the target of two recorders (overlapping target names)."""

    __slots__ = ("tracers",)

    def __init__(self, first: Any, second: Any) -> None:
        self.tracers = [first, second]

    def __call__(self, frame: FrameType, event: str, arg: Any) -> FanOut | None:
        self.tracers = [t for t in self.tracers if t(frame, event, arg) is not None]
        return self if self.tracers else None


class LocalTracer:
    __slots__ = ("rec", "invocation")

    def __init__(self, rec: SettraceRecorder, invocation: Invocation) -> None:
        self.rec, self.invocation = rec, invocation

    def __call__(self, frame: FrameType, event: str, arg: Any) -> LocalTracer | None:
        if self.rec.stopped:
            return None
        if event == "line":
            self.invocation.line(frame, frame.f_lineno, frame.f_lasti)
        elif event == "opcode":
            self.invocation.access(frame.f_lasti)
        elif event == "exception":
            self.invocation.exception(frame.f_lineno, arg[1])
        elif event == "return":
            kind = frames.exit_kind(frame)
            self.invocation.exit(frame, kind, frame.f_lineno, arg if kind != "unwind" else None)
        return self


class NestedTracer:
    """The local tracer of a nested scope's frame: its reads of the target's variables."""

    __slots__ = ("rec", "invocation", "nested")

    def __init__(self, rec: SettraceRecorder, invocation: Invocation, nested: NestedInfo) -> None:
        self.rec, self.invocation, self.nested = rec, invocation, nested

    def __call__(self, frame: FrameType, event: str, arg: Any) -> NestedTracer | None:
        if self.rec.stopped:
            return None
        if event == "opcode":
            self.invocation.access(frame.f_lasti, self.nested)
        return self
