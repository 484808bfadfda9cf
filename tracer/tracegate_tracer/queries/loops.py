"""S2 / M2, loops: iterations of the loop whose header is at `loop_line`, and its breaks."""

from __future__ import annotations

from ..recording.trace import events_of
from .shared import (
    INVOCATION_OPTION,
    Answer,
    Ask,
    Context,
    Invalid,
    Options,
    Query,
    Rule,
    Trace,
    code,
    invocation,
    lines,
    named_only,
    variable,
    variable_needs,
)
from .terms import BREAK, INVOCATION, ITERATION, STEP, VALUES

UNREACHED = ("skip", "zero")
LOOP: Options = {"loop_line": None}
PER_INVOCATION: Options = dict(LOOP, unreached=UNREACHED)
"""M2's counts per invocation (`_per_invocation_iterations`)."""


def _loop(query: Query, ctx: Context) -> tuple[int, int]:
    header = query.get("loop_line")
    body = ctx.linemap.loop_body_first.get(header)
    if body is None:
        raise Invalid(f"line {header!r} is not a for/while loop header")
    if body == header:
        raise Invalid(f"loop at line {header} has its body on the header line")
    return header, body


def _iterations(trace: Trace, inv: int, header: int, body: int) -> list[list]:
    """The line event of each iteration's first body statement, in order."""
    events = list(events_of(trace, ("line",), inv))
    return [events[i + 1] for i in range(len(events) - 1)
            if events[i][2] == header and events[i + 1][2] == body]


def s2_loop_iterations(trace: Trace, query: Query, ctx: Context) -> Answer:
    k = invocation(trace, query)
    header, body = _loop(query, ctx)
    return {"loop_iteration_count": len(_iterations(trace, k, header, body))}


def _ask_count(q: Query) -> Ask:
    return (
        "How many iterations does the loop whose header is at line {} run in invocation {}?".format(
            q.get("loop_line"), q.get("invocation")),
        [ITERATION, STEP, INVOCATION],
    )


def s2_nth_iteration_value(trace: Trace, query: Query, ctx: Context) -> Answer:
    k = invocation(trace, query)
    header, body = _loop(query, ctx)
    n, name = query.get("nth_iteration"), variable(query)
    iterations = _iterations(trace, k, header, body)
    if not isinstance(n, int) or not 1 <= n <= len(iterations):
        raise Invalid(f"iteration {n!r} not reached: the loop ran {len(iterations)} time(s)")
    return {"nth_iteration": n, "variable": name, "value": iterations[n - 1][3][name]}


def _ask_nth_value(q: Query) -> Ask:
    return (
        "In invocation {}, what is the value of {} when iteration {} of the loop whose header is at "
        "line {} is about to run its first body statement? Give `nth_iteration` and `variable` back as "
        "asked.".format(q.get("invocation"), code(q.get("variable")), q.get("nth_iteration"), q.get("loop_line")),
        [ITERATION, STEP, INVOCATION, VALUES],
    )


def _unreached_zero(query: Query) -> bool:
    """`unreached: "zero"` (SWE-Flux's convention): an invocation that never reaches the header ran it 0 times."""
    unreached = query.get("unreached", "skip")
    if unreached not in UNREACHED:
        raise Invalid(f"query key unreached must be \"skip\" or \"zero\", got {unreached!r}")
    return unreached == "zero"


def _per_invocation_iterations(trace: Trace, query: Query, ctx: Context) -> list[int]:
    header, body = _loop(query, ctx)
    zero = _unreached_zero(query)
    counts = []
    for record in trace["invocations"]:
        if header in lines(trace, record["inv"]):
            counts.append(len(_iterations(trace, record["inv"], header, body)))
        elif zero:
            counts.append(0)
    if not counts:
        raise Invalid(f"the loop at line {header} never ran")
    return counts


def m2_extremes(trace: Trace, query: Query, ctx: Context) -> Answer:
    counts = _per_invocation_iterations(trace, query, ctx)
    return {"max_iterations": max(counts), "min_iterations": min(counts)}


def _ask_extremes(q: Query) -> Ask:
    over = ("Over all invocations of the target (one that never reaches the header ran the loop 0 times)"
            if q.get("unreached") == "zero" else
            "Over the invocations in which the header at line {} ran at least once".format(q.get("loop_line")))
    return (
        "{}, what are the largest and the smallest number of iterations of the loop whose header is at line {} "
        "in one invocation?".format(over, q.get("loop_line")),
        [ITERATION, STEP, INVOCATION],
    )


def m2_total(trace: Trace, query: Query, ctx: Context) -> Answer:
    return {"total_iterations": sum(_per_invocation_iterations(trace, query, ctx))}


def _ask_total(q: Query) -> Ask:
    return (
        "How many iterations does the loop whose header is at line {} run in total, summed over all "
        "invocations?".format(q.get("loop_line")),
        [ITERATION, STEP, INVOCATION],
    )


def m2_breaks(trace: Trace, query: Query, ctx: Context) -> Answer:
    header, _body = _loop(query, ctx)
    breaks = set(ctx.linemap.break_lines(header))
    if not ctx.linemap.loop_breaks.get(header):
        raise Invalid(f"the loop at line {header} has no `break`")
    if len(breaks) != len(ctx.linemap.loop_breaks.get(header, ())):
        raise Invalid(f"a `break` of the loop at line {header} shares its line with another statement")
    tests = {record["inv"]: record["test"] for record in trace["invocations"]}
    return {"tests_terminating_at_break": sorted({tests[e[1]] for e in events_of(trace, ("line",)) if e[2] in breaks})}


def _ask_breaks(q: Query) -> Ask:
    return (
        "Which tests terminate the loop whose header is at line {} at a `break`? Give their pytest ids, "
        "sorted, each once (an empty list if none).".format(q.get("loop_line")),
        [BREAK, INVOCATION],
    )


RULES = [
    Rule("S2_Loops", "count", {"loop_iteration_count": "int"}, s2_loop_iterations, _ask_count, named_only(),
         options=dict(INVOCATION_OPTION, **LOOP)),
    Rule("S2_Loops", "nth_value", {"nth_iteration": "int", "variable": "str", "value": "str"},
         s2_nth_iteration_value, _ask_nth_value, named_only(variable_needs),
         options=dict(INVOCATION_OPTION, **LOOP, nth_iteration=None, variable=None)),
    Rule("M2_Loops", "extremes", {"max_iterations": "int", "min_iterations": "int"}, m2_extremes, _ask_extremes,
         options=PER_INVOCATION),
    Rule("M2_Loops", "total", {"total_iterations": "int"}, m2_total, _ask_total, options=PER_INVOCATION),
    Rule("M2_Loops", "breaks", {"tests_terminating_at_break": ["str"]}, m2_breaks, _ask_breaks, options=LOOP),
]
