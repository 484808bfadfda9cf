"""The functions a target may reach, found by reading its package's source: the prompt's slice, never the trace.

A prompt must not show what ran (docs/benchmark-validity.md): a list of the
functions that executed, in the order they first did, answers call-order and
coverage questions by copying. This module resolves the target's call sites
statically instead, whether or not they run in this test, and the prompt
shows them in source order.

What resolves (within the target's top-level package only):

* a name defined at module level, or imported from a module of the package
  (`from .x import f`, `from . import x`; re-exports followed);
* a module attribute (`x.f()` after `import pkg.x as x`);
* a class called (its `__init__`, `__new__` and `__post_init__`, looked up
  through its bases in the package);
* `self.m()` / `cls.m()` / `super().m()` in a method (through the bases, left
  to right), a `@property` read as `self.p`, and `C.m()` on a known class.

What does not (dynamic dispatch, `getattr`, a callable passed in, a method of
a value whose class is unknown) is counted and named in one line when the
name is a function of the package; calls into the standard library and other
packages are not part of the slice.

Closest first: depth 1 (what the target calls), then depth 2, in call-site
order, until MAX_FUNCTIONS or MAX_LINES; what does not fit is named.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..recording.linemap import module_name
from .package_source import Module, Package, top_statements

MAX_DEPTH = 2
MAX_FUNCTIONS = 12
MAX_LINES = 400
MAX_NAMED = 24
MAX_UNRESOLVED = 8
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
_CONSTRUCTORS = ("__new__", "__init__", "__post_init__")


@dataclass(frozen=True)
class _Def:
    """A function found: its module, qualname and node."""

    module: Module
    qualname: str
    node: Any
    receiver: Any = field(default=None, compare=False)
    """The class `self` is an instance of when it was reached through `self.m()` (a base's method that calls
    `self.n()` reaches the subclass's `n`), else None: its own class."""

    @property
    def key(self) -> tuple[str, str]:
        return self.module.rel, self.qualname


class _Resolver:
    def __init__(self, package: Package) -> None:
        self.package = package

    # -- names -------------------------------------------------------------

    def symbol(self, module: Module, name: str, hops: int = 0) -> Module | _Def | tuple[Module, ast.ClassDef] | None:
        """What `name` means at module level of `module`: a module, a function or a class of the package."""
        if hops > 4:
            return None
        if name in module.functions:
            return _Def(module, name, module.functions[name])
        if name in module.classes:
            return module, module.classes[name]
        if name in module.imports:
            source, attr = module.imports[name]
            if attr is None:
                return self.package.module(source)
            found = self.package.module(source)
            if found is None:
                return None
            inner = self.symbol(found, attr, hops + 1)
            if inner is None:
                return self.package.module(f"{source}.{attr}")
            return inner
        return None

    def attribute(self, owner: Any, attr: str) -> Any:
        if isinstance(owner, Module):
            found = self.symbol(owner, attr)
            return found if found is not None else self.package.module(f"{owner.dotted}.{attr}")
        if isinstance(owner, tuple):
            return self.method(owner, attr)
        return None

    def expression(self, module: Module, node: ast.AST) -> Any:
        """A module, function or class an expression names at module level (`x`, `x.y.z`), or None."""
        if isinstance(node, ast.Name):
            return self.symbol(module, node.id)
        if isinstance(node, ast.Attribute):
            owner = self.expression(module, node.value)
            return self.attribute(owner, node.attr) if owner is not None else None
        return None

    # -- classes -----------------------------------------------------------

    def bases(self, cls: tuple[Module, ast.ClassDef]) -> list[tuple[Module, ast.ClassDef]]:
        module, node = cls
        found = []
        for base in node.bases:
            if isinstance(base, ast.Subscript):  # a generic base: `Base[T]`
                base = base.value
            resolved = self.expression(module, base)
            if isinstance(resolved, tuple):
                found.append(resolved)
        return found

    def mro(self, cls: tuple[Module, ast.ClassDef]) -> list[tuple[Module, ast.ClassDef]]:
        order: list[tuple[Module, ast.ClassDef]] = []
        stack = [cls]
        while stack and len(order) < 32:
            current = stack.pop(0)
            if any(current[1] is seen[1] for seen in order):
                continue
            order.append(current)
            stack.extend(self.bases(current))
        return order

    def method(self, cls: tuple[Module, ast.ClassDef], name: str, skip_first: bool = False) -> _Def | None:
        for module, node in self.mro(cls)[1 if skip_first else 0:]:
            found = [item for item in node.body if isinstance(item, _FUNCS) and item.name == name]
            if found:  # the last def is the one bound (a property's setter shares its name: the getter first)
                item = found[0] if _is_property(found[0]) else found[-1]
                return _Def(module, f"{_class_qualname(module, node)}.{name}", item)
        return None

    def constructors(self, cls: tuple[Module, ast.ClassDef]) -> list[_Def]:
        return [d for d in (self.method(cls, name) for name in _CONSTRUCTORS) if d is not None]


def _class_qualname(module: Module, cls: ast.ClassDef) -> str:
    """The class's qualname in its module (nested classes included)."""

    def walk(body: list[ast.stmt], prefix: str) -> str | None:
        for node in body:
            if node is cls:
                return prefix + node.name
            if isinstance(node, ast.ClassDef):
                found = walk(node.body, prefix + node.name + ".")
                if found:
                    return found
        return None

    return walk(list(top_statements(module.tree.body)), "") or cls.name


def _is_property(node: Any) -> bool:
    return any(isinstance(d, ast.Name) and d.id in ("property", "cached_property") or
               isinstance(d, ast.Attribute) and d.attr in ("property", "cached_property") for d in node.decorator_list)


@dataclass
class Reach:
    """What the slice shows: the reached functions (closest first), the names that did not fit, the calls
    that could not be resolved."""

    functions: list[dict[str, Any]]
    named: list[str]
    unresolved: list[str]
    truncated: bool


def reach(root: str, rel_file: str, qualname: str, target: ast.FunctionDef | ast.AsyncFunctionDef) -> Reach:
    """The package functions `target` (at `root/rel_file`) may call, to MAX_DEPTH, by reading source only."""
    top = rel_file.replace("\\", "/").split("/")[0].removesuffix(".py")
    package = Package(root, top)
    resolver = _Resolver(package)
    start_module = package.module(module_name(rel_file))
    if start_module is None:
        return Reach([], [], [], False)
    start = _Def(start_module, qualname, target)
    seen = {start.key}
    order: list[tuple[_Def, int]] = []
    unresolved: list[str] = []
    frontier = [start]
    for depth in range(1, MAX_DEPTH + 1):
        following = []
        for current in frontier:
            for found in _callees(resolver, current, unresolved if depth == 1 else None):
                if found.key in seen or found.qualname.startswith(qualname + ".<locals>.") and \
                        found.module is start_module:
                    continue
                seen.add(found.key)
                order.append((found, depth))
                following.append(found)
        frontier = following
    functions, named, total = [], [], 0
    for found, _depth in order:
        first = min([found.node.lineno] + [d.lineno for d in found.node.decorator_list])
        source = "".join(found.module.lines[first - 1 : found.node.end_lineno])
        size = found.node.end_lineno - first + 1
        name = f"{found.module.dotted}.{found.qualname}"
        if len(functions) >= MAX_FUNCTIONS or total + size > MAX_LINES:
            named.append(name)
            continue
        total += size
        functions.append({"file": found.module.rel, "func": name, "first_line": first, "source": source})
    functions.sort(key=lambda f: (f["file"], f["first_line"]))
    return Reach(functions, named[:MAX_NAMED], unresolved[:MAX_UNRESOLVED], bool(named))


def _callees(resolver: _Resolver, current: _Def, unresolved: list[str] | None) -> Iterator[_Def]:
    """The package functions `current` calls (in call-site order); its unresolvable calls appended to
    `unresolved` (the target's only)."""
    module, node = current.module, current.node
    own = _enclosing_class(resolver, current)
    cls = current.receiver or own
    first_arg = node.args.args[0].arg if node.args.args else None
    local = _local_names(node)
    nested = {n.name for n in ast.walk(node) if isinstance(n, _FUNCS + (ast.ClassDef,)) and n is not node}
    for inner in _walk_own(node):
        if isinstance(inner, ast.Call):
            found = _resolve_call(resolver, module, cls, own, first_arg, local, inner.func)
            if found:
                yield from found
            elif unresolved is not None:
                text = _unresolvable(resolver, inner.func, local - nested)
                if text and text not in unresolved:
                    unresolved.append(text)
        elif isinstance(inner, ast.Attribute) and isinstance(inner.ctx, ast.Load) and cls is not None and \
                isinstance(inner.value, ast.Name) and inner.value.id == first_arg:
            method = resolver.method(cls, inner.attr)
            if method is not None and _is_property(method.node):
                yield _Def(method.module, method.qualname, method.node, cls)


def _walk_own(node: ast.AST) -> Iterator[ast.AST]:
    """Nodes of a function's body in source order, nested defs included (their calls are the function's
    behaviour: a closure it returns or calls); decorators and defaults of the function itself left out."""
    body = list(getattr(node, "body", []))
    stack = list(reversed(body))
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(list(ast.iter_child_nodes(current))))


