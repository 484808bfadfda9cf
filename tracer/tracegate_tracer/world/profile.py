"""W4's instrumented run: exclusive time and allocations per function and per line of the repository.

A settrace hook gets a local tracer only in frames of repository code (files
under `scope`); it keeps a stack of those frames. At every event the time
since the previous event, and the growth of tracemalloc's traced memory
since then (growth only: frees are not subtracted), go to the frame on top
of that stack and to its current line. Code outside the repository reports
no events of its own, so its time and allocations go to the repository frame
that called it, and a repository function called back from outside it (a
`sorted` key, a callback) gets its own. Lines are statement lines
(linemap.py), as in every other kind; what happens between a call and the
frame's first line counts for the function only. The profiler's own
allocations are kept to one string per line seen (tracemalloc counts them).
"""

from __future__ import annotations

import os
import sys
import threading
import time
import tracemalloc
from types import CodeType, FrameType
from typing import Any

from ..recording import frames
from ..recording.linemap import for_code

TOP = 20
MAX_EXECUTED = 2000


class Profiler:
    def __init__(self, scope: str, instance_dir: str) -> None:
        self.scope = os.path.abspath(scope)
        self.prefix = self.scope if self.scope.endswith(".py") else self.scope.rstrip(os.sep) + os.sep
        self.name_file = frames.FileNamer(instance_dir)
        self._codes: dict[CodeType, tuple[str, str, Any] | None] = {}
        self.stack: list[list[Any]] = []  # [func, line key, code entry] of repository frames
        self.time_func: dict[str, int] = {}
        self.time_line: dict[str, int] = {}
        self.alloc_func: dict[str, int] = {}
        self.alloc_line: dict[str, int] = {}
        self._keys: dict[tuple[str, int], str] = {}
        self._t = self._m = 0
        self._started_tracemalloc = False

    # -- hooks ------------------------------------------------------------------

    def start(self) -> None:
        if not tracemalloc.is_tracing():
            tracemalloc.start()
            self._started_tracemalloc = True
        self._t, self._m = time.perf_counter_ns(), tracemalloc.get_traced_memory()[0]
        sys.settrace(self._global)
        threading.settrace(self._global)

    def stop(self) -> None:
        sys.settrace(None)
        threading.settrace(None)
        self._credit()
        if self._started_tracemalloc:
            tracemalloc.stop()

    def _credit(self) -> None:
        now, memory = time.perf_counter_ns(), tracemalloc.get_traced_memory()[0]
        spent, grown = now - self._t, memory - self._m
        self._t, self._m = now, memory
        if self.stack:
            func, line, _entry = self.stack[-1]
            self.time_func[func] = self.time_func.get(func, 0) + spent
            if grown > 0:
                self.alloc_func[func] = self.alloc_func.get(func, 0) + grown
            if line is not None:  # None between the call and the frame's first line (the `def` line is no line)
                self.time_line[line] = self.time_line.get(line, 0) + spent
                if grown > 0:
                    self.alloc_line[line] = self.alloc_line.get(line, 0) + grown

    def _entry(self, frame: FrameType) -> tuple[str, str, Any] | None:
        code = frame.f_code
        try:
            return self._codes[code]
        except KeyError:
            pass
        entry = None
        path = os.path.abspath(code.co_filename)
        if not code.co_name.startswith("<") and (path == self.scope or path.startswith(self.prefix)):
            try:
                with open(code.co_filename, encoding="utf-8") as handle:
                    linemap = for_code(code, handle.read(), code.co_filename)
            except (OSError, SyntaxError, ValueError):
                linemap = None
            entry = (frames.dotted_name(frame), self.name_file(code.co_filename), linemap)
        self._codes[code] = entry
        return entry

    def _line_key(self, entry: tuple[str, str, Any], line: int) -> str:
        """`file:statement line`, made once per physical line (the profiler's own allocations stay few)."""
        key = (entry[1], line)
        found = self._keys.get(key)
        if found is None:
            linemap = entry[2]
            found = self._keys[key] = f"{entry[1]}:{linemap.stmt_line(line) if linemap is not None else line}"
        return found

    def _global(self, frame: FrameType, event: str, arg: Any) -> Any:
        self._credit()
        if event != "call":
            return None
        entry = self._entry(frame)
        if entry is None:
            return None
        self.stack.append([entry[0], None, entry])
        return self._local

    def _local(self, frame: FrameType, event: str, arg: Any) -> Any:
        self._credit()
        if not self.stack:
            return None
        if event == "line":
            top = self.stack[-1]
            top[1] = self._line_key(top[2], frame.f_lineno)
        elif event == "return":
            self.stack.pop()
        return self._local

    # -- the answer's material ----------------------------------------------------

    def result(self) -> dict[str, Any]:
        """Ranked lists (largest first, ties by name) and every name that ran, with its value."""
        def ranked(values: dict[str, int]) -> list[list[Any]]:
            return [[name, value] for name, value in sorted(values.items(), key=lambda kv: (-kv[1], kv[0]))]

        return {
            "time_func": ranked(self.time_func)[:MAX_EXECUTED],
            "time_line": ranked(self.time_line)[:MAX_EXECUTED],
            "alloc_func": ranked(self.alloc_func)[:MAX_EXECUTED],
            "alloc_line": ranked(self.alloc_line)[:MAX_EXECUTED],
        }
