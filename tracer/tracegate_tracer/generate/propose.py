"""Candidate queries from scouted facts: every rule, on every function it applies to.

For each function a test file ran, each (kind, mode) has a proposer below
that picks the rule's parameters from the scout's facts and the function's
AST: a loop header that ran, a line whose locals were bound, a variable
whose value changed, an invocation that raised. Proposals are cheap and
generous — every candidate of one function shares its recorded run — and
choose only what to ask; the harvested trace answers, and the generator's
screen decides what is kept. Deterministic: the same facts give the same
candidates in the same order. test_every_rule_has_a_proposer
(tests/test_scout.py) checks that every rule has a proposer.
"""

from __future__ import annotations

import ast
import math
import os
from collections.abc import Callable, Iterator
from typing import Any

from ..queries import RULES
from ..recording.linemap import LineMap, find_function, module_name

Facts = dict[str, Any]
Query = dict[str, Any]

MAX_PATH_STEPS = 150
"""An S1 path longer than this is not asked (too long to predict step by step in a prompt)."""
MAX_SUITE_TESTS = 8
"""Above this many tests the suite kinds run the whole test file."""
PER_FUNCTION = 40
"""Candidates proposed per function at most."""
MAX_FUNCTION_STEPS = 20_000
"""A function that ran more steps than this in a test file is not asked about: no question over
its whole run fits a prompt, and its traces are large."""


class Function:
    """One scouted function: its facts, its AST facts, and the tests that ran it."""

    def __init__(self, facts: Facts, linemap: LineMap, node: ast.AST, tests_file: list[str],
                 packages: list[str]) -> None:
        self.facts = facts
        self.linemap = linemap
        self.node = node
        self.file = facts["file"]
        self.func = f"{module_name(self.file)}.{facts['qualname']}"
        self.lines = {int(k): v for k, v in facts["lines"].items()}
        described = facts["described"]
        order: list[str] = []
        for test, _steps, _escaped in described:
            if test not in order and test != "<process>":
                order.append(test)
        # Single-test kinds (S) run the first test that invoked the function, its invocations
        # numbered within that test; suite kinds (M) run every test that invoked it, in order (the
        # whole file when they are many). The candidates of one function share those two runs.
        self.order = order
        self.first_test = order[0] if order else None
        self.single = self.invocations_in(self.first_test)
        complete = facts["invocations"] == len(described)
        self.suite = order if complete and 0 < len(order) <= MAX_SUITE_TESTS else list(tests_file)
        self.include = [f"{p}." for p in packages]
        span = range(node.lineno, (node.end_lineno or node.lineno) + 1)
        self.loops = sorted(h for h in linemap.loop_body_first if h in span and h in self.lines
                            and linemap.loop_body_first[h] != h)
        self.variables = {name: v for name, v in facts["variables"].items()
                          if not name.startswith("_") and name not in ("self", "cls")}
        self.line_names = {int(k): [n for n in v if n in self.variables] for k, v in facts["line_names"].items()}

    def invocations_in(self, test: str | None) -> list[list[Any]]:
        """The described invocations of one test, in order: an invocation's number is its place here."""
        return [d for d in self.facts["described"] if d[0] == test]

    def varying(self, kinds: tuple[str, ...] = ("int", "float", "str", "bool", "NoneType")) -> list[str]:
        """Variables of simple types whose sampled values changed, in name order."""
        return [name for name, v in sorted(self.variables.items())
                if len(v["values"]) >= 2 and set(v["types"]) <= set(kinds)]

    def numeric(self) -> list[str]:
        return [n for n in self.varying(("int", "float")) if "bool" not in self.variables[n]["types"]]


Proposer = Callable[[Function], Iterator[tuple[Query, str]]]
"""Yields (query, which): "single", a question about one invocation of the first test that invoked the
function; "suite", one about the whole run; or a test id, one about an invocation of that test."""


def _s1_path(f: Function) -> Iterator[tuple[Query, str]]:
    for k, (_test, steps, _escaped) in enumerate(f.single, 1):
        if 3 <= steps <= MAX_PATH_STEPS:
            yield {"invocation": k}, "single"
            if k > 1:
                return


