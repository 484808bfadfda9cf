"""A package's modules as callees.py reads them: parsed once each, with what each module-level name is."""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator
from dataclasses import dataclass, field

_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)

@dataclass
class Module:
    """A parsed module of the package: its defs, classes and what its names import."""

    rel: str
    dotted: str
    lines: list[str]
    tree: ast.Module
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)
    imports: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    """local name -> (module, attribute or None for the module itself)."""


class Package:
    """The target's top-level package on disk (`root/top/...`), read lazily, one parse per file."""

    def __init__(self, root: str, top: str) -> None:
        self.root, self.top = root, top
        self._modules: dict[str, Module | None] = {}

    def module(self, dotted: str) -> Module | None:
        if dotted != self.top and not dotted.startswith(self.top + "."):
            return None
        if dotted not in self._modules:
            self._modules[dotted] = self._load(dotted)
        return self._modules[dotted]

    def loaded(self) -> list[Module]:
        """The modules read so far (those that could be), in the order they were first asked for."""
        return [module for module in self._modules.values() if module is not None]

    def _load(self, dotted: str) -> Module | None:
        parts = dotted.split(".")
        for rel in ("/".join(parts) + ".py", "/".join(parts + ["__init__.py"])):
            path = os.path.join(self.root, rel)
            if os.path.isfile(path) and not os.path.islink(path):
                try:
                    with open(path, encoding="utf-8") as handle:
                        text = handle.read()
                    tree = ast.parse(text, path)
                except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
                    return None
                return _index(Module(rel, dotted, text.splitlines(keepends=True), tree))
        return None


def _index(module: Module) -> Module:
    package = module.dotted if module.rel.endswith("__init__.py") else module.dotted.rpartition(".")[0]
    for node in top_statements(module.tree.body):
        if isinstance(node, _FUNCS):
            module.functions[node.name] = node  # the last def is the one bound (`@overload` stubs first)
        elif isinstance(node, ast.ClassDef):
            module.classes[node.name] = node
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    module.imports[alias.asname] = (alias.name, None)
                else:
                    top = alias.name.split(".")[0]
                    module.imports.setdefault(top, (top, None))
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node.module, node.level, package)
            for alias in node.names:
                if alias.name != "*":
                    module.imports[alias.asname or alias.name] = (base, alias.name)
    return module


def top_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Module-level statements, those inside `if`/`try` blocks too (a guarded import, a fallback def)."""
    for node in body:
        if isinstance(node, ast.If):
            yield from top_statements(node.body)
            yield from top_statements(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, *(h.body for h in node.handlers), node.orelse, node.finalbody):
                yield from top_statements(block)
        else:
            yield node


def _absolute(name: str | None, level: int, package: str) -> str:
    if not level:
        return name or ""
    parts = package.split(".") if package else []
    base = parts[: len(parts) - (level - 1)] if level > 1 else parts
    return ".".join(base + ([name] if name else []))