def _local_names(node: Any) -> set[str]:
    """Names bound in the function: parameters, assignments, nested defs (a call of one is not the package's)."""
    names = {a.arg for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs}
    names |= {a.arg for a in (node.args.vararg, node.args.kwarg) if a is not None}
    for inner in ast.walk(node):
        if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store):
            names.add(inner.id)
        elif isinstance(inner, _FUNCS + (ast.ClassDef,)) and inner is not node:
            names.add(inner.name)
    return names


def _enclosing_class(resolver: _Resolver, current: _Def) -> tuple[Module, ast.ClassDef] | None:
    parts = current.qualname.split(".")
    if len(parts) < 2 or "<locals>" in parts:
        return None
    owner: Any = current.module
    for part in parts[:-1]:
        if isinstance(owner, Module):
            owner = (owner, owner.classes[part]) if part in owner.classes else None
        elif isinstance(owner, tuple):
            nested = next((n for n in owner[1].body if isinstance(n, ast.ClassDef) and n.name == part), None)
            owner = (owner[0], nested) if nested is not None else None
        if owner is None:
            return None
    return owner if isinstance(owner, tuple) else None


def _resolve_call(resolver: _Resolver, module: Module, cls: Any, own: Any, first_arg: str | None,
                  local: set[str], func: ast.AST) -> list[_Def]:
    """What a call's callee resolves to: `cls` is the receiver's class, `own` the class the function is
    defined in (where `super()` starts)."""
    if isinstance(func, ast.Name):
        if func.id in local:
            return []
        found = resolver.symbol(module, func.id)
    elif isinstance(func, ast.Attribute):
        value = func.value
        if cls is not None and isinstance(value, ast.Name) and value.id == first_arg:
            method = resolver.method(cls, func.attr)
            return [_Def(method.module, method.qualname, method.node, cls)] if method is not None else []
        if own is not None and isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and \
                value.func.id == "super":
            method = resolver.method(own, func.attr, skip_first=True)
            return [_Def(method.module, method.qualname, method.node, cls)] if method is not None else []
        if isinstance(value, ast.Name) and value.id in local:
            return []
        owner = resolver.expression(module, value)
        found = resolver.attribute(owner, func.attr) if owner is not None else None
    else:
        return []
    if isinstance(found, _Def):
        return [found]
    if isinstance(found, tuple):
        return resolver.constructors(found)
    return []


def _unresolvable(resolver: _Resolver, func: ast.AST, local: set[str]) -> str | None:
    """How a call that did not resolve is named in the prompt's one line, when it may reach the package: a
    `getattr(...)` call, a callable the function was given, a method whose name the package defines."""
    if isinstance(func, ast.Call) and isinstance(func.func, ast.Name) and func.func.id == "getattr":
        return _short(func) + "(…)"
    if isinstance(func, ast.Name) and func.id in local:
        return func.id + "(…)"
    if isinstance(func, ast.Attribute) and _package_defines(resolver, func.attr):
        return _short(func) + "(…)"
    return None


def _short(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 60 else text[:57] + "…"


def _package_defines(resolver: _Resolver, name: str) -> bool:
    """Whether any module of the package read so far defines a function or method named `name`."""
    for module in resolver.package.loaded():
        if name in module.functions:
            return True
        for cls in module.classes.values():
            if any(isinstance(item, _FUNCS) and item.name == name for item in cls.body):
                return True
    return False
