"""A search run's trace, cut per copy and completed per candidate (search.py answers each part).

One pytest process runs every copy of the test files (variant.py names them `__tgv<mark>`), so its trace holds
them all: `split` gives each copy its own invocations, numbered from 1 as in a run of its own, and its events,
with the copies' marks taken out of every text (module names and test ids read as the original's). A candidate
whose copy ran only the tests its edits can change (variant.touched) gets the unchanged copy's part for the
others (`spliced`).
"""

from __future__ import annotations

import json
from typing import Any

from . import variant


def mark_of(test_id: str) -> str | None:
    """The copy a test id belongs to (`o`, `3`), None for none."""
    found = variant.MARK_PATTERN.search(test_id.split("::", 1)[0])
    return found.group(1) if found else None


def split(recorded: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The trace of each copy: its invocations (renumbered from 1) and their events, marks taken out."""
    # Each invocation's copy: its test's, or (before the first test) that of the copy whose import led to
    # it (the recorder's `copy`); one outside every test and copy (a package's import, a session's end)
    # belongs to every copy, as it would to each one's own run.
    def mark_of_inv(inv: dict[str, Any]) -> str | None:
        return mark_of(str(inv.get("test") or "")) or mark_of(str(inv.get("copy") or ""))

    marks = list(dict.fromkeys(m for inv in recorded["invocations"] if (m := mark_of_inv(inv)) is not None))
    counted: dict[str, dict[str, dict[str, int]]] = {}
    common_counts: dict[str, dict[str, int]] = {}
    for test, counts in (recorded.get("call_counts_by_test") or {}).items():
        mark = mark_of(test)
        if mark is not None:
            counted.setdefault(mark, {})[test] = counts
        elif test.startswith("<process>"):
            common_counts[test] = counts
    marks += [m for m in counted if m not in marks]
    renumber: dict[str, dict[int, int]] = {mark: {} for mark in marks}
    invocations: dict[str, list[dict[str, Any]]] = {mark: [] for mark in marks}
    owners_of: dict[int, list[str]] = {}
    for inv in recorded["invocations"]:
        mark = mark_of_inv(inv)
        if mark is None and not str(inv.get("test") or "").startswith("<process>"):
            continue
        owners_of[inv["inv"]] = [mark] if mark is not None else marks
        for m in owners_of[inv["inv"]]:
            numbers = renumber[m]
            numbers[inv["inv"]] = len(numbers) + 1
            invocations[m].append(dict({k: v for k, v in inv.items() if k != "copy"}, inv=numbers[inv["inv"]]))
    events: dict[str, list[list[Any]]] = {mark: [] for mark in marks}
    for event in recorded["events"]:
        if event[0] == "call":
            owners = [o for o in event[1] if o[0] in owners_of]
            for mark in owners_of[owners[0][0]] if owners else ():
                kept = [[renumber[mark][o[0]], o[1]] for o in owners if o[0] in renumber[mark]]
                events[mark].append([event[0], kept, *event[2:]])
        elif isinstance(event[1], int) and event[1] in owners_of:
            for mark in owners_of[event[1]]:
                events[mark].append([event[0], renumber[mark][event[1]], *event[2:]])
    by_test = {mark: dict(common_counts, **counted.get(mark, {})) for mark in marks}
    base = {k: v for k, v in recorded.items() if k not in ("invocations", "events", "_index", "call_counts_by_test")}
    parts = {}
    for mark in events:
        own = dict(base, invocations=invocations.get(mark, []), events=events[mark])
        if "call_counts" in base:  # the run's counts are every copy's: each copy counts its own tests'
            own["call_counts_by_test"] = by_test.get(mark, {})
            own["call_counts"] = _counted(base["call_counts"], own["call_counts_by_test"].values())
        text = json.dumps(own)
        parts[mark] = json.loads(variant.MARK_PATTERN.sub("", text))
    return parts


def _counted(names: dict[str, int], per_test: Any) -> dict[str, int]:
    """The call counts of `names` summed over tests' counts."""
    total = dict.fromkeys(names, 0)
    for counts in per_test:
        for name, n in counts.items():
            total[name] = total.get(name, 0) + n
    return total


def spliced(unchanged: dict[str, Any], own: dict[str, Any] | None, tests: tuple[str, ...],
            changed: frozenset[int]) -> dict[str, Any]:
    """A candidate's trace as a copy of every test would have given it, from a copy that ran only the tests
    its edits change (`changed`, indices of `tests`): per entry of `tests` in their order, its own
    invocations and events for the entries it changes, the unchanged copy's for the others; invocations
    renumbered from 1, call counts summed the same way. (The interpreter is shared either way; a candidate
    whose fresh harvest answers otherwise is harvested again: settle.ts.)"""

    def entry(test: str) -> int:
        if test.startswith("<process>"):
            return -1  # before the first test (the copy's import): the unchanged copy's, first
        for j, named in enumerate(tests):
            if test == named or test.startswith((named + "::", named + "[")):
                return j
        return len(tests)  # no entry names it: the unchanged copy's, last

    blocks: list[list[tuple[bool, dict[str, Any]]]] = [[] for _ in range(len(tests) + 2)]
    events: list[list[tuple[bool, list[Any]]]] = [[] for _ in range(len(tests) + 2)]
    where: dict[tuple[bool, int], int] = {}
    for is_own, part in ((False, unchanged), (True, own)):
        if part is None:
            continue
        for inv in part["invocations"]:
            j = entry(str(inv.get("test") or ""))
            if (j in changed) == is_own:
                where[(is_own, inv["inv"])] = j + 1
                blocks[j + 1].append((is_own, inv))
        for event in part["events"]:
            first = event[1][0][0] if event[0] == "call" and event[1] else event[1]
            j = where.get((is_own, first)) if isinstance(first, int) else None
            if j is not None:
                events[j].append((is_own, event))
    number: dict[tuple[bool, int], int] = {}
    invocations = []
    for block in blocks:
        for is_own, inv in block:
            number[(is_own, inv["inv"])] = len(number) + 1
            invocations.append(dict(inv, inv=number[(is_own, inv["inv"])]))
    out_events: list[list[Any]] = []
    for block in events:
        for is_own, event in block:
            if event[0] == "call":
                owners = [[number[(is_own, o[0])], o[1]] for o in event[1] if (is_own, o[0]) in number]
                out_events.append([event[0], owners, *event[2:]])
            else:
                out_events.append([event[0], number[(is_own, event[1])], *event[2:]])
    trace = {k: v for k, v in unchanged.items() if k not in ("_index", "call_counts_by_test")}
    trace.update(invocations=invocations, events=out_events)
    if "call_counts" in unchanged:
        trace["call_counts"] = _counted(unchanged["call_counts"], [
            counts for is_own, part in ((False, unchanged), (True, own)) if part is not None
            for test, counts in part.get("call_counts_by_test", {}).items() if (entry(test) in changed) == is_own])
    return trace


def candidate_trace(parts: dict[str, dict[str, Any]], mark: str, search: variant.Search,
                    k: int) -> dict[str, Any] | None:
    """Candidate k's trace: its copy's part, spliced with the unchanged copy's when it ran only some tests."""
    changed = search.touched[k] if k < len(search.touched) else None
    return parts.get(mark) if changed is None else spliced(parts["o"], parts.get(mark), search.tests, changed)
