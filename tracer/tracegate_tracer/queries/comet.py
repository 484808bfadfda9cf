"""B1-B2, Comet's program-state kinds: a function with a bug, a reply that is run (comet/verify.py).

Their gold is not a trace either: the harvest runs the instance's reference
input (the one that killed the mutant when the instance was made) against
the buggy and the correct version and hands each rule

    {input, buggy: {outcome, return, stdout, exception}, test}

(`test`: the fail-to-pass test built from that input, B2). A reply is not
scored against the gold: it is run the same way (the host's scorer reads the
two versions' behaviour, src/families/comet/score.ts); the gold is what a
reference model answers and what pairs two runs.
"""

from __future__ import annotations

from .shared import Answer, Ask, Context, Query, Rule, Trace
from .terms import BUGGY_IO, REGRESSION

REFERENCE: dict[str, None] = {"input": None, "examples": None}
"""Options: the reference input (JSON {args, kwargs} or a call's literal arguments) and example inputs on which
both versions agree (shown in the prompt with what they do)."""


def b1_buggy_io(measured: Trace, query: Query, ctx: Context) -> Answer:
    buggy = measured["buggy"]
    answer = {"input": measured["input"], "outcome": buggy["outcome"], "return": None, "stdout": None,
              "exception": None}
    if buggy["outcome"] == "ok":
        answer.update({"return": buggy.get("return"), "stdout": buggy.get("stdout", "")})
    elif buggy["outcome"] == "crash":
        answer["exception"] = buggy.get("exception")
    return answer


def _ask_b1(q: Query) -> Ask:
    return ("This function has a bug: a hidden correct version differs from it somewhere. Without running "
            "anything, give one call of it (`input`: its arguments, as {\"args\": [...], \"kwargs\": {...}} of JSON "
            "values, or as a string of Python literals written as between the call's parentheses, e.g. "
            "\"'abc', 3, width=10\") on which the buggy version behaves differently from the correct one, and "
            "what the buggy version does on it: `outcome` `ok` (give `return`, the repr of the value it returns, "
            "and `stdout`, what it prints), `crash` (give `exception`, the exception class) or `timeout`. Give "
            "null for the fields that do not apply.", [BUGGY_IO])


def b2_regression(measured: Trace, query: Query, ctx: Context) -> Answer:
    return {"precondition": "", "postcondition": "", "explanation": "", "test": measured["test"]}


def _ask_b2(q: Query) -> Ask:
    return ("This function has a bug: a hidden correct version differs from it somewhere. Without running "
            "anything, say which inputs trigger the bug (`precondition`), what the correct behaviour on them is "
            "(`postcondition`) and why the bug breaks it (`explanation`), and write a regression test for it: "
            "one pytest file (`test`, its whole text) that imports the function from its module, fails on this "
            "buggy version and passes on the correct one.", [REGRESSION])


RULES = [
    Rule("B1_BuggyIO", "buggy_io",
         {"input": "dict|list|str", "outcome": "str", "return": "str|null", "stdout": "str|null",
          "exception": "str|null"}, b1_buggy_io, _ask_b1, options=REFERENCE),
    Rule("B2_RegressionTest", "regression",
         {"precondition": "str", "postcondition": "str", "explanation": "str", "test": "str"}, b2_regression,
         _ask_b2, options=REFERENCE),
]
