"""The edits a variant's pool opens with (pool.py): those aimed at where a scout run saw a target called.

A call site is the statement of a test file whose frame was outermost when the target was entered (the
recorder's `site_files`). What it depends on is the statement itself, the headers of the blocks around it and
the earlier assignments of the names it reads; the edits change those literals, repeat the statement first
with one of them changed, leave out its keyword arguments or its class's fields, and run another test of the
file first (its body, in a function of its own, before the asked test's).
"""

from __future__ import annotations

import ast
import copy
import random
from collections.abc import Iterator

from .edits import Edit, inputs, position, segment, short


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


DUPLICABLE = (ast.Expr, ast.Assert, ast.Assign, ast.AugAssign, ast.AnnAssign)
"""Statements a variant may repeat, changed, before themselves (a call of the target with another input)."""


class _AsExpressions(ast.NodeTransformer):
    """A transplanted body as render() makes a test: asserts evaluated, not checked; `pytest.raises(E)` as
    `contextlib.suppress(E)`."""

    def visit_Assert(self, node: ast.Assert) -> ast.AST:  # noqa: N802 - the visitor's naming
        elts = [node.test] + ([node.msg] if node.msg is not None else [])
        value = ast.Tuple(elts, ast.Load()) if len(elts) > 1 else elts[0]
        return ast.copy_location(ast.Assign(targets=[ast.Name("_", ast.Store())], value=value), node)

    def visit_withitem(self, node: ast.withitem) -> ast.AST:  # noqa: N802
        call = node.context_expr
        if (node.optional_vars is None and isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and call.func.attr == "raises" and isinstance(call.func.value, ast.Name)
                and call.func.value.id == "pytest" and call.args and not call.keywords):
            suppress = ast.Attribute(ast.Call(ast.Name("__import__", ast.Load()), [ast.Constant("contextlib")], []),
                                     "suppress", ast.Load())
            node.context_expr = ast.Call(suppress, call.args, [])
        return self.generic_visit(node)


class _Swap(ast.NodeTransformer):
    def __init__(self, node: ast.AST, text: str) -> None:
        self.node, self.replacement = node, ast.parse(text, mode="eval").body

    def generic_visit(self, node: ast.AST) -> ast.AST:
        return self.replacement if node is self.node else super().generic_visit(node)


def duplicate(statement: ast.stmt, node: ast.AST, text: str, source: str) -> Edit | None:
    """An edit inserting, before `statement`, a copy of it with `node` (a literal in it) replaced by `text`
    (an assert as the expression render() makes of it), inside `with contextlib.suppress(Exception):`: the
    target is called once more, first, with another input, which may raise (another type, a value past a
    bound: the path to the raise is what is asked about) without failing the test. None when the statement
    cannot be repeated on its own line."""
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
    changed = ast.fix_missing_locations(_AsExpressions().visit(changed))
    try:
        written = ast.unparse(changed)
    except Exception:  # noqa: BLE001 - an AST unparse cannot write is no candidate
        return None
    if "\n" in written:
        return None
    indent = prefix.decode("utf-8")
    inner = indent + ("\t" if "\t" in indent else "    ")
    return (line, col, line, col, f"with __import__('contextlib').suppress(Exception):\n{inner}{written}\n{indent}")


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


TRANSPLANT_CHARS = 3000
"""A test body longer than this is not run inside another (an edit carries at most 4096 characters)."""


def _called(nodes: list[ast.AST]) -> set[str]:
    """The names a piece of code calls (`f(...)`, `obj.method(...)`: f, method)."""
    out: set[str] = set()
    for node in nodes:
        for call in ast.walk(node):
            if isinstance(call, ast.Call):
                func = call.func
                if isinstance(func, ast.Name):
                    out.add(func.id)
                elif isinstance(func, ast.Attribute):
                    out.add(func.attr)
    return out


def _plain(func: ast.AST, in_class: bool) -> bool:
    """A test function another can run as it is: no fixture but `self`, no decorator, not async, not a
    generator, no `nonlocal`."""
    if not isinstance(func, ast.FunctionDef) or func.decorator_list or not func.name.startswith("test"):
        return False
    args = func.args
    wanted = ["self"] if in_class else []
    if [a.arg for a in args.posonlyargs + args.args] != wanted or args.vararg or args.kwarg or args.kwonlyargs:
        return False
    return not any(isinstance(n, ast.Yield | ast.YieldFrom | ast.Nonlocal | ast.Await) for n in ast.walk(func))


def transplants(tree: ast.Module, source: str, asked: ast.FunctionDef | ast.AsyncFunctionDef,
                run: set[str], reaching: list[ast.AST], limit: int, rng: random.Random) -> list[tuple[Edit, str]]:
    """Edits running another test of the file first, inside the asked one: its body (asserts as expressions)
    as a nested function of the same name, defined and called before the asked test's first statement (the
    target is entered first by what that test does, so "invocation 1" and every aggregate move). The others
    come from the asked test's class (or the module's top level), take no fixture, and rank by how many of
    the names the asked test's reaching statements call they call too (ties in the epoch's order, `rng`)."""
    parent: list[ast.stmt] | None = None
    in_class = False
    for holder in [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.ClassDef))]:
        if any(s is asked for s in holder.body):
            parent, in_class = holder.body, isinstance(holder, ast.ClassDef)
            break
    body = list(asked.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring stays first
    if parent is None or not body:
        return []
    first = body[0]
    line, col, _, _ = position(first)
    prefix = source.encode("utf-8").split(b"\n")[line - 1][:col].decode("utf-8", "replace")
    if prefix.strip():
        return []
    wanted = _called(reaching)
    ranked: list[tuple[int, ast.FunctionDef]] = []
    others = list(parent)
    rng.shuffle(others)
    for other in others:
        if other is asked or not isinstance(other, ast.FunctionDef) or other.name in run or not _plain(
                other, in_class):
            continue
        ranked.append((len(wanted & _called(list(other.body))), other))
    ranked.sort(key=lambda pair: -pair[0])  # stable: the epoch's order among equals
    out: list[tuple[Edit, str]] = []
    for _, other in ranked[:limit]:
        nested = copy.deepcopy(other)
        nested.args = ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
                                    defaults=[])
        nested.returns = None
        nested = ast.fix_missing_locations(_AsExpressions().visit(nested))
        try:
            written = ast.unparse(nested)
        except Exception:  # noqa: BLE001 - what unparse cannot write is no candidate
            continue
        text = "\n".join((prefix + row if row else row) if i else row
                         for i, row in enumerate(written.split("\n"))) + f"\n{prefix}{other.name}()\n{prefix}"
        if len(text) <= TRANSPLANT_CHARS:
            out.append(((line, col, line, col, text), f"{other.name} run first"))
    return out
