"""The pool of an epoch: the candidate edits of an instance's test files, in the order a search runs them.

It opens with the edits aimed at where a scout run saw each target called (aimed.py, targeted), then, unless
those are enough, blind edits of each literal input and call (edits.py), then edits of two literals at once;
the order is drawn from a hash of the epoch and the files (variant.py's docstring says it all in words).
variant.py renders each candidate as a copy of the test files; search.py runs them.
"""

from __future__ import annotations

import ast
import hashlib
import random
from itertools import zip_longest

from . import aimed
from . import edits as editing
from .edits import Candidate, Edit

POOL = 40
"""Candidates per epoch and test set when one target is searched: what one search runs."""
POOL_PER_TARGET = 20
"""Room for each further target searched over the same tests (they share one search run)."""
POOL_MAX = 96
PAIRED = 12
"""Of which edits of two literals at once (when the pool has room after the single edits' first round)."""
AIMED_ENOUGH = 12
"""With this many aimed edits, the pool holds no blind ones."""
MORE_AIMED = 48
"""Aimed edits past the pool's size, run only by a search whose pool found no candidate that says something
(the edits of one literal are taken round-robin with the others', so a long test's later alternatives —
a template's last part left out — fall past the first 40)."""
SITES = 4
"""Per target, the call sites (test statements that reached it, in order of first invocation) whose inputs
lead the pool."""
TRANSPLANTS = 4
"""Per target, the other tests of the file run first inside the asked one (aimed.transplants)."""

Sites = list[list[tuple[str, int]]]
"""Per target searched, the call sites a scout run saw (test file as the ids name it, line), in invocation
order (search.py)."""


class NoVariant(ValueError):
    """The test files offer nothing to change, or a changed file does not parse."""


def _rng(sources: dict[str, str], functions: dict[str, set[str] | None], epoch: int) -> random.Random:
    digest = hashlib.sha256(str(epoch).encode())
    for name in sorted(sources):
        digest.update(b"\0" + name.encode() + b"\0" + sources[name].encode("utf-8"))
        digest.update(b"\0" + ",".join(sorted(functions.get(name) or ["*"])).encode())
    return random.Random(digest.hexdigest())


def _options(name: str, source: str, node: ast.AST, siblings: list[str], rng: random.Random,
             targeted: bool = False) -> list[Candidate]:
    line, col, end_line, end_col = editing.position(node)
    original = editing.segment(source, node) or ""
    options = [Candidate(name, ((line, col, end_line, end_col, text),),
                         f"{name} line {line}: {editing.short(original)} → {editing.short(text)}", targeted)
               for text in editing.alternatives(node, source, siblings)]
    rng.shuffle(options)
    return options


def _rounds(per_literal: list[list[Candidate]]) -> list[list[Candidate]]:
    """Round-robin: every list's first option, then every list's second, ..."""
    if not per_literal:
        return []
    return [[options[r] for options in per_literal if r < len(options)]
            for r in range(max(len(o) for o in per_literal))]


def _paired(first_round: list[Candidate], limit: int) -> list[Candidate]:
    """Two literals at once: a first-round edit with the next first-round edit of its file that it leaves be."""
    paired: list[Candidate] = []
    for i, one in enumerate(first_round):
        if len(paired) >= limit:
            break
        partners = [c for c in first_round[i + 1:] if c.file == one.file and not any(
            editing.overlap(a, b) for a in c.edits for b in one.edits)]
        if partners:
            paired.append(Candidate(one.file, tuple(sorted(one.edits + partners[0].edits)),
                                    f"{one.what}; {partners[0].what}", one.targeted))
    return paired


