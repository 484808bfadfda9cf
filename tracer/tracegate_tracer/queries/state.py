"""S3 / M3, program state: the recorded reprs of the target's locals."""

from __future__ import annotations

import ast
import math
from collections.abc import Iterator

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
    ensure_uncut,
    invocation,
    named_only,
    names,
    variable,
    variable_needs,
)
from .terms import INVOCATION, OBSERVATION, STEP, VALUES

_SNAPSHOTS = ("line", "return", "yield", "unwind")
_VARIABLE: Options = {"variable": None}


def _states(trace: Trace, inv: int | None = None) -> Iterator[tuple[list, dict[str, str]]]:
    """(event, locals) of every event that carries a locals snapshot, in order."""
    for event in trace["events"]:
        if event[0] in _SNAPSHOTS and (inv is None or event[1] == inv) and event[-1] is not None:
            yield event, event[-1]


def _variables_needs(query: Query) -> Needs:
    return {"variables": names(query)} if query.get("variables") else {}


def s3_program_state(trace: Trace, query: Query, ctx: Context) -> Answer:
    line, hit, wanted = query.get("line"), query.get("hit"), names(query)
    seen, events = 0, trace["events"]
    for index, event in enumerate(events):
        if event[0] == "line" and event[2] == line:
            seen += 1
            if seen == hit:
                after = next((e for e in events[index + 1:] if e[0] in _SNAPSHOTS and e[1] == event[1]), None)
                if after is None or after[-1] is None:
                    raise Invalid(f"no state observed after hit {hit} of line {line}")
                state = after[-1]
                return {"observed_state": [{"variable": v, "value": state.get(v, "<unbound>")} for v in wanted]}
    raise Invalid(f"line {line!r} executed {seen} time(s), hit {hit!r} not reached")


def _ask_state(q: Query) -> Ask:
    return (
        "Consider hit {} of line {}: the {}-th step at that line, counting across all invocations in "
        "execution order. Just after that line runs (at the next step, return, yield or unwind of that "
        "same frame), what are the values of {}? Give `\"<unbound>\"` for a variable that is not bound; "
        "cells and free variables count as locals. Sort by variable name.".format(
            q.get("hit"), q.get("line"), q.get("hit"), code_names(q.get("variables"))),
        [STEP, VALUES],
    )


def s3_first_hits(trace: Trace, query: Query, ctx: Context) -> Answer:
    """SWE-Flux's shape: for each invocation that runs line L, the state just after its first hit of L."""
    line, wanted = query.get("line"), names(query)
    events, done, found = trace["events"], set(), []
    for index, event in enumerate(events):
        if event[0] != "line" or event[2] != line or event[1] in done:
            continue
        done.add(event[1])
        after = next((e for e in events[index + 1:] if e[0] in _SNAPSHOTS and e[1] == event[1]), None)
        if after is None or after[-1] is None:
            raise Invalid(f"no state observed after invocation {event[1]}'s first hit of line {line}")
        state = after[-1]
        found.append({"invocation": event[1],
                      "observed_state": [{"variable": v, "value": state.get(v, "<unbound>")} for v in wanted]})
    if not found:
        raise Invalid(f"line {line!r} never executed")
    return {"first_hit_states": sorted(found, key=lambda item: item["invocation"])}


def _ask_first_hits(q: Query) -> Ask:
    return (
        "For each invocation whose own frame runs line {}, take its first step at that line: just after that "
        "line runs (at the next step, return, yield or unwind of that same frame), what are the values of {}? "
        "Give `\"<unbound>\"` for a variable that is not bound; one entry per such invocation, by invocation "
        "number; variables sorted by name.".format(q.get("line"), code_names(q.get("variables"))),
        [STEP, VALUES, INVOCATION],
    )


def s3_value_history(trace: Trace, query: Query, ctx: Context) -> Answer:
    k, name = invocation(trace, query), variable(query)
    history: list[str] = []
    for _event, state in _states(trace, k):
        value = state.get(name, "<unbound>")
        if value != "<unbound>" and (not history or history[-1] != value):
            history.append(value)
    return {"value_history": [{"step": i, "value": v} for i, v in enumerate(history, 1)]}


def _ask_history(q: Query) -> Ask:
    return (
        "In invocation {}, which values does {} take, in order? Read it at each step (before the line "
        "runs) and at the frame's return, yield or unwind; drop consecutive repeats and `<unbound>`; "
        "number the values from 1.".format(q.get("invocation"), code(q.get("variable"))),
        [STEP, INVOCATION, VALUES],
    )


