"""The edits a variant's pool is made of (pool.py): literal inputs of a test and its calls.

An edit replaces one span of a test file's source (positions as `ast` gives them: lines from 1,
columns in UTF-8 bytes) by another text. Inputs are literals in a test function's body, not its
docstring, decorators, the expected side of an assert's comparison, a `match=` pattern or an
f-string's parts; each has its alternatives, every one another value. A test's calls are the
statements that only call (an expression, or an assert holding a call): left out, or swapped with
the next one.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

MAX_LITERAL_CHARS = 200
"""Longer literals are data, not inputs one edit should move (and their doubling would bloat the file)."""
SIBLINGS = 3
"""A string may become one of this many other strings of its file (an option's other value)."""

Edit = tuple[int, int, int, int, str]  # start line, start col (bytes), end line, end col, replacement


@dataclass(frozen=True)
class Candidate:
    file: str
    """The test file the edits are in (as the test ids name it)."""
    edits: tuple[Edit, ...]
    what: str
    """The edit in words, e.g. `line 12: 6 → 7` (logs and tests)."""
    targeted: bool = False
    """An edit of what a call site of a target depends on (a scout run saw the call: pool.pool)."""


def tests_of(tree: ast.Module, names: set[str] | None) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The test functions run (`names`, or every test function when None)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test") and (
                names is None or node.name in names):
            yield node


def not_inputs(func: ast.AST) -> set[int]:
    """ids of the nodes under `func` that are not inputs: the expected side of an assert's comparison,
    `match=` patterns, f-string parts."""
    skipped: set[int] = set()
    for node in ast.walk(func):
        if isinstance(node, ast.Assert) and isinstance(node.test, ast.Compare):
            for comparator in node.test.comparators:
                skipped.update(id(n) for n in ast.walk(comparator))
        if isinstance(node, ast.Assert) and node.msg is not None:
            skipped.update(id(n) for n in ast.walk(node.msg))
        if isinstance(node, ast.keyword) and node.arg == "match":
            skipped.update(id(n) for n in ast.walk(node.value))
        if isinstance(node, ast.JoinedStr):
            skipped.update(id(n) for n in ast.walk(node))
    return skipped


def inputs(func: ast.AST) -> Iterator[ast.AST]:
    """The literal inputs in a test's body (not its decorators, defaults or docstring)."""
    body = list(getattr(func, "body", ()))
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    skipped = not_inputs(func)
    for statement in body:
        for node in ast.walk(statement):
            if id(node) in skipped:
                continue
            if negative_value(node) is not None:
                skipped.add(id(node.operand))  # type: ignore[attr-defined]
                yield node
            elif isinstance(node, ast.Constant) and isinstance(node.value, int | float | str | bytes):
                yield node
            elif isinstance(node, ast.List | ast.Tuple | ast.Set | ast.Dict):
                yield node


def negative_value(node: ast.AST) -> int | float | None:
    """The value of a negative number literal (`-3`: a minus applied to a constant), else None."""
    if (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant)
            and isinstance(node.operand.value, int | float) and not isinstance(node.operand.value, bool)):
        return -node.operand.value
    return None


def segment(source: str, node: ast.AST) -> str | None:
    return ast.get_source_segment(source, node)


