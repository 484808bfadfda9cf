"""The sys.settrace backend (any Python; the only one below 3.12).

Only frames of a target code object get a local tracer; every other frame
returns None from the global tracer (one dict look-up per call). Target
frames get opcode events only when the query tracks names (dataflow).
"""

from __future__ import annotations

import sys
import threading
from types import FrameType
from typing import Any

from . import frames
from .recorder import Invocation, Recorder
from .values import safe_repr


class SettraceRecorder(Recorder):
    backend = "settrace"

    def install(self) -> None:
        sys.settrace(self._global)
        threading.settrace(self._global)

    def uninstall(self) -> None:
        sys.settrace(None)
        threading.settrace(None)

    def tracer_intact(self) -> str | None:
        current = sys.gettrace()
        return None if current == self._global else safe_repr(current, 120)

    def _global(self, frame: FrameType, event: str, arg: Any) -> LocalTracer | None:
        if event != "call" or self.stopped:
            return None
        info = self.info(frame.f_code)
        if self._active and not frames.is_resumption(frame):
            if self.record_calls:
                self.record_call(frame)
            self.note_executed(frame)
        if info is None:
            return None
        invocation = self.resume(frame)
        if invocation is None:
            if frames.is_resumption(frame):
                return None  # a generator started before tracing began
            invocation = self.begin(frame, info)
        tracer = LocalTracer(self, invocation)
        if info.accesses:
            # 3.12+ turns opcode events on only for a frame that already has its tracer.
            frame.f_trace = tracer
            frame.f_trace_opcodes = True
        return tracer


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
