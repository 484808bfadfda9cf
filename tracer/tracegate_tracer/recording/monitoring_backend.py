"""The sys.monitoring backend (PEP 669, Python >= 3.12).

Events are enabled per code object only where the query needs them:

* PY_START is global only to discover target code objects: the first start
  of any other code object returns DISABLE, so it never reports again;
* a target code object gets LINE, JUMP (a backward jump within one line is a
  new line event, as settrace reports it), PY_RETURN, PY_YIELD, PY_RESUME,
  and INSTRUCTION only when names are tracked (any instruction that is not a
  load/store of a tracked name returns DISABLE after its first execution);
* RAISE, PY_UNWIND and PY_THROW can only be global; their callbacks ignore
  other code with one dict look-up;
* a second tool enables PY_START globally only while an invocation is on the
  stack: for call questions every start, else only until each code object has
  been noted for the prompt's slice (then DISABLE).

It writes the same trace as the settrace backend, event for event.

The hooks belong to a MonitoringGroup (one pair of tool ids per run, however
many targets it records); it finds the frame once per event and hands it to
the recorders the event concerns: local events and exceptions to the
recorders whose target the code is, starts seen by the second tool to every
recorder. A callback returns DISABLE only when every recorder it asked would.
"""

from __future__ import annotations

import sys
from types import CodeType
from typing import Any

from .monitoring_recorder import CodeObjects, M, MonitoringRecorder
from .recorder_group import RecorderGroup

TOOL_NAME = "tracegate"
_PREFERRED_IDS = (4, 3, 2, 1, 0, 5)


def _free_tool_id(taken: tuple[int, ...] = ()) -> int:
    for tool in _PREFERRED_IDS:
        if tool not in taken and M.get_tool(tool) is None:
            return tool
    raise RuntimeError("no free sys.monitoring tool id")


