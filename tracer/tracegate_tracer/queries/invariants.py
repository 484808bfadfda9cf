"""S7 / M7, invariants: a predicate over the recorded locals, read back as literals."""

from __future__ import annotations

from itertools import pairwise

from ..recording.trace import events_of
from .predicate import Predicate, literal
from .shared import (
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
    ensure_uncut,
    variable,
    variable_needs,
)
from .terms import OBSERVATION, PREDICATE, STEP


class NeverRan(Invalid):
    """The observed line never ran: nothing was evaluated (M7 counts answers it with zero rows)."""


def _observations(trace: Trace, query: Query, names: list[str]) -> list[dict[str, str]]:
    """Snapshots at the line events where the predicate is checked."""
    line = query.get("line")
    states = []
    reached = 0
    for event in events_of(trace, ("line",)):
        if line is not None and event[2] != line:
            continue
        reached += 1
        state = event[3]
        if state is not None and all(state.get(n, "<unbound>") != "<unbound>" for n in names):
            states.append(state)
    if not reached and line is not None:
        raise NeverRan(f"no observation: line {line} never ran in the traced invocation(s)")
    if not states:
        raise Invalid("no observation: {} never all bound{} (reached {} time(s))".format(
            ", ".join(names), "" if line is None else f" at line {line}", reached))
    ensure_uncut(trace, (state[n] for state in states for n in names))  # read back as literals
    return states


def _predicate_needs(query: Query) -> Needs:
    try:
        return {"variables": Predicate(query.get("predicate")).names}
    except Invalid:
        return {}


def _at(query: Query) -> str:
    return "" if query.get("line") is None else " at line {}".format(query["line"])


def invariant_holds(trace: Trace, query: Query, ctx: Context) -> Answer:
    predicate = Predicate(query.get("predicate"))
    return {"invariant_exists": all(predicate(s) for s in _observations(trace, query, predicate.names))}


def _ask_holds(q: Query) -> Ask:
    return (
        "Is the predicate `{}` true at every observation{} where all its names are bound?".format(
            q.get("predicate"), _at(q)),
        [PREDICATE, OBSERVATION, STEP],
    )


def invariant_counts(trace: Trace, query: Query, ctx: Context) -> Answer:
    if query.get("line") is None:
        raise Invalid("query needs 'line': where each iteration is observed")
    predicate = Predicate(query.get("predicate"))
    try:
        observed = _observations(trace, query, predicate.names)
    except NeverRan:
        # Never evaluated: no step observed, none violating, and not "always held" (SWE-Flux's row).
        return {"is_invariant_always_held": False, "total_iterations_observed": 0, "violating_iteration_count": 0}
    results = [predicate(s) for s in observed]
    return {"is_invariant_always_held": all(results), "total_iterations_observed": len(results),
            "violating_iteration_count": results.count(False)}


def _ask_counts(q: Query) -> Ask:
    return (
        "Checking the predicate `{}` once per step at line {}, does it always hold, how many steps are "
        "observed, and at how many is it false?".format(q.get("predicate"), q.get("line")),
        [PREDICATE, OBSERVATION, STEP],
    )


MAX_CHECKS = 8
"""Checks one `checks` question lists at most."""


def _checks(query: Query) -> list[tuple[int, str]]:
    """The (line, predicate) checks of a `checks` question, in the query's order."""
    found = query.get("checks")
    if (not isinstance(found, list) or not 2 <= len(found) <= MAX_CHECKS
            or not all(isinstance(c, dict) and set(c) == {"line", "predicate"} for c in found)):
        raise Invalid(f"query key checks must list 2 to {MAX_CHECKS} objects, each with exactly line and predicate")
    checks = []
    for check in found:
        line, text = check["line"], check["predicate"]
        if not isinstance(line, int) or isinstance(line, bool) or line < 1 or not isinstance(text, str):
            raise Invalid("each check needs a positive integer line and a predicate string")
        checks.append((line, text))
    if len(set(checks)) != len(checks):
        raise Invalid("query key checks lists the same check twice")
    return checks


