"""Proposers of the invariant kinds (S7, M7): predicates over the numeric locals the scout saw vary, checked
over a run or once per turn of a loop."""

from __future__ import annotations

import ast
import math
from collections.abc import Iterator

from ..queries.invariants import MAX_CHECKS
from .function import Function, Proposer, Query


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


def _loop_observations(f: Function, per_loop: int = 1) -> Iterator[tuple[int, str]]:
    """(a loop body's first line, a numeric local the body names), the first `per_loop` of each loop: what
    the body computes, not whichever local sorts first among those bound at its first line (the counter)."""
    for header in f.loops:
        for name in _body_names(f, header)[:per_loop]:
            yield f.linemap.loop_body_first[header], name


def _turn_checks(f: Function, line: int, name: str) -> list[Query]:
    """A loop variable checked at `line` on each turn: against `> 0`, and against a threshold at its median
    value as the scout saw it (when it saw two or more)."""
    values = _numbers(f, name)
    checks = [{"line": line, "predicate": f"{name} > 0"}]
    if len(values) >= 2:
        checks.append({"line": line, "predicate": f"{name} < {_literal(values[len(values) // 2])}"})
    return checks


def _counts(which: str) -> Proposer:
    """A loop body's numeric variable checked once per turn: how many turns, how many break the predicate (a
    threshold at its median value as the scout saw it, and `> 0`)."""
    def propose(f: Function) -> Iterator[tuple[Query, str]]:
        for line, name in _loop_observations(f):
            for check in _turn_checks(f, line, name):
                yield check, which

    return propose


def _body_names(f: Function, header: int) -> list[str]:
    """The numeric locals the scout saw vary that the body of the loop at `header` names, in source order (a
    check at the body's first line sees each once it is bound)."""
    loop = next((n for n in ast.walk(f.node) if isinstance(n, (ast.For, ast.While, ast.AsyncFor))
                 and n.lineno == header), None)
    if loop is None:
        return []
    numeric, names = set(f.numeric()), []
    named = [n for statement in loop.body for n in ast.walk(statement) if isinstance(n, ast.Name)]
    for node in sorted(named, key=lambda n: (n.lineno, n.col_offset)):
        if node.id in numeric and node.id not in names:
            names.append(node.id)
    return names


def _checks(which: str) -> Proposer:
    """The counts questions of every loop, in one: the numeric variables each loop body reads (three at most)
    checked at its first line against `> 0` and a threshold at their median value, MAX_CHECKS checks at most."""
    def propose(f: Function) -> Iterator[tuple[Query, str]]:
        checks = []
        for line, name in _loop_observations(f, per_loop=3):
            checks.extend(_turn_checks(f, line, name))
        if len(checks) >= 2:
            yield {"checks": checks[:MAX_CHECKS]}, which

    return propose


def _monotonicity(which: str) -> Proposer:
    def propose(f: Function) -> Iterator[tuple[Query, str]]:
        for line, name in _loop_observations(f):
            yield {"line": line, "variable": name}, which

    return propose


PROPOSERS: dict[tuple[str, str], Proposer] = {
    ("S7_Invariants", "holds"): _s7_holds,
    ("S7_Invariants", "counts"): _counts("single"),
    ("S7_Invariants", "monotonicity"): _monotonicity("single"),
    ("S7_Invariants", "checks"): _checks("single"),
    ("M7_Invariants", "holds"): _m7_holds,
    ("M7_Invariants", "counts"): _counts("suite"),
    ("M7_Invariants", "monotonicity"): _monotonicity("suite"),
    ("M7_Invariants", "checks"): _checks("suite"),
}
