"""Bounded, deterministic text renderings of runtime values and exceptions.

`render` is `repr()` with three changes that make it deterministic: memory
addresses in default reprs (`<Foo object at 0x7f…>`, `<function f at 0x…>`:
an ` at 0x<hex>` inside `<…>`) become `at 0x…`, while any other hex text
(`'crc=0x1F2E'`, a message `bad value at 0x7f`) is kept; the elements of a
`set`/`frozenset` (whose order depends on hashing) are listed in sorted order
(by value when comparable, else by their rendering); the text is capped at
`limit` characters. Builtin containers are walked so that a set nested in a
list is sorted too; any other object is its own `repr()`.

A path under the test's temporary directory (pytest's `tmp_path`, rooted in
the harvest machine's `pytest-of-<user>/pytest-<n>/<test>N`, under xdist with a
`popen-gw<k>/` between) is written
`<tmp_path>`: the model knows the test asked for `tmp_path`, never where the
harvest machine put it (docs/benchmark-validity.md).

A text cut at the cap (or a container whose elements were cut short) is added
to the caller's `cut` set: a cut value must never become an answer.
"""

from __future__ import annotations

import re

MAX_REPR = 500
MAX_REPR_LIMIT = 20_000  # the most an instance may ask for (query key `max_value_chars`)
_DEFAULT_REPR = re.compile(r"<[^<>]*>")
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
_CONTAINERS = (list, tuple, dict, set, frozenset)
_TMP_PATH = re.compile(r"[^\s'\"]*/pytest-of-[^/\s'\"]+/pytest-\d+/(?:popen-gw\d+/)?[^/\s'\"]+")


def _mask(match: re.Match[str]) -> str:
    return _ADDRESS.sub(" at 0x…", match.group(0))


def _cap(text: str, limit: int, cut: list[bool]) -> str:
    if "pytest-of-" in text:
        text = _TMP_PATH.sub("<tmp_path>", text)
    if " at 0x" in text:
        text = _DEFAULT_REPR.sub(_mask, text)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
        cut[0] = True
    return text


def _plain_repr(value: object) -> str:
    try:
        return repr(value)
    except BaseException as exc:  # noqa: BLE001 - user __repr__ may raise anything
        return f"<repr failed: {type(exc).__name__}>"


def _walk(value: object, budget: int, seen: set[int], cut: list[bool]) -> str:
    """repr() of builtin containers with sets sorted; stops early past `budget`."""
    kind = type(value)
    if kind not in _CONTAINERS:
        return _plain_repr(value)
    if id(value) in seen:
        return {list: "[...]", dict: "{...}"}.get(kind, "...")
    seen.add(id(value))
    try:
        parts: list[str] = []
        used = 0
        if kind is dict:
            items = ((_walk(k, budget, seen, cut) + ": " + _walk(v, budget, seen, cut))
                     for k, v in value.items())
        elif kind in (set, frozenset):
            try:
                ordered = sorted(value)
            except TypeError:
                ordered = value
            rendered = [_walk(v, budget, seen, cut) for v in ordered]
            items = iter(rendered if ordered is not value else sorted(rendered))
        else:
            items = (_walk(v, budget, seen, cut) for v in value)
        for text in items:
            parts.append(text)
            used += len(text) + 2
            if used > budget:
                parts.append("…")
                cut[0] = True
                break
        body = ", ".join(parts)
        if kind is list:
            return "[" + body + "]"
        if kind is tuple:
            return "(" + body + ("," if len(parts) == 1 else "") + ")"
        if kind is dict:
            return "{" + body + "}"
        if kind is set:
            return "{" + body + "}" if parts else "set()"
        return "frozenset({" + body + "})" if parts else "frozenset()"
    finally:
        seen.discard(id(value))


def render(value: object, limit: int = MAX_REPR, cut: set[str] | None = None) -> str:
    """The deterministic, bounded repr of a runtime value (see module doc)."""
    flag = [False]
    try:
        text = _walk(value, limit, set(), flag)
    except RecursionError:
        flag[0] = False
        text = _plain_repr(value)
    text = _cap(text, limit, flag)
    if flag[0] and cut is not None:
        cut.add(text)
    return text


def safe_repr(value: object, limit: int = MAX_REPR) -> str:
    """repr() without memory addresses, capped at `limit` characters."""
    return _cap(_plain_repr(value), limit, [False])


def safe_str(value: object, limit: int = MAX_REPR, cut: set[str] | None = None) -> str:
    """str() of an exception (its message), same bounds as render."""
    try:
        text = str(value)
    except BaseException as exc:  # noqa: BLE001
        text = f"<str failed: {type(exc).__name__}>"
    flag = [False]
    text = _cap(text, limit, flag)
    if flag[0] and cut is not None:
        cut.add(text)
    return text


def type_name(cls: type) -> str:
    """Bare name for builtins (`ValueError`), else `module.qualname`."""
    module = getattr(cls, "__module__", None)
    qualname = getattr(cls, "__qualname__", None) or getattr(cls, "__name__", "?")
    if module in (None, "builtins"):
        return qualname
    return f"{module}.{qualname}"


def value_cap(query: dict[str, object]) -> int:
    """The instance's cap on rendered values: query key `max_value_chars` (default MAX_REPR)."""
    cap = query.get("max_value_chars", MAX_REPR)
    if isinstance(cap, bool) or not isinstance(cap, int) or not 1 <= cap <= MAX_REPR_LIMIT:
        raise ValueError(f"query key max_value_chars must be an integer from 1 to {MAX_REPR_LIMIT}, got {cap!r}")
    return cap
