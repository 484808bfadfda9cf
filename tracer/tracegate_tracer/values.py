"""Bounded, deterministic text renderings of runtime values and exceptions."""

import builtins
import re

MAX_REPR = 500
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def safe_repr(value, limit=MAX_REPR):
    """repr() without memory addresses, capped at `limit` characters.

    A repr that raises is rendered as `<repr failed: ExcType>` so that a buggy
    __repr__ in the code under test never breaks a recording.
    """
    try:
        text = repr(value)
    except BaseException as exc:  # noqa: BLE001 - user __repr__ may raise anything
        text = "<repr failed: %s>" % type(exc).__name__
    text = _ADDRESS.sub("0x…", text)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


def safe_str(value, limit=MAX_REPR):
    """str() of an exception (its message), same bounds as safe_repr."""
    try:
        text = str(value)
    except BaseException as exc:  # noqa: BLE001
        text = "<str failed: %s>" % type(exc).__name__
    text = _ADDRESS.sub("0x…", text)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


def type_name(cls):
    """Bare name for builtins (`ValueError`), else `module.qualname`."""
    module = getattr(cls, "__module__", None)
    qualname = getattr(cls, "__qualname__", None) or getattr(cls, "__name__", "?")
    if module in (None, "builtins") and getattr(builtins, qualname, None) is cls:
        return qualname
    if module in (None, "builtins"):
        return qualname
    return "%s.%s" % (module, qualname)
