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

import ast

_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
_COMPS = (ast.ListComp, ast.SetComp, ast.DictComp)


def _span(node):
    return (node.lineno, node.col_offset, node.end_lineno, node.end_col_offset)


def _header_end(node, children):
    """Last line of a compound statement's header: the line before its body."""
    first_child = min((_first_line(c) for c in children), default=node.lineno)
    return max(node.lineno, first_child - 1)


def _first_line(node):
    if hasattr(node, "lineno"):
        return node.lineno
    return node.pattern.lineno  # match_case has no position of its own


def _child_statements(node):
    for field in ("body", "orelse", "finalbody", "handlers", "cases"):
        for child in getattr(node, field, None) or ():
            yield child


class LineMap:
    """Maps physical lines to statement lines; knows loop headers."""

    def __init__(self, source, filename="<target>"):
        self.tree = ast.parse(source, filename)
        self._stmt = {}
        self.loop_body_first = {}
        # (span of a list/set/dict comprehension, span of its first iterable):
        # what Python >= 3.12 inlines into the enclosing frame.
        self.comprehensions = []
        # co_firstlineno (first decorator line) -> the `def` line.
        self.def_lines = {}
        for node in ast.walk(self.tree):
            self._visit(node)
            if isinstance(node, _COMPS):
                self.comprehensions.append((_span(node), _span(node.generators[0].iter)))
            elif isinstance(node, _FUNCS):
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                self.def_lines[first] = node.lineno

    def _visit(self, node):
        if isinstance(node, ast.stmt):
            children = list(_child_statements(node))
            first = node.lineno
            if children:
                self._span(first, _header_end(node, children), first)
            else:
                self._span(first, node.end_lineno or first, first)
            if isinstance(node, _LOOPS) and node.body:
                self.loop_body_first[node.lineno] = node.body[0].lineno
        elif isinstance(node, ast.ExceptHandler):
            self._span(node.lineno, _header_end(node, node.body), node.lineno)
        elif isinstance(node, getattr(ast, "match_case", ())):
            start = node.pattern.lineno
            self._span(start, _header_end(node.pattern, node.body), start)

    def _span(self, start, end, target):
        for line in range(start, end + 1):
            # Inner statements are visited after outer ones (ast.walk is
            # breadth-first) and their spans never overlap an outer header.
            self._stmt[line] = target

    def stmt_line(self, line):
        """The first line of the statement that physical `line` belongs to."""
        return self._stmt.get(line, line)


def find_function(tree, qualname):
    """The def node whose __qualname__ would be `qualname`, or None."""

    def walk(body, prefix):
        for node in body:
            if isinstance(node, _FUNCS):
                name = prefix + node.name
                if name == qualname:
                    return node
                found = walk(node.body, name + ".<locals>.")
            elif isinstance(node, ast.ClassDef):
                found = walk(node.body, prefix + node.name + ".")
            else:
                found = walk(list(_child_statements(node)), prefix)
            if found is not None:
                return found
        return None

    return walk(tree.body, "")


def module_name(rel_file):
    """`click/parser.py` -> `click.parser`; `pkg/__init__.py` -> `pkg`."""
    path = rel_file.replace("\\", "/")
    if path.endswith(".py"):
        path = path[:-3]
    parts = [p for p in path.split("/") if p]
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)
