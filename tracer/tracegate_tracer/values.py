"""Bounded, deterministic text renderings of runtime values and exceptions.

`render` is `repr()` with three changes that make it deterministic: memory
addresses become `0x…`; the elements of a `set`/`frozenset` (whose order
depends on hashing) are listed in sorted order (by value when comparable,
else by their rendering); the text is capped at `limit` characters. Builtin
containers are walked so that a set nested in a list is sorted too; any
other object is its own `repr()`.
"""

import re

MAX_REPR = 500
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
_CONTAINERS = (list, tuple, dict, set, frozenset)


def _cap(text, limit):
    text = _ADDRESS.sub("0x…", text)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


def _plain_repr(value):
    try:
        return repr(value)
    except BaseException as exc:  # noqa: BLE001 - user __repr__ may raise anything
        return f"<repr failed: {type(exc).__name__}>"


def _walk(value, budget, seen):
    """repr() of builtin containers with sets sorted; stops early past `budget`."""
    kind = type(value)
    if kind not in _CONTAINERS:
        return _plain_repr(value)
    if id(value) in seen:
        return {list: "[...]", dict: "{...}"}.get(kind, "...")
    seen.add(id(value))
    try:
        parts, used = [], 0
        if kind is dict:
            items = ((_walk(k, budget, seen) + ": " + _walk(v, budget, seen)) for k, v in value.items())
        elif kind in (set, frozenset):
            try:
                ordered = sorted(value)
            except TypeError:
                ordered = value
            rendered = [_walk(v, budget, seen) for v in ordered]
            items = iter(rendered if ordered is not value else sorted(rendered))
        else:
            items = (_walk(v, budget, seen) for v in value)
        for text in items:
            parts.append(text)
            used += len(text) + 2
            if used > budget:
                parts.append("…")
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


def render(value, limit=MAX_REPR):
    """The deterministic, bounded repr of a runtime value (see module doc)."""
    try:
        text = _walk(value, limit, set())
    except RecursionError:
        text = _plain_repr(value)
    return _cap(text, limit)


def safe_repr(value, limit=MAX_REPR):
    """repr() without memory addresses, capped at `limit` characters."""
    return _cap(_plain_repr(value), limit)


def safe_str(value, limit=MAX_REPR):
    """str() of an exception (its message), same bounds as safe_repr."""
    try:
        text = str(value)
    except BaseException as exc:  # noqa: BLE001
        text = f"<str failed: {type(exc).__name__}>"
    return _cap(text, limit)


def type_name(cls):
    """Bare name for builtins (`ValueError`), else `module.qualname`."""
    module = getattr(cls, "__module__", None)
    qualname = getattr(cls, "__qualname__", None) or getattr(cls, "__name__", "?")
    if module in (None, "builtins"):
        return qualname
    return f"{module}.{qualname}"
