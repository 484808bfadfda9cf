"""S5 / M5, exceptions: which entered a target frame, which were caught, which escaped."""

from __future__ import annotations

from ..recording.trace import events_of
from .shared import INVOCATION_OPTION, Answer, Ask, Context, Invalid, Query, Rule, Trace, invocation, named_only
from .terms import CAUGHT, CRASH, ENTERS, EXC_NAMES, INVOCATION, TMP_PATH


def _handler_line(events: list, index: int, handlers: set[int]) -> int | None:
    """The `except` line that handled the exception event at `index`: the last `except` line its frame steps
    through before the handler's body (clauses that do not match are stepped through first); None when no
    `except` clause took it (a `with` that suppressed it, a `finally` on the way)."""
    inv, found = events[index][1], None
    for event in events[index + 1:]:
        if event[1] != inv:
            continue
        if event[0] != "line" or event[2] not in handlers:
            break
        found = event[2]
    return found


def s5_caught_kinds(trace: Trace, query: Query, ctx: Context) -> Answer:
    # Filters (SWE-Flux's conventions): `invocation` keeps that invocation's frame only;
    # `handler_line` keeps the exceptions handled by the `except` clause at that line.
    k = invocation(trace, query) if "invocation" in query else None
    if "handler_line" not in query:
        caught = {event[3] for event in events_of(trace, ("exception",), k) if event[5] is True}
        return {"caught_exception_kinds": sorted(caught)}
    line, handlers = query["handler_line"], getattr(ctx.linemap, "handler_lines", set())
    if line not in handlers:
        raise Invalid(f"line {line!r} is not an `except` clause of the target's file")
    events, caught = trace["events"], set()
    for index, event in enumerate(events):
        if (event[0] == "exception" and event[5] is True and (k is None or event[1] == k)
                and _handler_line(events, index, handlers) == line):
            caught.add(event[3])
    return {"caught_exception_kinds": sorted(caught)}


def _ask_caught_kinds(q: Query) -> Ask:
    where = " by the `except` clause at line {}".format(q.get("handler_line")) if "handler_line" in q else ""
    if "invocation" in q:
        return ("Which exception types enter the frame of invocation {} and are caught there{}? Give each name "
                "once, sorted (an empty list if none).".format(q.get("invocation"), where),
                [ENTERS, CAUGHT, EXC_NAMES, INVOCATION])
    if where:
        return (f"Which exception types enter a target frame and are caught there{where}? Give each name once, "
                "sorted (an empty list if none).", [ENTERS, CAUGHT, EXC_NAMES])
    return ("Which exception types enter a target frame and are caught there? Give each name once, sorted.",
            [ENTERS, CAUGHT, EXC_NAMES])


def _escaping(trace: Trace, k: int) -> list | None:
    """The exception event that propagated out of invocation k, None if it did not unwind."""
    if trace["invocations"][k - 1]["outcome"] != "unwind":
        return None
    escaping = [event for event in events_of(trace, ("exception",), k) if event[5] is False]
    return escaping[-1] if escaping else None


def s5_escaping(trace: Trace, query: Query, ctx: Context) -> Answer:
    k = invocation(trace, query)
    event = _escaping(trace, k)
    if event is None:
        raise Invalid(f"invocation {k} raised no escaping exception")
    return {"exception_type": event[3], "exception_message": event[4]}


def _ask_escaping(q: Query) -> Ask:
    return (
        "Invocation {} ends by an exception: which one propagated out of it (the last one that entered "
        "its frame before it unwound)? Give its type and its message, `str(e)`.".format(q.get("invocation")),
        [ENTERS, CAUGHT, EXC_NAMES, TMP_PATH, INVOCATION],
    )


def _entered(trace: Trace) -> list[str]:
    """Each exception that entered a target frame, once per frame it entered."""
    return [event[3] for event in events_of(trace, ("exception",))]


def m5_types(trace: Trace, query: Query, ctx: Context) -> Answer:
    return {"exception_types": sorted(set(_entered(trace)))}


def _ask_types(q: Query) -> Ask:
    return "Which exception types enter a target frame? Give each name once, sorted.", [ENTERS, EXC_NAMES]


def m5_counts(trace: Trace, query: Query, ctx: Context) -> Answer:
    counts: dict[str, int] = {}
    for name in _entered(trace):
        counts[name] = counts.get(name, 0) + 1
    return {"exception_type_counts": [{"exception_type": n, "count": c} for n, c in sorted(counts.items())]}


def _ask_counts(q: Query) -> Ask:
    return ("How many times does each exception type enter a target frame (once per frame it enters)? "
            "Sort by type name.", [ENTERS, EXC_NAMES])


def m5_crashing_tests(trace: Trace, query: Query, ctx: Context) -> Answer:
    crashing: dict[str, str] = {}
    tests: list[str] = []
    for record in trace["invocations"]:
        test = record["test"]
        if str(test).startswith("<process>"):
            continue  # a call outside every test (at import, at collection): no test the question names
        if test not in tests:
            tests.append(test)
        event = _escaping(trace, record["inv"])
        if event is not None and test not in crashing:
            crashing[test] = event[3]
    return {"crashing_tests": [{"exception_type": crashing[t], "test": t} for t in sorted(crashing)],
            "safe_tests": sorted(t for t in tests if t not in crashing)}


def _ask_crashing_tests(q: Query) -> Ask:
    return ("Which tests crash, with which exception type, and which tests that ran the target are safe? "
            "Sort both lists by pytest id.", [CRASH, ENTERS, EXC_NAMES, INVOCATION])


RULES = [
    Rule("S5_Exceptions", "caught_kinds", {"caught_exception_kinds": ["str"]}, s5_caught_kinds, _ask_caught_kinds,
         named_only(), options=dict(INVOCATION_OPTION, handler_line=None)),
    Rule("S5_Exceptions", "escaping", {"exception_type": "str", "exception_message": "str"}, s5_escaping,
         _ask_escaping, named_only(), options=INVOCATION_OPTION),
    Rule("M5_Exceptions", "types", {"exception_types": ["str"]}, m5_types, _ask_types),
    Rule("M5_Exceptions", "counts", {"exception_type_counts": [{"exception_type": "str", "count": "int"}]},
         m5_counts, _ask_counts),
    Rule("M5_Exceptions", "crashing_tests",
         {"crashing_tests": [{"exception_type": "str", "test": "str"}], "safe_tests": ["str"]},
         m5_crashing_tests, _ask_crashing_tests),
]
