"""Per-code-object facts both backends share, computed once per target code.

* `line_at`: physical line of each instruction offset (from `co_lines`);
* `skip`: offsets that belong to an inlined list/set/dict comprehension
  (Python >= 3.12, PEP 709). On 3.11 a comprehension runs in a frame of its
  own, so its lines and names are not the target's; skipping the inlined
  instructions makes 3.12+ answers equal to 3.11's;
* `accesses`: {offset: ((kind, name), ...)} for loads/stores/deletes of the
  tracked names (dataflow), at instruction granularity;
* `def_line`, `params`: where parameters are defined (the `def` line).
"""

from __future__ import annotations

import dis
import sys
from types import CodeType
from typing import Any

INLINED_COMPREHENSIONS = sys.version_info >= (3, 12)
_LOADS = {"LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_DEREF", "LOAD_FAST_BORROW", "LOAD_NAME",
          "LOAD_CLASSDEREF", "LOAD_FROM_DICT_OR_DEREF"}
_STORES = {"STORE_FAST", "STORE_DEREF", "STORE_NAME"}
_DELETES = {"DELETE_FAST", "DELETE_DEREF", "DELETE_NAME"}
_PAIRS = {  # superinstructions (3.13+): two accesses, in execution order
    "LOAD_FAST_LOAD_FAST": ("load", "load"),
    "LOAD_FAST_BORROW_LOAD_FAST_BORROW": ("load", "load"),
    "STORE_FAST_LOAD_FAST": ("store", "load"),
    "STORE_FAST_STORE_FAST": ("store", "store"),
}


def _inside(pos: dis.Positions | None, span: tuple[int, int, int, int]) -> bool:
    if pos is None or pos.lineno is None or pos.col_offset is None:
        return False
    (l1, c1, l2, c2) = span
    start, end = (pos.lineno, pos.col_offset), (pos.end_lineno, pos.end_col_offset)
    return (l1, c1) <= start and end <= (l2, c2)


def _access_kinds(ins: dis.Instruction) -> tuple[tuple[str, str], ...]:
    name = ins.opname
    if name in _PAIRS:
        names = ins.argval if isinstance(ins.argval, tuple) else tuple(ins.argrepr.split(", "))
        return tuple(zip(_PAIRS[name], names, strict=False))
    if name in _LOADS:
        return (("load", ins.argval),)
    if name in _STORES:
        return (("store", ins.argval),)
    if name in _DELETES:
        return (("delete", ins.argval),)
    return ()


class CodeInfo:
    __slots__ = ("linemap", "line_at", "skip", "accesses", "def_line", "params")

    def __init__(self, code: CodeType, linemap: Any, tracked: frozenset[str] | None = None) -> None:
        self.linemap = linemap
        self.line_at = {}
        for start, end, line in code.co_lines():
            if line is not None:
                for offset in range(start, end, 2):
                    self.line_at[offset] = line
        skip = set()
        comps = getattr(linemap, "comprehensions", ()) if INLINED_COMPREHENSIONS else ()
        # Disassembled only when needed (inlined comprehensions, dataflow).
        instructions = list(dis.get_instructions(code)) if comps or tracked else ()
        for span, first_iter in comps:
            # The comprehension starts at its first instruction outside the
            # first iterable; from there, everything positioned inside it
            # (its loop machinery carries the iterable's position) is inlined.
            inside = [ins for ins in instructions if _inside(ins.positions, span)]
            starts = [ins.offset for ins in inside if not _inside(ins.positions, first_iter)]
            if starts:
                start = min(starts)
                skip.update(ins.offset for ins in inside if ins.offset >= start)
        self.skip = frozenset(skip)
        self.def_line = getattr(linemap, "def_lines", {}).get(code.co_firstlineno, code.co_firstlineno)
        count = code.co_argcount + code.co_kwonlyargcount
        count += bool(code.co_flags & 0x04) + bool(code.co_flags & 0x08)  # *args, **kwargs
        self.params = code.co_varnames[:count]
        self.accesses = {}
        if tracked:
            for ins in instructions:
                if ins.offset in self.skip:
                    continue
                found = tuple((kind, name) for kind, name in _access_kinds(ins) if name in tracked)
                if found:
                    line = linemap.stmt_line(self.line_at.get(ins.offset, code.co_firstlineno))
                    self.accesses[ins.offset] = tuple((kind, line, name) for kind, name in found)

    def stmt_line(self, line: int) -> int:
        return self.linemap.stmt_line(line)
