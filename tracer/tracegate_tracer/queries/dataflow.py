"""S4 / M4, data flow: def-use pairs of tracked names in the target's own frames."""

from __future__ import annotations

from .shared import Answer, Ask, Context, Invalid, Needs, Query, Rule, Trace, code_names, invocation, names
from .terms import DEFINITION, INVOCATION, PAIR, USE

_PAIRS = [{"def_line": "int", "use_line": "int", "variable": "str"}]
Pairs = dict[tuple[str, int, int], int]


def _def_use(trace: Trace, inv: int, tracked: set[str]) -> Pairs:
    """Counts of (variable, def_line, use_line) over the accesses of one invocation."""
    reaching: dict[str, int] = {}
    pairs: Pairs = {}
    for event in trace["events"]:
        kind = event[0]
        if kind not in ("store", "load", "delete") or event[1] != inv or event[3] not in tracked:
            continue
        _kind, _inv, line, name = event
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
    tracked, total = set(names(query)), {}
    for record in trace["invocations"]:
        for key, n in _def_use(trace, record["inv"], tracked).items():
            total[key] = total.get(key, 0) + n
    return total


def _flow_needs(query: Query) -> Needs:
    try:
        return {"dataflow": names(query)}
    except Invalid:
        return {}


def s4_def_use(trace: Trace, query: Query, ctx: Context) -> Answer:
    return _pairs_answer(_def_use(trace, invocation(trace, query), set(names(query))))


def _ask_s4_pairs(q: Query) -> Ask:
    return (
        "In invocation {}, which def-use pairs of {} are observed? Give each once, sorted by variable, "
        "then def_line, then use_line.".format(q.get("invocation"), code_names(q.get("variables"))),
        [DEFINITION, USE, PAIR, INVOCATION],
    )


def m4_def_use(trace: Trace, query: Query, ctx: Context) -> Answer:
    return _pairs_answer(_suite_pairs(trace, query))


def _ask_m4_pairs(q: Query) -> Ask:
    return (
        "Over all invocations, which def-use pairs of {} are observed? Give each once, sorted by "
        "variable, then def_line, then use_line.".format(code_names(q.get("variables"))),
        [DEFINITION, USE, PAIR],
    )


def m4_def_use_counts(trace: Trace, query: Query, ctx: Context) -> Answer:
    return _pairs_answer(_suite_pairs(trace, query), counts=True)


def _ask_m4_counts(q: Query) -> Ask:
    return (
        "Over all invocations, which def-use pairs of {} are observed, and how many uses read each "
        "definition (`count`)? Give each pair once, sorted by variable, then def_line, then use_line.".format(
            code_names(q.get("variables"))),
        [DEFINITION, USE, PAIR],
    )


RULES = [
    Rule("S4_DataFlow", "pairs", {"observed_def_use_pairs": _PAIRS}, s4_def_use, _ask_s4_pairs, _flow_needs),
    Rule("M4_DataFlow", "pairs", {"observed_def_use_pairs": _PAIRS}, m4_def_use, _ask_m4_pairs,
         _flow_needs),
    Rule("M4_DataFlow", "counts", {"observed_def_use_pairs": [dict(_PAIRS[0], count="int")]}, m4_def_use_counts,
         _ask_m4_counts, _flow_needs),
]
