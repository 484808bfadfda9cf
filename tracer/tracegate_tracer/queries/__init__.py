"""One rule per question kind (and answer shape): trace + query -> answer.

Each rule is declared once, beside the code that answers it, in the module
of its category (cfg, loops, state, dataflow, exceptions, calls,
invariants, world): what the recorder has to capture, how the answer is computed
from the trace, the answer template and the question text (questions.py
composes the full question from it). The rules are stated in words in
tracer/README.md.

Conventions (SWE-Flux's): `file` is the target file relative to
site-packages, `func` is `module.qualname`, lines are 1-based physical lines
of that file (statement lines, see linemap.py), invocations are numbered from
1 in the order of their call events across the whole run.
"""

from __future__ import annotations

from typing import Any

from . import calls, cfg, comet, dataflow, exceptions, invariants, loops, state, world
from .shared import Answer, Context, Invalid, Needs, Options, Query, Rule, Trace, ensure_uncut, leaves

__all__ = ["RULES", "DEFAULT_MODES", "Context", "Invalid", "Rule", "answer", "ensure_uncut", "leaves", "options",
           "option_table", "recording_needs", "rule_for"]

RULES: dict[str, dict[str, Rule]] = {}
for _module in (cfg, loops, state, dataflow, exceptions, calls, invariants, world, comet):
    for _rule in _module.RULES:
        RULES.setdefault(_rule.kind, {})[_rule.mode] = _rule
DEFAULT_MODES = {kind: next(iter(modes)) for kind, modes in RULES.items()}
MEASURED_KINDS = frozenset(rule.kind for rule in world.RULES + comet.RULES)
"""Kinds answered from measurements, not a trace: no recorded value, so no `max_value_chars`."""


def rule_for(kind: str | None, query: Query | None) -> Rule:
    modes = RULES.get(kind) if isinstance(kind, str) else None
    if modes is None:
        raise Invalid(f"question kind {kind!r} is not implemented by tracer")
    mode = (query or {}).get("mode", DEFAULT_MODES[kind])
    if mode not in modes:
        raise Invalid("unknown {} mode {!r} (known: {})".format(kind.split("_")[0], mode, ", ".join(modes)))
    return modes[mode]


def recording_needs(kind: str | None, query: Query | None) -> Needs:
    """What the recorder must capture beyond lines and exceptions."""
    needs: Needs = {"record_calls": False, "variables": None, "dataflow": None, "dataflow_nested": False,
                    "count_calls": None, "raw_lines": False, "events_through": None}
    try:
        needs.update(rule_for(kind, query or {}).needs(query or {}))
    except Invalid:
        pass
    return needs


def answer(kind: str | None, query: Query | None, trace: Trace, ctx: Context) -> Answer:
    rule = rule_for(kind, query or {})
    if not trace["invocations"]:
        raise Invalid("target not executed")
    found = rule.answer(trace, query or {}, ctx)
    ensure_uncut(trace, leaves(found))  # a value cut at the cap is never an oracle
    return found


def options(kind: str, mode: str) -> Options:
    """Every query option of `kind` in `mode`: `mode` itself (the kind's modes), the rule's own, and the value
    cap of the traced kinds (values.value_cap)."""
    found: Options = {"mode": tuple(RULES[kind])}
    found.update(RULES[kind][mode].options)
    if kind not in MEASURED_KINDS:
        found["max_value_chars"] = None
    return found


def option_table() -> dict[str, Any]:
    """{kind: {default: mode, modes: {mode: {option: [values] | None}}}}, the table the host checks queries
    against when a suite loads (tracer/protocol/query_options.py writes it as src/contracts/query-options.ts)."""
    return {kind: {"default": DEFAULT_MODES[kind],
                   "modes": {mode: {name: None if values is None else list(values)
                                    for name, values in options(kind, mode).items()} for mode in modes}}
            for kind, modes in RULES.items()}
