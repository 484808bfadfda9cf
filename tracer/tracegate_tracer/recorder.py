"""The settrace backend: records invocations of one target function.

Only frames of the target code object get a local tracer; every other frame
returns None from the global tracer so that it costs one dict look-up per
call. While a target frame is executing, calls of other functions are
recorded when the query needs them (S6). The record format (see trace.py) is
backend-neutral: a sys.monitoring backend writes the same events.
"""

import itertools
import os
import sys
import threading

from . import frames
from .linemap import LineMap
from .trace import TraceWriter
from .values import safe_repr, safe_str, type_name

DEFAULT_MAX_EVENTS = 2_000_000
ACTIVE = None  # the Recorder of this process, set by sitecustomize


class Recorder:
    def __init__(self, config):
        target = config["target"]
        self.target = {"file": target["file"], "function": target["function"]}
        self._suffix = "/" + target["file"].replace("\\", "/").lstrip("/")
        self.record_calls = bool(config.get("record_calls"))
        self.variables = list(config.get("variables") or ()) or None
        self.max_events = int(config.get("max_events") or DEFAULT_MAX_EVENTS)
        self.name_file = frames.FileNamer(config.get("instance_dir") or os.getcwd())
        self.writer = TraceWriter(config["trace_path"], self.target, "settrace")
        self.test_id = "<process>"
        self.stopped = False
        self._pid = os.getpid()
        self._is_target = {}
        self._active = {}
        self._suspended = {}
        self._linemaps = {}
        self._numbers = itertools.count(1)

    # -- installation -------------------------------------------------------

    def install(self):
        sys.settrace(self._global)
        threading.settrace(self._global)

    def check_tracer(self):
        """Marks the trace invalid when another tool replaced our tracer."""
        current = sys.gettrace()
        if not self.stopped and current != self._global:
            self._stop("another tracer replaced tracegate's (%s)" % safe_repr(current, 120))

    def _stop(self, reason):
        if self.writer.reason is None:
            self.writer.reason = reason
        self.stopped = True
        sys.settrace(None)
        threading.settrace(None)

    def dump(self):
        if os.getpid() != self._pid:
            return  # a forked child: the parent writes the trace
        self.check_tracer()
        self.stopped = True
        sys.settrace(None)
        self.writer.write()

    # -- events -------------------------------------------------------------

    def emit(self, event):
        events = self.writer.events
        if len(events) >= self.max_events:
            self._stop("trace overflow: more than %d events" % self.max_events)
            return False
        events.append(event)
        return True

    def _global(self, frame, event, arg):
        if event != "call" or self.stopped:
            return None
        code = frame.f_code
        is_target = self._is_target.get(code)
        if is_target is None:
            is_target = self._is_target[code] = (
                code.co_qualname == self.target["function"]
                and code.co_filename.replace("\\", "/").endswith(self._suffix)
            )
        if self._active and self.record_calls:
            self._record_call(frame)
        if is_target:
            return self._enter(frame)
        return None

    def _record_call(self, frame):
        if frames.is_resumption(frame) or frame.f_code.co_name in frames.COMPREHENSIONS:
            return
        owners, depth, caller = [], 0, frame.f_back
        walker, remaining = caller, len(self._active)
        while walker is not None and remaining:
            depth += 1
            tracer = self._active.get(walker)
            if tracer is not None:
                owners.append([tracer.inv, depth])
                remaining -= 1
            walker = walker.f_back
        if owners:
            file = self.name_file(frame.f_code.co_filename)
            self.emit(["call", owners, file, frames.dotted_name(frame), frames.dotted_name(caller)])

    def _enter(self, frame):
        tracer = self._suspended.pop(frame, None)
        if tracer is not None:
            self._active[frame] = tracer
            tracer.last_line = None
            self.emit(["resume", tracer.inv, tracer.linemap.stmt_line(frame.f_lineno)])
            return tracer
        if frames.is_resumption(frame):
            return None  # a generator started before tracing began
        linemap = self._linemap(frame.f_code.co_filename)
        inv = next(self._numbers)
        depth, walker = 0, frame
        while walker is not None:
            depth += 1
            walker = walker.f_back
        self.writer.invocations.append({
            "inv": inv, "test": self.test_id, "depth": depth,
            "thread": threading.current_thread().name,
            "module": frame.f_globals.get("__name__"),
            "path": frame.f_code.co_filename, "outcome": None,
        })
        if self.writer.target_path is None:
            self.writer.target_path = frame.f_code.co_filename
        tracer = FrameTracer(self, inv, linemap)
        self._active[frame] = tracer
        return tracer

    def _linemap(self, path):
        linemap = self._linemaps.get(path)
        if linemap is None:
            try:
                with open(path, encoding="utf-8") as handle:
                    linemap = LineMap(handle.read(), path)
            except (OSError, SyntaxError, ValueError):
                linemap = IdentityLineMap()
            self._linemaps[path] = linemap
        return linemap

    def snapshot(self, frame):
        if self.variables is None:
            return None
        local = frame.f_locals
        return {name: safe_repr(local[name]) if name in local else "<unbound>" for name in self.variables}

    def leave(self, frame, tracer, kind):
        self._active.pop(frame, None)
        if kind == "yield":
            self._suspended[frame] = tracer
        else:
            self.writer.invocations[tracer.inv - 1]["outcome"] = kind


class IdentityLineMap:
    def stmt_line(self, line):
        return line


class FrameTracer:
    """Local tracer of one target invocation (one frame)."""

    __slots__ = ("rec", "inv", "linemap", "last_line", "last_lasti", "pending")

    def __init__(self, rec, inv, linemap):
        self.rec, self.inv, self.linemap = rec, inv, linemap
        self.last_line, self.last_lasti = None, -1
        self.pending = []  # [event, exception object] not yet known caught/propagated

    def __call__(self, frame, event, arg):
        rec = self.rec
        if rec.stopped:
            return None
        line = self.linemap.stmt_line(frame.f_lineno)
        if event == "line":
            lasti = frame.f_lasti
            if line == self.last_line and lasti > self.last_lasti:
                self.last_lasti = lasti  # same statement, later physical line
                return self
            self.last_line, self.last_lasti = line, lasti
            rec.emit(["line", self.inv, line, rec.snapshot(frame)])
        elif event == "exception":
            exc_type, exc, _tb = arg
            record = ["exception", self.inv, line, type_name(exc_type), safe_str(exc), None]
            if rec.emit(record):
                self.pending.append([record, exc])
            self.last_line = None
        elif event == "return":
            kind = frames.exit_kind(frame)
            if kind == "unwind":
                rec.emit(["unwind", self.inv, line, rec.snapshot(frame)])
            else:
                rec.emit([kind, self.inv, line, safe_repr(arg), rec.snapshot(frame)])
            if kind != "yield":
                self._settle(kind)
            rec.leave(frame, self, kind)
        return self

    def _settle(self, kind):
        """An exception was caught in this frame unless it is the one unwinding it."""
        escaping = self.pending[-1][1] if kind == "unwind" and self.pending else None
        for record, exc in self.pending:
            record[5] = exc is not escaping
        self.pending = []  # drop references to exceptions (and their tracebacks)
