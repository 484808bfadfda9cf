"""The edits a variant's pool is made of (variant.py): literal inputs of a test and its calls.

An edit replaces one span of a test file's source (positions as `ast` gives them: lines from 1,
columns in UTF-8 bytes) by another text. Inputs are literals in a test function's body, not its
docstring, decorators, the expected side of an assert's comparison, a `match=` pattern or an
f-string's parts; each has its alternatives, every one another value. A test's calls are the
statements that only call (an expression, or an assert holding a call): left out, or swapped with
the next one.
"""

from __future__ import annotations

import ast
import copy
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
    """An edit of what a call site of a target depends on (a scout run saw the call: variant.pool)."""


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
    digits = [i for i, c in enumerate(text) if c.isdigit()]
    for changed in (
        *segments(text),
        text[:letters[0]] + text[letters[0]].swapcase() + text[letters[0] + 1:] if letters else None,
        text[:digits[0]] + str((int(text[digits[0]]) + 1) % 10) + text[digits[0] + 1:] if digits else None,
        text.replace(" ", "  ", 1) if " " in text else None,
    ):
        if changed is not None:
            moved.append(changed.encode("latin-1") if isinstance(value, bytes) else changed)
    return moved


SEPARATORS = ("\n", ";", ",", " ")


def segments(text: str) -> list[str]:
    """A text of parts (lines, `;`- or `,`-separated statements or items, words) with its parts moved: the
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


# -- where the target is reached: the statements a scout run saw call it (search.py) -------------------


def enclosing_function(tree: ast.Module, line: int) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The innermost function of the file whose body holds `line` (a call site's frame)."""
    found = None
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.body and (
                node.body[0].lineno <= line <= (node.end_lineno or node.lineno)):
            if found is None or node.lineno >= found.lineno:
                found = node
    return found


