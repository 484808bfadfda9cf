"""Finds the target function's source before a run: the question's context block (shown.py: its slice)."""

from __future__ import annotations

import ast
import importlib.util
import os
import sys
from collections.abc import Callable, Sequence

from ..recording.linemap import LineMap, definitions, find_function, module_name
from . import versions

SOURCE_ROOTS = ("src", "lib")
"""Directories of a checkout that hold its packages without being one (`src/click/…`)."""


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
    # A checkout with a `src/` (or `lib/`) layout: `click/utils.py` is `src/click/utils.py` there.
    for root in dirs:
        for source_root in SOURCE_ROOTS:
            candidate = os.path.join(root or ".", source_root, rel_file)
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


def import_name(path: str, rel_file: str) -> str:
    """The module name `rel_file` (a path ending `path`) is imported by: a leading source root
    (`src/`, `lib/`) that is not itself a package is not part of it (`src/click/utils.py` ->
    `click.utils`)."""
    rel = rel_file.replace("\\", "/").lstrip("/")
    head, _, rest = rel.partition("/")
    if rest and head in SOURCE_ROOTS and path.replace("\\", "/").endswith("/" + rel):
        top = os.path.join(path[: len(path) - len(rel)], head)
        if not os.path.isfile(os.path.join(top, "__init__.py")):
            rel = rest
    return module_name(rel)


def source_block(text: str, node: ast.AST) -> tuple[int, str]:
    """A def's or class's first line (its first decorator's) and its source, as the prompt shows it."""
    first = min([node.lineno] + [d.lineno for d in node.decorator_list])
    return first, "".join(text.splitlines(keepends=True)[first - 1 : node.end_lineno])


class Target:
    """The located target: path, LineMap and the context block of its result line (output.py)."""

    def __init__(self, rel_file: str, qualname: str, dirs: Sequence[str],
                 namer: Callable[[str], str] | None = None) -> None:
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
        first, source = source_block(self.text, node)
        self.node = node
        self.qualname = qualname
        self.file = rel_file.replace("\\", "/")
        self.root = self.path[: len(self.path) - len(self.file)].rstrip("/") or "/"
        self.func = f"{module_name(self.file)}.{qualname}"
        # How answers name it: the file as the trace names every file (`namer`: relative to
        # site-packages, the instance dir or the checkout: `src/click/globals.py`), the function by
        # its module's import name (`click.globals.get_current_context`, never `src.click…`).
        named = namer(self.path) if namer is not None else self.file
        self.named_file = self.file if os.path.isabs(named) else named
        self.named_func = f"{import_name(self.path, self.named_file)}.{qualname}"
        self.context = {
            "file": self.named_file,
            "func": self.named_func,
            "first_line": first,
            "source": source,
            "environment": versions.of(self.file.split("/")[0].removesuffix(".py")),
        }


def named_definition(rel_file: str, name: str, dirs: Sequence[str]) -> dict[str, object]:
    """The context block of a definition named as SWE-Flux's `TRACE_FUNC` names it: a qualname
    (`HelpFormatter.write_dl`), a method name alone (`readinto`: the first def of that name), a
    class (`_OptionParser`: its whole source), any of them after its module's dotted name
    (`click.parser._unpack_args`, `src.click.parser._OptionParser`). Raises TargetNotFound naming
    what matched nothing."""
    path = find_file(rel_file, dirs)
    if path is None:
        raise TargetNotFound(f"target not found: {rel_file} (no such file)")
    file = rel_file.replace("\\", "/").lstrip("/")
    for module in (import_name(path, file), module_name(file)):
        if name.startswith(module + "."):
            name = name[len(module) + 1:]
            break
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    tree = ast.parse(text, path)
    found = definitions(tree)
    exact = [(q, n) for q, n in found if q == name]
    by_name = [(q, n) for q, n in found if q.rsplit(".", 1)[-1] == name]
    if exact and isinstance(exact[-1][1], ast.ClassDef):
        qualname, node = exact[-1]
    elif exact:
        qualname, node = name, find_function(tree, name)
    elif by_name:
        qualname, node = by_name[0]
    else:
        raise TargetNotFound(f"target not found: {rel_file}::{name} names no function or class there")
    if not isinstance(node, ast.ClassDef):
        return Target(rel_file, qualname, dirs).context
    first, source = source_block(text, node)
    return {
        "file": file,
        "func": f"{import_name(path, file)}.{qualname}",
        "first_line": first,
        "source": source,
        "environment": versions.of(import_name(path, file).split(".")[0]),
    }
