"""S7 / M7, invariants: a predicate over the recorded locals, read back as literals."""

from __future__ import annotations

import ast
from collections.abc import Callable
from itertools import pairwise
from typing import Any

from ..recording.trace import events_of
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

_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "len": len, "abs": abs, "min": min, "max": max, "sum": sum, "sorted": sorted,
    "all": all, "any": any, "set": set, "round": round,
}
MAX_RESULT = 1 << 20
"""Bits of an integer, or items of a repeated sequence, a predicate may compute: `10 ** 10 ** 10` or
`'a' * 10 ** 9` would hold the harvest until its timeout and fail every question sharing its run."""


def _sized(found: int, what: str) -> None:
    if found > MAX_RESULT:
        raise Invalid(f"predicate computes {what} too large to evaluate (over {MAX_RESULT} bits or items)")


def _power(a: Any, b: Any) -> Any:
    if isinstance(a, int) and isinstance(b, int) and b > 0 and abs(a) > 1:
        _sized(a.bit_length() * b, "a power")
    return a ** b


def _times(a: Any, b: Any) -> Any:
    for seq, n in ((a, b), (b, a)):
        if isinstance(n, int) and isinstance(seq, (str, bytes, list, tuple)):
            _sized(len(seq) * n, "a repeated sequence")
    return a * b


_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: _times,
    ast.Div: lambda a, b: a / b, ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b,
    ast.Pow: _power,
}
_COMPARE: dict[type, Callable[[Any, Any], bool]] = {
    ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b,
    ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
    ast.Is: lambda a, b: a is b, ast.IsNot: lambda a, b: a is not b,
}
# Methods of literal values a predicate may call (SWE-Flux's convention, e.g. `text.split()`): the values are
# ast.literal_eval results, never user objects, so every method of theirs that leaves them as they are may be
# called: all of this interpreter's public methods of each literal type but the ones that change the value, and
# `format`/`format_map` (a mini-language of attribute and item lookups). Methods whose result can outgrow their
# input (a width, a tab size, a replacement) are checked before the call (`_bounded`).
MUTATORS: dict[type, frozenset[str]] = {
    list: frozenset({"append", "clear", "extend", "insert", "pop", "remove", "reverse", "sort"}),
    dict: frozenset({"clear", "pop", "popitem", "setdefault", "update"}),
    set: frozenset({"add", "clear", "difference_update", "discard", "intersection_update", "pop", "remove",
                    "symmetric_difference_update", "update"}),
}
NOT_CALLABLE_BY_PREDICATES = frozenset({"format", "format_map"})
LITERAL_TYPES = (str, bytes, tuple, list, dict, set, frozenset, int, float, complex, bool)


def _callable_methods(cls: type) -> frozenset[str]:
    return frozenset(name for name in dir(cls)
                     if not name.startswith("_") and callable(getattr(cls, name))
                     and name not in MUTATORS.get(cls, frozenset()) and name not in NOT_CALLABLE_BY_PREDICATES)


_METHODS: dict[type, frozenset[str]] = {cls: _callable_methods(cls) for cls in LITERAL_TYPES}
# A result of at most this many items or characters, from a method that could make a larger one.
_GROWTH_LIMIT = 1_000_000


def _bounded(target: Any, method: str, args: list[Any]) -> None:
    """Refuses a call whose result could exceed _GROWTH_LIMIT (a width, a tab size, a replacement, a length)."""
    if not args:
        return
    first = args[0]
    grows = 0
    if isinstance(target, int) and method == "to_bytes" and isinstance(first, int):
        grows = first
    elif isinstance(target, (str, bytes)):
        size = len(target)
        if method in ("center", "ljust", "rjust", "zfill") and isinstance(first, int):
            grows = first
        elif method == "expandtabs" and isinstance(first, int):
            grows = size * max(first, 1)
        elif method == "replace" and len(args) >= 2 and isinstance(args[1], (str, bytes)):
            grows = (size + 1) * max(len(args[1]), 1)
        elif method == "translate" and isinstance(first, dict):
            longest = max((len(v) for v in first.values() if isinstance(v, (str, bytes))), default=1)
            grows = size * max(longest, 1)
    if grows > _GROWTH_LIMIT:
        raise Invalid(f"predicate calls {type(target).__name__}.{method} for a result of up to {grows} items "
                      f"(at most {_GROWTH_LIMIT})")


_METHOD_NAMES = frozenset().union(*_METHODS.values())
_ALLOWED = (ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.BinOp, ast.UnaryOp, ast.Not, ast.USub, ast.UAdd,
            ast.Compare, ast.Name, ast.Load, ast.Constant, ast.Tuple, ast.List, ast.Subscript, ast.Slice, ast.Call,
            ast.IfExp, ast.Attribute, *_BINOPS, *_COMPARE)


