"""An item's intrinsic complexity: how much reasoning its answer takes, measured at harvest.

Three components, each the mean of its features mapped onto 0..10 (`10 * (1 - exp(-value / scale))`: smooth,
no cliff, a feature's scale is the value at which it scores 6.3):

* semantic: what the question's part of the run does, from the trace: steps (line events), distinct lines,
  branch points (lines left for two or more different next lines), loop turns (the most times one line ran in
  one invocation), invocations, exceptions raised, and — only where the kind itself records them — calls made
  under the target (count, distinct callees, deepest), and distinct values of the variables it asks about;
* answer: what must be written down, from the answer: scalars, elements of lists, nesting depth, characters;
* navigation: what must be found and read, from the prompt's code (never the trace): the functions of the
  package the target may reach and the files they live in, the tests that run and their lines, and whether
  the target is reached from the tests only through other code (its name in no test).

Every feature depends on the item alone: the trace's events are read for the invocations the question reads
(the one it names, `events_through`, or all) and only the kinds of events its own kind records, so the score
does not depend on which other questions shared the run. The combined score is the mean of the three.
docs/benchmark-validity.md ("Complexity") states the scales and the bands the report uses.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter, defaultdict
from typing import Any

from .shared import Needs, Trace

SCALES: dict[str, dict[str, float]] = {
    "semantic": {"steps": 400, "lines": 30, "branches": 6, "turns": 40, "invocations": 8, "exceptions": 4,
                 "calls": 80, "callees": 8, "depth": 4, "values": 40},
    "answer": {"scalars": 30, "elements": 30, "depth": 3, "chars": 600},
    "navigation": {"functions": 10, "files": 3, "tests": 6, "test_lines": 150, "indirect": 1},
}
"""Each component's features and the value at which a feature scores 6.3 of 10."""
VERSION = 1
"""Changes whenever a feature or a scale does: scores of different versions are not compared."""
RESOLUTION = 0.1
"""Component scores closer than this are equal when a variant is compared with its original (the host's
COMPLEXITY_RESOLUTION, docs/benchmark-validity.md): 1% of the scale. It is what an answer's spelling moves
(`"none"` for `"strictly_increasing"`: 0.05 of the answer score; a count of 9 for 10: 0.004), not a different
amount of reasoning. A run a few steps shorter stays within it too (30 of 178 kept variants, measured:
docs/benchmark-validity.md); one that skips lines or loop turns does not."""


def _saturate(value: float, scale: float) -> float:
    return 10.0 * (1.0 - math.exp(-max(0.0, value) / scale))


def _score(component: str, features: dict[str, int]) -> float:
    scales = SCALES[component]
    present = [_saturate(value, scales[name]) for name, value in features.items()]
    return round(sum(present) / len(present), 3) if present else 0.0


def semantic_features(trace: Trace, needs: Needs) -> dict[str, int]:
    """The run's part that the question reads: its invocations' line and exception events (and its calls and
    values where its kind records them)."""
    through = needs.get("events_through")  # the one invocation the question names (shared.named_only)
    read = {record["inv"] for record in trace["invocations"] if not through or record["inv"] == through}
    steps = 0
    runs: Counter[tuple[int, int]] = Counter()  # (invocation, line) → times it ran
    successors: defaultdict[int, set[int]] = defaultdict(set)
    last: dict[int, int] = {}
    exceptions = 0
    calls, callees, depth = 0, set(), 0
    variables = set(needs.get("variables") or ())
    values: set[tuple[str, str]] = set()
    for event in trace["events"]:
        kind = event[0]
        if kind == "call":
            owners = [owner for owner in event[1] if owner[0] in read]
            if owners and needs.get("record_calls"):
                calls += 1
                callees.add(event[3])
                depth = max(depth, min(owner[1] for owner in owners))
            continue
        if event[1] not in read:
            continue
        if kind == "line":
            inv, line = event[1], event[2]
            steps += 1
            runs[(inv, line)] += 1
            if inv in last and last[inv] != line:
                successors[last[inv]].add(line)
            last[inv] = line
            for name, rendered in (event[3] or {}).items() if variables else ():
                if name in variables:
                    values.add((name, rendered))
        elif kind == "exception":
            exceptions += 1
    features = {
        "steps": steps,
        "lines": len({line for _inv, line in runs}),
        "branches": sum(1 for targets in successors.values() if len(targets) > 1),
        "turns": max(runs.values(), default=0),
        "invocations": len(read),
        "exceptions": exceptions,
    }
    if needs.get("record_calls"):
        features.update(calls=calls, callees=len(callees), depth=depth)
    if variables:
        features["values"] = len(values)
    return features


def answer_features(answer: Any) -> dict[str, int]:
    """The answer's size and shape: scalars, list elements, nesting depth, characters (compact JSON)."""
    scalars = elements = deepest = 0
    stack = [(answer, 0)]
    while stack:
        value, level = stack.pop()
        deepest = max(deepest, level)
        if isinstance(value, dict):
            stack.extend((item, level + 1) for item in value.values())
        elif isinstance(value, list):
            elements += len(value)
            stack.extend((item, level + 1) for item in value)
        else:
            scalars += 1
    chars = len(json.dumps(answer, separators=(",", ":"), sort_keys=True, ensure_ascii=False))
    return {"scalars": scalars, "elements": elements, "depth": deepest, "chars": chars}


def navigation_features(context: dict[str, Any]) -> dict[str, int]:
    """What the prompt's code asks a reader to find: reachable functions and their files, the tests and their
    lines, and whether any test names the target."""
    piece = context.get("slice") or {}
    functions = piece.get("functions") or []
    files = {block.get("file") for block in functions} | {context.get("file")}
    tests = context.get("tests") or []
    name = str(context.get("func") or "").rsplit(".", 1)[-1]
    named = bool(name) and any(re.search(rf"\b{re.escape(name)}\b", test.get("source") or "") for test in tests)
    return {
        "functions": len(functions) + len(piece.get("named") or []),
        "files": len(files - {None}),
        "tests": len(tests),
        "test_lines": sum(len((test.get("source") or "").splitlines()) for test in tests),
        "indirect": 0 if named or not tests else 1,
    }


def run_scores(trace: Trace, needs: Needs, answer: Any) -> dict[str, float]:
    """The semantic and answer scores alone (what a run and its answer decide; navigation is the prompt's
    code): the variant search ranks its candidates by them against the unchanged copy's."""
    return {"semantic": _score("semantic", semantic_features(trace, needs)),
            "answer": _score("answer", answer_features(answer))}


def at_least(mine: dict[str, float], theirs: dict[str, float]) -> bool:
    """Whether `mine` is at least `theirs` on every component `theirs` scores, to RESOLUTION."""
    return least_gain(mine, theirs) >= -RESOLUTION


def least_gain(mine: dict[str, float], theirs: dict[str, float]) -> float:
    """How much `mine` exceeds `theirs` on the component where it exceeds it least (negative: lower there)."""
    return round(min((mine[component] - score for component, score in theirs.items()), default=0.0), 6)


def measure(trace: Trace, needs: Needs, answer: Any, context: dict[str, Any]) -> dict[str, Any]:
    """{version, score, semantic, answer, navigation, features: {component: {feature: value}}}."""
    features = {"semantic": semantic_features(trace, needs), "answer": answer_features(answer),
                "navigation": navigation_features(context)}
    scores = {component: _score(component, values) for component, values in features.items()}
    return {"version": VERSION, "score": round(sum(scores.values()) / len(scores), 3), **scores,
            "features": features}
