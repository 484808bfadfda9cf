"""Fresh variants: an instance's test file with its literal inputs perturbed, structure unchanged.

A variant asks the same question about the same target, over a test whose
inputs differ: numbers moved by a small step, a letter of a word changed, a
literal collection one element shorter. The rest of the file is kept byte for
byte, and its `assert` statements are kept as expressions (`_ = (test, msg)`:
evaluated, not checked), since the perturbed inputs have other results than
the ones the test asserts. Deterministic: the same file, epoch and key give
the same variant. The driver copies the instance directory into the group's
sandbox and runs the variant there; the host keeps a variant only if it passes
the same screen as any instance and its oracle differs from the original's.
"""

from __future__ import annotations

import ast
import hashlib
import os
import random
import re
import shutil
from collections.abc import Iterator

from .testfiles import test_files

MAX_EDITS = 3
"""Literals perturbed per test file."""
ATTEMPTS = 4
"""Variants tried per instance, each by another strategy (the host keeps the first valid one)."""
STRATEGIES = ("numbers", "collections", "text", "all")
"""What attempt k perturbs: numbers (int and float literals, digits inside strings), collections
(a literal list or tuple one element shorter, a repeated string `s * n` one repeat fewer),
text (one letter of a word inside a string), all of these."""


class NoVariant(ValueError):
    """The test file offers nothing to perturb, or its variant does not parse."""


Edit = tuple[int, int, int, int, str]  # start line, start col (bytes), end line, end col, replacement


def _tests_of(tree: ast.Module, names: set[str] | None) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The test functions run (`names`, or every test function when None)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test") and (
                names is None or node.name in names):
            yield node


def _kind(node: ast.AST) -> str | None:
    """Which strategy can perturb a node: numbers, collections or text (None: not an input)."""
    if isinstance(node, ast.Constant) and not isinstance(node.value, bool):
        value = node.value
        if isinstance(value, int) and abs(value) >= 2:
            return "numbers"
        if isinstance(value, float) and value not in (0.0, 1.0):
            return "numbers"
        if isinstance(value, str) and any(c.isdigit() for c in value):
            return "numbers"
        if isinstance(value, str) and any(len(w) >= 3 and w.isalpha() for w in value.split()):
            return "text"
    if isinstance(node, ast.List | ast.Tuple) and len(node.elts) >= 3 and all(
            isinstance(e, ast.Constant) for e in node.elts):
        return "collections"
    return None


def _literals(func: ast.AST, strategy: str) -> Iterator[ast.AST]:
    """Literal inputs in a test's body (not its decorators, defaults or docstring) that `strategy` perturbs."""
    body = list(getattr(func, "body", ()))
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    for statement in body:
        for node in ast.walk(statement):
            kind = _kind(node)
            if kind is not None and (strategy == "all" or kind == strategy):
                yield node


def _perturbed(node: ast.AST, rng: random.Random, source_lines: list[bytes]) -> str | None:
    if isinstance(node, ast.List | ast.Tuple):
        # One element shorter: the text of the elements kept, as written.
        kept = node.elts[:-1]
        texts = [ast.get_source_segment(b"\n".join(source_lines).decode("utf-8"), e) for e in kept]
        if any(t is None for t in texts):
            return None
        inner = ", ".join(texts)  # type: ignore[arg-type]
        return f"[{inner}]" if isinstance(node, ast.List) else f"({inner},)" if len(kept) == 1 else f"({inner})"
    value = node.value  # type: ignore[attr-defined]
    if isinstance(value, int):
        step = rng.choice((-1, 1, 2, 3))
        moved = value + step if value > 0 else value - step
        if moved in (0, 1, -1) or (moved > 0) != (value > 0):
            moved = value + 2 if value > 0 else value - 2
        return repr(moved)
    if isinstance(value, float):
        return repr(round(value * rng.choice((0.5, 1.5, 2.0)), 6))
    if isinstance(value, str):
        digits = [i for i, c in enumerate(value) if c.isdigit()]
        if digits:
            i = rng.choice(digits)
            new = rng.choice([d for d in "23456789" if d != value[i]])
            return repr(value[:i] + new + value[i + 1:])
        words = [(m.start(), m.end()) for m in re.finditer(r"[A-Za-z]{3,}", value)]
        start, end = rng.choice(words)
        i = rng.randrange(start, end)
        letters = "abcdefghijklmnopqrstuvwxyz"
        new = rng.choice([c for c in letters if c != value[i].lower()])
        new = new.upper() if value[i].isupper() else new
        return repr(value[:i] + new + value[i + 1:])
    return None


def _edit_position(node: ast.AST) -> tuple[int, int, int, int]:
    return node.lineno, node.col_offset, node.end_lineno or node.lineno, node.end_col_offset or 0  # type: ignore[attr-defined]


