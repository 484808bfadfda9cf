"""S1 / M1, intra-procedural control flow: the steps of the target's own frames."""

from __future__ import annotations

from collections import Counter

from .shared import INVOCATION_OPTION, Answer, Ask, Context, Query, Rule, Trace, invocation, lines
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


def m1_line_counts(trace: Trace, query: Query, ctx: Context) -> Answer:
    counts = Counter(lines(trace))
    return {"line_execution_counts": [{"line": line, "count": counts[line]} for line in sorted(counts)]}


def _ask_line_counts(q: Query) -> Ask:
    return (
        "How many times is each line of the target executed, over all invocations? Give one entry per "
        "executed line, sorted by line.",
        [COVERED, STEP, INVOCATION],
    )


RULES = [
    Rule("S1_IntraProceduralCFG", "path", {"executed_path": [{"file": "str", "func": "str", "line": "int"}]},
         s1_executed_path, _ask_path, options=INVOCATION_OPTION),
    Rule("M1_IntraProceduralCFG", "covered", {"covered_lines": ["int"]}, m1_covered_lines, _ask_covered),
    Rule("M1_IntraProceduralCFG", "line_counts", {"line_execution_counts": [{"line": "int", "count": "int"}]},
         m1_line_counts, _ask_line_counts),
]
