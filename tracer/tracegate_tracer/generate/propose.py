"""Candidate queries from scouted facts: every rule, on every function it applies to.

For each function a test file ran, each (kind, mode) has a proposer below
that picks the rule's parameters from the scout's facts and the function's
AST: a loop header that ran, a line whose locals were bound, a variable
whose value changed, an invocation that raised. Proposals are cheap and
generous — every candidate of one function shares its recorded run — and
choose only what to ask; the harvested trace answers, and the generator's
screen decides what is kept. Deterministic: the same facts give the same
candidates in the same order. The invariant kinds' proposers are in predicates.py.
test_every_rule_has_a_proposer
(tests/test_scout.py) checks that every rule has a proposer.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator
from typing import Any

from ..queries import RULES
from ..recording.linemap import LineMap, find_function, module_name
from . import predicates
from .function import Facts, Function, Proposer, Query, richest

MAX_PATH_STEPS = 150
"""An S1 path longer than this is not asked (too long to predict step by step in a prompt)."""
PER_FUNCTION = 40
"""Candidates proposed per function at most."""
MAX_FLOW_NAMES = 8
"""Variables one data-flow question names at most."""
MAX_FUNCTION_STEPS = 20_000
"""A function that ran more steps than this in a test file is not asked about: no question over
its whole run fits a prompt, and its traces are large."""


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
    """The tuple of the changing locals one line reads together (the line with the most of them, up to three,
    in the line's order; SWE-Flux's M3 asks about such tuples), then each changing local alone."""
    varying = set(f.varying())
    together = max(([n for n in names if n in varying] for _line, names in sorted(f.line_names.items())),
                   key=len, default=[])[:3]
    if len(together) >= 2:
        yield {"variables": together}, "suite"
    for name in f.varying()[:2]:
        yield {"variable": name}, "suite"


def _flow_sets(f: Function) -> list[list[str]]:
    """The variable sets a data-flow question names, the largest first: every local the scout saw bound (up to
    MAX_FLOW_NAMES), the ones whose values changed, then each changing one alone. SWE-Flux asks about every
    variable of the function; a larger set is a longer answer, and the generator keeps the most complex."""
    every = sorted(f.variables)[:MAX_FLOW_NAMES]
    varying = f.varying()
    sets = [every, varying[:MAX_FLOW_NAMES]] + [[name] for name in varying[:2]]
    found: list[list[str]] = []
    for names in sets:
        if names and names not in found:
            found.append(names)
    return found


def _s4_pairs(f: Function) -> Iterator[tuple[Query, str]]:
    """The richest invocation first (then the first), each with every variable set of _flow_sets."""
    for names in _flow_sets(f):
        for k in dict.fromkeys((richest(f), 1)):
            yield {"invocation": k, "variables": names}, "single"


def _m4_pairs(f: Function) -> Iterator[tuple[Query, str]]:
    for names in _flow_sets(f):
        yield {"variables": names}, "suite"


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
    """Every call over the test's whole run (SWE-Flux's `invocation: "all"`), then the richest invocation's
    and the first's."""
    if f.facts["callees"] and f.single:
        yield {"invocation": "all", "include": f.include}, "single"
        yield from _s6_depth(f)


def _s6_depth(f: Function) -> Iterator[tuple[Query, str]]:
    if f.facts["callees"] and f.single:
        for k in dict.fromkeys((richest(f), 1)):
            yield {"invocation": k, "include": f.include}, "single"


def _s6_count(f: Function) -> Iterator[tuple[Query, str]]:
    if f.single:
        for file, qualname, _n in f.facts["callees"][:2]:
            yield {"invocation": richest(f), "func": f"{module_name(file)}.{qualname}", "include": f.include}, \
                "single"


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
    ("S6_InterProceduralCFG", "max_depth"): _s6_depth,
    ("M6_InterProceduralCFG", "covered"): _m6_calls,
    ("M6_InterProceduralCFG", "edges"): _m6_calls,
    ("M6_InterProceduralCFG", "call_counts"): _m6_call_counts,
    **predicates.PROPOSERS,
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