def _targeted(sources: dict[str, str], trees: dict[str, ast.Module], sites: Sites, siblings: dict[str, list[str]],
              functions: dict[str, set[str] | None], rng: random.Random) -> list[list[Candidate]]:
    """Per target, the edits aimed at where a scout run saw it called (each list a set of alternatives):

    * the alternatives of each literal its first SITES call statements depend on (the statement, the
      headers of the blocks around it, the earlier assignments of the names it reads);
    * each of those statements repeated before itself with one literal of it changed (the target called
      first with another input);
    * each statement reaching it left out, and all of them but the first (when another reaches it);
    * each other test function reaching it emptied, and all of them but the first.
    """
    run = {name: {f.name for f in editing.tests_of(tree, functions.get(name))} for name, tree in trees.items()}
    per_literal: list[list[Candidate]] = []
    transplanted: list[list[Candidate]] = []
    seen: set[tuple[str, tuple[int, int, int, int]]] = set()
    for target_sites in sites:
        statements: list[tuple[str, aimed.Scope, ast.stmt]] = []
        for name, line in target_sites:
            tree = trees.get(name)
            if tree is None:
                continue
            # A call from module or class level (a decorator, a class body): the module's statements.
            func = aimed.enclosing_function(tree, line) or tree
            _, statement = aimed.site(func, line)
            if statement is None or any(s is statement for _, _, s in statements):
                continue
            statements.append((name, func, statement))
        repeats: list[list[Candidate]] = []
        for name, func, statement in statements[:SITES]:
            source = sources[name]
            inside = {id(n) for n in ast.walk(statement)}
            for node in aimed.site_inputs(func, statement.lineno):
                key = (name, editing.position(node))
                if key in seen:
                    continue
                seen.add(key)
                options = _options(name, source, node, siblings[name], rng, True)
                if options:
                    per_literal.append(options)
                if id(node) in inside:
                    twice = []
                    original = editing.short(editing.segment(source, node) or "")
                    same_type = [o.edits[0][4] for o in options[:3]]
                    other_type = editing.retyped(node)[:2]
                    texts = [t for pair in zip_longest(same_type, other_type) for t in pair if t is not None]
                    for text in texts:
                        edit = aimed.duplicate(statement, node, text, source)
                        if edit is not None:
                            twice.append(Candidate(name, (edit,), f"{name} line {statement.lineno}: repeated "
                                                   f"first with {original} → {editing.short(text)}", True))
                    if twice:
                        repeats.append(twice)
            for edit, what in aimed.arguments_left_out(statement, source) + aimed.members_left_out(statement):
                per_literal.append([Candidate(name, (edit,), f"{name} line {statement.lineno}: {what}", True)])
        per_literal += repeats
        asked: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]] = []
        for name, func, _ in statements:
            if isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef) and func.name in run[name] and not any(
                    f is func for _, f in asked):
                asked.append((name, func))
        for name, func in asked[:1]:
            reaching: list[ast.AST] = [s for n, f, s in statements if n == name and f is func]
            for edit, what in aimed.transplants(trees[name], sources[name], func, run[name], reaching, TRANSPLANTS,
                                                rng):
                transplanted.append([Candidate(name, (edit,), f"{name}: {what}", True)])
        if len(statements) > 1:
            removable = [(name, s) for name, _, s in statements if editing.removable(s)]
            for name, s in removable[:2 * SITES]:
                per_literal.append([Candidate(name, ((*editing.position(s), "pass"),),
                                              f"{name} line {s.lineno}: call left out", True)])
            head_name, _, head = statements[0]
            others = [s for name, s in removable if s is not head and name == head_name]
            if others:
                per_literal.append([Candidate(head_name, tuple(sorted((*editing.position(s), "pass") for s in others)),
                                              f"{head_name}: only line {head.lineno} of the calls kept", True)])
        tests = asked
        if len(tests) > 1:
            head_name, head_func = tests[0]
            for name, func in tests[1:SITES + 1]:
                per_literal.append([Candidate(name, ((*aimed.body_span(func), "pass"),),
                                              f"{name}: {func.name} emptied", True)])
            others_f = [f for name, f in tests[1:] if name == head_name]
            if len(others_f) > 1:
                per_literal.append([Candidate(head_name, tuple(sorted((*aimed.body_span(f), "pass")
                                                                      for f in others_f)),
                                              f"{head_name}: only {head_func.name} of the tests kept", True)])
    return transplanted + per_literal


def pool(sources: dict[str, str], functions: dict[str, set[str] | None], epoch: int,
         sites: Sites = ()) -> list[Candidate]:  # type: ignore[assignment]
    """The epoch's candidates for test files `sources` (name → text) running `functions` (name → test
    function names, None: all). First, when a scout run saw where the targets are reached (`sites`), the
    edits of what those calls depend on (targeted); then each literal input's alternatives, taken
    round-robin over the literals (one alternative of each before a second of any) in an order drawn from
    the epoch and the files, with up to PAIRED edits of two literals of one file after the first round."""
    rng = _rng(sources, functions, epoch)
    trees: dict[str, ast.Module] = {}
    siblings: dict[str, list[str]] = {}
    for name in sorted(sources):
        try:
            trees[name] = ast.parse(sources[name])
        except SyntaxError as exc:
            raise NoVariant(f"the test file {name} does not parse: {exc}") from None
        siblings[name] = editing.strings(trees[name])
        rng.shuffle(siblings[name])
    per_literal: list[list[Candidate]] = []
    for name in sorted(sources):
        for func in editing.tests_of(trees[name], functions.get(name)):
            for node in editing.inputs(func):
                options = _options(name, sources[name], node, siblings[name], rng)
                if options:
                    per_literal.append(options)
            per_literal.extend(editing.calls(func, sources[name], name))
    targeted = _rounds(_targeted(sources, trees, list(sites), siblings, functions, rng))
    if not per_literal and not targeted:
        raise NoVariant("no literal input or call to change in the test functions run")
    rng.shuffle(per_literal)  # drawn even when unused: the epoch's order of what follows stays the same
    rounds = _rounds(per_literal)
    size = pool_size(sites)
    chosen: list[Candidate] = []
    if targeted:
        chosen += targeted[0] + _paired(targeted[0], PAIRED // 2) + [c for r in targeted[1:] for c in r]
    if len(chosen) >= AIMED_ENOUGH:
        # Blind edits found nothing aimed edits did not (docs/generate.md): not run. The aimed edits past
        # the pool's size follow it, run only by a search the pool left without a candidate (search.py).
        return _unique(chosen)[:size + MORE_AIMED]
    if rounds:
        paired = _paired(rounds[0], PAIRED)
        chosen += rounds[0][:max(0, size - len(chosen) - len(paired))] + paired + [c for r in rounds[1:] for c in r]
    return _unique(chosen)[:size]


def pool_size(sites: Sites) -> int:
    """How many candidates the pool runs first (an aimed pool's further ones follow: MORE_AIMED)."""
    return min(POOL_MAX, POOL + POOL_PER_TARGET * max(0, len(sites) - 1))


def _unique(candidates: list[Candidate]) -> list[Candidate]:
    """The candidates in order, each edit once."""
    unique: dict[tuple[str, tuple[Edit, ...]], Candidate] = {}
    for candidate in candidates:
        unique.setdefault((candidate.file, candidate.edits), candidate)
    return list(unique.values())
