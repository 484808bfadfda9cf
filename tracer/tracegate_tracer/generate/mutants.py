"""Seeded mutants of a function, for the world-model kinds' failing tests (W1).

A mutant is one textual change on one line of the function's file — `original`
replaced once by `replacement` — of one of three kinds, as mutation testing
has them:

* flipped comparison: `<` ↔ `<=`, `>` ↔ `>=`, `==` ↔ `!=`, `is` ↔ `is not`,
  `in` ↔ `not in`;
* off by one: an integer literal `n` becomes `n + 1`;
* wrong default: a parameter's literal default changes (`True` ↔ `False`,
  `n` → `n + 1`, a non-empty string → `""`).

`original` is the smallest single-line expression around the change whose
text occurs exactly once on its line, so applying it is unambiguous
(measure.py refuses a mutant whose line no longer holds it). The order is a
seeded hash of each mutant, the kinds interleaved: the same source and seed
give the same mutants.
"""

from __future__ import annotations

import ast
import hashlib
from typing import Any

from ..recording.linemap import find_function

_FLIP = {ast.Lt: "<=", ast.LtE: "<", ast.Gt: ">=", ast.GtE: ">", ast.Eq: "!=", ast.NotEq: "==",
         ast.Is: "is not", ast.IsNot: "is", ast.In: "not in", ast.NotIn: "in"}
_TOKEN = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
          ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}
KINDS = ("flipped comparison", "off by one", "wrong default")
MORE_KINDS = ("dropped branch", "swapped arguments", "flipped step")
"""Three more, for B1/B2's bugs: an `if` whose condition becomes `False`, a call's first two positional
arguments swapped, and a loop's step turned around (`i += 1` ↔ `i -= 1` in a `while` body: a loop that may
never end). (W1's instances keep the first three, so their seeded choice is unchanged.)"""


def _segment(lines: list[str], node: ast.AST) -> str | None:
    if getattr(node, "lineno", None) is None or node.lineno != node.end_lineno:
        return None
    return lines[node.lineno - 1].encode()[node.col_offset:node.end_col_offset].decode(errors="replace")


def _unique(lines: list[str], parents: dict[ast.AST, ast.AST], node: ast.AST, start: int, end: int,
            new: str) -> tuple[str, str] | None:
    """(original, replacement): the smallest enclosing single-line expression whose text is unique on the
    line, with the bytes [start, end) of the line (the change) replaced by `new`."""
    line = lines[node.lineno - 1]
    raw = line.encode()
    walker: ast.AST | None = node
    while walker is not None:
        text = _segment(lines, walker)
        if text is None:
            return None
        if line.count(text) == 1 and walker.col_offset <= start and end <= walker.end_col_offset:
            begin = walker.col_offset
            piece = raw[begin:walker.end_col_offset]
            changed = piece[:start - begin] + new.encode() + piece[end - begin:]
            return text, changed.decode()
        parent = parents.get(walker)
        walker = parent if isinstance(parent, ast.expr) else None
    return None


def _comparisons(fn: ast.AST, lines: list[str], parents: dict) -> list[dict[str, Any]]:
    found = []
    for node in ast.walk(fn):
        if not isinstance(node, ast.Compare) or len(node.ops) != 1 or type(node.ops[0]) not in _FLIP:
            continue
        if node.lineno != node.end_lineno or node.left.end_lineno != node.lineno:
            continue
        raw = lines[node.lineno - 1].encode()
        gap_start, gap_end = node.left.end_col_offset, node.comparators[0].col_offset
        gap = raw[gap_start:gap_end].decode(errors="replace")
        token = _TOKEN[type(node.ops[0])]
        if gap.strip() != token:
            continue  # parentheses or comments between: not a plain operator
        at = gap_start + gap.index(token.split()[0])
        change = _unique(lines, parents, node, at, at + len(gap.strip().encode()), _FLIP[type(node.ops[0])])
        if change:
            found.append({"line": node.lineno, "original": change[0], "replacement": change[1],
                          "description": "flipped comparison"})
    return found