def _checks_needs(query: Query) -> Needs:
    try:
        return {"variables": sorted({n for _line, text in _checks(query) for n in Predicate(text).names})}
    except Invalid:
        return {}


def invariant_checks(trace: Trace, query: Query, ctx: Context) -> Answer:
    """The counts answer of each check, in the query's order: several loops' predicates in one question (SWE-Flux
    lists an invariant table; one check is a question a glance answers)."""
    return {"invariant_checks": [invariant_counts(trace, {"line": line, "predicate": text}, ctx)
                                 for line, text in _checks(query)]}


def _ask_checks(q: Query) -> Ask:
    listed = "; ".join("`{}` at line {}".format(c.get("predicate"), c.get("line"))
                       for c in q.get("checks") or [] if isinstance(c, dict))
    return (
        f"Checking each of these predicates once per step at its line — {listed} — does it always hold, how many "
        "steps are observed, and at how many is it false? One row per check, in the order listed.",
        [PREDICATE, OBSERVATION, STEP],
    )


def monotonicity(trace: Trace, query: Query, ctx: Context) -> Answer:
    name = variable(query)
    if query.get("line") is None:
        raise Invalid("query needs 'line': where the variable is observed")
    values = [literal(s[name], name) for s in _observations(trace, query, [name])]
    pairs = list(pairwise(values))
    try:
        if all(a == b for a, b in pairs):
            label = "constant"
        elif all(a < b for a, b in pairs):
            label = "strictly_increasing"
        elif all(a <= b for a, b in pairs):
            label = "non_decreasing"
        else:
            label = "none"
    except TypeError:
        raise Invalid(f"values of {name} are not comparable") from None
    return {"monotonicity": label}


def _ask_monotonicity(q: Query) -> Ask:
    return (
        "Over the observations at line {}, is {} `constant`, `strictly_increasing`, `non_decreasing` "
        "or `none` of these (checked in that order)?".format(q.get("line"), code(q.get("variable"))),
        [OBSERVATION, STEP],
    )


_PREDICATE: Options = {"predicate": None, "line": None}
_MONOTONIC: Options = {"variable": None, "line": None}
_HOLDS = {"invariant_exists": "bool"}
_MONOTONICITY = {"monotonicity": "str"}
_COUNTS = {"is_invariant_always_held": "bool", "total_iterations_observed": "int", "violating_iteration_count": "int"}
_CHECKS = {"invariant_checks": [_COUNTS]}

# S7 (one test) and M7 (a suite) share their rules.
RULES = [
    Rule("S7_Invariants", "holds", _HOLDS, invariant_holds, _ask_holds, _predicate_needs, options=_PREDICATE),
    Rule("S7_Invariants", "counts", _COUNTS, invariant_counts, _ask_counts, _predicate_needs, options=_PREDICATE),
    Rule("S7_Invariants", "monotonicity", _MONOTONICITY, monotonicity, _ask_monotonicity,
         variable_needs, options=_MONOTONIC),
    Rule("S7_Invariants", "checks", _CHECKS, invariant_checks, _ask_checks, _checks_needs,
         options={"checks": None}),
    Rule("M7_Invariants", "holds", _HOLDS, invariant_holds, _ask_holds, _predicate_needs, options=_PREDICATE),
    Rule("M7_Invariants", "counts", _COUNTS, invariant_counts, _ask_counts, _predicate_needs, options=_PREDICATE),
    Rule("M7_Invariants", "monotonicity", _MONOTONICITY, monotonicity, _ask_monotonicity,
         variable_needs, options=_MONOTONIC),
    Rule("M7_Invariants", "checks", _CHECKS, invariant_checks, _ask_checks, _checks_needs,
         options={"checks": None}),
]
