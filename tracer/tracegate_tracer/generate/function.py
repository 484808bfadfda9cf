"""A scouted function as the proposers see it (propose.py, predicates.py): its facts, its AST facts and the
tests that ran it."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from typing import Any

from ..recording.linemap import LineMap, module_name

Facts = dict[str, Any]
Query = dict[str, Any]

MAX_SUITE_TESTS = 8
"""Above this many tests the suite kinds run the whole test file."""


class Function:
    """One scouted function: its facts, its AST facts, and the tests that ran it."""

    def __init__(self, facts: Facts, linemap: LineMap, node: ast.AST, tests_file: list[str],
                 packages: list[str]) -> None:
        self.facts = facts
        self.linemap = linemap
        self.node = node
        self.file = facts["file"]
        self.func = f"{module_name(self.file)}.{facts['qualname']}"
        self.lines = {int(k): v for k, v in facts["lines"].items()}
        described = facts["described"]
        order: list[str] = []
        for test, _steps, _escaped in described:
            if test not in order and test != "<process>":
                order.append(test)
        # Single-test kinds (S) run the first test that invoked the function, its invocations
        # numbered within that test; suite kinds (M) run every test that invoked it, in order (the
        # whole file when they are many). The candidates of one function share those two runs.
        self.order = order
        self.first_test = order[0] if order else None
        self.single = self.invocations_in(self.first_test)
        complete = facts["invocations"] == len(described)
        self.suite = order if complete and 0 < len(order) <= MAX_SUITE_TESTS else list(tests_file)
        self.include = [f"{p}." for p in packages]
        span = range(node.lineno, (node.end_lineno or node.lineno) + 1)
        self.loops = sorted(h for h in linemap.loop_body_first if h in span and h in self.lines
                            and linemap.loop_body_first[h] != h)
        self.variables = {name: v for name, v in facts["variables"].items()
                          if not name.startswith("_") and name not in ("self", "cls")}
        self.line_names = {int(k): [n for n in v if n in self.variables] for k, v in facts["line_names"].items()}

    def invocations_in(self, test: str | None) -> list[list[Any]]:
        """The described invocations of one test, in order: an invocation's number is its place here."""
        return [d for d in self.facts["described"] if d[0] == test]

    def varying(self, kinds: tuple[str, ...] = ("int", "float", "str", "bool", "NoneType")) -> list[str]:
        """Variables of simple types whose sampled values changed, in name order."""
        return [name for name, v in sorted(self.variables.items())
                if len(v["values"]) >= 2 and set(v["types"]) <= set(kinds)]

    def numeric(self) -> list[str]:
        return [n for n in self.varying(("int", "float")) if "bool" not in self.variables[n]["types"]]


Proposer = Callable[[Function], Iterator[tuple[Query, str]]]
"""Yields (query, which): "single", a question about one invocation of the first test that invoked the
function; "suite", one about the whole run; or a test id, one about an invocation of that test."""


def richest(f: Function) -> int:
    """The invocation of the first test that ran the most steps (the first of equals), numbered from 1."""
    steps = [s for _test, s, _escaped in f.single]
    return steps.index(max(steps)) + 1 if steps else 1
