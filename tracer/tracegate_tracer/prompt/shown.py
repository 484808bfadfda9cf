"""What a prompt shows of the package, known before anything runs: the target and the functions it may
reach (build_slice: the target module's preamble, and its callees from source only, callees.py). A
world-model profile (W4) is asked only about those: a model can rank the functions and lines it reads,
never lines of files it is not shown (issue 43)."""

from __future__ import annotations

import ast
import sys
from typing import Any

from . import callees
from .locate import Target

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



def prompt_slice(target: Target) -> dict[str, Any]:
    """The prompt's slice, made before anything runs and from the package's source alone (build_slice): the
    prompt cannot show what ran. Empty when the source cannot be read: a slice never costs an oracle."""
    try:
        return {"slice": build_slice(target)}
    except Exception as exc:  # noqa: BLE001 - the prompt's slice never costs an oracle
        sys.stderr.write(f"tracegate: {target.file}::{target.qualname}: no prompt slice "
                         f"({type(exc).__name__}: {exc})\n")
        return {}


# -- what a result's context shows (a W4 profile is cut to it) --


class Shown:
    """The functions (dotted names) and the lines (`file` → line ranges) of a result's context."""

    def __init__(self, context: dict[str, Any]) -> None:
        blocks = [context, *((context.get("slice") or {}).get("functions") or [])]
        self.functions = {str(b["func"]) for b in blocks}
        self.ranges: dict[str, list[tuple[int, int]]] = {}
        for b in blocks:
            first = int(b["first_line"])
            last = first + max(1, len(str(b["source"]).splitlines())) - 1
            self.ranges.setdefault(str(b["file"]), []).append((first, last))

    def function(self, name: str) -> bool:
        """A shown function, or one defined inside a shown function (`f.<locals>.g`: its source is shown)."""
        return name in self.functions or any(name.startswith(f"{f}.<locals>.") for f in self.functions)

    def line(self, key: str) -> bool:
        """`file:line` inside a shown block."""
        file, _, line = key.rpartition(":")
        if not line.isdigit():
            return False
        return any(first <= int(line) <= last for first, last in self.ranges.get(file, ()))

    def only(self, profile: dict[str, Any]) -> dict[str, Any]:
        """The profile with every ranked list cut to what the prompt shows (ranks kept in order)."""
        kept = dict(profile)
        for key, shown in (("time_func", self.function), ("alloc_func", self.function),
                           ("time_line", self.line), ("alloc_line", self.line)):
            if isinstance(profile.get(key), list):
                kept[key] = [entry for entry in profile[key] if shown(str(entry[0]))]
        return kept