class MonitoringGroup(RecorderGroup):
    backend = "monitoring"

    def __init__(self, members: list[MonitoringRecorder]) -> None:
        super().__init__(members)
        self.tool = None
        self.calls_tool = None
        # Changing a tool's global events re-instruments code and drops the
        # local INSTRUCTION events dataflow needs (CPython 3.12/3.13): with
        # names tracked, the global events stay as installed for the whole run.
        self._fixed = any(member.tracked for member in members)
        self._owners: dict[CodeType, tuple[MonitoringRecorder, ...]] = {}  # code -> recorders targeting it
        self._local: dict[CodeType, dict[MonitoringRecorder, int]] = {}  # code -> local events each recorder wants
        self._nested: dict[CodeType, tuple[MonitoringRecorder, ...]] = {}  # nested scope -> recorders reading it
        self._counting = tuple(member for member in members if member.counted is not None)
        # Targets are found as their module runs (the `exec` audit event) and get a local PY_START; a global
        # one would instrument and call back once for every code object of the run. Counted calls need it.
        self._discover = not self._counting
        self._armed = CodeObjects()
        self._suffixes = tuple({member.suffix for member in members})
        self._events = (0, 0)  # the global events set: (this tool's, the second tool's)
        for member in members:
            member.group = self

    def install(self) -> None:
        E = M.events
        self.tool = _free_tool_id()
        M.use_tool_id(self.tool, TOOL_NAME)
        register = lambda event, fn: M.register_callback(self.tool, event, fn)  # noqa: E731
        register(E.PY_START, self._on_start)
        register(E.PY_RESUME, self._on_resume)
        register(E.PY_THROW, self._on_throw)
        register(E.PY_RETURN, self._on_return)
        register(E.PY_YIELD, self._on_yield)
        register(E.PY_UNWIND, self._on_unwind)
        register(E.RAISE, self._on_raise)
        register(E.LINE, self._on_line)
        register(E.JUMP, self._on_jump)
        register(E.INSTRUCTION, self._on_instruction)
        # Calls questions and the prompt's slice (functions executed under an invocation).
        self.calls_tool = _free_tool_id(taken=(self.tool,))
        M.use_tool_id(self.calls_tool, TOOL_NAME + "-calls")
        M.register_callback(self.calls_tool, E.PY_START, self._on_any_start)
        if self._discover:
            sys.addaudithook(self._on_audit)  # for the process's life: it does nothing once uninstalled
        self.events_changed()

    def uninstall(self) -> None:
        for tool in (self.tool, self.calls_tool):
            if tool is not None and M.get_tool(tool) is not None:
                M.set_events(tool, 0)
                M.free_tool_id(tool)
        self.tool = self.calls_tool = None

    def tracer_intact(self) -> str | None:
        if self.tool is None or M.get_tool(self.tool) != TOOL_NAME:
            return f"sys.monitoring tool {self.tool} is {self.tool is not None and M.get_tool(self.tool)!r}"
        return None

    def instrument(self, code: CodeType, member: MonitoringRecorder, events: int) -> None:
        """The local events `member` wants of a code object (it gets the union, should two recorders want it)."""
        self._local.setdefault(code, {})[member] = events
        self._set_local(code)

    def _set_local(self, code: CodeType) -> None:
        union = M.events.PY_START if code in self._armed else 0
        for each in self._local.get(code, {}).values():
            union |= each
        M.set_local_events(self.tool, code, union)

    def instrument_nested(self, code: CodeType, member: MonitoringRecorder) -> None:
        """INSTRUCTION events for a scope nested in `member`'s target (reads of the target's variables)."""
        readers = self._nested.get(code, ())
        if member not in readers:
            self._nested[code] = readers + (member,)
        self.instrument(code, member, M.events.INSTRUCTION)

    def events_changed(self) -> None:
        """The global events follow the recorders' state. Exceptions (RAISE, PY_UNWIND, PY_THROW: global
        only) matter while a recorded invocation runs or is suspended; the second tool reports starts while
        one runs; this tool's PY_START is global only when calls are counted."""
        if self.tool is None:
            return
        E = M.events
        running = any(member._active for member in self.members)
        exceptions = self._fixed or running or any(member._suspended for member in self.members)
        wanted = ((0 if self._discover else E.PY_START) | (E.RAISE | E.PY_UNWIND | E.PY_THROW if exceptions else 0),
                  E.PY_START if self._fixed or running else 0)
        if wanted != self._events:
            if wanted[0] != self._events[0]:
                M.set_events(self.tool, wanted[0])
            if wanted[1] != self._events[1]:
                M.set_events(self.calls_tool, wanted[1])
            self._events = wanted

    def _on_audit(self, event: str, args: tuple[Any, ...]) -> None:
        """A module's code object about to run (`exec`): its target functions get a local PY_START."""
        if event != "exec" or self.tool is None or not args:
            return
        code = args[0]
        if not isinstance(code, CodeType) or not code.co_filename.replace("\\", "/").endswith(self._suffixes):
            return
        pending = [code]
        while pending:
            code = pending.pop()
            pending.extend(const for const in code.co_consts if isinstance(const, CodeType))
            owners = tuple(member for member in self.members if member.info(code) is not None)
            if owners and code not in self._armed:
                self._owners[code] = owners
                self._armed.add(code)
                self._set_local(code)

    # -- callbacks: find the frame once, ask the recorders concerned ----------

    def _on_any_start(self, code: CodeType, offset: int) -> object:
        frame = sys._getframe(1)
        keep = False
        for member in self.members:
            keep |= member.any_start(frame, code) is not M.DISABLE
        return None if keep else M.DISABLE

    def _on_start(self, code: CodeType, offset: int) -> object:
        owners = self._owners.get(code)
        if owners is None:
            owners = self._owners[code] = tuple(m for m in self.members if m.info(code) is not None)
        counted = False
        if self._counting:
            frame = sys._getframe(1)
            for member in self._counting:
                counted |= member.count_start(frame, code)
        if not owners:
            return None if counted else M.DISABLE
        frame = sys._getframe(1)
        for member in owners:
            member.start(frame, code)
        return None

    def _on_resume(self, code: CodeType, offset: int) -> object:
        frame = sys._getframe(1)
        for member in self._owners.get(code, ()):
            member.resumed(frame)
        return None

    def _on_throw(self, code: CodeType, offset: int, exc: BaseException) -> None:
        owners = self._owners.get(code)
        if owners:
            frame = sys._getframe(1)
            for member in owners:
                member.resumed(frame)

    def _on_return(self, code: CodeType, offset: int, value: object) -> None:
        frame = sys._getframe(1)
        for member in self._owners.get(code, ()):
            member.exited(frame, "return", value)

    def _on_yield(self, code: CodeType, offset: int, value: object) -> None:
        frame = sys._getframe(1)
        for member in self._owners.get(code, ()):
            member.exited(frame, "yield", value)

    def _on_unwind(self, code: CodeType, offset: int, exc: BaseException) -> None:
        owners = self._owners.get(code)
        if owners:
            frame = sys._getframe(1)
            for member in owners:
                member.exited(frame, "unwind", None)

    def _on_raise(self, code: CodeType, offset: int, exc: BaseException) -> None:
        owners = self._owners.get(code)
        if owners:
            frame = sys._getframe(1)
            for member in owners:
                member.raised(frame, exc)

    def _on_line(self, code: CodeType, line: int) -> object:
        frame = sys._getframe(1)
        for member in self._owners.get(code, ()):
            member.line_at(frame, line)
        return None

    def _on_jump(self, code: CodeType, source: int, destination: int) -> object:
        if destination > source:
            return M.DISABLE
        frame = sys._getframe(1)
        keep = False
        for member in self._owners.get(code, ()):
            keep |= member.jumped(frame, code, source, destination) is not M.DISABLE
        return None if keep else M.DISABLE

    def _on_instruction(self, code: CodeType, offset: int) -> object:
        frame = sys._getframe(1)
        keep = False
        for member in self._owners.get(code, ()):
            keep |= member.instruction(frame, code, offset) is not M.DISABLE
        for member in self._nested.get(code, ()):
            keep |= member.nested_instruction(frame, code, offset) is not M.DISABLE
        return None if keep else M.DISABLE