def _observed_values(trace: Trace, name: str) -> list[str]:
    return [state[name] for _event, state in _states(trace) if state.get(name, "<unbound>") != "<unbound>"]


def _number(text: str) -> int | float | None:
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def m3_extremes(trace: Trace, query: Query, ctx: Context) -> Answer:
    name = variable(query)
    observed = _observed_values(trace, name)
    ensure_uncut(trace, observed)  # a cut text may have been a number
    numbers = [n for n in map(_number, observed) if n is not None]
    if not numbers:
        raise Invalid(f"{name} never held a number")
    return {"min_value": min(numbers), "max_value": max(numbers)}


def _ask_extremes(q: Query) -> Ask:
    return (
        "Over every observation (and every return, yield or unwind) of {} whose value is an int or float "
        "literal, what are its minimum and maximum?".format(code(q.get("variable"))),
        [OBSERVATION, STEP],
    )


def _tuple_of(query: Query) -> list[str] | None:
    """The `variables` of a tuple question (SWE-Flux's M3 convention), in the query's order; None without."""
    if "variables" not in query:
        return None
    found = query["variables"]
    if (not isinstance(found, list) or len(found) < 2 or len(set(found)) != len(found)
            or not all(isinstance(n, str) and n for n in found)):
        raise Invalid("query key variables must list two or more distinct variable names (in tuple order)")
    return found


def _tuple_repr(reprs: list[str]) -> str:
    return "(" + ", ".join(reprs) + ")"


def m3_unique(trace: Trace, query: Query, ctx: Context) -> Answer:
    wanted = _tuple_of(query)
    if wanted is None:
        name = variable(query)
        values = sorted(set(_observed_values(trace, name)))
        if not values:
            raise Invalid(f"{name} was never bound")
        return {"unique_values": values}
    observed = []
    for _event, state in _states(trace):
        reprs = [state.get(name, "<unbound>") for name in wanted]
        if "<unbound>" not in reprs:
            observed.append(reprs)
    ensure_uncut(trace, (text for reprs in observed for text in reprs))  # a cut part would forge the tuple
    values = sorted({_tuple_repr(reprs) for reprs in observed})
    if not values:
        raise Invalid(f"{', '.join(wanted)} were never all bound at once")
    return {"unique_values": values}


def _unique_needs(query: Query) -> Needs:
    wanted = query.get("variables")
    if isinstance(wanted, list) and all(isinstance(n, str) for n in wanted):
        return {"variables": sorted(set(wanted))}
    return variable_needs(query)


def _ask_unique(q: Query) -> Ask:
    if "variables" in q:
        wanted = q.get("variables") or []
        return (
            "Over every observation (and every return, yield or unwind) where {} are all bound, which distinct "
            "values does the tuple `({})` hold? Write each as Python prints the tuple (`repr`), sorted as "
            "strings, each once.".format(code_names(wanted), ", ".join(map(str, wanted))),
            [OBSERVATION, STEP, VALUES],
        )
    return (
        "Which distinct values does {} hold over every observation (and every return, yield or unwind) "
        "where it is bound? Give them sorted as strings, each once.".format(code(q.get("variable"))),
        [OBSERVATION, STEP, VALUES],
    )


RULES = [
    Rule("S3_ProgramState", "state", {"observed_state": [{"variable": "str", "value": "str"}]}, s3_program_state,
         _ask_state, _variables_needs, options={"line": None, "hit": None, "variables": None}),
    Rule("S3_ProgramState", "first_hits",
         {"first_hit_states": [{"invocation": "int", "observed_state": [{"variable": "str", "value": "str"}]}]},
         s3_first_hits, _ask_first_hits, _variables_needs, options={"line": None, "variables": None}),
    Rule("S3_ProgramState", "history", {"value_history": [{"step": "int", "value": "str"}]}, s3_value_history,
         _ask_history, named_only(variable_needs), options=dict(INVOCATION_OPTION, variable=None)),
    Rule("M3_ProgramState", "extremes", {"min_value": "float", "max_value": "float"}, m3_extremes, _ask_extremes,
         variable_needs, options=_VARIABLE),
    Rule("M3_ProgramState", "unique", {"unique_values": ["str"]}, m3_unique, _ask_unique,
         _unique_needs, options=dict(_VARIABLE, variables=None)),
]
