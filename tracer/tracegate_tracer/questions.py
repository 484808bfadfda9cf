"""The question text and answer template of a declarative query.

Both are rendered from exactly what the rule reads (kind, mode, query
parameters, target, tests) and never from a trace, so the wording cannot
drift from the answer: the template and the question's sentence are the
rule's own (declared beside it in queries/), and every term of art is
defined by quoting its rule from tracer/README.md (queries/terms.py;
tests/test_questions.py checks that each quoted definition is in the
README, and that each template matches the answers its rule gives).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .linemap import module_name
from .queries import Invalid, rule_for
from .queries.shared import code
from .queries.terms import LINES, QUOTED, VALUES
from .values import MAX_REPR

__all__ = ["QUOTED", "render"]


def _tests(tests: Sequence[str] | None) -> str:
    listed = list(tests or ())
    if len(listed) == 1:
        return "Run the test %s with pytest from the instance directory (a pytest id)." % code(listed[0])
    return ("Run the tests %s with pytest from the instance directory, in that order, as one session "
            "(pytest ids)." % ", ".join(code(t) for t in listed))


def _values(query: dict[str, Any]) -> str:
    """VALUES, with the instance's own cap when its query raises it (`max_value_chars`)."""
    cap = query.get("max_value_chars")
    if isinstance(cap, int) and not isinstance(cap, bool) and cap != MAX_REPR:
        return VALUES.replace("capped at %d characters" % MAX_REPR, "capped at %d characters" % cap)
    return VALUES


def render(kind: str | None, query: dict[str, Any] | None, target: dict[str, str],
           tests: Sequence[str] | None) -> tuple[str | None, Any]:
    """(question, template_answer) of a declarative query; (None, None) when the kind/mode is unknown."""
    query = query or {}
    try:
        rule = rule_for(kind, query)
    except Invalid:
        return None, None
    file, function = target["file"], target["function"]
    func = "%s.%s" % (module_name(file), function)
    ask, terms = rule.ask(query)
    terms = [_values(query) if term is VALUES else term for term in terms]
    template = rule.template
    parts = [
        _tests(tests),
        "The target function is %s (qualified name %s) in %s; \"the target\" below means it." % (
            code(func), code(function), code(file)),
        ask,
        "Definitions: " + " ".join(terms + [LINES]),
        "Answer as JSON of exactly this shape, where \"int\", \"float\", \"str\" and \"bool\" name each "
        "value's type and a one-element list stands for a list of any length: %s"
        % json.dumps(template, separators=(", ", ": ")),
    ]
    return " ".join(parts), template
