"""Interpreter facts about frames that the settrace backend needs.

Python 3.11 reports a generator's resumption as a new 'call' event and a
yield as a 'return' event; the instruction at f_lasti tells them apart.
"""

from __future__ import annotations

import dis
import os
import sysconfig
from types import FrameType

_RESUME = dis.opmap.get("RESUME")
_YIELD = dis.opmap.get("YIELD_VALUE")
_RETURNS = {dis.opmap[name] for name in ("RETURN_VALUE", "RETURN_CONST") if name in dis.opmap}
_GENERATOR_FLAGS = 0x20 | 0x80 | 0x200  # CO_GENERATOR | CO_COROUTINE | CO_ASYNC_GENERATOR
# Comprehensions are inlined into their function from 3.12 (PEP 709): never
# count them as calls, so that answers do not depend on the interpreter.
COMPREHENSIONS = ("<listcomp>", "<dictcomp>", "<setcomp>")


def _opcode(frame: FrameType, offset: int = 0) -> int | None:
    lasti = frame.f_lasti
    if lasti < 0:
        return None
    code = frame.f_code.co_code
    index = lasti + offset
    return code[index] if index < len(code) else None


def is_resumption(frame: FrameType) -> bool:
    """True when a 'call' event is a generator/coroutine resuming, not a call."""
    if not frame.f_code.co_flags & _GENERATOR_FLAGS or _RESUME is None:
        return False
    if _opcode(frame) != _RESUME:
        return False
    # RESUME's argument: 0 = function start, 1/2/3 = after yield/yield from/await.
    return bool((_opcode(frame, 1) or 0) & 3)


def exit_kind(frame: FrameType) -> str:
    """How a frame leaves at a 'return' event: 'return', 'yield' or 'unwind'.

    settrace reports both a normal return and an exception propagating out as
    'return'; only a RETURN_* instruction at f_lasti is a normal return.
    """
    op = _opcode(frame)
    if op in _RETURNS:
        return "return"
    if op == _YIELD:
        return "yield"
    if op == _RESUME and frame.f_lasti >= 2 and _opcode(frame, -2) == _YIELD:
        return "yield"  # 3.13 reports a yield with f_lasti on the RESUME after it
    return "unwind"


def dotted_name(frame: FrameType) -> str:
    """`module.__name__ + "." + co_qualname` of the code running in `frame`."""
    module = frame.f_globals.get("__name__") or "?"
    return f"{module}.{frame.f_code.co_qualname}"


class FileNamer:
    """Names a source file relative to site-packages, the instance dir, the repository or the stdlib."""

    def __init__(self, instance_dir: str, repo_root: str | None = None) -> None:
        self.instance_dir = os.path.abspath(instance_dir) + os.sep
        self.stdlib = os.path.abspath(sysconfig.get_paths()["stdlib"]) + os.sep
        # The environment's checkout: code installed from it in place (editable, or on sys.path) is named
        # relative to it (`src/click/types.py`), as SWE-Flux names it. Never the filesystem root.
        repo = os.path.abspath(repo_root) if repo_root else None
        self.repo_root = repo + os.sep if repo and repo != os.sep else None
        self._cache = {}

    def __call__(self, path: str) -> str:
        name = self._cache.get(path)
        if name is None:
            name = self._cache[path] = self._name(path)
        return name

    def _name(self, path: str) -> str:
        normal = path.replace("\\", "/")
        for marker in ("/site-packages/", "/dist-packages/"):
            if marker in normal:
                return normal.rsplit(marker, 1)[1]
        absolute = os.path.abspath(path)
        for root in (self.instance_dir, self.repo_root, self.stdlib):
            if root and absolute.startswith(root):
                return os.path.relpath(absolute, root).replace("\\", "/")
        return normal