def chain(body: list[ast.stmt], line: int) -> list[ast.stmt]:
    """The statements holding `line`, outermost first (a `for` and the statement of its body, ...)."""
    for statement in body:
        start = min([statement.lineno, *(d.lineno for d in getattr(statement, "decorator_list", ()))])
        if start <= line <= (statement.end_lineno or statement.lineno):
            for field in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(statement, field, None)
                if isinstance(inner, list) and inner and not isinstance(
                        statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    deeper = chain(inner, line)  # type: ignore[arg-type]
                    if deeper:
                        return [statement, *deeper]
            return [statement]
    return []


def _header(statement: ast.stmt) -> list[ast.AST]:
    """What a compound statement evaluates itself (not its bodies): a `for`'s iterable, a `with`'s items, ..."""
    if isinstance(statement, ast.For | ast.AsyncFor):
        return [statement.iter]
    if isinstance(statement, ast.With | ast.AsyncWith):
        return [item.context_expr for item in statement.items]
    if isinstance(statement, ast.If | ast.While):
        return [statement.test]
    return []


def _assigned(statement: ast.stmt) -> set[str]:
    targets: list[ast.AST] = []
    if isinstance(statement, ast.Assign):
        targets = list(statement.targets)
    elif isinstance(statement, ast.AnnAssign | ast.AugAssign):
        targets = [statement.target]
    elif isinstance(statement, ast.With | ast.AsyncWith):
        targets = [i.optional_vars for i in statement.items if i.optional_vars is not None]
    elif isinstance(statement, ast.For | ast.AsyncFor):
        targets = [statement.target]
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def _loaded(nodes: list[ast.AST]) -> set[str]:
    return {n.id for node in nodes for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


Scope = ast.FunctionDef | ast.AsyncFunctionDef | ast.Module
"""Where a call site's statement is: a function of a test file, or the module itself (a class body, a decorator)."""


def site(func: Scope, line: int) -> tuple[list[ast.AST], ast.stmt | None]:
    """What a call site at `line` of `func` depends on: the expressions its statements evaluate (the
    innermost statement whole, the headers of those around it) and, through the names they read, the
    earlier assignments of the function (their values); and the innermost statement."""
    statements = chain(list(func.body), line)
    if not statements or isinstance(statements[-1], ast.FunctionDef | ast.AsyncFunctionDef):
        return [], None  # a decorator of a test: its literals name the tests (parametrize ids)
    reached: list[ast.AST] = [*(h for s in statements[:-1] for h in _header(s)), statements[-1]]
    wanted = _loaded(reached)
    top = statements[0]
    earlier = [s for s in func.body if s.end_lineno is not None and s.end_lineno < top.lineno]
    for _ in range(3):  # names of names: `r = make(xs)` after `xs = [1, 2]`
        grown = False
        for statement in reversed(earlier):
            if statement not in reached and _assigned(statement) & wanted:
                value = getattr(statement, "value", None) or statement
                reached.append(value)
                wanted |= _loaded([value])
                grown = True
        if not grown:
            break
    return reached, statements[-1]


def site_inputs(func: Scope, line: int) -> Iterator[ast.AST]:
    """The literal inputs a call site at `line` depends on (inputs() restricted to site())."""
    reached, _ = site(func, line)
    inside = {id(n) for r in reached for n in ast.walk(r)}
    seen: set[int] = set()
    for node in inputs(func):
        if id(node) in inside and id(node) not in seen:
            seen.add(id(node))
            yield node


def removable(statement: ast.stmt | None) -> bool:
    """A statement that only calls (an expression or an assert holding a call, defining no name)."""
    return isinstance(statement, ast.Expr | ast.Assert) and any(
        isinstance(n, ast.Call) for n in ast.walk(statement)) and not any(
        isinstance(n, ast.NamedExpr) for n in ast.walk(statement))


DUPLICABLE = (ast.Expr, ast.Assert, ast.Assign, ast.AugAssign, ast.AnnAssign)
"""Statements a variant may repeat, changed, before themselves (a call of the target with another input)."""


class _Swap(ast.NodeTransformer):
    def __init__(self, node: ast.AST, text: str) -> None:
        self.node, self.replacement = node, ast.parse(text, mode="eval").body

    def generic_visit(self, node: ast.AST) -> ast.AST:
        return self.replacement if node is self.node else super().generic_visit(node)


def duplicate(statement: ast.stmt, node: ast.AST, text: str, source: str) -> Edit | None:
    """An edit inserting, before `statement`, a copy of it with `node` (a literal in it) replaced by `text`
    (an assert as the expression render() makes of it): the target is called once more, first, with
    another input. None when the statement cannot be repeated on its own line."""
    if not isinstance(statement, DUPLICABLE):
        return None
    line, col, _end_line, _end_col = position(statement)
    prefix = source.encode("utf-8").split(b"\n")[line - 1][:col]
    if prefix.strip():
        return None  # `x = 1; f(x)`: not alone on its line
    changed = copy.deepcopy(statement)
    twin = {id(a): b for a, b in zip(ast.walk(statement), ast.walk(changed), strict=True)}
    if id(node) not in twin:
        return None
    try:
        changed = _Swap(twin[id(node)], text).visit(changed)
    except SyntaxError:
        return None
    if isinstance(changed, ast.Assert):
        elts = [changed.test] + ([changed.msg] if changed.msg is not None else [])
        changed = ast.Assign(targets=[ast.Name("_", ast.Store())], value=ast.Tuple(elts, ast.Load()) if len(
            elts) > 1 else elts[0])
    ast.fix_missing_locations(changed)
    try:
        written = ast.unparse(changed)
    except Exception:  # noqa: BLE001 - an AST unparse cannot write is no candidate
        return None
    if "\n" in written:
        return None
    return (line, col, line, col, written + "\n" + prefix.decode("utf-8"))


def body_span(func: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[int, int, int, int]:
    """The span of a function's body (its statements, from the first to the end of the last)."""
    first, last = func.body[0], func.body[-1]
    return first.lineno, first.col_offset, last.end_lineno or last.lineno, last.end_col_offset or 0


def arguments_left_out(statement: ast.stmt, source: str, limit: int = 8) -> list[tuple[Edit, str]]:
    """Edits of the calls in `statement`: each keyword argument left out (the callee takes its default),
    and the last of two or more positional ones; each edit rewrites the call (unparsed) in its span."""
    out: list[tuple[Edit, str]] = []
    for call in ast.walk(statement):
        if not isinstance(call, ast.Call) or len(out) >= limit:
            continue
        original = segment(source, call)
        if original is None:
            continue
        shorter: list[tuple[ast.Call, str]] = []
        for i, keyword in enumerate(call.keywords):
            if keyword.arg is not None:
                shorter.append((ast.Call(call.func, call.args, call.keywords[:i] + call.keywords[i + 1:]),
                                f"{keyword.arg}= left out"))
        if len(call.args) >= 2 and not any(isinstance(a, ast.Starred) for a in call.args):
            shorter.append((ast.Call(call.func, call.args[:-1], call.keywords), "last argument left out"))
        for changed, what in shorter:
            try:
                written = ast.unparse(changed)
            except Exception:  # noqa: BLE001 - what unparse cannot write is no candidate
                continue
            out.append(((*position(call), written), f"{short(original)}: {what}"))
    return out[:limit]


def members_left_out(statement: ast.stmt, limit: int = 4) -> list[tuple[Edit, str]]:
    """A class a test defines (the target runs on its definition: a decorator, a metaclass): each of its
    field statements (an annotated or plain assignment) left out, when it has another."""
    if not isinstance(statement, ast.ClassDef):
        return []
    fields = [s for s in statement.body if isinstance(s, ast.AnnAssign | ast.Assign)]
    if len(statement.body) < 2:
        return []
    return [((*position(f), "pass"), f"class {statement.name}: line {f.lineno} left out") for f in fields][:limit]
