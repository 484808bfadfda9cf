"""W1-W4, the software world-model kinds: what a test does as a whole when the runner runs it.

Their answers come from measurements, not from a trace: measure.py runs the
test in clean runs (outcome, wall time), a memory run and a profile run, and
hands each rule the measurement document:

    {outcome: {outcome, exception_type, failure_line, signal},
     wall_ms: [one per clean run], peak: {bytes, traced, rss, rss_method},
     profile: {time_func, time_line, alloc_func, alloc_line: [[name, value]] ranked}}

The questions, templates and answers are declared here once, like every
other kind's; the definitions they quote are in tracer/README.md.
"""

from __future__ import annotations

import statistics

from .shared import Answer, Ask, Context, Invalid, Query, Rule, Trace
from .terms import EXCLUSIVE, OUTCOME, PEAK, WALL

TOP = 20
"""Entries in each ranked list, at most."""
BANDS = {"W2_PeakMemory": {"ratio": 1.25, "floor": 65536}, "W3_WallTime": {"ratio": 2.0, "floor": 2.0}}
"""How far two harvests of a number may differ and still agree: within `ratio` of each other, or within
`floor` (bytes, ms) of each other for small values. Recorded in each oracle's meta. Wall time's band
is wide on purpose: on a busy 2-core machine a fresh process's milliseconds vary that much between
harvests (docs/world-model.md, "Stability"); a test shorter than the floor is scheduler noise."""


def _measured(measurement: Trace, key: str) -> object:
    found = measurement.get(key)
    if found is None:
        raise Invalid(f"no {key.replace('_', ' ')} was measured"
                      + (f": the test was killed by {measurement['outcome']['signal']}"
                         if (measurement.get("outcome") or {}).get("signal") else ""))
    return found


def w1_outcome(measurement: Trace, query: Query, ctx: Context) -> Answer:
    outcome = _measured(measurement, "outcome")
    return {"outcome": outcome["outcome"], "exception_type": outcome["exception_type"],
            "failure_line": outcome["failure_line"]}


def _ask_outcome(q: Query) -> Ask:
    return ("When the runner runs this test once, what is its outcome (`passed`, `failed` or `error`)? If it "
            "does not pass, which exception type ends it (`exception_type`), and at which line of the test file "
            "does that exception last pass (`failure_line`)? Give null for both when it passes, and for a "
            "line when the exception never passes through the test file.", [OUTCOME])


def w2_peak(measurement: Trace, query: Query, ctx: Context) -> Answer:
    peak = _measured(measurement, "peak")
    return {"peak_bytes": int(peak["bytes"])}


def _ask_peak(q: Query) -> Ask:
    return ("How much memory does this test need at its peak above what the process held when the test "
            "started (`peak_bytes`, in bytes)?", [PEAK])


def w3_wall(measurement: Trace, query: Query, ctx: Context) -> Answer:
    runs = _measured(measurement, "wall_ms")
    return {"wall_ms": round(statistics.median(runs), 3)}


def _ask_wall(q: Query) -> Ask:
    return "How long does this test take (`wall_ms`, in milliseconds)?", [WALL]


def _names(ranked: list[list[object]]) -> list[str]:
    return [str(name) for name, value in ranked[:TOP] if isinstance(value, (int, float)) and value > 0]


LISTS = {"hot_methods_time": "time_func", "hot_methods_alloc": "alloc_func", "hot_lines_time": "time_line",
         "hot_lines_alloc": "alloc_line"}
"""Each ranked list of the W4 answer and the profile's list it is read from."""
NEAR = 0.25
"""A name within this share of a list's hottest value could have led it in another harvest (near_top)."""


def near_top(profile: Trace) -> dict[str, list[str]]:
    """Per answer list, the names within NEAR of its hottest value (by name): the harvest step accepts two
    harvests whose leaders differ only when each leader is near the top of the other harvest's profile, and
    then the oracle asks for both (the scheduler's noise decides between near-equal wall times)."""
    found = {}
    for list_name, key in LISTS.items():
        entries = [(str(name), value) for name, value in profile.get(key, [])[:TOP]
                   if isinstance(value, (int, float)) and value > 0]
        if entries:
            floor = max(value for _name, value in entries) * (1 - NEAR)
            found[list_name] = sorted(name for name, value in entries if value >= floor)
    return found


def w4_profile(measurement: Trace, query: Query, ctx: Context) -> Answer:
    profile = _measured(measurement, "profile")
    answer = {list_name: _names(profile[key]) for list_name, key in LISTS.items()}
    if not answer["hot_methods_time"]:
        raise Invalid("none of the code the prompt shows ran in the test (nothing to rank)")
    return answer


def _ask_profile(q: Query) -> Ask:
    return (f"Of the functions this prompt shows (the code under test and the functions it may call), which are "
            f"hottest in this test, and which of their lines? Rank up to {TOP} of those functions by exclusive "
            "time (`hot_methods_time`) and by exclusive allocation (`hot_methods_alloc`), and up to "
            f"{TOP} of their lines the same two ways (`hot_lines_time`, `hot_lines_alloc`), hottest first; "
            "leave out what got none. Name a function as its heading does (`module.qualname`; a function "
            "defined inside it as `module.qualname.<locals>.name`) and a line as `file:line`, with the file as "
            "the heading writes it.", [EXCLUSIVE])


RULES = [
    Rule("W1_Outcome", "outcome",
         {"outcome": "str", "exception_type": "str|null", "failure_line": "int|null"}, w1_outcome, _ask_outcome),
    Rule("W2_PeakMemory", "peak", {"peak_bytes": "int"}, w2_peak, _ask_peak),
    Rule("W3_WallTime", "wall", {"wall_ms": "float"}, w3_wall, _ask_wall),
    Rule("W4_Profile", "profile",
         {"hot_methods_time": ["str"], "hot_methods_alloc": ["str"], "hot_lines_time": ["str"],
          "hot_lines_alloc": ["str"]}, w4_profile, _ask_profile),
]