def _m1_covered(f: Function) -> Iterator[tuple[Query, str]]:
    if len(f.lines) >= 3:
        yield {}, "suite"


def _s2_count(f: Function) -> Iterator[tuple[Query, str]]:
    for header in f.loops:
        for k in range(1, min(len(f.single), 2) + 1):
            yield {"invocation": k, "loop_line": header}, "single"


def _s2_nth_value(f: Function) -> Iterator[tuple[Query, str]]:
    varying = set(f.varying())
    for header in f.loops:
        body = f.linemap.loop_body_first[header]
        for name in [n for n in f.line_names.get(body, []) if n in varying][:2]:
            yield {"invocation": 1, "loop_line": header, "nth_iteration": 2, "variable": name}, "single"


def _m2_extremes(f: Function) -> Iterator[tuple[Query, str]]:
    for header in f.loops:
        yield {"loop_line": header}, "suite"


def _m2_breaks(f: Function) -> Iterator[tuple[Query, str]]:
    for header in f.loops:
        if f.linemap.break_lines(header):
            yield {"loop_line": header}, "suite"


def _spread(items: list[Any], count: int) -> list[Any]:
    """`count` items spread evenly over `items` (first, last, between), in order."""
    if len(items) <= count:
        return list(items)
    step = (len(items) - 1) / (count - 1)
    return [items[round(i * step)] for i in range(count)]


def _s3_state(f: Function) -> Iterator[tuple[Query, str]]:
    varying = set(f.varying())
    lines = [line for line, names in sorted(f.line_names.items()) if any(n in varying for n in names)]
    for line in _spread(lines, 3):
        names = [n for n in f.line_names[line] if n in varying][:2]
        for hit in (1, 2) if f.lines.get(line, 0) >= 2 else (1,):
            yield {"line": line, "hit": hit, "variables": names}, "single"


def _s3_first_hits(f: Function) -> Iterator[tuple[Query, str]]:
    for query, scope in _s3_state(f):
        if query["hit"] == 1:
            yield {"line": query["line"], "variables": query["variables"]}, scope


def _s3_history(f: Function) -> Iterator[tuple[Query, str]]:
    for name in f.varying()[:2]:
        yield {"invocation": 1, "variable": name}, "single"


def _m3_extremes(f: Function) -> Iterator[tuple[Query, str]]:
    for name in f.numeric()[:2]:
        yield {"variable": name}, "suite"


def _m3_unique(f: Function) -> Iterator[tuple[Query, str]]:
    for name in f.varying()[:2]:
        yield {"variable": name}, "suite"


def _s4_pairs(f: Function) -> Iterator[tuple[Query, str]]:
    for name in f.varying()[:2]:
        yield {"invocation": 1, "variables": [name]}, "single"


def _m4_pairs(f: Function) -> Iterator[tuple[Query, str]]:
    for name in f.varying()[:2]:
        yield {"variables": [name]}, "suite"


def _s5_caught(f: Function) -> Iterator[tuple[Query, str]]:
    if f.facts["exceptions"]:
        yield {}, "single"


def _s5_escaping(f: Function) -> Iterator[tuple[Query, str]]:
    """The first invocation that raised out of the function, in the first test where one did: a test
    that checks an error is seldom the first to call the function it checks."""
    for test in f.order:
        for k, (_test, _steps, escaped) in enumerate(f.invocations_in(test), 1):
            if escaped:
                yield {"invocation": k}, "single" if test == f.first_test else test
                return


def _m5_types(f: Function) -> Iterator[tuple[Query, str]]:
    if f.facts["exceptions"]:
        yield {}, "suite"


def _m5_crashing(f: Function) -> Iterator[tuple[Query, str]]:
    if any(escaped for _t, _s, escaped in f.facts["described"]):
        yield {}, "suite"


def _s6_calls(f: Function) -> Iterator[tuple[Query, str]]:
    if f.facts["callees"] and f.single:
        yield {"invocation": 1, "include": f.include}, "single"


def _s6_count(f: Function) -> Iterator[tuple[Query, str]]:
    if f.single:
        for file, qualname, _n in f.facts["callees"][:2]:
            yield {"invocation": 1, "func": f"{module_name(file)}.{qualname}", "include": f.include}, "single"


