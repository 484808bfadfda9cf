"""The predicates of S7 / M7: side-effect-free Python expressions over recorded locals read back as literals,
evaluated with bounds (a result's size, a question's total work) so that no predicate holds a harvest."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from .shared import Invalid

_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "len": len, "abs": abs, "min": min, "max": max, "sum": sum, "sorted": sorted,
    "all": all, "any": any, "set": set, "round": round,
}
MAX_RESULT = 1_000_000
"""Bits of an integer, or items or characters of a sequence (repeated, joined, or made by a method that could
make a larger one: a width, a tab size, a replacement), a predicate may compute: `10 ** 10 ** 10` or
`'a' * 10 ** 9` would hold the harvest until its timeout and fail every question sharing its run."""
MAX_WORK = 1 << 25
"""Items a predicate may compute over all its observations (each result's length, or an integer's 64-bit
words): many results under MAX_RESULT each, `sorted([0] * 10 ** 6)` written a hundred times, would hold the
harvest as long. A predicate over recorded values (each at most 500 characters) computes a few per observation."""


def _weight(value: Any) -> int:
    if isinstance(value, (str, bytes, list, tuple, set, frozenset, dict)):
        return len(value) + 1
    if isinstance(value, int) and not isinstance(value, bool):
        return value.bit_length() // 64 + 1
    return 1


def _sized(found: int, what: str) -> None:
    if found > MAX_RESULT:
        raise Invalid(f"predicate computes {what} too large to evaluate (over {MAX_RESULT} bits or items)")


def _power(a: Any, b: Any) -> Any:
    if isinstance(a, int) and isinstance(b, int) and b > 0 and abs(a) > 1:
        _sized(a.bit_length() * b, "a power")
    return a ** b


def _plus(a: Any, b: Any) -> Any:
    if isinstance(a, (str, bytes, list, tuple)) and isinstance(b, (str, bytes, list, tuple)):
        _sized(len(a) + len(b), "a joined sequence")
    return a + b


def _times(a: Any, b: Any) -> Any:
    for seq, n in ((a, b), (b, a)):
        if isinstance(n, int) and isinstance(seq, (str, bytes, list, tuple)):
            _sized(len(seq) * n, "a repeated sequence")
    return a * b


_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: _plus, ast.Sub: lambda a, b: a - b, ast.Mult: _times,
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


def _bounded(target: Any, method: str, args: list[Any]) -> None:
    """Refuses a call whose result could exceed MAX_RESULT (a width, a tab size, a replacement, a length)."""
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
    if grows > MAX_RESULT:
        raise Invalid(f"predicate calls {type(target).__name__}.{method} for a result of up to {grows} items "
                      f"(at most {MAX_RESULT})")


_METHOD_NAMES = frozenset().union(*_METHODS.values())
_ALLOWED = (ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.BinOp, ast.UnaryOp, ast.Not, ast.USub, ast.UAdd,
            ast.Compare, ast.Name, ast.Load, ast.Constant, ast.Tuple, ast.List, ast.Subscript, ast.Slice, ast.Call,
            ast.IfExp, ast.Attribute, *_BINOPS, *_COMPARE)


def literal(text: str, name: str) -> Any:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        raise Invalid(f"the value of {name} ({text[:80]}) is not a Python literal") from None


class Predicate:
    """A side-effect-free Python expression over recorded (literal) values."""

    def __init__(self, text: object) -> None:
        if not isinstance(text, str) or not text.strip():
            raise Invalid("query needs 'predicate': a Python expression")
        try:
            self.tree = ast.parse(text, mode="eval")
        except SyntaxError as exc:
            raise Invalid(f"predicate does not parse: {exc.msg}") from None
        self.text = text
        self.work = 0
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
        env = {name: literal(state[name], name) for name in self.names}
        try:
            return bool(self._eval(self.tree.body, env))
        except Invalid:
            raise
        except Exception as exc:  # noqa: BLE001 - e.g. comparing None with an int
            shown = {n: state[n] for n in self.names}
            raise Invalid(f"predicate {self.text!r} failed on {shown!r}: {type(exc).__name__}") from None

    def _spend(self, value: Any) -> Any:
        """Counts what a computed result weighs against MAX_WORK (a recorded value is read, not computed)."""
        self.work += _weight(value)
        if self.work > MAX_WORK:
            raise Invalid(f"predicate computes too much to evaluate (over {MAX_WORK} items over its observations)")
        return value

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
            return self._spend(_BINOPS[type(node.op)](ev(node.left), ev(node.right)))
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
                return self._spend(getattr(target, node.func.attr)(*args))
            return self._spend(ev(node.func)(*[ev(a) for a in node.args]))
        raise Invalid(f"predicate uses unsupported syntax: {type(node).__name__}")
