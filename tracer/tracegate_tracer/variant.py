"""Fresh variants: an instance's test files with one literal input changed, structure unchanged.

A variant asks the same question about the same target over a test whose
input differs. Which input, and how, is searched rather than guessed:

* the *pool* of an epoch is a list of candidates, each an edit of one
  literal in the test functions the instance runs (a flag flipped; an int
  moved across a boundary: ±1, doubled, zero, negated, scaled by 10 or 1000;
  a string one character shorter or longer, empty, doubled, a letter's case
  or a digit changed, or another string of the same file; a literal
  collection one element shorter or longer, reversed or empty), or of the
  test's calls (a call statement left out, two adjacent ones swapped: which
  call is the target's n-th, and what it sees, change), then edits of two
  literals at once. Literals are inputs: not the docstring, not
  decorators, not the expected side of an assert's comparison, not a
  `match=` pattern. The order is a hash of the epoch and the files: the same
  epoch and files give the same pool, another epoch another order.
* the *search* (`variant_search`, group.py) runs every candidate of the pool
  in one pytest process, each as a renamed copy of the test files, beside an
  unchanged copy; the trace is split by test and each question answered per
  candidate. The candidates whose tests pass, whose run reaches the target and
  whose answer differs from the unchanged copy's are the search's answer, in
  pool order.
* a *variant* (`variant_candidate: k`) is candidate k materialised alone and
  harvested like any instance, in a fresh process: its oracle is gold, and the
  host keeps it only if it passes the screen and differs from the original's.

Every file keeps its lines otherwise, except that `assert` statements become
expressions (`_ = (test, msg)`: evaluated, not checked), since a changed input
has other results than the test asserts, and `with pytest.raises(E):` becomes
`with contextlib.suppress(E):` (the input may or may not still raise).
"""

from __future__ import annotations

import ast
import hashlib
import os
import random
import re
import shutil
from dataclasses import dataclass

from . import edits as editing
from .edits import Candidate, Edit
from .testfiles import test_files

POOL = 40
"""Candidates per epoch and test set: what one search runs."""
PAIRED = 12
"""Of which edits of two literals at once (when the pool has room after the single edits' first round)."""
COPY_MARK = "__tgv"
"""A search copy of `test_x.py` is `test_x__tgv<k>.py` (`__tgvo` the unchanged copy)."""



class NoVariant(ValueError):
    """The test files offer nothing to change, or a changed file does not parse."""


def pool(sources: dict[str, str], functions: dict[str, set[str] | None], epoch: int) -> list[Candidate]:
    """The epoch's candidates for test files `sources` (name → text) running `functions` (name → test
    function names, None: all): each literal input's alternatives, taken round-robin over the literals
    (one alternative of each before a second of any) in an order drawn from the epoch and the files, with
    up to PAIRED edits of two literals of one file after the first round."""
    digest = hashlib.sha256(str(epoch).encode())
    for name in sorted(sources):
        digest.update(b"\0" + name.encode() + b"\0" + sources[name].encode("utf-8"))
        digest.update(b"\0" + ",".join(sorted(functions.get(name) or ["*"])).encode())
    rng = random.Random(digest.hexdigest())
    per_literal: list[list[Candidate]] = []
    for name in sorted(sources):
        try:
            tree = ast.parse(sources[name])
        except SyntaxError as exc:
            raise NoVariant(f"the test file {name} does not parse: {exc}") from None
        siblings = editing.strings(tree)
        rng.shuffle(siblings)
        for func in editing.tests_of(tree, functions.get(name)):
            for node in editing.inputs(func):
                line, col, end_line, end_col = editing.position(node)
                original = editing.segment(sources[name], node) or ""
                options = [Candidate(name, ((line, col, end_line, end_col, text),),
                                     f"{name} line {line}: {editing.short(original)} → {editing.short(text)}")
                           for text in editing.alternatives(node, sources[name], siblings)]
                if options:
                    rng.shuffle(options)
                    per_literal.append(options)
            per_literal.extend(editing.calls(func, sources[name], name))
    if not per_literal:
        raise NoVariant("no literal input or call to change in the test functions run")
    rng.shuffle(per_literal)
    rounds = [[options[r] for options in per_literal if r < len(options)]
              for r in range(max(len(o) for o in per_literal))]
    # Two literals at once: a first-round edit with the next first-round edit of its file that it leaves be.
    paired: list[Candidate] = []
    for i, one in enumerate(rounds[0]):
        partners = [c for c in rounds[0][i + 1:] if c.file == one.file and not any(
            editing.overlap(a, b) for a in c.edits for b in one.edits)]
        if partners and len(paired) < PAIRED:
            paired.append(Candidate(one.file, tuple(sorted(one.edits + partners[0].edits)),
                                    f"{one.what}; {partners[0].what}"))
    head = rounds[0][:POOL - min(PAIRED, len(paired))]
    rest = [c for r in rounds[1:] for c in r]
    chosen = head + paired + rest
    return chosen[:POOL]


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


def prepare(instance_dir: str, tests: list[str], epoch: int, dest: str, candidate: int) -> str:
    """Copies the instance directory to `dest` with candidate `candidate` of the epoch's pool applied
    (every test file rendered as a variant); returns `dest`."""
    sources = _copy(instance_dir, tests, dest)
    candidates = pool(sources, _functions(tests), epoch)
    if not 0 <= candidate < len(candidates):
        raise NoVariant(f"candidate {candidate} is outside the epoch's pool of {len(candidates)}")
    chosen = candidates[candidate]
    for name, source in sources.items():
        with open(os.path.join(dest, name), "w", encoding="utf-8") as handle:
            handle.write(render(source, chosen.edits if chosen.file == name else ()))
    _settle(dest)
    return dest


def copy_name(name: str, mark: str) -> str:
    """`dir/test_x.py` → `dir/test_x__tgv<mark>.py`."""
    stem, ext = os.path.splitext(name)
    return f"{stem}{COPY_MARK}{mark}{ext}"


@dataclass(frozen=True)
class Search:
    """A search directory: the unchanged copy's test ids, and each candidate's (None: it does not parse)."""

    unchanged: list[str]
    candidates: list[list[str] | None]
    described: list[str]


def prepare_search(instance_dir: str, tests: list[str], epoch: int, dest: str) -> Search:
    """Copies the instance directory to `dest` with, beside each test file, its unchanged copy (`__tgvo`)
    and one copy per candidate of the pool (`__tgv<k>`), every copy rendered as a variant."""
    sources = _copy(instance_dir, tests, dest)
    candidates = pool(sources, _functions(tests), epoch)

    def ids(mark: str) -> list[str]:
        return [copy_name(t.split("::", 1)[0], mark) + t[len(t.split("::", 1)[0]):] for t in tests]

    for name, source in sources.items():
        with open(os.path.join(dest, copy_name(name, "o")), "w", encoding="utf-8") as handle:
            handle.write(render(source))
    runs: list[list[str] | None] = []
    for k, chosen in enumerate(candidates):
        try:
            rendered = {name: render(source, chosen.edits if chosen.file == name else ())
                        for name, source in sources.items()}
        except NoVariant:
            runs.append(None)
            continue
        for name, text in rendered.items():
            with open(os.path.join(dest, copy_name(name, str(k))), "w", encoding="utf-8") as handle:
                handle.write(text)
        runs.append(ids(str(k)))
    _settle(dest)
    return Search(ids("o"), runs, [c.what for c in candidates])


MARK_PATTERN = re.compile(re.escape(COPY_MARK) + r"(o|\d+)")
"""A copy's mark in any text of its trace (module names, test ids, file paths)."""