def perturb(source: str, seed: str, functions: set[str] | None = None, strategy: str = "all") -> str:
    """The variant of one test file's source, perturbing inputs of the test `functions` that run
    (all test functions when None) by `strategy`; NoVariant when there is nothing to perturb."""
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        raise NoVariant(f"the test file does not parse: {exc}") from None
    lines = source.encode("utf-8").split(b"\n")
    rng = random.Random(hashlib.sha256(seed.encode()).hexdigest())
    candidates = [node for func in _tests_of(tree, functions) for node in _literals(func, strategy)]
    # Nested candidates (a constant inside a perturbed list) would overlap: keep the outermost.
    spans = [_edit_position(n) for n in candidates]
    outer = [n for n, s in zip(candidates, spans, strict=True)
             if not any(o != s and o[:2] <= s[:2] and s[2:] <= o[2:] for o in spans)]
    if not outer:
        raise NoVariant(f"no literal input to perturb ({strategy}) in the test functions")
    chosen = rng.sample(outer, min(MAX_EDITS, len(outer)))
    edits: list[Edit] = []
    for node in sorted(chosen, key=_edit_position):
        text = _perturbed(node, rng, lines)
        if text is not None:
            edits.append((*_edit_position(node), text))
    if not edits:
        raise NoVariant("no literal input could be perturbed")
    for func in _tests_of(tree, None):
        for node in ast.walk(func):
            if isinstance(node, ast.With | ast.AsyncWith):
                # `with pytest.raises(E):` (no `as`) becomes `with contextlib.suppress(E):`: the
                # perturbed input may or may not still raise; either way the test goes on.
                for item in node.items:
                    call = item.context_expr
                    if (item.optional_vars is None and isinstance(call, ast.Call)
                            and isinstance(call.func, ast.Attribute) and call.func.attr == "raises"
                            and isinstance(call.func.value, ast.Name) and call.func.value.id == "pytest"
                            and call.args and not call.keywords):
                        line, col, _e, _c = _edit_position(call.func)
                        end_line, end_col = call.func.end_lineno or line, call.func.end_col_offset or col
                        edits.append((line, col, end_line, end_col, '__import__("contextlib").suppress'))
            if isinstance(node, ast.Assert):
                line, col, end_line, end_col = _edit_position(node)
                keyword = len("assert ") if lines[line - 1][col:col + 7] == b"assert " else len("assert")
                edits.append((line, col, line, col + keyword, "_ = ("))
                edits.append((end_line, end_col, end_line, end_col, ")"))
    for line, col, end_line, end_col, text in sorted(edits, key=lambda e: (e[0], e[1], e[2], e[3]), reverse=True):
        head = lines[line - 1][:col]
        tail = lines[end_line - 1][end_col:]
        lines[line - 1:end_line] = [head + text.encode("utf-8") + tail]
    variant = b"\n".join(lines).decode("utf-8")
    try:
        compile(variant, "<variant>", "exec", dont_inherit=True)
    except SyntaxError as exc:
        raise NoVariant(f"the variant does not parse: {exc}") from None
    return variant


def prepare(instance_dir: str, tests: list[str], epoch: int, key: str, dest: str, attempt: int = 0) -> str:
    """Copies the instance directory to `dest` with its test files perturbed (attempt k: by
    STRATEGIES[k]); returns `dest`."""
    if not 0 <= attempt < ATTEMPTS:
        raise NoVariant(f"attempt {attempt} out of 0..{ATTEMPTS - 1}")
    if os.path.lexists(dest):
        shutil.rmtree(dest)
    shutil.copytree(instance_dir, dest, symlinks=True)
    root = os.path.realpath(dest)
    for name in test_files(tests):
        ids = [str(t).split("::") for t in tests if str(t).split("::", 1)[0] == name]
        functions = None if any(len(parts) == 1 for parts in ids) else {parts[-1].split("[", 1)[0] for parts in ids}
        path = os.path.join(dest, name)
        if not os.path.realpath(path).startswith(root + os.sep) or os.path.islink(path) or not os.path.isfile(path):
            raise NoVariant(f"test file {name} is not a regular file of the instance")
        with open(path, encoding="utf-8") as handle:
            source = handle.read()
        variant = perturb(source, f"{epoch}\0{key}\0{name}\0{attempt}", functions, STRATEGIES[attempt])
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(variant)
    for root, dirs, files in os.walk(dest):
        os.chmod(root, 0o755)
        for name in files:
            path = os.path.join(root, name)
            if not os.path.islink(path):
                os.chmod(path, 0o644)
        dirs.sort()
    return dest
