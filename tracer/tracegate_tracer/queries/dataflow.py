"""S4 / M4, data flow: def-use pairs of tracked names in the target's own frames."""

from __future__ import annotations

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
    code_names,
    invocation,
    named_only,
    names,
)
from .terms import DEFINITION, INVOCATION, PAIR, USE

_PAIRS = [{"def_line": "int", "use_line": "int", "variable": "str"}]
Pairs = dict[tuple[str, int, int], int]
LINES = ("statement", "physical")
NESTED = ("own", "enclosing")
_FLOW: Options = {"variables": None, "lines": LINES, "nested": NESTED}


def _line_field(query: Query) -> int:
    """Which line of an access event a pair names: its statement's first line (default) or, with
    `lines: "physical"` (SWE-Flux's convention), the physical line of the load or store itself."""
    lines = query.get("lines", "statement")
    if lines not in LINES:
        raise Invalid(f'query key lines must be "statement" or "physical", got {lines!r}')
    return 4 if lines == "physical" else 2


def _reads(query: Query) -> tuple[str, ...]:
    """The access kinds that read a variable: the frame's own loads (default) and, with
    `nested: "enclosing"` (SWE-Flux's convention), reads from closures, lambdas, generator expressions and
    comprehensions nested in the target, counted as the target's at their line."""
    nested = query.get("nested", "own")
    if nested not in NESTED:
        raise Invalid(f'query key nested must be "own" or "enclosing", got {nested!r}')
    return ("load", "nested_load") if nested == "enclosing" else ("load",)


def _lines_phrase(query: Query) -> str:
    phrase = ""
    if query.get("lines") == "physical":
        phrase += (" Lines are physical lines: the line of the read or the write itself, even inside a statement "
                   "that spans several lines.")
    if query.get("nested") == "enclosing":
        phrase += (" A read inside a closure, lambda, generator expression or comprehension defined in the "
                   "function counts as the function's, at its line (the comprehension's own loop variables "
                   "are not the function's).")
    return phrase


def _def_use(trace: Trace, inv: int, tracked: set[str], field: int = 2, reads: tuple[str, ...] = ("load",)) -> Pairs:
    """Counts of (variable, def_line, use_line) over the accesses of one invocation."""
    reaching: dict[str, int] = {}
    pairs: Pairs = {}
    kinds = ("store", "delete") + reads
    for event in trace["events"]:
        kind = event[0]
        if kind not in kinds or event[1] != inv or event[3] not in tracked:
            continue
        line, name = event[field], event[3]
        if kind == "store":
            reaching[name] = line
        elif kind == "delete":
            reaching.pop(name, None)
        elif name in reaching:
            key = (name, reaching[name], line)
            pairs[key] = pairs.get(key, 0) + 1
    return pairs


def _pairs_answer(pairs: Pairs, counts: bool = False) -> Answer:
    rows = []
    for (name, d, u), n in sorted(pairs.items()):
        row: dict[str, object] = {"def_line": d, "use_line": u, "variable": name}
        if counts:
            row["count"] = n
        rows.append(row)
    return {"observed_def_use_pairs": rows}


def _suite_pairs(trace: Trace, query: Query) -> Pairs:
    tracked, total, field, reads = set(names(query)), {}, _line_field(query), _reads(query)
    for record in trace["invocations"]:
        for key, n in _def_use(trace, record["inv"], tracked, field, reads).items():
            total[key] = total.get(key, 0) + n
    return total


def _flow_needs(query: Query) -> Needs:
    try:
        return {"dataflow": names(query), "dataflow_nested": query.get("nested") == "enclosing"}
    except Invalid:
        return {}


def s4_def_use(trace: Trace, query: Query, ctx: Context) -> Answer:
    return _pairs_answer(_def_use(trace, invocation(trace, query), set(names(query)), _line_field(query),
                                  _reads(query)))


def _ask_s4_pairs(q: Query) -> Ask:
    return (
        "In invocation {}, which def-use pairs of {} are observed? Give each once, sorted by variable, "
        "then def_line, then use_line.{}".format(q.get("invocation"), code_names(q.get("variables")),
                                                 _lines_phrase(q)),
        [DEFINITION, USE, PAIR, INVOCATION],
    )


def m4_def_use(trace: Trace, query: Query, ctx: Context) -> Answer:
    return _pairs_answer(_suite_pairs(trace, query))


def _ask_m4_pairs(q: Query) -> Ask:
    return (
        "Over all invocations, which def-use pairs of {} are observed? Give each once, sorted by "
        "variable, then def_line, then use_line.{}".format(code_names(q.get("variables")), _lines_phrase(q)),
        [DEFINITION, USE, PAIR],
    )


def m4_def_use_counts(trace: Trace, query: Query, ctx: Context) -> Answer:
    return _pairs_answer(_suite_pairs(trace, query), counts=True)


def _ask_m4_counts(q: Query) -> Ask:
    return (
        "Over all invocations, which def-use pairs of {} are observed, and how many uses read each "
        "definition (`count`)? Give each pair once, sorted by variable, then def_line, then use_line.{}".format(
            code_names(q.get("variables")), _lines_phrase(q)),
        [DEFINITION, USE, PAIR],
    )


RULES = [
    Rule("S4_DataFlow", "pairs", {"observed_def_use_pairs": _PAIRS}, s4_def_use, _ask_s4_pairs,
         named_only(_flow_needs),
         options=dict(INVOCATION_OPTION, **_FLOW)),
    Rule("M4_DataFlow", "pairs", {"observed_def_use_pairs": _PAIRS}, m4_def_use, _ask_m4_pairs,
         _flow_needs, options=_FLOW),
    Rule("M4_DataFlow", "counts", {"observed_def_use_pairs": [dict(_PAIRS[0], count="int")]}, m4_def_use_counts,
         _ask_m4_counts, _flow_needs, options=_FLOW),
]
