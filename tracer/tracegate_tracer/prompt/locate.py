"""Finds the target function's source before a run: the question's context block (shown.py: its slice)."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Sequence

from ..recording.linemap import LineMap, find_function, module_name
from . import versions


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
