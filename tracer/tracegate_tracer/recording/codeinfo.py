"""Per-code-object facts both backends share, computed once per target code.

* `line_at`: physical line of each instruction offset (from `co_lines`);
* `skip`: offsets that belong to an inlined list/set/dict comprehension
  (Python >= 3.12, PEP 709). On 3.11 a comprehension runs in a frame of its
  own, so its lines and names are not the target's; skipping the inlined
  instructions makes 3.12+ answers equal to 3.11's;
* `accesses`: {offset: ((kind, statement line, name, physical line), ...)}
  for loads/stores/deletes of the tracked names (dataflow), at instruction
  granularity;
* `def_line`, `params`: where parameters are defined (the `def` line).

With `nested` (SWE-Flux's convention), reads of the function's own tracked
variables from nested scopes count too, as `nested_load` accesses: inside an
inlined comprehension (3.12+) here, and in the nested code objects
`nested_codes` finds (NestedInfo; on 3.11 comprehensions are among them).
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


def _access_kinds(ins: dis.Instruction, cells: frozenset[str] = frozenset()) -> tuple[tuple[str, str], ...]:
    """(kind, name) of each access `ins` makes. A fast load of a cell or free variable reads no value:
    it loads the cell itself to build a closure (3.13 compiles LOAD_CLOSURE to LOAD_FAST)."""
    name = ins.opname
    if name in _PAIRS:
        names = ins.argval if isinstance(ins.argval, tuple) else tuple(ins.argrepr.split(", "))
        return tuple((kind, n) for kind, n in zip(_PAIRS[name], names, strict=False)
                     if not (kind == "load" and n in cells))
    if name in _LOADS:
        if ins.argval in cells and "FAST" in name:
            return ()
        return (("load", ins.argval),)
    if name in _STORES:
        return (("store", ins.argval),)
    if name in _DELETES:
        return (("delete", ins.argval),)
    return ()


def _line_at(code: CodeType) -> dict[int, int]:
    found = {}
    for start, end, line in code.co_lines():
        if line is not None:
            for offset in range(start, end, 2):
                found[offset] = line
    return found


_DEREF_LOADS = {"LOAD_DEREF", "LOAD_CLASSDEREF", "LOAD_FROM_DICT_OR_DEREF"}


class NestedInfo:
    """A code object nested in a target (a closure, a lambda, a generator expression, a 3.11
    comprehension): where it reads a tracked variable of the target's own frame. SWE-Flux counts those
    reads as the target's (query option `nested`); `accesses` is {offset: (("nested_load", statement
    line, name, physical line), ...)}."""

    __slots__ = ("accesses",)

    def __init__(self, code: CodeType, linemap: Any, names: frozenset[str]) -> None:
        line_at, self.accesses = _line_at(code), {}
        for ins in dis.get_instructions(code):
            if ins.opname in _DEREF_LOADS and ins.argval in names:
                phys = line_at.get(ins.offset, code.co_firstlineno)
                self.accesses[ins.offset] = (("nested_load", linemap.stmt_line(phys), ins.argval, phys),)


def nested_codes(code: CodeType, tracked: frozenset[str]) -> dict[CodeType, frozenset[str]]:
    """The code objects nested in `code` (at any depth) that can read a tracked variable of `code`'s
    own frame, with those names: a free variable of a nested code is `code`'s when every scope between
    passes it through (a scope that binds the name itself owns it)."""
    found = {}

    def walk(parent: CodeType, owned: frozenset[str]) -> None:
        for child in parent.co_consts:
            if isinstance(child, CodeType):
                passed = owned & frozenset(child.co_freevars)
                if passed:
                    found[child] = passed
                    walk(child, passed)

    walk(code, tracked & frozenset(code.co_cellvars))
    return found


class CodeInfo:
    __slots__ = ("linemap", "line_at", "skip", "accesses", "def_line", "params")

    def __init__(self, code: CodeType, linemap: Any, tracked: frozenset[str] | None = None,
                 nested: bool = False) -> None:
        self.linemap = linemap
        self.line_at = _line_at(code)
        skip = set()
        bound = {}  # offset inside an inlined comprehension -> the names comprehensions there bind
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
                own = linemap.comprehension_names.get(span, frozenset())
                for ins in inside:
                    if ins.offset >= start:
                        skip.add(ins.offset)
                        bound[ins.offset] = bound.get(ins.offset, frozenset()) | own
        self.skip = frozenset(skip)
        self.def_line = getattr(linemap, "def_lines", {}).get(code.co_firstlineno, code.co_firstlineno)
        count = code.co_argcount + code.co_kwonlyargcount
        count += bool(code.co_flags & 0x04) + bool(code.co_flags & 0x08)  # *args, **kwargs
        self.params = code.co_varnames[:count]
        self.accesses = {}
        if tracked:
            cells = frozenset(code.co_cellvars) | frozenset(code.co_freevars)
            for ins in instructions:
                if ins.offset in self.skip:
                    if nested:  # an inlined comprehension reading the function's own variables
                        own = bound.get(ins.offset, frozenset())
                        reads = tuple(("nested_load", name) for kind, name in _access_kinds(ins, cells)
                                      if kind == "load" and name in tracked and name not in own)
                        if reads:
                            phys = self.line_at.get(ins.offset, code.co_firstlineno)
                            line = linemap.stmt_line(phys)
                            self.accesses[ins.offset] = tuple((kind, line, name, phys) for kind, name in reads)
                    continue
                found = tuple((kind, name) for kind, name in _access_kinds(ins, cells) if name in tracked)
                if found:
                    phys = self.line_at.get(ins.offset, code.co_firstlineno)
                    line = linemap.stmt_line(phys)
                    self.accesses[ins.offset] = tuple((kind, line, name, phys) for kind, name in found)

    def stmt_line(self, line: int) -> int:
        return self.linemap.stmt_line(line)
