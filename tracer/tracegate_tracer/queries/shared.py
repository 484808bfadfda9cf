"""What every rule module shares: the Rule record, Invalid, Context, query readers.

A rule is declared once, beside the code that answers it: its answer
template, its parameters, what the recorder must capture, and its question
text (questions.py composes the full question from it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..recording.trace import events_of
from ..recording.values import MAX_REPR_LIMIT

Trace = dict[str, Any]
Query = dict[str, Any]
Answer = dict[str, Any]
Needs = dict[str, Any]
Ask = tuple[str, list[str]]  # the question's sentence, the definitions it uses
Options = dict[str, tuple[str, ...] | None]
"""Query options a rule reads: each name, and its closed set of values (None: any value of its type)."""

class Invalid(Exception):
    """The question has no answer in this run (status "invalid")."""


class Context:
    """What the rules need besides the trace: names and the target's LineMap."""

    def __init__(self, file: str, func: str, linemap: Any, node: Any = None) -> None:
        self.file, self.func, self.linemap = file, func, linemap
        self.node = node  # the target's def node (ast), when located from source


def _no_needs(query: Query) -> Needs:
    return {}


@dataclass(frozen=True)
class Rule:
    """One answer shape (mode) of one kind: everything that must agree, in one place."""

    kind: str
    mode: str
    template: Any
    answer: Callable[[Trace, Query, Context], Answer]
    ask: Callable[[Query], Ask]
    needs: Callable[[Query], Needs] = field(default=_no_needs)
    options: Options = field(default_factory=dict)
    """The query options its answer and question read, besides `mode` and `max_value_chars` (queries.options);
    the host refuses any other when a suite loads (src/contracts/query-options.ts is generated from these)."""


# -- reading the query ------------------------------------------------------


INVOCATION_OPTION: Options = {"invocation": None}
"""Read by `invocation`."""


def invocation(trace: Trace, query: Query) -> int:
    k = query.get("invocation")
    if not isinstance(k, int) or isinstance(k, bool) or k < 1:
        raise Invalid(f"query needs a positive integer 'invocation', got {k!r}")
    count = len(trace["invocations"])
    if k > count:
        raise Invalid(f"invocation {k} not reached: the target ran {count} time(s)")
    return k


def named_only(needs: Callable[[Query], Needs] = _no_needs) -> Callable[[Query], Needs]:
    """`needs`, and `events_through` the invocation the query names: for a rule that reads the events of
    that invocation alone, so the recorder may list the later ones without their events (recorder.py)."""

    def with_named(query: Query) -> Needs:
        found = dict(needs(query))
        k = query.get("invocation")
        if isinstance(k, int) and not isinstance(k, bool) and k >= 1:
            found["events_through"] = k
        return found

    return with_named


def names(query: Query, key: str = "variables") -> list[str]:
    found = query.get(key)
    if isinstance(found, str):
        found = [found]
    if not found or not all(isinstance(n, str) and n for n in found):
        raise Invalid(f"query needs '{key}': a list of variable names")
    return sorted(set(found))


def variable(query: Query) -> str:
    name = query.get("variable")
    if not isinstance(name, str) or not name:
        raise Invalid("query needs 'variable': a variable name")
    return name


def variable_needs(query: Query) -> Needs:
    """Record the locals snapshot of the query's `variable`."""
    return {"variables": [query["variable"]]} if isinstance(query.get("variable"), str) else {}


# -- reading the trace --------------------------------------------------------


def ensure_uncut(trace: Trace, texts: Iterable[object]) -> None:
    """Invalid when one of `texts` is a rendered value the recorder cut at its cap."""
    cut = trace.get("cut_values")
    if not cut:
        return
    cut_set = set(cut)
    for text in texts:
        if isinstance(text, str) and text in cut_set:
            cap = trace.get("value_cap")
            raise Invalid(f"a value was cut at {cap} characters ({text[:40]}…); `max_value_chars` "
                          f"in the instance's query raises the cap (up to {MAX_REPR_LIMIT})")


def leaves(value: object) -> Iterator[object]:
    """Every scalar of a JSON-like answer."""
    if isinstance(value, dict):
        for item in value.values():
            yield from leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from leaves(item)
    else:
        yield value


def lines(trace: Trace, inv: int | None = None) -> list[int]:
    return [event[2] for event in events_of(trace, ("line",), inv)]


# -- question text ------------------------------------------------------------


def code(value: object) -> str:
    return f"`{value}`"


def code_names(values: str | Iterable[str] | None) -> str:
    listed = [values] if isinstance(values, str) else sorted(set(values or ()))
    return ", ".join(code(v) for v in listed)

