"""The trace record format, shared by every backend and by the queries.

A trace is one JSON object:

    format, tracer_version, backend ("settrace" | "monitoring"), python,
    target {file, function}, target_path (absolute path of the traced file),
    status ("ok" | "invalid"), reason (why invalid, else null),
    invocations: [{inv, test, depth, thread, module, path, outcome, site?}],
    events: [[kind, ...fields]] in chronological order (see EVENT_FIELDS).

Lines are statement lines (see linemap.py). `inv` numbers invocations from 1
in the order of their call events. `outcome` is "return", "unwind" or null
(still running or suspended when the process ended; or not recorded: an
invocation past `events_through`, present only when the questions read the
events of invocations 1..N alone, is listed but nothing else of it is).
`executed` lists, in order of first start, the functions of the target's
top-level package that started while a recorded invocation was on the stack (the
prompt's slice; not a question's answer): [{file, func, qualname,
first_line, path}].
`value_cap` is the cap (characters) of every rendered value and exception
message; `cut_values` lists, sorted, each distinct text that was cut at it
(a cut text is never an answer: see queries.shared.ensure_uncut).
`call_counts` (only when a question counts calls) maps each dotted function
name asked about to the number of its frames that started anywhere in the
run, under the target or not (resumptions and comprehension frames excluded);
`call_counts_by_test` the same per test id that counted any (`<process>`
before the first test), so a run of many copies (a variant search) answers
each copy by its own tests.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from collections.abc import Collection, Iterator
from typing import Any

from .. import TRACE_FORMAT, VERSION

EVENT_FIELDS = {
    "line": ["inv", "line", "locals"],
    "exception": ["inv", "line", "type", "message", "caught"],
    "return": ["inv", "line", "value", "locals"],
    "yield": ["inv", "line", "value", "locals"],
    "unwind": ["inv", "line", "locals"],
    "resume": ["inv", "line"],
    "call": ["owners", "file", "func", "caller", "line"],
    "store": ["inv", "line", "name", "phys"],
    "load": ["inv", "line", "name", "phys"],
    "delete": ["inv", "line", "name", "phys"],
    "nested_load": ["inv", "line", "name", "phys"],
}
"""Fields after the kind. `locals` is {variable: repr} or null when not asked
for; `caught` is true/false/null (frame never finished); `owners` lists
[inv, depth] for every invocation on the stack (depth 1 = direct callee);
`caller` is the calling frame's dotted name and `line` its call-site line;
`phys` is the physical line of a load, store or delete (`line` is its
statement's first line); a `nested_load` is a read of the target's variable
from a scope nested in it (recorded only when a question counts those)."""


class TraceWriter:
    def __init__(self, path: str, target: dict[str, str], backend: str) -> None:
        self.path = path
        self.target = target
        self.backend = backend
        self.target_path = None
        self.reason = None
        self.invocations = []
        self.events = []
        self.executed = []
        self.value_cap = 0
        self.cut_values: set[str] = set()  # rendered values cut at value_cap
        self.call_counts = None  # {dotted name: starts} of the functions a call-count question names
        self.call_counts_by_test: dict[str, dict[str, int]] = {}  # the same per test id, the counted ones only
        self.retry_from_start = False  # a deferred start found a target module imported: run again
        self.overflowed_tests: set[str] = set()  # tests past the recorder's per-test event cap (a search)
        self.reference_seconds: float | None = None  # the slowest reference test's CPU seconds (a search's chunk 0)
        self.events_through: int | None = None  # events recorded for invocations 1..N only (Recorder)

    def document(self) -> dict[str, Any]:
        return {
            "format": TRACE_FORMAT,
            "tracer_version": VERSION,
            "backend": self.backend,
            "python": sys.version,
            "target": self.target,
            "target_path": self.target_path,
            "status": "invalid" if self.reason else "ok",
            "reason": self.reason,
            "event_fields": EVENT_FIELDS,
            "invocations": self.invocations,
            "events": self.events,
            "executed": self.executed,
            "value_cap": self.value_cap,
            "cut_values": sorted(self.cut_values),
            **({"call_counts": self.call_counts, "call_counts_by_test": self.call_counts_by_test}
               if self.call_counts is not None else {}),
            **({"retry_from_start": True} if self.retry_from_start else {}),
            **({"overflowed_tests": sorted(self.overflowed_tests)} if self.overflowed_tests else {}),
            **({"reference_seconds": self.reference_seconds} if self.reference_seconds is not None else {}),
            **({"events_through": self.events_through} if self.events_through else {}),
        }

    def write(self) -> None:
        temporary = self.path + ".part"
        # json.dumps runs the C encoder in one shot; json.dump would encode
        # chunk by chunk in pure Python (several times slower on big traces).
        text = json.dumps(self.document(), separators=(",", ":"))
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temporary, self.path)


def load(path: str) -> dict[str, Any]:
    """The trace at `path`: a regular file, not followed through a symlink (the tests could have made one)."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise ValueError("the trace is not a regular file")
    with os.fdopen(fd, "rb") as handle:
        trace = json.loads(handle.read())
    if trace.get("format") != TRACE_FORMAT:
        raise ValueError("unknown trace format {!r}".format(trace.get("format")))
    return trace


def _index(trace: dict[str, Any]) -> dict[Any, list[list[Any]]]:
    """Events by kind and by (kind, invocation), in trace order; built once per loaded trace."""
    index = trace.get("_index")
    if index is None:
        index = {}
        for event in trace["events"]:
            index.setdefault(event[0], []).append(event)
            if isinstance(event[1], int):  # call events carry their owners' list instead
                index.setdefault((event[0], event[1]), []).append(event)
        trace["_index"] = index
    return index


def events_of(trace: dict[str, Any], kinds: Collection[str], inv: int | None = None) -> Iterator[list[Any]]:
    """Events of the given kinds (for one invocation when `inv` is given), in trace order."""
    kinds = tuple(kinds)
    if len(kinds) != 1 or (inv is not None and kinds[0] == "call"):
        for event in trace["events"]:
            if event[0] in kinds and (inv is None or event[1] == inv):
                yield event
        return
    index = _index(trace)
    yield from index.get(kinds[0] if inv is None else (kinds[0], inv), ())
