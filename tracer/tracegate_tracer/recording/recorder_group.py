"""The recorders of one test run behind one set of interpreter hooks (a backend subclasses RecorderGroup).

One test run can record several targets: the group owns the interpreter
hooks and hands each event to the recorders it concerns, so every recorder
sees exactly the events it would see alone and writes the same trace
(tests/test_shared_runs.py checks it). A lone target is a group of one.
"""

from __future__ import annotations

import os
import sys

from .recorder import Recorder


class RecorderGroup:
    """The recorders of one run behind one set of interpreter hooks (a backend subclasses it)."""

    backend = "?"

    def __init__(self, members: list[Recorder]) -> None:
        if not members:
            raise ValueError("a recorder group needs at least one recorder")
        self.members = members
        self.stopped = False
        self._pid = os.getpid()

    @property
    def test_id(self) -> str:
        return self.members[0].test_id

    @test_id.setter
    def test_id(self, value: str) -> None:
        for member in self.members:
            member.test_id = value

    deferred = False
    """Set when the hooks wait for tracegate's pytest plugin (sitecustomize, config `defer`)."""

    def install(self) -> None:
        raise NotImplementedError

    def uninstall(self) -> None:
        raise NotImplementedError

    def imported_targets(self) -> list[str]:
        """Target files whose module is already imported (so code of it may have run before the hooks)."""
        suffixes = {member.suffix for member in self.members}
        found = set()
        for module in list(sys.modules.values()):
            path = str(getattr(module, "__file__", None) or "").replace("\\", "/")
            found.update(suffix for suffix in suffixes if path.endswith(suffix))
        return sorted(s.lstrip("/") for s in found)

    def retry_from_start(self, files: list[str]) -> None:
        """This run cannot be trusted: every trace says so, and asks for a run traced from the start."""
        for member in self.members:
            member.stop(f"{', '.join(files)} imported before tracing began")
            member.writer.retry_from_start = True
        self.stopped = True

    def tracer_intact(self) -> str | None:
        """None when our hooks are in place, else a description of the intruder."""
        return None

    def check_tracer(self) -> None:
        """Marks every trace invalid when another tool replaced our hooks."""
        if not self.stopped:
            intruder = self.tracer_intact()
            if intruder is not None:
                for member in self.members:
                    member.stop(f"another tracer replaced tracegate's ({intruder})")
                self.stopped = True
                self.uninstall()

    def dump(self) -> None:
        if os.getpid() != self._pid:
            return  # a forked child: the parent writes the traces
        self.check_tracer()
        self.stopped = True
        self.uninstall()
        for member in self.members:
            member.stopped = True
            member.writer.write()
