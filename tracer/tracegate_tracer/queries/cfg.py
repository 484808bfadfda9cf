"""S1 / M1, intra-procedural control flow: the steps of the target's own frames."""

from __future__ import annotations

from collections import Counter

from .shared import (
    INVOCATION_OPTION,
    Answer,
    Ask,
    Context,
    Invalid,
    Needs,
    Options,
    Query,
    Rule,
    Trace,
    events_of,
    invocation,
    lines,
    named_only,
)
from .terms import COVERED, INVOCATION, NAMES, STEP


def s1_executed_path(trace: Trace, query: Query, ctx: Context) -> Answer:
    k = invocation(trace, query)
    return {"executed_path": [{"file": ctx.file, "func": ctx.func, "line": line} for line in lines(trace, k)]}


def _ask_path(q: Query) -> Ask:
    k = q.get("invocation")
    return (
        f"List the executed path of invocation {k} of the target: the steps of invocation {k}'s own frame, "
        "in order, repeats kept; no lines of callees (nested functions, lambdas, generator expressions, "
        "comprehensions).",
        [STEP, INVOCATION, NAMES],
    )


def m1_covered_lines(trace: Trace, query: Query, ctx: Context) -> Answer:
    return {"covered_lines": sorted(set(lines(trace)))}


def _ask_covered(q: Query) -> Ask:
    return "Which lines of the target are covered? Give them sorted ascending, each once.", [COVERED, STEP]


LINE_KINDS = ("statement", "physical")
ROWS = ("executed", "body")
LINE_COUNTS: Options = {"lines": LINE_KINDS, "rows": ROWS}


def _choice(query: Query, key: str, values: tuple[str, ...]) -> str:
    value = query.get(key, values[0])
    if value not in values:
        raise Invalid(f"query key {key} must be one of {', '.join(map(repr, values))}, got {value!r}")
    return value


def body_lines(ctx: Context) -> range:
    """The target's body as SWE-Flux ranges it: its first body statement's line through its last line,
    docstring, blank, comment and continuation lines included."""
    node = ctx.node
    if node is None or not node.body or node.end_lineno is None:
        raise Invalid("the target's body lines are not known (no source)")
    return range(min(statement.lineno for statement in node.body), node.end_lineno + 1)


def m1_line_counts(trace: Trace, query: Query, ctx: Context) -> Answer:
    physical = _choice(query, "lines", LINE_KINDS) == "physical"
    body = _choice(query, "rows", ROWS) == "body"
    counts = Counter(event[2] for event in events_of(trace, ("raw",))) if physical else Counter(lines(trace))
    if body:
        span = body_lines(ctx)
        if not any(counts[line] for line in span):
            # As SWE-Flux's parser fails ("zero body line events"): a row of zeros per line is no answer.
            raise Invalid(f"no line of the target's body ran in its {len(trace['invocations'])} invocation(s)")
        return {"line_execution_counts": [{"line": line, "count": counts[line]} for line in span]}
    return {"line_execution_counts": [{"line": line, "count": counts[line]} for line in sorted(counts)]}


def _line_counts_needs(query: Query) -> Needs:
    return {"raw_lines": query.get("lines") == "physical"}


def _ask_line_counts(q: Query) -> Ask:
    if q.get("lines") == "physical":
        counted = ("Count every line event the interpreter reports in a target frame at the physical line it "
                   "reports (a continuation line of a multi-line statement counts on its own line, and a line "
                   "reported again, e.g. when a call's arguments were on later lines, counts again)")
        terms = [INVOCATION, NAMES]
    else:
        counted = "Count the steps at each line"
        terms = [COVERED, STEP, INVOCATION]
    rows = ("Give one entry for every line of the target's body, from its first body statement's line to its "
            "last line (docstring, blank, comment and continuation lines included), with count 0 for a line "
            "that never ran, sorted by line." if q.get("rows") == "body" else
            "Give one entry per executed line, sorted by line.")
    return (f"How many times is each line of the target executed, over all invocations? {counted}. {rows}", terms)


RULES = [
    Rule("S1_IntraProceduralCFG", "path", {"executed_path": [{"file": "str", "func": "str", "line": "int"}]},
         s1_executed_path, _ask_path, named_only(), options=INVOCATION_OPTION),
    Rule("M1_IntraProceduralCFG", "covered", {"covered_lines": ["int"]}, m1_covered_lines, _ask_covered),
    Rule("M1_IntraProceduralCFG", "line_counts", {"line_execution_counts": [{"line": "int", "count": "int"}]},
         m1_line_counts, _ask_line_counts, needs=_line_counts_needs, options=LINE_COUNTS),
]
