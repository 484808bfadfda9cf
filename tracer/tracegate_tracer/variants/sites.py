"""Where each searched target is called from, taken from the original's run when the plan has it.

A variant search (search.py) aims its pool at the statements of the tests that reached the target (its
call sites). The original instance runs the same tests, unchanged, in the same plan (the host sends an
instance and its search together), so the driver has its runs record those sites, and the search reads
them here instead of running a scout of its own (one pytest process fewer per search). Where the
original's run did not record them (its oracle was cached, its run failed), the search scouts as before;
both see the same unchanged tests run, so both give the same sites.
"""

from __future__ import annotations

import json
import os
from typing import Any

from ..prompt.testfiles import test_files

Key = str


def key(spec: dict[str, Any]) -> Key:
    """One target reached by one list of tests in one instance directory (what a recording is, without limits)."""
    target = spec.get("target") or {}
    return json.dumps([os.path.abspath(str(spec.get("dir"))), list(spec.get("tests") or ()),
                       target.get("file"), target.get("function")])


class CallSites:
    """The plan's searched targets (`want`), and the call sites the originals' runs recorded for them."""

    def __init__(self) -> None:
        self.wanted: set[Key] = set()
        self.seen: dict[Key, list[tuple[str, int]]] = {}
        self.events: dict[Key, int] = {}  # events the original's run recorded for the target (search.py's chunks)

    def want(self, specs: list[dict[str, Any]]) -> None:
        """The plan's searches: the targets whose sites an original's run should record."""
        self.wanted.clear()
        self.seen.clear()
        self.events.clear()
        for spec in specs:
            if isinstance(spec, dict) and spec.get("variant_search") and not spec.get("cwd"):
                try:
                    self.wanted.add(key(spec))
                except (TypeError, ValueError):
                    continue

    def files(self, spec: dict[str, Any], run_dir: str) -> dict[str, str] | None:
        """The recorder's `site_files` for an original's recording (its test files by path), None if not wanted."""
        if spec.get("cwd") or spec.get("variant_epoch") is not None or key(spec) not in self.wanted:
            return None
        return {os.path.join(run_dir, name): name for name in test_files(spec.get("tests") or ())}

    def put(self, spec: dict[str, Any], trace: dict[str, Any] | None) -> None:
        """The sites an original's trace recorded (nothing when it has none: the search scouts)."""
        if not trace or trace.get("status") != "ok":
            return
        found = [(inv["site"][0], inv["site"][1]) for inv in trace.get("invocations") or ()
                 if isinstance(inv.get("site"), list) and len(inv["site"]) == 2]
        if any("site" in inv for inv in trace.get("invocations") or ()):
            self.seen[key(spec)] = found
            self.events[key(spec)] = len(trace.get("events") or ())

    def get(self, spec: dict[str, Any]) -> list[tuple[str, int]] | None:
        return self.seen.get(key(spec))

    def events_of(self, spec: dict[str, Any]) -> int:
        """Events the original's run recorded for the spec's target (0 when it did not record its sites)."""
        return self.events.get(key(spec), 0)


CALL_SITES = CallSites()
"""The driver's: harvest.py says what its plan searches, group.py records, search.py reads."""
