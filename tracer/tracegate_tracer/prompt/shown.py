"""What a prompt shows of the package, known before anything runs: the target and the functions it may
reach (locate.build_slice, from source only). A world-model profile (W4) is asked only about those: a
model can rank the functions and lines it reads, never lines of files it is not shown (issue 43)."""

from __future__ import annotations

import sys
from typing import Any

from .locate import Target, build_slice


def prompt_slice(target: Target) -> dict[str, Any]:
    """The prompt's slice, made before anything runs and from the package's source alone (build_slice): the
    prompt cannot show what ran. Empty when the source cannot be read: a slice never costs an oracle."""
    try:
        return {"slice": build_slice(target)}
    except Exception as exc:  # noqa: BLE001 - the prompt's slice never costs an oracle
        sys.stderr.write(f"tracegate: {target.file}::{target.qualname}: no prompt slice "
                         f"({type(exc).__name__}: {exc})\n")
        return {}


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
