"""Source-level facts about the target file, from its AST.

Python reports a line event for whichever physical line an instruction came
from, so one multi-line statement can produce several events (`x = f(\\n a)`
gives the lines of `x` and of `a`). tracegate reports every event at the
first line of its statement:

* a simple statement maps all its lines to its first line;
* a compound statement's header (`if`/`elif`/`while`/`for`/`with`/`def`/
  `class`/`try`/`match`, up to the line before its first body statement)
  maps to the header's first line;
* an `except` clause's lines (up to its first body statement) map to the
  `except` line; a `case` clause's to the `case` line.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from types import CodeType

_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
_COMPS = (ast.ListComp, ast.SetComp, ast.DictComp)


def _span(node: ast.AST) -> tuple[int, int, int, int]:
    return (node.lineno, node.col_offset, node.end_lineno, node.end_col_offset)


def _header_end(node: ast.AST, children: list[ast.AST]) -> int:
    """Last line of a compound statement's header: the line before its body."""
    first_child = min((_first_line(c) for c in children), default=node.lineno)
    return max(node.lineno, first_child - 1)


def _first_line(node: ast.AST) -> int:
    if hasattr(node, "lineno"):
        return node.lineno
    return node.pattern.lineno  # match_case has no position of its own


def _child_statements(node: ast.AST) -> Iterator[ast.AST]:
    for field in ("body", "orelse", "finalbody", "handlers", "cases"):
        yield from getattr(node, field, None) or ()


class LineMap:
    """Maps physical lines to statement lines; knows loop headers."""

    def __init__(self, source: str, filename: str = "<target>") -> None:
        self.tree = ast.parse(source, filename)
        self._stmt = {}
        self.loop_body_first = {}
        # loop header -> lines of the `break` statements that leave that loop
        # (not a nested one); lines shared with another statement are left out.
        self.loop_breaks = {}
        self._starts = {}
        # (span of a list/set/dict comprehension, span of its first iterable):
        # what Python >= 3.12 inlines into the enclosing frame.
        self.comprehensions = []
        # span of a comprehension -> the names its `for` clauses bind (its own variables, not the function's)
        self.comprehension_names = {}
        # co_firstlineno (first decorator line) -> the `def` line.
        self.def_lines = {}
        # lines of the `except` clauses (where a handled exception's handler is named)
        self.handler_lines = set()
        for node in ast.walk(self.tree):
            self._visit(node)
            if isinstance(node, ast.ExceptHandler):
                self.handler_lines.add(node.lineno)
            if isinstance(node, _COMPS):
                self.comprehensions.append((_span(node), _span(node.generators[0].iter)))
                self.comprehension_names[_span(node)] = frozenset(
                    name.id for gen in node.generators for name in ast.walk(gen.target) if isinstance(name, ast.Name))
            elif isinstance(node, _FUNCS):
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                self.def_lines[first] = node.lineno

    def _visit(self, node: ast.AST) -> None:
        if isinstance(node, ast.stmt):
            children = list(_child_statements(node))
            first = node.lineno
            if children:
                self._span(first, _header_end(node, children), first)
            else:
                self._span(first, node.end_lineno or first, first)
            self._starts[first] = self._starts.get(first, 0) + 1
            if isinstance(node, _LOOPS) and node.body:
                self.loop_body_first[node.lineno] = node.body[0].lineno
                self.loop_breaks[node.lineno] = sorted(b.lineno for b in _own_breaks(node.body))
        elif isinstance(node, ast.ExceptHandler):
            self._starts[node.lineno] = self._starts.get(node.lineno, 0) + 1
            self._span(node.lineno, _header_end(node, node.body), node.lineno)
        elif isinstance(node, getattr(ast, "match_case", ())):
            start = node.pattern.lineno
            self._span(start, _header_end(node.pattern, node.body), start)

    def _span(self, start: int, end: int, target: int) -> None:
        for line in range(start, end + 1):
            # Inner statements are visited after outer ones (ast.walk is
            # breadth-first) and their spans never overlap an outer header.
            self._stmt[line] = target

    def break_lines(self, header: int) -> list[int]:
        """The `break` lines of the loop at `header` that no other statement shares."""
        return [line for line in self.loop_breaks.get(header, ()) if self._starts.get(line) == 1
                and self.stmt_line(line) == line]

    def stmt_line(self, line: int) -> int:
        """The first line of the statement that physical `line` belongs to."""
        return self._stmt.get(line, line)