def number_alternatives(value: int | float) -> list[object]:
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        moved: list[object] = [value + 1, value - 1, value * 2, 0, -value]
        if abs(value) > 3:
            moved += [value // 2, 1, 2]  # small sizes: a loop's first turns, a range's first values
        if 0 < abs(value) <= 1000:
            moved.append(value * 10)
        if 0 < abs(value) <= 100:
            moved.append(value * 1000)
        return moved
    return [value * 2, value / 2, -value, value + 1.0, 0.0]


def text_alternatives(value: str | bytes) -> list[object]:
    if not value:
        return ["a" if isinstance(value, str) else b"a"]
    moved: list[object] = [value[:-1], value + value[-1:], value[:0]]
    if len(value) <= 64:
        moved.append(value * 2)
    text = value.decode("latin-1") if isinstance(value, bytes) else value
    letters = [i for i, c in enumerate(text) if c.isalpha()]
    digits = [i for i, c in enumerate(text) if c.isdecimal()]  # "①".isdigit(), yet int() refuses it
    for changed in (
        *segments(text),
        text[:letters[0]] + text[letters[0]].swapcase() + text[letters[0] + 1:] if letters else None,
        text[:digits[0]] + str((int(text[digits[0]]) + 1) % 10) + text[digits[0] + 1:] if digits else None,
        text.replace(" ", "  ", 1) if " " in text else None,
    ):
        if changed is None:
            continue
        if isinstance(value, bytes):
            try:  # a byte's case can leave latin-1 (b"\xff".swapcase() is "\u0178"): no such edit
                changed = changed.encode("latin-1")
            except UnicodeEncodeError:
                continue
        moved.append(changed)
    return moved


SEPARATORS = ("\n", ";", ",", "|", " ")


def segments(text: str) -> list[str]:
    """A text of parts (lines, `;`-, `,`- or `|`-separated statements or items, words) with its parts moved: the
    first left out, the last left out, the first two swapped (which part comes first, and how many, are
    what a parser or a formatter turns on)."""
    for separator in SEPARATORS:
        parts = text.split(separator)
        if len([p for p in parts if p.strip()]) >= 2:
            break
    else:
        return []
    out = [separator.join(parts[1:]), separator.join(parts[:-1])]
    if parts[0].strip() and parts[1].strip():
        out.append(separator.join([parts[1], parts[0], *parts[2:]]))
    return [o for o in out if o.strip() and o != text]


def collection_alternatives(node: ast.List | ast.Tuple | ast.Set | ast.Dict, source: str) -> list[str]:
    """Replacement texts of a literal collection: shorter (last or first dropped), longer (the last
    repeated), reversed, empty."""
    if isinstance(node, ast.Dict):
        if any(k is None for k in node.keys):
            return []
        pairs = [(segment(source, k), segment(source, v)) for k, v in zip(node.keys, node.values, strict=True)]  # type: ignore[arg-type]
        if any(k is None or v is None for k, v in pairs):
            return []
        texts = [f"{k}: {v}" for k, v in pairs]
        return [] if not texts else ["{" + ", ".join(texts[:-1]) + "}", "{}"]
    items = [segment(source, e) for e in node.elts]
    if not items or any(t is None or isinstance(e, ast.Starred) for t, e in zip(items, node.elts, strict=True)):
        return []
    shapes: list[list[str]] = [items[:-1], items[1:], items + items[-1:]]  # type: ignore[list-item]
    if len(items) >= 2:
        shapes.append(list(reversed(items)))  # type: ignore[arg-type]
    shapes.append([])

    def written(elts: list[str]) -> str:
        if isinstance(node, ast.List):
            return "[" + ", ".join(elts) + "]"
        if isinstance(node, ast.Set):
            return "{" + ", ".join(elts) + "}" if elts else "set()"
        return "(" + ", ".join(elts) + ("," if len(elts) == 1 else "") + ")"

    return [written(s) for s in shapes]


def alternatives(node: ast.AST, source: str, siblings: list[str]) -> list[str]:
    """The replacement texts of one literal input, each another value (none equal to the original);
    `siblings`: the file's other short strings, in the epoch's order."""
    if isinstance(node, ast.List | ast.Tuple | ast.Set | ast.Dict):
        original = segment(source, node)
        return [t for t in dict.fromkeys(collection_alternatives(node, source)) if t != original]
    negative = negative_value(node)
    value = negative if negative is not None else node.value  # type: ignore[attr-defined]
    if isinstance(value, str | bytes) and len(value) > MAX_LITERAL_CHARS:
        return []
    moved = number_alternatives(value) if isinstance(value, int | float) else text_alternatives(value)
    if isinstance(value, str):
        moved += [t for t in siblings if t != value][:SIBLINGS]
    texts: list[str] = []
    for m in moved:
        if m == value and type(m) is type(value) or type(m) is not type(value) and not (
                isinstance(value, float) and isinstance(m, int)):
            continue
        text = repr(m)
        if isinstance(m, int | float) and m < 0:
            text = f"({text})"  # `x-(-3)`, `-(-3) ** 2`: a negative literal in its own parentheses
        if text not in texts:
            texts.append(text)
    return texts


def retyped(node: ast.AST) -> list[str]:
    """Values of another type for a literal input (what a function's type checks and conversions turn on:
    a float where an int was, a string, None, a tuple where a list was). A call with one may raise: only the
    repeated-first copy of a call gets them, inside `contextlib.suppress(Exception)` (aimed.duplicate)."""
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        elts = [ast.unparse(e) for e in node.elts]
        other = "[" + ", ".join(elts) + "]" if not isinstance(node, ast.List) else "(" + ", ".join(elts) + (
            "," if len(elts) == 1 else "") + ")"
        return [other, "None"]
    if isinstance(node, ast.Dict):
        return ["None"]
    negative = negative_value(node)
    value = negative if negative is not None else getattr(node, "value", None)
    if isinstance(value, bool):
        return ["None", repr(int(value))]
    if isinstance(value, int):
        return [repr(value + 0.5) if value >= 0 else f"({value + 0.5!r})", repr(str(value)), "None"]
    if isinstance(value, float):
        return [repr(int(value)) if value >= 0 else f"({int(value)!r})", repr(str(value)), "None"]
    if isinstance(value, str) and len(value) <= MAX_LITERAL_CHARS:
        out = [repr(value.encode("utf-8")), "None"]
        if value.strip().lstrip("-").isdigit():
            out.insert(0, value.strip())
        return out
    if isinstance(value, bytes) and len(value) <= MAX_LITERAL_CHARS:
        return [repr(value.decode("latin-1")), "None"]
    return []


def position(node: ast.AST) -> tuple[int, int, int, int]:
    return node.lineno, node.col_offset, node.end_lineno or node.lineno, node.end_col_offset or 0  # type: ignore[attr-defined]


def calls(func: ast.AST, source: str, name: str) -> Iterator[list[Candidate]]:
    """Edits of a test's calls: each statement that only calls (an expression or an assert holding a call,
    defining no name) left out (`pass`), and each adjacent pair of them swapped."""
    calls = removable

    def visit(body: list[ast.stmt]) -> Iterator[list[Candidate]]:
        for statement in body:
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(statement, field, None)
                if isinstance(inner, list) and not isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef
                                                              | ast.ClassDef):
                    yield from visit(inner)
        for i, statement in enumerate(body):
            if not calls(statement):
                continue
            line, col, end_line, end_col = position(statement)
            yield [Candidate(name, ((line, col, end_line, end_col, "pass"),), f"{name} line {line}: call left out")]
            after = body[i + 1] if i + 1 < len(body) else None
            if after is not None and calls(after):
                first, second = segment(source, statement), segment(source, after)
                first, second = as_expression(first), as_expression(second)
                if first and second and first != second:
                    other = position(after)
                    yield [Candidate(name, ((line, col, end_line, end_col, second), (*other, first)),
                                     f"{name} lines {line}-{other[0]}: calls swapped")]

    body = list(getattr(func, "body", ()))
    yield from visit(body)


def as_expression(statement: str | None) -> str | None:
    """An assert statement's text as the expression render() makes of it (`_ = (test, msg)`)."""
    if statement is None or not statement.startswith("assert"):
        return statement
    return "_ = (" + statement[len("assert"):].lstrip() + ")"


def strings(tree: ast.Module) -> list[str]:
    """The file's distinct short strings (candidate values of another string of it), sorted."""
    return sorted({n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
                   and 0 < len(n.value) <= 40 and "\n" not in n.value})


def overlap(a: Edit, b: Edit) -> bool:
    return not ((a[2], a[3]) <= (b[0], b[1]) or (b[2], b[3]) <= (a[0], a[1]))


def short(text: str) -> str:
    return text if len(text) <= 24 else text[:21] + "..."


def removable(statement: ast.stmt | None) -> bool:
    """A statement that only calls (an expression or an assert holding a call, defining no name)."""
    return isinstance(statement, ast.Expr | ast.Assert) and any(
        isinstance(n, ast.Call) for n in ast.walk(statement)) and not any(
        isinstance(n, ast.NamedExpr) for n in ast.walk(statement))
