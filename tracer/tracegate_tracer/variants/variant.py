"""Fresh variants: an instance's test files with an input changed, structure otherwise unchanged.

A variant asks the same question about the same target over a test whose
input differs. Which input, and how, is searched rather than guessed:

* a *scout* run (search.py) runs the unchanged tests once and records, for each
  target invocation, its call site: the statement of a test file that led to it.
* the *pool* of an epoch (pool.py) opens with the edits aimed at those sites (targeted):
  the alternatives of each literal a call statement depends on (its own, the
  headers of the blocks around it, the earlier assignments of the names it
  reads); the statement repeated before itself with one literal changed (the
  target called first with another input); its calls' keyword arguments left
  out; the fields of a class it defines left out; each statement reaching the
  target left out, or all but the first; each other test function reaching it
  emptied. Then, blind, each literal input of the tests run (a flag flipped; an
  int moved across a boundary or made small; a string shorter, longer, emptied,
  doubled, its parts (lines, `;`/`,`-separated items, words) moved, a letter's
  case or a digit changed, or another string of the file; a collection shorter,
  longer, reversed or empty) and their calls (left out, adjacent ones swapped),
  then edits of two literals at once. Literals are inputs: not the docstring,
  not decorators, not the expected side of an assert's comparison, not a
  `match=` pattern. The order is a hash of the epoch and the files: the same
  epoch, files and sites give the same pool, another epoch another order.
* the *search* (`variant_search`) runs every candidate of the pool in one
  pytest process, each as a renamed copy of the test files, beside an
  unchanged copy; the trace is split by test and each question answered per
  candidate. The candidates whose tests pass, whose run reaches the target and
  whose answer differs from the unchanged copy's are the search's answer, in
  pool order, each with its edit.
* a *variant* (`variant_candidate: k`, `variant_edit`) is such a candidate
  materialised alone from its edit and harvested like any instance, in a fresh
  process: its oracle is gold, and the host keeps it only if it passes the
  screen and differs from the original's.

Every file keeps its lines otherwise, except that `assert` statements become
expressions (`_ = (test, msg)`: evaluated, not checked), since a changed input
has other results than the test asserts, and `with pytest.raises(E):` becomes
`with contextlib.suppress(E):` (the input may or may not still raise).
"""

from __future__ import annotations

import ast
import os
import re
import shutil
from dataclasses import dataclass

from ..prompt.testfiles import test_files
from . import edits as editing
from .edits import Candidate, Edit
from .pool import NoVariant, Sites, pool

COPY_MARK = "__tgv"
"""A search copy of `test_x.py` is `test_x__tgv<k>.py` (`__tgvo` the unchanged copy)."""


def render(source: str, changes: tuple[Edit, ...] = ()) -> str:
    """The test file with `changes` applied (none: unchanged inputs), its asserts kept as expressions and its
    `pytest.raises` blocks as `contextlib.suppress`; NoVariant if the result does not parse."""
    tree = ast.parse(source)
    lines = source.encode("utf-8").split(b"\n")
    edits: list[Edit] = []
    for func in editing.tests_of(tree, None):
        for node in ast.walk(func):
            if isinstance(node, ast.With | ast.AsyncWith):
                for item in node.items:
                    call = item.context_expr
                    if (item.optional_vars is None and isinstance(call, ast.Call)
                            and isinstance(call.func, ast.Attribute) and call.func.attr == "raises"
                            and isinstance(call.func.value, ast.Name) and call.func.value.id == "pytest"
                            and call.args and not call.keywords):
                        line, col, _e, _c = editing.position(call.func)
                        end_line, end_col = call.func.end_lineno or line, call.func.end_col_offset or col
                        edits.append((line, col, end_line, end_col, '__import__("contextlib").suppress'))
            if isinstance(node, ast.Assert):
                line, col, end_line, end_col = editing.position(node)
                keyword = len("assert ") if lines[line - 1][col:col + 7] == b"assert " else len("assert")
                edits.append((line, col, line, col + keyword, "_ = ("))
                edits.append((end_line, end_col, end_line, end_col, ")"))
    # A change that replaces a whole statement (a call left out or swapped) brings its own text.
    edits = [e for e in edits if not any(editing.overlap(e, c) or c[:2] <= e[:2] and e[2:4] <= c[2:4]
                                         for c in changes)] + list(changes)
    for line, col, end_line, end_col, text in sorted(edits, key=lambda e: (e[0], e[1], e[2], e[3]), reverse=True):
        head = lines[line - 1][:col]
        tail = lines[end_line - 1][end_col:]
        lines[line - 1:end_line] = [head + text.encode("utf-8") + tail]
    rendered = b"\n".join(lines).decode("utf-8")
    try:
        compile(rendered, "<variant>", "exec", dont_inherit=True)
    except SyntaxError as exc:
        raise NoVariant(f"the variant does not parse: {exc}") from None
    return rendered


