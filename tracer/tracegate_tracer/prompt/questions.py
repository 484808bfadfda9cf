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

from ..queries import Invalid, rule_for
from ..queries.shared import code
from ..queries.terms import LINES, QUOTED, VALUES
from ..recording.linemap import module_name
from ..recording.values import MAX_REPR

__all__ = ["QUOTED", "render"]


def _tests(tests: Sequence[str] | None) -> str:
    listed = list(tests or ())
    if len(listed) == 1:
        return f"Run the test {code(listed[0])} with pytest from the instance directory (a pytest id)."
    return ("Run the tests {} with pytest from the instance directory, in that order, as one session "
            "(pytest ids).".format(", ".join(code(t) for t in listed)))


def _values(query: dict[str, Any]) -> str:
    """VALUES, with the instance's own cap when its query raises it (`max_value_chars`)."""
    cap = query.get("max_value_chars")
    if isinstance(cap, int) and not isinstance(cap, bool) and cap != MAX_REPR:
        return VALUES.replace(f"capped at {MAX_REPR} characters", f"capped at {cap} characters")
    return VALUES


def _mutant(mutant: Any) -> list[str]:
    """The sentence that says a seeded mutant changes the code (world-model kinds), if one does."""
    if not isinstance(mutant, dict):
        return []
    return ["The repository's code is changed for this question: on line {} of {}, {} is replaced by {} (the "
            "code shown is the changed code).".format(mutant.get("line"), code(mutant.get("file")),
                                                       code(mutant.get("original")), code(mutant.get("replacement")))]


def render(kind: str | None, query: dict[str, Any] | None, target: dict[str, str],
           tests: Sequence[str] | None, mutant: Any = None) -> tuple[str | None, Any]:
    """(question, template_answer) of a declarative query; (None, None) when the kind/mode is unknown."""
    query = query or {}
    try:
        rule = rule_for(kind, query)
    except Invalid:
        return None, None
    file, function = target["file"], target["function"]
    func = f"{module_name(file)}.{function}"
    ask, terms = rule.ask(query)
    terms = [_values(query) if term is VALUES else term for term in terms]
    template = rule.template
    comet = kind in ("B1_BuggyIO", "B2_RegressionTest")
    # The target file's line conventions only where an answer names lines of it: the traced kinds (a world-model
    # answer names a test file's line, or a file:line of a profile, each defined by its own term).
    lines = bool(kind) and kind[0] in "SM" and ("line" in json.dumps(template) or "line" in ask)
    parts = [
        # B1/B2 show the buggy function only: neither the tests that found the bug nor what the mutant changed.
        *([] if comet else [_tests(tests)]),
        f"The target function is {code(func)} (qualified name {code(function)}) in {code(file)}; "
        '"the target" below means it.',
        *([] if comet else _mutant(mutant)),
        ask,
        "Definitions: " + " ".join(terms + ([LINES] if lines else [])),
        "Answer as JSON of exactly this shape, where \"int\", \"float\", \"str\" and \"bool\" name each "
        "value's type and a one-element list stands for a list of any length: "
        + json.dumps(template, separators=(", ", ": ")),
    ]
    return " ".join(parts), template
