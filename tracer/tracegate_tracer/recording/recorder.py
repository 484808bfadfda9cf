"""Backend-neutral recording: invocations of one target function.

A backend (settrace_backend.py below 3.12, monitoring_backend.py on 3.12+)
turns interpreter events into calls of the methods below and of each
Invocation's (invocation.py); everything that decides what lands in the trace
is there, once, so that both backends write byte-identical traces for the
same run (tests/test_backends.py checks it). The recorders of one run share
its interpreter hooks (recorder_group.py).
"""

from __future__ import annotations

import itertools
import os
import threading
from types import CodeType, FrameType
from typing import Any

from ..prompt.locate import package_scope
from . import frames
from .codeinfo import CodeInfo, NestedInfo, nested_codes
from .invocation import Invocation
from .linemap import IdentityLineMap, LineMap, for_code
from .trace import TraceWriter
from .values import MAX_REPR, render

DEFAULT_MAX_EVENTS = 2_000_000
ACTIVE = None  # the Recorder of this process, set by sitecustomize


class Recorder:
    backend = "?"

    def __init__(self, config: dict[str, Any]) -> None:
        target = config["target"]
        self.target = {"file": target["file"], "function": target["function"]}
        self.suffix = "/" + target["file"].replace("\\", "/").lstrip("/")  # what a target's co_filename ends with
        self.record_calls = bool(config.get("record_calls"))
        self.variables = list(config.get("variables") or ()) or None
        self.tracked = frozenset(config.get("dataflow") or ()) or None
        # Functions whose every start is counted, from any caller (call-count questions).
        # Reads of the target's variables from nested scopes (SWE-Flux's convention): code -> NestedInfo.
        self.nested = bool(config.get("dataflow_nested")) and self.tracked is not None
        self.nested_infos = {}
        self.counted = frozenset(config.get("count_calls") or ()) or None
        # Every line event as the interpreter reports it, `["raw", inv, physical line]` (M1 `lines: "physical"`).
        self.raw_lines = bool(config.get("raw_lines"))
        self._count_names = {}  # code -> its dotted name when counted, else None
        self.max_events = int(config.get("max_events") or DEFAULT_MAX_EVENTS)
        # The last invocation whose events a question reads (queries: a rule that reads only the invocation
        # its query names). Once invocations 1..N have all finished, the recording goes quiet: each later
        # invocation is listed (its `outcome` null), counted as one event against `max_events`, and nothing
        # else of it is recorded, nor what runs under it (a target run 6,000 times pays for the one asked
        # about; the prompt's slice is what ran under the invocations recorded).
        self.events_through = int(config.get("events_through") or 0) or None
        self.quiet = False
        self._quiet_count = 0
        # A variant search (search.py): a test past this many events loses the rest of its events and is
        # listed in the trace's `overflowed_tests` (its candidate is dropped), instead of ending the trace.
        self.max_test_events = int(config.get("max_test_events") or 0)
        self._test_events = 0
        # A variant search's scout run (search.py): each invocation's call site in the test files, as the
        # outermost frame of one of them (the test function's statement that led to the target).
        self.site_files = {str(k): str(v) for k, v in (config.get("site_files") or {}).items()}
        # A variant search's run (search.py): what runs before the first test (a test module's import, at
        # collection) is noted with the file of the copy whose code led to it, so each copy gets its own.
        self.copy_marker = str(config.get("copy_marker") or "") or None
        self._counting = "<process>"
        self.max_value = int(config.get("max_value_chars") or MAX_REPR)
        self.name_file = frames.FileNamer(config.get("instance_dir") or os.getcwd(), config.get("repo_root"))
        self.writer = TraceWriter(config["trace_path"], self.target, self.backend)
        self.writer.value_cap = self.max_value
        self.writer.events_through = self.events_through
        self.test_id = "<process>"
        self.stopped = False
        self._infos = {}  # code -> CodeInfo, or None when not a target
        self._active = {}  # frame -> Invocation, while it runs
        self._suspended = {}  # frame -> Invocation of a suspended generator
        self._linemaps = {}
        self._numbers = itertools.count(1)
        self.instance_dir = os.path.abspath(config.get("instance_dir") or os.getcwd())
        self._scope = None  # absolute path prefix of the slice's files, set at the first invocation
        self._slice_seen = {}  # code -> True (recorded or out of scope for the slice)
        self.writer.executed = []
        if self.counted:
            self.writer.call_counts = dict.fromkeys(sorted(self.counted), 0)

    def stop(self, reason: str) -> None:
        """This recording ends (its trace is invalid, with `reason`); the run's other recordings go on."""
        if self.writer.reason is None:
            self.writer.reason = reason
        self.stopped = True

    def emit(self, event: list[Any]) -> bool:
        if self.quiet:
            return False
        events = self.writer.events
        if self.max_test_events:
            if self.test_id != self._counting:
                self._counting, self._test_events = self.test_id, 0
            self._test_events += 1
            if self._test_events > self.max_test_events:
                self.writer.overflowed_tests.add(self.test_id)
                return False
        if len(events) >= self.max_events:
            self.stop(f"trace overflow: more than {self.max_events} events")
            return False
        events.append(event)
        return True

    # -- what backends call -------------------------------------------------

    def info(self, code: CodeType) -> CodeInfo | None:
        """The CodeInfo of a target code object, None for any other code."""
        try:
            return self._infos[code]
        except KeyError:
            pass
        info = None
        if code.co_qualname == self.target["function"] and code.co_filename.replace("\\", "/").endswith(self.suffix):
            linemap = self._linemap(code)
            info = CodeInfo(code, linemap, self.tracked, self.nested)
            if self.nested:
                for child, owned in nested_codes(code, self.tracked).items():
                    nested = NestedInfo(child, linemap, owned)
                    if nested.accesses:
                        self.nested_infos[child] = nested
        self._infos[code] = info
        return info

    def begin(self, frame: FrameType, info: CodeInfo) -> Invocation | None:
        """A target frame starts: a new invocation (listed only, None, once the recording is quiet)."""
        inv = next(self._numbers)
        depth, walker, site, nested = 0, frame, None, False
        sites = self.site_files
        while walker is not None:
            depth += 1
            if sites and walker.f_code.co_filename in sites:
                site = [sites[walker.f_code.co_filename], walker.f_lineno]
            nested = nested or (walker is not frame and walker in self._active)
            walker = walker.f_back
        copy = self._copy_of(frame) if self.copy_marker and self.test_id == "<process>" else None
        self.writer.invocations.append({
            "inv": inv, "test": self.test_id, "depth": depth,
            **({"copy": copy} if copy else {}),  # a search's copy whose import led here (splice.split)
            **({"nested": True} if nested else {}),  # started while another invocation ran (recursion)
            "thread": threading.current_thread().name,
            "module": frame.f_globals.get("__name__"),
            "path": frame.f_code.co_filename, "outcome": None,
            **({"site": site} if sites else {}),
        })
        if self.writer.target_path is None:
            self.writer.target_path = frame.f_code.co_filename
            self._scope = self._slice_scope(frame.f_code.co_filename)
        if self.quiet:
            self._quiet_count += 1
            if len(self.writer.events) + self._quiet_count > self.max_events:
                self.stop(f"trace overflow: more than {self.max_events} events")
            return None
        invocation = Invocation(self, inv, info)
        self._active[frame] = invocation
        if self.tracked:
            for name in info.params:  # parameters are defined at the `def` line
                if name in self.tracked:
                    self.emit(["store", inv, info.def_line, name, info.def_line])
        return invocation

    def _copy_of(self, frame: FrameType) -> str | None:
        """The innermost file on the stack that is a search's copy (its name holds the copy marker); None
        when an import lies between (a package the copy imports runs its own code once, for every copy)."""
        marker = self.copy_marker
        walker = frame
        while walker is not None:
            name = walker.f_code.co_filename
            if marker in name:
                return name
            if name.startswith("<frozen importlib"):
                return None
            walker = walker.f_back
        return None

    def resume(self, frame: FrameType) -> Invocation | None:
        """A suspended target generator continues; None if it was not suspended."""
        invocation = self._suspended.pop(frame, None)
        if invocation is not None:
            self._active[frame] = invocation
            invocation.last_line = None
            self.emit(["resume", invocation.inv, invocation.info.stmt_line(frame.f_lineno)])
        return invocation

    def enclosing(self, frame: FrameType) -> Invocation | None:
        """The innermost invocation on the stack below a nested scope's frame (None once it returned)."""
        walker, active = frame.f_back, self._active
        while walker is not None:
            invocation = active.get(walker)
            if invocation is not None:
                return invocation
            walker = walker.f_back
        return None

    def leave(self, frame: FrameType, invocation: Invocation, kind: str) -> None:
        self._active.pop(frame, None)
        if kind == "yield":
            self._suspended[frame] = invocation
        else:
            self.writer.invocations[invocation.inv - 1]["outcome"] = kind
            if self.events_through and not self.quiet and invocation.inv <= self.events_through:
                listed = self.writer.invocations
                if len(listed) >= self.events_through and all(
                        record["outcome"] is not None for record in listed[:self.events_through]):
                    self.quiet = True
                    self._active.clear()  # later invocations running now (another thread, a suspended
                    self._suspended.clear()  # generator) are not recorded further either
                    self.quieted()

    def quieted(self) -> None:
        """The recording has gone quiet (`events_through`): a backend turns off what it no longer needs."""

    def count_start(self, frame: FrameType, code: CodeType) -> bool:
        """A frame of `code` starts (not a resumption), anywhere in the run: counted when its function
        is asked about. True when `code` is counted. A comprehension's frame (3.11; 3.12+ runs them
        inline) is counted when asked by its name (`mod.f.<locals>.<listcomp>`), as SWE-Flux counts it."""
        try:
            name = self._count_names[code]
        except KeyError:
            dotted = frames.dotted_name(frame)
            name = self._count_names[code] = dotted if dotted in self.counted else None
        if name is None:
            return False
        if not self.stopped:
            self.writer.call_counts[name] += 1
            test = self.test_id
            if self.copy_marker and test == "<process>":
                copy = self._copy_of(frame)
                test = f"<process>@{copy}" if copy else test  # splice.split reads the copy's mark in it
            per_test = self.writer.call_counts_by_test.setdefault(test, {})
            per_test[name] = per_test.get(name, 0) + 1
        return True

    def record_call(self, frame: FrameType) -> None:
        """`frame` starts while some invocation is on the stack: a call event.

        Comprehension frames (3.11) are neither calls nor callers nor a level
        of depth: from 3.12 they are inlined, and answers must not differ.
        """
        comprehensions = frames.COMPREHENSIONS
        if frame.f_code.co_name in comprehensions:
            return
        caller = frame.f_back
        while caller is not None and caller.f_code.co_name in comprehensions:
            caller = caller.f_back
        owners, depth = [], 0
        walker, remaining = caller, len(self._active)
        while walker is not None and remaining:
            if walker.f_code.co_name not in comprehensions:
                depth += 1
            invocation = self._active.get(walker)
            if invocation is not None:
                owners.append([invocation.inv, depth])
                remaining -= 1
            walker = walker.f_back
        if owners:
            line = caller.f_lineno
            invocation = self._active.get(caller)
            if invocation is not None:
                line = invocation.info.stmt_line(line)
            file = self.name_file(frame.f_code.co_filename)
            self.emit(["call", owners, file, frames.dotted_name(frame), frames.dotted_name(caller), line])

    # -- the prompt's slice: functions executed under an invocation -----------

    def _slice_scope(self, target_path: str) -> str:
        """Where the slice's functions may live: the target's top-level package (locate.package_scope)."""
        return package_scope(target_path, self.suffix.lstrip("/"), self.instance_dir)

    def note_executed(self, frame: FrameType) -> bool:
        """`frame` starts while some invocation runs: remember its function for the slice.

        True once the code object needs no further reports (recorded, or not a
        slice candidate); False while it must still be watched (it ran outside
        every invocation, e.g. in another thread).
        """
        code = frame.f_code
        seen = self._slice_seen.get(code)
        if seen is not None:
            return seen
        if (self._scope is None or code.co_name.startswith("<") or self.info(code) is not None
                or not self._in_scope(code.co_filename)):
            self._slice_seen[code] = True
            return True
        walker, active = frame.f_back, self._active
        while walker is not None:
            if walker in active:
                break
            walker = walker.f_back
        else:
            return False
        self._slice_seen[code] = True
        self.writer.executed.append({
            "file": self.name_file(code.co_filename), "func": frames.dotted_name(frame),
            "qualname": code.co_qualname, "first_line": code.co_firstlineno, "path": code.co_filename,
        })
        return True

    def note_out_of_scope(self, code: CodeType) -> bool:
        """True when `code` can never be a slice function (decided once)."""
        seen = self._slice_seen.get(code)
        if seen is not None:
            return seen
        if code.co_name.startswith("<") or self.info(code) is not None or not self._in_scope(code.co_filename):
            self._slice_seen[code] = True
            return True
        return False

    def _in_scope(self, path: str) -> bool:
        absolute = os.path.abspath(path)
        scope = self._scope
        return absolute.startswith(scope) if scope.endswith(os.sep) else absolute == scope

    def snapshot(self, frame: FrameType) -> dict[str, str] | None:
        if self.variables is None:
            return None
        local = frame.f_locals
        limit, cut = self.max_value, self.writer.cut_values
        return {name: render(local[name], limit, cut) if name in local else "<unbound>" for name in self.variables}

    def _linemap(self, code: CodeType) -> LineMap | IdentityLineMap:
        """The target function's LineMap (only its own lines are parsed)."""
        key = (code.co_filename, code.co_firstlineno)
        linemap = self._linemaps.get(key)
        if linemap is None:
            try:
                with open(code.co_filename, encoding="utf-8") as handle:
                    linemap = for_code(code, handle.read(), code.co_filename)
            except (OSError, SyntaxError, ValueError):
                linemap = IdentityLineMap()
            self._linemaps[key] = linemap
        return linemap