def _functions(tests: list[str]) -> dict[str, set[str] | None]:
    """Per test file, the test functions the ids run (None: the whole file)."""
    out: dict[str, set[str] | None] = {}
    for name in test_files(tests):
        ids = [str(t).split("::") for t in tests if str(t).split("::", 1)[0] == name]
        out[name] = None if any(len(p) == 1 for p in ids) else {p[-1].split("[", 1)[0] for p in ids}
    return out


def _copy(instance_dir: str, tests: list[str], dest: str) -> dict[str, str]:
    """Copies the instance directory to `dest`; the test files' sources (name → text), each checked to be a
    regular file of the copy."""
    if os.path.lexists(dest):
        shutil.rmtree(dest)
    shutil.copytree(instance_dir, dest, symlinks=True)
    root = os.path.realpath(dest)
    sources: dict[str, str] = {}
    for name in test_files(tests):
        path = os.path.join(dest, name)
        if not os.path.realpath(path).startswith(root + os.sep) or os.path.islink(path) or not os.path.isfile(path):
            raise NoVariant(f"test file {name} is not a regular file of the instance")
        with open(path, encoding="utf-8") as handle:
            sources[name] = handle.read()
    return sources


def _settle(dest: str) -> None:
    for root, dirs, files in os.walk(dest):
        os.chmod(root, 0o755)
        for name in files:
            path = os.path.join(root, name)
            if not os.path.islink(path):
                os.chmod(path, 0o644)
        dirs.sort()


def prepare(instance_dir: str, tests: list[str], dest: str, file: object, changes: object) -> str:
    """Copies the instance directory to `dest` with one candidate (`changes` to test file `file`, as a search
    answered it) applied, every test file rendered as a variant; returns `dest`."""
    sources = _copy(instance_dir, tests, dest)
    if not isinstance(file, str) or file not in sources:
        raise NoVariant(f"the candidate's file {file!r} is not a test file of the instance")
    edits = _edits(changes, sources[file])
    for name, source in sources.items():
        with open(os.path.join(dest, name), "w", encoding="utf-8") as handle:
            handle.write(render(source, edits if name == file else ()))
    _settle(dest)
    return dest


def _edits(changes: object, source: str) -> tuple[Edit, ...]:
    """A candidate's edits as a plan carries them, checked: spans of the file, in order, none overlapping."""
    lines = source.encode("utf-8").split(b"\n")
    out: list[Edit] = []
    if not isinstance(changes, list) or not changes or len(changes) > 64:
        raise NoVariant("a candidate's edits must be a list of 1 to 64 spans")
    for change in changes:
        if not (isinstance(change, list) and len(change) == 5 and all(
                isinstance(v, int) and not isinstance(v, bool) for v in change[:4]) and isinstance(change[4], str)
                and len(change[4]) <= 4096):
            raise NoVariant(f"a candidate's edit must be [line, col, end_line, end_col, text], got {change!r:.80}")
        line, col, end_line, end_col, text = change
        if not (1 <= line <= end_line <= len(lines) and 0 <= col <= len(lines[line - 1])
                and 0 <= end_col <= len(lines[end_line - 1]) and (line, col) <= (end_line, end_col)):
            raise NoVariant(f"a candidate's edit {change[:4]} is outside the test file")
        out.append((line, col, end_line, end_col, text))
    out.sort()
    if any(editing.overlap(a, b) for a, b in zip(out, out[1:], strict=False)):
        raise NoVariant("a candidate's edits overlap")
    return tuple(out)


def copy_name(name: str, mark: str) -> str:
    """`dir/test_x.py` → `dir/test_x__tgv<mark>.py`."""
    stem, ext = os.path.splitext(name)
    return f"{stem}{COPY_MARK}{mark}{ext}"


def copy_ids(tests: list[str], mark: str) -> list[str]:
    """The test ids of the copy `mark` of the instance's tests."""
    return [copy_name(t.split("::", 1)[0], mark) + t[len(t.split("::", 1)[0]):] for t in tests]


