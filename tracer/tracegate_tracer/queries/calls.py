"""S6 / M6, inter-procedural control flow: the calls made while an invocation is on the stack (and, for
call counts, anywhere in the run)."""

from __future__ import annotations

import sys
from collections.abc import Iterator

from ..recording.frames import COMPREHENSIONS
from ..recording.trace import events_of
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
    code,
    code_names,
    invocation,
    named_only,
)
from .terms import CALL, DEPTH, INVOCATION, NAMES

_FILE_FUNC = [{"file": "str", "func": "str"}]
SCOPES = ("direct", "transitive")
_INCLUDE: Options = {"include": None}
_SCOPED: Options = dict(INVOCATION_OPTION, include=None, scope=SCOPES)
"""S6's calls under one invocation, by prefix and depth. M6's questions say "at any depth": they take no
`scope` (one would change the answer and not the question), nor does max_depth (it reads every depth)."""


def _calls(trace: Trace, query: Query, k: int | None = None) -> Iterator[tuple[list, int]]:
    """(event, depth) of calls under invocation k (any invocation when k is None)."""
    include = tuple(query.get("include") or ())
    scope = query.get("scope", "transitive")
    if scope not in SCOPES:
        raise Invalid(f"unknown S6 scope {scope!r}")
    for event in events_of(trace, ("call",)):
        owners, func = event[1], event[3]
        if k is None:
            depth = min(d for _inv, d in owners)
        else:
            depth = next((d for inv, d in owners if inv == k), None)
        if depth is None or (scope == "direct" and depth != 1):
            continue
        if not include or func.startswith(include):
            yield event, depth


def _calls_needs(query: Query) -> Needs:
    return {"record_calls": True}


def _include(query: Query) -> str:
    prefixes = list(query.get("include") or ())
    if not prefixes:
        return "Count calls of any Python function."
    return "Count only calls of functions whose dotted name starts with {}.".format(" or ".join(
        f'"{p}"' for p in prefixes))


def _scope(query: Query) -> str:
    if query.get("scope", "transitive") == "direct":
        return "Only calls made by the target's own frame (depth 1) count."
    return "Calls at every depth below the target count (callees of callees too)."


def s6_call_order(trace: Trace, query: Query, ctx: Context) -> Answer:
    if query.get("invocation") == "all" and trace["invocations"]:
        return {"function_call_order": _all_calls(trace, query, ctx)}
    k = invocation(trace, query)
    return {"function_call_order": [{"file": e[2], "func": e[3]} for e, _d in _calls(trace, query, k)]}


def _all_calls(trace: Trace, query: Query, ctx: Context) -> list[dict[str, str]]:
    """invocation "all" (SWE-Flux's convention): one sequence over the whole run, each call once, the
    target's own calls included: a row for each invocation not already a call (not recursion) before
    the calls made under it."""
    include = tuple(query.get("include") or ())
    own = {"file": ctx.file, "func": ctx.func} if not include or ctx.func.startswith(include) else None
    outermost = [record["inv"] for record in trace["invocations"] if not record.get("nested")]
    rows: list[dict[str, str]] = []
    started = 0
    for event, _depth in _calls(trace, query):
        under = min(inv for inv, _d in event[1])
        while started < len(outermost) and outermost[started] <= under:
            started += 1
            if own:
                rows.append(own)
        rows.append({"file": event[2], "func": event[3]})
    if own:
        rows.extend(own for _ in outermost[started:])
    return rows


def _ask_order(q: Query) -> Ask:
    if q.get("invocation") == "all":
        return (
            "Which functions are called, in call order, repeats kept, over the whole run: each call of the "
            "target itself, and the calls made while it is on the stack? A recursive call of the target is one "
            f"call. {_include(q)} {_scope(q)}",
            [CALL, DEPTH, INVOCATION, NAMES],
        )
    return (
        "Which functions does invocation {} call, in call order, repeats kept? {} {}".format(
            q.get("invocation"), _include(q), _scope(q)),
        [CALL, DEPTH, INVOCATION, NAMES],
    )


def s6_call_count(trace: Trace, query: Query, ctx: Context) -> Answer:
    k = invocation(trace, query)
    func = query.get("func")
    if not isinstance(func, str) or not func:
        raise Invalid("query needs 'func': a dotted function name")
    return {"function_call_count": sum(1 for e, _d in _calls(trace, query, k) if e[3] == func)}


def _ask_count(q: Query) -> Ask:
    return (
        "How many times is {} called during invocation {}? {} {}".format(
            code(q.get("func")), q.get("invocation"), _include(q), _scope(q)),
        [CALL, DEPTH, INVOCATION, NAMES],
    )


