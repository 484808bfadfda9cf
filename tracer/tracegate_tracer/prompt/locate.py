"""Finds the target function's source before a run: the question's context."""

from __future__ import annotations

import ast
import importlib.util
import os
import sys
from collections.abc import Sequence
from typing import Any

from ..recording.linemap import LineMap, find_function, module_name
from . import callees, versions


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
        self.root = self.path[: len(self.path) - len(self.file)].rstrip("/") or "/"
        self.func = f"{module_name(self.file)}.{qualname}"
        self.context = {
            "file": self.file,
            "func": self.func,
            "first_line": first,
            "source": "".join(lines[first - 1 : node.end_lineno]),
            "environment": versions.of(self.file.split("/")[0].removesuffix(".py")),
        }


# -- the prompt's slice: the target module's preamble (its callees: callees.py) --

MAX_PREAMBLE_LINES = 120
MAX_PREAMBLE_STATEMENT_LINES = 10
# What a "simple" module-level assignment's value may contain: literals, names,
# attributes, subscripts, operators, containers — no calls, lambdas, comprehensions.
_SIMPLE = (ast.Constant, ast.Name, ast.Attribute, ast.Subscript, ast.Slice, ast.Tuple, ast.List, ast.Set,
           ast.Dict, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.JoinedStr, ast.FormattedValue,
           ast.Load, ast.Store, ast.operator, ast.unaryop, ast.boolop, ast.cmpop, ast.Starred)


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


def build_slice(target: Target) -> dict[str, Any]:
    """A result line's `context.slice`, from the package's source only (never the trace: callees.py):
    {functions, preamble, truncated, named, unresolved}."""
    reached = callees.reach(target.root, target.file, target.qualname, target.node)
    return {"functions": reached.functions, "preamble": preamble(target), "truncated": reached.truncated,
            "named": reached.named, "unresolved": reached.unresolved}