def _m6_calls(f: Function) -> Iterator[tuple[Query, str]]:
    if f.facts["callees"]:
        yield {"include": f.include}, "suite"


def _m6_call_counts(f: Function) -> Iterator[tuple[Query, str]]:
    """The function, two of its callees, and another function of its module (often a zero row)."""
    names = [f.func] + [f"{module_name(file)}.{qualname}" for file, qualname, _n in f.facts["callees"][:2]]
    module = module_name(f.file)
    for node in f.linemap.tree.body:
        name = f"{module}.{getattr(node, 'name', '')}"
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and name not in names:
            names.append(name)
            break
    if len(names) >= 2:
        yield {"functions": sorted(set(names))}, "suite"


def _numbers(f: Function, name: str) -> list[float]:
    """The finite numbers among a local's sampled values (`inf` and `nan` read as floats too, but
    no predicate's threshold can be written from them: natsort's algorithms hold both)."""
    values = []
    for text in f.variables[name]["values"]:
        try:
            value = float(text)
        except ValueError:
            continue
        if math.isfinite(value):
            values.append(value)
    return sorted(values)


def _literal(x: float) -> str:
    return str(int(x)) if x == int(x) else repr(x)


def _predicates(f: Function) -> list[str]:
    """Predicates over the numeric locals the scout saw vary: a bound the samples respect, one
    they break (a threshold inside their range), and an order between two of them."""
    found = []
    numeric = f.numeric()
    for name in numeric[:2]:
        values = _numbers(f, name)
        found.append(f"{name} >= 0")
        if len(values) >= 2:
            found.append(f"{name} < {_literal(values[len(values) // 2])}")
    for a, b in zip(numeric[:1], numeric[1:2], strict=False):
        found.append(f"{a} <= {b}")
    return found


def _s7_holds(f: Function) -> Iterator[tuple[Query, str]]:
    for predicate in _predicates(f):
        yield {"predicate": predicate}, "single"


def _m7_holds(f: Function) -> Iterator[tuple[Query, str]]:
    for predicate in _predicates(f):
        yield {"predicate": predicate}, "suite"


def _loop_observations(f: Function) -> Iterator[tuple[int, str]]:
    """(a loop body's first line, a numeric variable bound there)."""
    numeric = set(f.numeric())
    for header in f.loops:
        body = f.linemap.loop_body_first[header]
        for name in [n for n in f.line_names.get(body, []) if n in numeric][:1]:
            yield body, name


def _counts(which: str) -> Proposer:
    """A loop body's numeric variable checked once per turn: how many turns, how many break the predicate (a
    threshold at its median value as the scout saw it, and `> 0`)."""
    def propose(f: Function) -> Iterator[tuple[Query, str]]:
        for line, name in _loop_observations(f):
            values = _numbers(f, name)
            yield {"line": line, "predicate": f"{name} > 0"}, which
            if len(values) >= 2:
                yield {"line": line, "predicate": f"{name} < {_literal(values[len(values) // 2])}"}, which

    return propose


def _monotonicity(which: str) -> Proposer:
    def propose(f: Function) -> Iterator[tuple[Query, str]]:
        for line, name in _loop_observations(f):
            yield {"line": line, "variable": name}, which

    return propose