def s6_max_depth(trace: Trace, query: Query, ctx: Context) -> Answer:
    k = invocation(trace, query)
    depths = (d for _e, d in _calls(trace, dict(query, scope="transitive"), k))
    return {"maximum_call_stack_depth": max(depths, default=0)}


def _ask_max_depth(q: Query) -> Ask:
    return (
        "What is the maximum call stack depth reached below invocation {}: the largest depth of a call "
        "made while it is on the stack (0 if it calls nothing)? {}".format(q.get("invocation"), _include(q)),
        [CALL, DEPTH, INVOCATION, NAMES],
    )


def m6_covered(trace: Trace, query: Query, ctx: Context) -> Answer:
    seen = {(e[2], e[3]) for e, _d in _calls(trace, query)}
    return {"covered_functions": [{"file": f, "func": fn} for f, fn in sorted(seen)]}


def _ask_covered(q: Query) -> Ask:
    return (
        f"Which functions are called, at any depth, while some invocation is on the stack? {_include(q)} Give each "
        "once, sorted by file, then func.",
        [CALL, NAMES],
    )


def m6_edges(trace: Trace, query: Query, ctx: Context) -> Answer:
    counts: dict[tuple[str, str, int], int] = {}
    for event, _depth in _calls(trace, query):
        key = (event[4], event[3], event[5])
        counts[key] = counts.get(key, 0) + 1
    return {"call_edges": [{"caller": c, "callee": e, "line": ln, "count": n}
                           for (c, e, ln), n in sorted(counts.items())]}


def _ask_edges(q: Query) -> Ask:
    return (
        "Which call edges occur, at any depth, while some invocation is on the stack, and how often? "
        f"{_include(q)} `caller` and `callee` are dotted names; `line` is the caller's call-site line (the statement "
        "line for the target). Sort by caller, callee, line.",
        [CALL, NAMES],
    )


def _functions(query: Query) -> list[str]:
    found = query.get("functions")
    if not isinstance(found, list) or not found or not all(isinstance(f, str) and f for f in found):
        raise Invalid("query needs 'functions': a list of dotted function names")
    return sorted(set(found))


def _count_needs(query: Query) -> Needs:
    try:
        return {"count_calls": _functions(query)}
    except Invalid:
        return {}


def m6_call_counts(trace: Trace, query: Query, ctx: Context) -> Answer:
    """SWE-Flux's M6 shape: how often each named function starts, from any caller, zero rows kept."""
    wanted, counts = _functions(query), trace.get("call_counts") or {}
    inline = [f for f in wanted if f.rsplit(".", 1)[-1] in COMPREHENSIONS]
    if inline and sys.version_info >= (3, 12):
        raise Invalid(f"{', '.join(inline)}: Python {sys.version_info[0]}.{sys.version_info[1]} runs comprehensions "
                      "inline, so there is no frame of theirs to count (3.11 has one)")
    missing = [f for f in wanted if f not in counts]
    if missing:
        raise Invalid(f"the recording did not count calls of {', '.join(missing)}")
    return {"function_call_counts": [{"func": f, "count": counts[f]} for f in wanted]}


def _ask_call_counts(q: Query) -> Ask:
    return (
        "During the whole test run, from any caller (the target or not), how many times is each of {} called? "
        "Count each call that starts a new frame of it (a generator's resumptions are not calls); give a row "
        "with count 0 for a function never called. Sort by func.".format(code_names(q.get("functions"))),
        [CALL, NAMES],
    )


RULES = [
    Rule("S6_InterProceduralCFG", "order", {"function_call_order": _FILE_FUNC}, s6_call_order, _ask_order,
         named_only(_calls_needs), options=_SCOPED),
    Rule("S6_InterProceduralCFG", "count", {"function_call_count": "int"}, s6_call_count, _ask_count,
         named_only(_calls_needs),
         options=dict(_SCOPED, func=None)),
    Rule("S6_InterProceduralCFG", "max_depth", {"maximum_call_stack_depth": "int"}, s6_max_depth, _ask_max_depth,
         named_only(_calls_needs), options=dict(INVOCATION_OPTION, **_INCLUDE)),
    Rule("M6_InterProceduralCFG", "covered", {"covered_functions": _FILE_FUNC}, m6_covered, _ask_covered,
         _calls_needs, options=_INCLUDE),
    Rule("M6_InterProceduralCFG", "edges",
         {"call_edges": [{"caller": "str", "callee": "str", "line": "int", "count": "int"}]}, m6_edges,
         _ask_edges, _calls_needs, options=_INCLUDE),
    Rule("M6_InterProceduralCFG", "call_counts", {"function_call_counts": [{"func": "str", "count": "int"}]},
         m6_call_counts, _ask_call_counts, _count_needs, options={"functions": None}),
]
