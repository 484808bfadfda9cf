"""The buggy and correct versions of a B1/B2 package, one installed at a time, and their respellings.

verify.py's module docstring says where the versions live and why no run can read the correct version while
the buggy one runs; docs/comet.md, "Anti-cheating", why a test is also run against the respellings.
"""

from __future__ import annotations

import ast
import compileall
import hashlib
import importlib.util
import marshal
import os
import py_compile
import shutil
from collections.abc import Collection
from typing import Any

from ..recording.linemap import find_function

B2_RUNS = ("buggy", "correct", "buggy_respelled", "correct_respelled")
"""A B2 reply's runs: against each version, then against each version's respelling (Versions.b2_runs)."""


class Refused(ValueError):
    """The instance cannot be verified here (its reason is the result's)."""


# -- the versions -------------------------------------------------------------


def _copy(source: str, dest: str) -> None:
    shutil.copytree(source, dest, symlinks=False, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


def _compiled(root: str) -> None:
    """Byte-code beside every module of a version, written once and checked against its source's hash at each
    import (CHECKED_HASH: a .pyc never stands in for other text), so that the runs of a bug (six, each a fresh
    process) do not each compile the package from source again."""
    compileall.compile_dir(root, quiet=2, invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)


class PristineCopies:
    """The correct version of each package (its place -> a copy), copied and compiled once per driver: each bug of
    the package starts from this copy instead of copying and compiling the whole package again."""

    def __init__(self) -> None:
        self.copies: dict[str, str] = {}

    def of(self, place: str, work_dir: str) -> str:
        """The compiled copy of the package at `place`, made at the first bug of a driver (the place then holds
        the correct version, as every Versions.close leaves it), in a folder only the driver can read."""
        found = self.copies.get(place)
        if found is not None and os.path.isdir(found):
            return found
        folder = os.path.join(work_dir, "comet-pristine")
        os.makedirs(folder, mode=0o700, exist_ok=True)
        os.chmod(folder, 0o700)  # the correct version is never readable to a run
        dest = os.path.join(folder, hashlib.sha256(place.encode()).hexdigest()[:16])
        shutil.rmtree(dest, ignore_errors=True)
        _copy(place, dest)
        _compiled(dest)
        self.copies[place] = dest
        return dest

    def clear(self) -> None:
        """Forget every copy (the next bug of each package copies and compiles it again)."""
        self.copies.clear()


PRISTINE = PristineCopies()
"""The driver's copies (one driver per container: they last as long as it does)."""


def _public(root: str) -> None:
    for directory, _dirs, files in os.walk(root):
        os.chmod(directory, 0o755)
        for name in files:
            os.chmod(os.path.join(directory, name), 0o644)


class Versions:
    """The buggy and correct versions of the mutated package (and their respellings), one installed at a time."""

    def __init__(self, mutant: dict[str, Any], store: str, unmasked_ok: bool = False) -> None:
        rel = str(mutant.get("file", "")).replace("\\", "/").lstrip("/")
        parts = rel.split("/")
        if len(parts) < 2 or ".." in parts or not rel.endswith(".py") or not parts[0].isidentifier():
            raise Refused(f"mutant file must be a .py file inside a package, got {mutant.get('file')!r}")
        self.top, self.inner = parts[0], "/".join(parts[1:])
        spec = importlib.util.find_spec(self.top)
        if spec is None or not spec.submodule_search_locations:
            raise Refused(f"package {self.top} is not installed as a package in this environment")
        self.place = os.path.realpath(list(spec.submodule_search_locations)[0])
        self.root = os.path.dirname(self.place)
        if not unmasked_ok and not os.path.ismount(self.place):
            raise Refused(f"{self.place} is not a mount of its own, so the correct version would stay readable "
                          "to the reply's code: B1/B2 are verified only in the Docker backend")
        self.mutant = mutant
        self.rel = rel
        self.store = store
        shutil.rmtree(store, ignore_errors=True)
        os.makedirs(store, mode=0o700)
        os.chmod(store, 0o700)
        shutil.copytree(PRISTINE.of(self.place, os.path.dirname(store)), self.path("correct"), symlinks=False)
        self.correct_text = self._read("correct")
        self.buggy_text = apply_mutant(self.correct_text, mutant, rel)
        shutil.copytree(self.path("correct"), self.path("buggy"), symlinks=False)
        self._write("buggy", self.buggy_text)
        source = os.path.join(self.path("buggy"), self.inner)
        try:  # the mutated module's byte-code; the rest is the correct version's
            py_compile.compile(source, cfile=importlib.util.cache_from_source(source), doraise=True,
                               invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
        except py_compile.PyCompileError:
            pass  # its import compiles it from source and fails there, as a fresh process's would
        self.installed: str | None = None

    def path(self, name: str) -> str:
        return os.path.join(self.store, name)

    def _read(self, name: str) -> str:
        with open(os.path.join(self.path(name), self.inner), encoding="utf-8") as handle:
            return handle.read()

    def _write(self, name: str, text: str) -> None:
        with open(os.path.join(self.path(name), self.inner), "w", encoding="utf-8") as handle:
            handle.write(text)

    def b2_runs(self, qualname: str, names: Collection[str] = ()) -> None:
        """Prepares B2 runs `names` (all of B2_RUNS by default), alike in all a test can read but the text shown:

        * every run shows a respelling (respell()) of one version's module at the package's place: a plain run
          its own version's, a respelled run the *other* version's, so no run's text looks unlike another's;
        * every run executes its own version's respelling, from byte-code beside the shown text of one flavour
          in all four: unchecked hash-based, the hash in its header the shown text's, each file padded to one
          size. The interpreter never checks an unchecked .pyc, so a respelled run executes what its file does
          not show; the header, size and flags say nothing of which run this is.

        Reading the byte-code's body (or the function's code object in memory) is reading the code being run:
        no file can hide that from the process that runs it (docs/comet.md, "What a B2 test cannot do")."""
        texts = {"buggy": respell(self.buggy_text, qualname), "correct": respell(self.correct_text, qualname)}
        shown = {"buggy": "buggy", "correct": "correct", "buggy_respelled": "correct", "correct_respelled": "buggy"}
        source = os.path.join(self.place, self.inner)  # where the module is imported from (its co_filename)
        codes = {run: marshal.dumps(compile(texts[run.split("_")[0]], source, "exec", dont_inherit=True))
                 for run in B2_RUNS}
        size = 16 + max(len(code) for code in codes.values())
        for run in names or B2_RUNS:
            text = texts[shown[run]]
            dest = self.path(f"b2_{run}")
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(self.path("correct"), dest, symlinks=False)  # the rest's byte-code too (_compiled)
            module = os.path.join(dest, self.inner)
            with open(module, "w", encoding="utf-8") as handle:
                handle.write(text)
            header = importlib.util.MAGIC_NUMBER + (1).to_bytes(4, "little") + \
                importlib.util.source_hash(text.encode("utf-8"))
            with open(importlib.util.cache_from_source(module), "wb") as handle:
                handle.write((header + codes[run]).ljust(size, b"\0"))  # marshal reads one object: the rest is inert

    def install(self, name: str) -> None:
        """Puts version `name` at the package's place (and nothing else: no other version, no stale .pyc)."""
        for entry in os.listdir(self.place):
            path = os.path.join(self.place, entry)
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path)
            else:
                os.unlink(path)
        source = self.path(name)
        for entry in os.listdir(source):
            src, dst = os.path.join(source, entry), os.path.join(self.place, entry)
            if os.path.isdir(src):
                shutil.copytree(src, dst, symlinks=False)
            else:
                shutil.copy2(src, dst)
        _public(self.place)
        self.installed = name

    def close(self) -> None:
        """The correct version back in place (the container's volume goes with it; a host test's package stays)."""
        if self.installed not in (None, "correct"):
            self.install("correct")
        shutil.rmtree(self.store, ignore_errors=True)


def apply_mutant(text: str, mutant: dict[str, Any], rel: str) -> str:
    lines = text.splitlines(keepends=True)
    line, original, replacement = mutant.get("line"), mutant.get("original"), mutant.get("replacement")
    if isinstance(line, bool) or not isinstance(line, int) or not isinstance(original, str) or not original \
            or not isinstance(replacement, str):
        raise Refused("mutant must be {file, line, original, replacement}")
    if not 1 <= line <= len(lines) or lines[line - 1].count(original) != 1:
        raise Refused(f"mutant does not apply: line {line} of {rel} does not contain {original!r} exactly once "
                      "(the package changed?)")
    lines[line - 1] = lines[line - 1].replace(original, replacement)
    return "".join(lines)


# -- the respelling -------------------------------------------------------------


class _Renamer(ast.NodeTransformer):
    def __init__(self, names: dict[str, str]) -> None:
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.Name:
        if node.id in self.names:
            node.id = self.names[node.id]
        return node


def _renamable(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """Locals of `fn` that can be renamed without changing what it does: assigned plainly in its own body, not a
    parameter, not declared global or nonlocal, and not bound again by a nested scope; none at all when the
    function can see its own names (locals(), vars(), eval, exec, an f-string's `=`)."""
    params = {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs}
    params |= {a.arg for a in (fn.args.vararg, fn.args.kwarg) if a is not None}
    declared: set[str] = set()
    stored: set[str] = set()
    nested_bound: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            declared.update(node.names)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in ("locals", "vars", "eval", "exec", "dir"):
            return []
        elif isinstance(node, ast.JoinedStr):
            return []  # `f"{x=}"` prints the name
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)) and node is not fn:
            for inner in ast.walk(node):
                if isinstance(inner, ast.arg):
                    nested_bound.add(inner.arg)
                elif isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store):
                    nested_bound.add(inner.id)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                nested_bound.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            stored.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            nested_bound.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return sorted(stored - params - declared - nested_bound)


def respell(source: str, qualname: str) -> str:
    """The same module spelled otherwise: the target's plain locals renamed (`_tg_v1`, …, in sorted order) and
    every statement re-rendered (`ast.unparse`: comments gone, spacing, quotes and parentheses its own)."""
    tree = ast.parse(source)
    fn = find_function(tree, qualname)
    if fn is not None:
        names = {name: f"_tg_v{i}" for i, name in enumerate(_renamable(fn), start=1)}
        if names:
            taken = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
            if not taken & set(names.values()):
                for statement in fn.body:
                    _Renamer(names).visit(statement)
    text = ast.unparse(ast.fix_missing_locations(tree)) + "\n"
    compile(text, "<respelled>", "exec")
    return text