def _code_lines(code: CodeType) -> list[int]:
    """Every line of `code` and of the code objects nested in it."""
    lines = [line for _start, _end, line in code.co_lines() if line is not None]
    for const in code.co_consts:
        if hasattr(const, "co_lines"):
            lines.extend(_code_lines(const))
    return lines


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" \t"))


def for_code(code: CodeType, source: str, filename: str = "<target>") -> LineMap:
    """A LineMap of the function of `code` only: its lines, parsed alone.

    Parsing a whole module costs ~100 ms for click's core.py; the function's
    own lines (from its first decorator to the line before the next statement
    indented no deeper than its `def`) give the same statement lines, loop
    headers and comprehensions in ~1 ms. Blank lines pad the text so line
    numbers are the file's; an indented `def` is wrapped in `if 1:`. Falls
    back to the whole file if the slice does not parse on its own.
    """
    lines = source.splitlines(keepends=True)
    first = code.co_firstlineno
    if 1 <= first <= len(lines):
        depth = _indent(lines[first - 1])
        last = max([first] + _code_lines(code))
        while last < len(lines):
            text = lines[last]
            if text.strip() and not text.lstrip().startswith("#") and _indent(text) <= depth:
                break
            last += 1
        segment = "".join(lines[first - 1:last])
        if depth == 0:
            text = "\n" * (first - 1) + segment
        elif first >= 2:
            text = "\n" * (first - 2) + "if 1:\n" + segment
        else:
            text = None
        if text is not None:
            try:
                linemap = LineMap(text, filename)
            except SyntaxError:
                linemap = None
            if linemap is not None:
                if depth:  # the wrapper's header must not claim the decorator lines
                    linemap._stmt = {k: v for k, v in linemap._stmt.items() if v != first - 1}
                return linemap
    return LineMap(source, filename)


def _own_breaks(body: list[ast.AST]) -> Iterator[ast.Break]:
    """`break` statements of a loop body that leave that loop (not a nested loop's)."""
    for node in body:
        if isinstance(node, ast.Break):
            yield node
        elif isinstance(node, _LOOPS):
            yield from _own_breaks(node.orelse)  # a nested loop's `else:` breaks the outer one
        elif not isinstance(node, _FUNCS + (ast.ClassDef,)):
            yield from _own_breaks(list(_child_statements(node)))


def find_function(tree: ast.Module, qualname: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The def node whose __qualname__ would be `qualname` and that runs, or None.

    The definition that runs is the one bound last: `@overload` stubs (typing's, however
    imported) are skipped, and of several defs of one name the last in the source wins, as it does
    when the module runs (`click.types.convert_type` has three stubs before its body).
    """
    found: list[ast.FunctionDef | ast.AsyncFunctionDef] = []

    def walk(body: list[ast.AST], prefix: str) -> None:
        for node in body:
            if isinstance(node, _FUNCS):
                name = prefix + node.name
                if name == qualname:
                    found.append(node)
                walk(node.body, name + ".<locals>.")
            elif isinstance(node, ast.ClassDef):
                walk(node.body, prefix + node.name + ".")
            else:
                walk(list(_child_statements(node)), prefix)

    walk(tree.body, "")
    bodies = [node for node in found if not _is_overload(node)]
    return (bodies or found)[-1] if found else None


def definitions(tree: ast.Module) -> list[tuple[str, ast.AST]]:
    """Every def and class with its __qualname__, in source order."""
    found: list[tuple[str, ast.AST]] = []

    def walk(body: list[ast.AST], prefix: str) -> None:
        for node in body:
            if isinstance(node, _FUNCS):
                found.append((prefix + node.name, node))
                walk(node.body, prefix + node.name + ".<locals>.")
            elif isinstance(node, ast.ClassDef):
                found.append((prefix + node.name, node))
                walk(node.body, prefix + node.name + ".")
            else:
                walk(list(_child_statements(node)), prefix)

    walk(tree.body, "")
    return found


def _is_overload(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Decorated `@overload`, `@typing.overload`, `@t.overload` or `@typing_extensions.overload`."""
    for decorator in node.decorator_list:
        name = decorator.attr if isinstance(decorator, ast.Attribute) else getattr(decorator, "id", None)
        if name == "overload":
            return True
    return False


def module_name(rel_file: str) -> str:
    """`click/parser.py` -> `click.parser`; `pkg/__init__.py` -> `pkg`."""
    path = rel_file.replace("\\", "/")
    if path.endswith(".py"):
        path = path[:-3]
    parts = [p for p in path.split("/") if p]
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


class IdentityLineMap:
    """The LineMap of a target whose source cannot be read: every line is its own statement."""

    comprehensions = ()
    def_lines = {}

    def stmt_line(self, line: int) -> int:
        return line
