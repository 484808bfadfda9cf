"""One rule per question kind: trace + query -> oracle answer.

Conventions (SWE-Flux's): `file` is the target file relative to
site-packages, `func` is `module.qualname`, lines are 1-based physical lines
of that file (statement lines, see linemap.py), invocations are numbered from
1 in the order of their call events across the whole run.
"""

from .trace import events_of


class Invalid(Exception):
    """The question has no answer in this run (status "invalid")."""


class Context:
    """What the rules need besides the trace: names and the target's LineMap."""

    def __init__(self, file, func, linemap):
        self.file, self.func, self.linemap = file, func, linemap


def recording_needs(kind, query):
    """What the recorder must capture beyond lines and exceptions."""
    return {
        "record_calls": kind == "S6_InterProceduralCFG",
        "variables": sorted(query.get("variables") or ()) if kind == "S3_ProgramState" else None,
    }


def _invocation(trace, query):
    k = query.get("invocation")
    if not isinstance(k, int) or k < 1:
        raise Invalid("query needs a positive integer 'invocation', got %r" % (k,))
    count = len(trace["invocations"])
    if k > count:
        raise Invalid("invocation %d not reached: the target ran %d time(s)" % (k, count))
    return k


def _lines(trace, inv=None):
    return [event[2] for event in events_of(trace, ("line",), inv)]


def s1_executed_path(trace, query, ctx):
    k = _invocation(trace, query)
    return {"executed_path": [{"file": ctx.file, "func": ctx.func, "line": line} for line in _lines(trace, k)]}


def s2_loop_iterations(trace, query, ctx):
    k = _invocation(trace, query)
    header = query.get("loop_line")
    body = ctx.linemap.loop_body_first.get(header)
    if body is None:
        raise Invalid("line %r is not a for/while loop header" % (header,))
    if body == header:
        raise Invalid("loop at line %d has its body on the header line" % header)
    lines = _lines(trace, k)
    count = sum(1 for before, after in zip(lines, lines[1:]) if before == header and after == body)
    return {"loop_iteration_count": count}


def s3_program_state(trace, query, ctx):
    line, hit, variables = query.get("line"), query.get("hit"), sorted(query.get("variables") or ())
    if not variables:
        raise Invalid("query names no variables")
    seen, events = 0, trace["events"]
    for index, event in enumerate(events):
        if event[0] == "line" and event[2] == line:
            seen += 1
            if seen == hit:
                after = next((e for e in events[index + 1:] if e[0] in ("line", "return", "yield", "unwind") and e[1] == event[1]), None)
                if after is None or after[-1] is None:
                    raise Invalid("no state observed after hit %d of line %d" % (hit, line))
                state = after[-1]
                return {"observed_state": [{"variable": v, "value": state.get(v, "<unbound>")} for v in variables]}
    raise Invalid("line %r executed %d time(s), hit %r not reached" % (line, seen, hit))


def s5_exceptions(trace, query, ctx):
    mode = query.get("mode")
    if mode == "caught_kinds":
        names = {event[3] for event in events_of(trace, ("exception",)) if event[5] is True}
        return {"caught_exception_kinds": sorted(names)}
    if mode == "escaping":
        k = _invocation(trace, query)
        if trace["invocations"][k - 1]["outcome"] != "unwind":
            raise Invalid("invocation %d raised no escaping exception" % k)
        escaping = [event for event in events_of(trace, ("exception",), k) if event[5] is False]
        if not escaping:
            raise Invalid("invocation %d unwound without an exception event" % k)
        return {"exception_type": escaping[-1][3], "exception_message": escaping[-1][4]}
    raise Invalid("unknown S5 mode %r" % (mode,))


def s6_call_order(trace, query, ctx):
    k = _invocation(trace, query)
    include = tuple(query.get("include") or ())
    scope = query.get("scope", "transitive")
    if scope not in ("direct", "transitive"):
        raise Invalid("unknown S6 scope %r" % (scope,))
    calls = []
    for event in events_of(trace, ("call",)):
        _kind, owners, file, func, _caller = event
        depth = next((d for inv, d in owners if inv == k), None)
        if depth is None or (scope == "direct" and depth != 1):
            continue
        if not include or func.startswith(include):
            calls.append({"file": file, "func": func})
    return {"function_call_order": calls}


def m1_covered_lines(trace, query, ctx):
    return {"covered_lines": sorted(set(_lines(trace)))}


RULES = {
    "S1_IntraProceduralCFG": s1_executed_path,
    "S2_Loops": s2_loop_iterations,
    "S3_ProgramState": s3_program_state,
    "S5_Exceptions": s5_exceptions,
    "S6_InterProceduralCFG": s6_call_order,
    "M1_IntraProceduralCFG": m1_covered_lines,
}


def answer(kind, query, trace, ctx):
    rule = RULES.get(kind)
    if rule is None:
        raise Invalid("question kind %r is not implemented by tracer" % (kind,))
    if not trace["invocations"]:
        raise Invalid("target not executed")
    return rule(trace, query or {}, ctx)