@dataclass(frozen=True)
class Search:
    """A search directory: the unchanged copy's test ids, each candidate's (None: it does not parse), and
    the candidates."""

    unchanged: list[str]
    candidates: list[list[str] | None]
    """The test ids each candidate's copy runs: the entries of `tests` its edits can change (`touched`)."""
    pool: list[Candidate]
    targeted: int
    """How many of the pool's candidates edit what a call site of a target depends on."""
    tests: tuple[str, ...] = ()
    """The instance's test ids, in the order they run."""
    touched: tuple[frozenset[int] | None, ...] = ()
    """Per candidate, the indices of `tests` its copy runs (None: all of them); the others it shares with
    the unchanged copy (splice.spliced)."""


def touched(tests: list[str], tree: ast.Module, chosen: Candidate) -> frozenset[int] | None:
    """The entries of `tests` a candidate's edits can change: those naming the test functions whose bodies
    hold every edit. None (every entry) when an edit is elsewhere (module level, a helper, a fixture, a
    decorator: what it changes may reach any test of the file), or when an entry runs more than named
    functions (a whole file or class)."""
    functions: list[tuple[str | None, ast.FunctionDef | ast.AsyncFunctionDef]] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            functions.append((None, node))
        elif isinstance(node, ast.ClassDef):
            functions += [(node.name, item) for item in node.body
                          if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)]
    names: set[tuple[str | None, str]] = set()
    for line, _, end_line, _, _ in chosen.edits:
        holder = [(cls, f.name) for cls, f in functions if f.name.startswith("test")
                  and f.body and f.body[0].lineno <= line and end_line <= (f.end_lineno or 0)]
        if not holder:
            return None
        names.add(holder[0])
    found: set[int] = set()
    for j, test in enumerate(tests):
        name, *rest = str(test).split("::")
        if name != chosen.file:
            continue
        parts = [p.split("[", 1)[0] for p in rest]
        named = (None, parts[0]) if len(parts) == 1 else (parts[0], parts[1]) if parts else None
        if named in names:
            found.add(j)
        elif not parts or (len(parts) == 1 and any(cls == parts[0] for cls, _ in names)):
            return None  # the whole file, or a whole class holding an edited test
    return frozenset(found) or None


def prepare_scout(instance_dir: str, tests: list[str], dest: str) -> dict[str, str]:
    """Copies the instance directory to `dest` with, beside each test file, its unchanged copy (`__tgvo`,
    rendered as a variant) for the scout run and the search; returns the test files' sources."""
    sources = _copy(instance_dir, tests, dest)
    for name, source in sources.items():
        with open(os.path.join(dest, copy_name(name, "o")), "w", encoding="utf-8") as handle:
            handle.write(render(source))
    _settle(dest)
    return sources


def prepare_search(sources: dict[str, str], tests: list[str], epoch: int, dest: str, sites: Sites) -> Search:
    """Writes, beside the unchanged copies (prepare_scout), one copy per candidate of the epoch's pool
    (`__tgv<k>`), every copy rendered as a variant."""
    functions = _functions(tests)
    candidates = pool(sources, functions, epoch, sites)
    trees = {name: ast.parse(source) for name, source in sources.items()}  # pool() parsed each already
    runs: list[list[str] | None] = []
    spans: list[frozenset[int] | None] = []
    for k, chosen in enumerate(candidates):
        changed = touched(tests, trees[chosen.file], chosen)
        try:
            rendered = {name: render(source, chosen.edits if chosen.file == name else ())
                        for name, source in sources.items() if changed is None or name == chosen.file}
        except NoVariant:
            runs.append(None)
            spans.append(None)
            continue
        for name, text in rendered.items():
            with open(os.path.join(dest, copy_name(name, str(k))), "w", encoding="utf-8") as handle:
                handle.write(text)
        runs.append(copy_ids(tests if changed is None else [tests[j] for j in sorted(changed)], str(k)))
        spans.append(changed)
    _settle(dest)
    return Search(copy_ids(tests, "o"), runs, candidates, sum(c.targeted for c in candidates), tuple(tests),
                  tuple(spans))


MARK_PATTERN = re.compile(re.escape(COPY_MARK) + r"(o|\d+)")
"""A copy's mark in any text of its trace (module names, test ids, file paths)."""