def _int(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int


def _off_by_one(fn: ast.AST, lines: list[str], parents: dict, defaults: set[int]) -> list[dict[str, Any]]:
    found = []
    for node in ast.walk(fn):
        if not _int(node) or id(node) in defaults or node.lineno != node.end_lineno:
            continue
        parent = parents.get(node)
        if isinstance(parent, ast.UnaryOp):
            continue  # -1: the sign belongs to the literal
        change = _unique(lines, parents, node, node.col_offset, node.end_col_offset, str(node.value + 1))
        if change:
            found.append({"line": node.lineno, "original": change[0], "replacement": change[1],
                          "description": "off by one"})
    return found


def _wrong_defaults(fn: ast.FunctionDef, lines: list[str], parents: dict) -> list[dict[str, Any]]:
    found = []
    for node in list(fn.args.defaults) + [d for d in fn.args.kw_defaults if d is not None]:
        if not isinstance(node, ast.Constant) or node.lineno != node.end_lineno:
            continue
        value = node.value
        if isinstance(value, bool):
            new = repr(not value)
        elif type(value) is int:
            new = str(value + 1)
        elif isinstance(value, str) and value:
            new = '""'
        else:
            continue
        change = _unique(lines, parents, node, node.col_offset, node.end_col_offset, new)
        if change:
            found.append({"line": node.lineno, "original": change[0], "replacement": change[1],
                          "description": "wrong default"})
    return found


def _dropped_branches(fn: ast.AST, lines: list[str], parents: dict) -> list[dict[str, Any]]:
    found = []
    for node in ast.walk(fn):
        if not isinstance(node, ast.If) or node.test.lineno != node.test.end_lineno:
            continue
        test = node.test
        if isinstance(test, ast.Constant):
            continue
        change = _unique(lines, parents, test, test.col_offset, test.end_col_offset, "False")
        if change and change[0] == _segment(lines, test):
            found.append({"line": test.lineno, "original": change[0], "replacement": change[1],
                          "description": "dropped branch"})
    return found


def _swapped_arguments(fn: ast.AST, lines: list[str], parents: dict) -> list[dict[str, Any]]:
    found = []
    for node in ast.walk(fn):
        if not isinstance(node, ast.Call) or node.lineno != node.end_lineno or len(node.args) < 2:
            continue
        first, second = node.args[0], node.args[1]
        if isinstance(first, ast.Starred) or isinstance(second, ast.Starred):
            continue
        a, b = _segment(lines, first), _segment(lines, second)
        whole = _segment(lines, node)
        if not a or not b or a == b or whole is None or lines[node.lineno - 1].count(whole) != 1:
            continue
        raw = lines[node.lineno - 1].encode()
        start, end = node.col_offset, node.end_col_offset
        piece = raw[start:end]
        a0, a1 = first.col_offset - start, first.end_col_offset - start
        b0, b1 = second.col_offset - start, second.end_col_offset - start
        swapped = piece[:a0] + b.encode() + piece[a1:b0] + a.encode() + piece[b1:]
        found.append({"line": node.lineno, "original": whole, "replacement": swapped.decode(),
                      "description": "swapped arguments"})
    return found


def _flipped_steps(fn: ast.AST, lines: list[str], parents: dict) -> list[dict[str, Any]]:
    found = []
    for loop in ast.walk(fn):
        if not isinstance(loop, ast.While):
            continue
        for node in ast.walk(loop):
            if not isinstance(node, ast.AugAssign) or type(node.op) not in (ast.Add, ast.Sub) \
                    or not _int(node.value) or node.lineno != node.end_lineno:
                continue
            text = _segment(lines, node)
            token = "+=" if isinstance(node.op, ast.Add) else "-="
            if text is None or text.count(token) != 1 or lines[node.lineno - 1].count(text) != 1:
                continue
            flipped = text.replace(token, "-=" if token == "+=" else "+=")
            mutant = {"line": node.lineno, "original": text, "replacement": flipped, "description": "flipped step"}
            if mutant not in found:  # a nested loop's step is walked from each loop around it
                found.append(mutant)
    return found


def propose(source: str, qualname: str, seed: str, limit: int = 3,
            kinds: tuple[str, ...] = KINDS) -> list[dict[str, Any]]:
    """Up to `limit` mutants of `qualname` in `source` (a whole file): [{line, original, replacement,
    description}], the kinds interleaved, each kind in a seeded order."""
    tree = ast.parse(source)
    fn = find_function(tree, qualname)
    if fn is None:
        return []
    lines = source.splitlines()
    parents = {child: parent for parent in ast.walk(fn) for child in ast.iter_child_nodes(parent)}
    defaults = {id(d) for d in list(fn.args.defaults) + list(fn.args.kw_defaults) if d is not None}
    body = ast.Module(body=fn.body, type_ignores=[])
    by_kind = {
        "flipped comparison": _comparisons(body, lines, parents),
        "off by one": _off_by_one(body, lines, parents, defaults),
        "wrong default": _wrong_defaults(fn, lines, parents),
    }
    if "dropped branch" in kinds:
        by_kind["dropped branch"] = _dropped_branches(body, lines, parents)
    if "swapped arguments" in kinds:
        by_kind["swapped arguments"] = _swapped_arguments(body, lines, parents)
    if "flipped step" in kinds:
        by_kind["flipped step"] = _flipped_steps(body, lines, parents)

    def order(m: dict[str, Any]) -> str:
        return hashlib.sha256(f"{seed}\0{m['line']}\0{m['original']}\0{m['replacement']}".encode()).hexdigest()

    queues = [sorted(by_kind[kind], key=order) for kind in kinds]
    chosen: list[dict[str, Any]] = []
    while len(chosen) < limit and any(queues):
        for queue in queues:
            if queue and len(chosen) < limit:
                chosen.append(queue.pop(0))
    return chosen