PROPOSERS: dict[tuple[str, str], Proposer] = {
    ("S1_IntraProceduralCFG", "path"): _s1_path,
    ("M1_IntraProceduralCFG", "covered"): _m1_covered,
    ("M1_IntraProceduralCFG", "line_counts"): _m1_covered,
    ("S2_Loops", "count"): _s2_count,
    ("S2_Loops", "nth_value"): _s2_nth_value,
    ("M2_Loops", "extremes"): _m2_extremes,
    ("M2_Loops", "total"): _m2_extremes,
    ("M2_Loops", "breaks"): _m2_breaks,
    ("S3_ProgramState", "state"): _s3_state,
    ("S3_ProgramState", "first_hits"): _s3_first_hits,
    ("S3_ProgramState", "history"): _s3_history,
    ("M3_ProgramState", "extremes"): _m3_extremes,
    ("M3_ProgramState", "unique"): _m3_unique,
    ("S4_DataFlow", "pairs"): _s4_pairs,
    ("M4_DataFlow", "pairs"): _m4_pairs,
    ("M4_DataFlow", "counts"): _m4_pairs,
    ("S5_Exceptions", "caught_kinds"): _s5_caught,
    ("S5_Exceptions", "escaping"): _s5_escaping,
    ("M5_Exceptions", "types"): _m5_types,
    ("M5_Exceptions", "counts"): _m5_types,
    ("M5_Exceptions", "crashing_tests"): _m5_crashing,
    ("S6_InterProceduralCFG", "order"): _s6_calls,
    ("S6_InterProceduralCFG", "count"): _s6_count,
    ("S6_InterProceduralCFG", "max_depth"): _s6_calls,
    ("M6_InterProceduralCFG", "covered"): _m6_calls,
    ("M6_InterProceduralCFG", "edges"): _m6_calls,
    ("M6_InterProceduralCFG", "call_counts"): _m6_call_counts,
    ("S7_Invariants", "holds"): _s7_holds,
    ("S7_Invariants", "counts"): _counts("single"),
    ("S7_Invariants", "monotonicity"): _monotonicity("single"),
    ("M7_Invariants", "holds"): _m7_holds,
    ("M7_Invariants", "counts"): _counts("suite"),
    ("M7_Invariants", "monotonicity"): _monotonicity("suite"),
}


def _source(roots: list[str], file: str) -> str | None:
    for root in roots:
        base = os.path.dirname(root.rstrip(os.sep))
        path = os.path.join(base, file)
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as handle:
                return handle.read()
    return None


def candidates(facts: Facts, tests_file: list[str], packages: list[str],
               roots: list[str]) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """(candidates, skipped functions with the reason) of one scouted test file."""
    found: list[dict[str, Any]] = []
    skipped: list[dict[str, str]] = []
    parsed: dict[str, LineMap | None] = {}
    for fn in facts["functions"]:
        where = f"{fn['file']}::{fn['qualname']}"
        if fn["file"] not in parsed:
            source = _source(roots, fn["file"])
            try:
                parsed[fn["file"]] = LineMap(source, fn["file"]) if source is not None else None
            except SyntaxError:
                parsed[fn["file"]] = None
        linemap = parsed[fn["file"]]
        node = find_function(linemap.tree, fn["qualname"]) if linemap is not None else None
        if node is None:
            skipped.append({"target": where, "reason": "source or def not found"})
            continue
        if sum(fn["lines"].values()) > MAX_FUNCTION_STEPS:
            skipped.append({"target": where, "reason": f"more than {MAX_FUNCTION_STEPS} steps"})
            continue
        f = Function(fn, linemap, node, tests_file, packages)
        if f.first_test is None:
            skipped.append({"target": where, "reason": "ran outside any test (import time)"})
            continue
        # Round robin over the rules, so a large function's cap never starves the last kinds.
        queues = [[(kind, mode, query, which) for query, which in proposer(f)]
                  for (kind, mode), proposer in PROPOSERS.items()]
        made = 0
        while made < PER_FUNCTION and any(queues):
            for queue in queues:
                if queue and made < PER_FUNCTION:
                    kind, mode, query, which = queue.pop(0)
                    tests = [f.first_test] if which == "single" else f.suite if which == "suite" else [which]
                    found.append({"kind": kind, "query": dict(query, mode=mode),
                                  "target": {"file": f.file, "function": fn["qualname"]}, "tests": tests})
                    made += 1
    return found, skipped


def unproposed() -> list[tuple[str, str]]:
    """Rules without a proposer (tests keep this empty). The world-model kinds ask about a test, not a
    function: scripts/generate-world.py proposes them per test, not here; B1/B2 ask about a seeded bug and
    its killing input, which scripts/generate-comet.py searches for."""
    return [(kind, mode) for kind, modes in RULES.items() for mode in modes
            if (kind, mode) not in PROPOSERS and not kind.startswith(("W", "B"))]