def _literal(text: str, name: str) -> Any:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        raise Invalid(f"the value of {name} ({text[:80]}) is not a Python literal") from None


class _Predicate:
    """A side-effect-free Python expression over recorded (literal) values."""

    def __init__(self, text: object) -> None:
        if not isinstance(text, str) or not text.strip():
            raise Invalid("query needs 'predicate': a Python expression")
        try:
            self.tree = ast.parse(text, mode="eval")
        except SyntaxError as exc:
            raise Invalid(f"predicate does not parse: {exc.msg}") from None
        self.text = text
        self.names = sorted({n.id for n in ast.walk(self.tree) if isinstance(n, ast.Name)} - set(_FUNCTIONS))
        for node in ast.walk(self.tree):
            if not isinstance(node, _ALLOWED):
                raise Invalid(f"predicate uses unsupported syntax: {type(node).__name__}")
            if isinstance(node, ast.Call) and not (
                    (isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS)
                    or (isinstance(node.func, ast.Attribute) and node.func.attr in _METHOD_NAMES)):
                called = node.func.attr if isinstance(node.func, ast.Attribute) else ast.unparse(node.func)
                raise Invalid("predicate calls {}(): it may only call {} and the methods of literal values that "
                              "leave them unchanged (not format or format_map)".format(
                                  called, ", ".join(sorted(_FUNCTIONS))))
            if isinstance(node, ast.Attribute) and not any(
                    isinstance(call, ast.Call) and call.func is node for call in ast.walk(self.tree)):
                raise Invalid(f"predicate reads attribute {node.attr!r}: only method calls are allowed")

    def __call__(self, state: dict[str, str]) -> bool:
        env = {name: _literal(state[name], name) for name in self.names}
        try:
            return bool(self._eval(self.tree.body, env))
        except Invalid:
            raise
        except Exception as exc:  # noqa: BLE001 - e.g. comparing None with an int
            shown = {n: state[n] for n in self.names}
            raise Invalid(f"predicate {self.text!r} failed on {shown!r}: {type(exc).__name__}") from None

    def _eval(self, node: ast.AST, env: dict[str, Any]) -> Any:
        def ev(n: ast.AST) -> Any:
            return self._eval(n, env)

        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return env[node.id] if node.id in env else _FUNCTIONS[node.id]
        if isinstance(node, ast.BoolOp):
            values = (ev(v) for v in node.values)
            return all(values) if isinstance(node.op, ast.And) else any(values)
        if isinstance(node, ast.UnaryOp):
            value = ev(node.operand)
            return not value if isinstance(node.op, ast.Not) else (-value if isinstance(node.op, ast.USub) else +value)
        if isinstance(node, ast.BinOp):
            return _BINOPS[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.Compare):
            left = ev(node.left)
            for op, comparator in zip(node.ops, node.comparators, strict=True):
                right = ev(comparator)
                if not _COMPARE[type(op)](left, right):
                    return False
                left = right
            return True
        if isinstance(node, (ast.Tuple, ast.List)):
            return [ev(e) for e in node.elts]
        if isinstance(node, ast.Subscript):
            index = node.slice
            if isinstance(index, ast.Slice):
                def part(n: ast.AST | None) -> Any:
                    return None if n is None else ev(n)

                return ev(node.value)[part(index.lower):part(index.upper):part(index.step)]
            return ev(node.value)[ev(index)]
        if isinstance(node, ast.IfExp):
            return ev(node.body) if ev(node.test) else ev(node.orelse)
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute):
                target = ev(node.func.value)
                if node.func.attr not in _METHODS.get(type(target), ()):
                    raise Invalid(f"predicate calls {type(target).__name__}.{node.func.attr}, which is not allowed")
                args = [ev(a) for a in node.args]
                _bounded(target, node.func.attr, args)
                return getattr(target, node.func.attr)(*args)
            return ev(node.func)(*[ev(a) for a in node.args])
        raise Invalid(f"predicate uses unsupported syntax: {type(node).__name__}")


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
        return {"variables": _Predicate(query.get("predicate")).names}
    except Invalid:
        return {}


def _at(query: Query) -> str:
    return "" if query.get("line") is None else " at line {}".format(query["line"])


def invariant_holds(trace: Trace, query: Query, ctx: Context) -> Answer:
    predicate = _Predicate(query.get("predicate"))
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
    predicate = _Predicate(query.get("predicate"))
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
        return {"variables": sorted({n for _line, text in _checks(query) for n in _Predicate(text).names})}
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
    values = [_literal(s[name], name) for s in _observations(trace, query, [name])]
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
