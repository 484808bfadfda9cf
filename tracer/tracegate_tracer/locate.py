"""Finds the target function's source before a run: the question's context."""

from __future__ import annotations

import ast
import importlib.util
import os
import sys
from collections.abc import Sequence
from typing import Any

from .linemap import LineMap, _child_statements, find_function, module_name


class TargetNotFound(Exception):
    pass


def find_file(rel_file: str, dirs: Sequence[str], search_path: Sequence[str] | None = None) -> str | None:
    """The target file as the tests will import it: the test dir, the instance dir (and the checkout), then
    sys.path, then where the import system finds its top-level package (an editable install by a finder or
    a `.pth` hook puts no entry on sys.path)."""
    roots = list(dirs) + list(sys.path if search_path is None else search_path)
    for root in roots:
        candidate = os.path.join(root or ".", rel_file)
        if os.path.isfile(candidate):
            return os.path.abspath(candidate)
    if search_path is None:
        for root in _import_roots(rel_file):
            candidate = os.path.join(root, rel_file)
            if os.path.isfile(candidate):
                return os.path.abspath(candidate)
    return None


def _import_roots(rel_file: str) -> list[str]:
    """Directories holding the top-level package (or module) of `rel_file` as `importlib.util.find_spec`
    finds it: the meta path's finders are asked for the top-level name only, so no package code runs."""
    top = rel_file.replace("\\", "/").lstrip("/").split("/", 1)[0].removesuffix(".py")
    if not top.isidentifier() or top in sys.modules:
        return []
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return []
    if spec is None:
        return []
    places = list(spec.submodule_search_locations or ()) or ([spec.origin] if spec.origin else [])
    return [os.path.dirname(os.path.normpath(place)) for place in places if os.path.isabs(place)]


def package_scope(target_path: str, rel_file: str, instance_dir: str) -> str:
    """The target's top-level package: what "the repository's code" is for the prompt's slice and profiles.

    `click/parser.py` -> `<root>/click/`; a top-level module in the instance
    dir -> the instance dir; any other top-level module -> that file alone.
    A directory scope ends with a separator; a file scope is that file's path.
    """
    absolute = os.path.abspath(target_path)
    rel = rel_file.replace("\\", "/").lstrip("/")
    suffix = "/" + rel
    root = absolute[: len(absolute) - len(rel)] if absolute.replace("\\", "/").endswith(suffix) else None
    if root is None:
        return absolute
    if "/" in rel:
        return os.path.join(root, rel.split("/", 1)[0]) + os.sep
    if os.path.abspath(root) == os.path.abspath(instance_dir):
        return os.path.abspath(instance_dir) + os.sep
    return absolute


class Target:
    """The located target: path, LineMap and the context block of its result line (output.py)."""

    def __init__(self, rel_file: str, qualname: str, dirs: Sequence[str]) -> None:
        missing = TargetNotFound(f"target not found: {rel_file}::{qualname}")
        self.path = find_file(rel_file, dirs)
        if self.path is None:
            raise missing
        with open(self.path, encoding="utf-8") as handle:
            self.text = handle.read()
        self.linemap = LineMap(self.text, self.path)
        node = find_function(self.linemap.tree, qualname)
        if node is None:
            raise missing
        first = min([node.lineno] + [d.lineno for d in node.decorator_list])
        lines = self.text.splitlines(keepends=True)
        self.node = node
        self.qualname = qualname
        self.file = rel_file.replace("\\", "/")
        self.func = f"{module_name(self.file)}.{qualname}"
        self.context = {
            "file": self.file,
            "func": self.func,
            "first_line": first,
            "source": "".join(lines[first - 1 : node.end_lineno]),
        }


# -- the prompt's slice: executed functions and the target module's preamble --

MAX_SLICE_FUNCTIONS = 12
MAX_SLICE_LINES = 400
MAX_PREAMBLE_LINES = 120
MAX_PREAMBLE_STATEMENT_LINES = 10
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
# What a "simple" module-level assignment's value may contain: literals, names,
# attributes, subscripts, operators, containers — no calls, lambdas, comprehensions.
_SIMPLE = (ast.Constant, ast.Name, ast.Attribute, ast.Subscript, ast.Slice, ast.Tuple, ast.List, ast.Set,
           ast.Dict, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.JoinedStr, ast.FormattedValue,
           ast.Load, ast.Store, ast.operator, ast.unaryop, ast.boolop, ast.cmpop, ast.Starred)


def _defs(tree: ast.Module) -> dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]]:
    """{qualname: [def nodes]} of every function in a module, nested ones included."""
    found = {}

    def walk(body: list[ast.AST], prefix: str) -> None:
        for node in body:
            if isinstance(node, _FUNCS):
                name = prefix + node.name
                found.setdefault(name, []).append(node)
                walk(node.body, name + ".<locals>.")
            elif isinstance(node, ast.ClassDef):
                walk(node.body, prefix + node.name + ".")
            else:
                walk(list(_child_statements(node)), prefix)

    walk(tree.body, "")
    return found


def _first(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    return min([node.lineno] + [d.lineno for d in node.decorator_list])


class _Sources:
    """Parsed source files, read lazily and once each."""

    def __init__(self) -> None:
        self._files = {}

    def get(self, path: str) -> tuple[list[str], dict[str, list[Any]]] | None:
        if path not in self._files:
            try:
                with open(path, encoding="utf-8") as handle:
                    text = handle.read()
                tree = ast.parse(text, path)
                self._files[path] = (text.splitlines(keepends=True), _defs(tree))
            except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
                self._files[path] = None
        return self._files[path]


def function_source(sources: _Sources, path: str, qualname: str, first_line: int) -> tuple[int, str] | None:
    """(first line, source incl. decorators) of the def that compiled to this code, or None."""
    parsed = sources.get(path)
    if parsed is None:
        return None
    lines, defs = parsed
    nodes = defs.get(qualname) or []
    node = next((n for n in nodes if first_line in (n.lineno, _first(n))), nodes[0] if len(nodes) == 1 else None)
    if node is None:
        return None
    first = _first(node)
    return first, "".join(lines[first - 1 : node.end_lineno])


def executed_functions(target: Target, executed: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], bool]:
    """The slice's functions: [{file, func, first_line, source}] and whether some were cut.

    `executed` is the trace's list (order of first start). Dropped: the target
    and functions nested in it (their source is the target's), functions
    nested in one already listed, code whose def cannot be found. Then the
    first MAX_SLICE_FUNCTIONS that fit in MAX_SLICE_LINES lines in total; the
    first that does not fit ends the list (`truncated`).
    """
    sources = _Sources()
    functions, truncated, total = [], False, 0
    own = target.qualname + ".<locals>."
    for record in executed:
        qualname, file = record["qualname"], record["file"]
        if file == target.file and (qualname == target.qualname or qualname.startswith(own)):
            continue
        if any(f["file"] == file and qualname.startswith(f["_qualname"] + ".<locals>.") for f in functions):
            continue
        found = function_source(sources, record["path"], qualname, record["first_line"])
        if found is None:
            continue
        first, source = found
        size = source.count("\n") + (0 if source.endswith("\n") else 1)
        if len(functions) >= MAX_SLICE_FUNCTIONS or total + size > MAX_SLICE_LINES:
            truncated = True
            break
        total += size
        functions.append({"file": file, "func": record["func"], "first_line": first, "source": source,
                          "_qualname": qualname})
    for function in functions:
        del function["_qualname"]
    return functions, truncated


def _simple_assignment(node: ast.AST) -> bool:
    if isinstance(node, ast.Assign):
        targets, value = node.targets, node.value
    elif isinstance(node, ast.AnnAssign) and node.value is not None:
        targets, value = [node.target], node.value
    else:
        return False
    names = all(isinstance(t, ast.Name) or (isinstance(t, ast.Tuple) and all(isinstance(e, ast.Name) for e in t.elts))
                for t in targets)
    return names and all(isinstance(n, _SIMPLE) for n in ast.walk(value))


def preamble(target: Target) -> dict[str, Any]:
    """The target module's top-level imports and simple assignments (constants).

    {file, blocks: [{first_line, source}], truncated}: consecutive kept
    statements form one block (the file's exact lines, comments between them
    included); statements over MAX_PREAMBLE_STATEMENT_LINES lines are left
    out; at most MAX_PREAMBLE_LINES lines in total.
    """
    lines = target.text.splitlines(keepends=True)
    blocks, total, truncated = [], 0, False
    previous_kept = False
    for node in target.linemap.tree.body:
        keep = isinstance(node, (ast.Import, ast.ImportFrom)) or _simple_assignment(node)
        size = node.end_lineno - node.lineno + 1
        if keep and size > MAX_PREAMBLE_STATEMENT_LINES:
            keep = False
        if keep and total + size > MAX_PREAMBLE_LINES:
            truncated = True
            break
        if keep:
            total += size
            if previous_kept:
                block = blocks[-1]
                block["_end"] = node.end_lineno
            else:
                blocks.append({"first_line": node.lineno, "_end": node.end_lineno})
        previous_kept = keep
    for block in blocks:
        end = block.pop("_end")
        block["source"] = "".join(lines[block["first_line"] - 1 : end])
    return {"file": target.file, "blocks": blocks, "truncated": truncated}


def build_slice(target: Target, executed: list[dict[str, Any]] | None) -> dict[str, Any]:
    """A result line's `context.slice`: {functions, preamble, truncated}."""
    functions, truncated = executed_functions(target, executed or [])
    return {"functions": functions, "preamble": preamble(target), "truncated": truncated}
