"""Generated questions and templates: one per declarative query, never drifting from its answer."""

import json
import os
import re

import pytest

from tracegate_tracer.prompt import questions
from tracegate_tracer.queries import RULES, rule_for
from tracegate_tracer.recording.linemap import module_name

from catalog import PROGRAMS, Invalid
from conftest import TRACER_ROOT, run_catalog

LEAVES = {"int": lambda v: isinstance(v, int) and not isinstance(v, bool),
          "float": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
          "str": lambda v: isinstance(v, str), "bool": lambda v: isinstance(v, bool)}


def conforms(template, value):
    """`value` has the template's keys at every level and its leaf types."""
    if isinstance(template, dict):
        return isinstance(value, dict) and set(template) == set(value) and all(
            conforms(template[k], value[k]) for k in template)
    if isinstance(template, list):
        return isinstance(value, list) and all(conforms(template[0], v) for v in value)
    return LEAVES[template](value)


CASES = [(prog, case) for prog in PROGRAMS for case in prog["cases"]]


def test_every_kind_and_mode_has_an_answered_catalog_case():
    answered = {(case[1], rule_for(case[1], case[3]).mode) for _prog, case in CASES if not isinstance(case[4], Invalid)}
    # The world-model kinds are measured, not traced: test_world.py answers each.
    assert answered == {(kind, mode) for kind, modes in RULES.items() for mode in modes if kind[0] not in "WB"}


@pytest.mark.parametrize("prog,case", CASES, ids=["{}-{}".format(p["name"], c[0]) for p, c in CASES])
def test_generated_question_names_target_and_tests_and_its_template_fits_the_answer(tmp_path_factory, prog, case):
    results, _out = run_catalog(tmp_path_factory, "settrace")
    result = results["{}-{}".format(prog["name"], case[0])]
    question, template = result["question"], result["template_answer"]
    assert isinstance(question, str) and template == rule_for(case[1], case[3]).template
    tests = case[5] if len(case) > 5 else "test_prog.py"
    for test in [tests] if isinstance(tests, str) else tests:
        assert f"`{test}`" in question
    assert "`prog.py`" in question and "`{}.{}`".format(module_name("prog.py"), case[2]) in question
    shape = rule_for(case[1], case[3]).template  # result lines sort keys; the question keeps the rule's order
    assert question.endswith(" " + json.dumps(shape, separators=(", ", ": ")))
    if result["status"] == "ok":
        assert conforms(template, result["answer"]), (template, result["answer"])
    for name in [case[3].get("variable")] + list(case[3].get("variables") or ()):
        if name:
            assert f"`{name}`" in question  # the baseline heuristic reads backticked names


def test_question_is_deterministic_and_independent_of_variable_order():
    target = {"file": "pkg/mod.py", "function": "C.f"}
    a = questions.render("S4_DataFlow", {"invocation": 1, "variables": ["b", "a"]}, target, ["t.py::x"])
    b = questions.render("S4_DataFlow", {"invocation": 1, "variables": ["a", "b", "a"]}, target, ["t.py::x"])
    assert a == b and "`a`, `b`" in a[0] and "`pkg.mod.C.f`" in a[0]


def test_unknown_kind_or_mode_has_no_question():
    target = {"file": "m.py", "function": "f"}
    assert questions.render("S9_Nope", {}, target, ["t.py"]) == (None, None)
    assert questions.render("S2_Loops", {"mode": "nope"}, target, ["t.py"]) == (None, None)


def test_every_quoted_definition_is_in_the_readme():
    with open(os.path.join(TRACER_ROOT, "README.md"), encoding="utf-8") as handle:
        readme = re.sub(r"\s+", " ", handle.read())
    missing = [text for text in questions.QUOTED if re.sub(r"\s+", " ", text) not in readme]
    assert not missing, missing


def test_question_is_present_when_the_run_is_not_ok(harness):
    directory = harness.instance_dir({"prog.py": "def f(x):\n    return x\n",
                                      "test_prog.py": "def test_it():\n    pass\n"})
    spec = {"id": "idle", "dir": str(directory), "tests": ["test_prog.py"], "kind": "S2_Loops",
            "target": {"file": "prog.py", "function": "f"}, "query": {"invocation": 1, "loop_line": 2}}
    missing = dict(spec, id="missing", target={"file": "nope.py", "function": "f"})
    results = harness.run([spec, missing])
    for ident in ("idle", "missing"):
        assert results[ident]["status"] == "invalid"
        assert "`test_prog.py`" in results[ident]["question"]
        assert results[ident]["template_answer"] == {"loop_iteration_count": "int"}


def test_predicates_may_call_every_method_that_leaves_a_literal_unchanged():
    """Enumerated from this interpreter: each public method of each literal type is callable by a
    predicate unless it changes the value (as the collections ABCs define mutation, and the
    type's own *_update/sort) or is str.format/format_map; mutators are never callable."""
    from collections import abc

    from tracegate_tracer.queries import predicate

    mutable = {list: (abc.MutableSequence, abc.Sequence), dict: (abc.MutableMapping, abc.Mapping),
               set: (abc.MutableSet, abc.Set)}
    for cls, (mutable_abc, frozen_abc) in mutable.items():
        by_abc = {n for n in set(dir(mutable_abc)) - set(dir(frozen_abc)) if not n.startswith("_")}
        own = {n for n in dir(cls) if n.endswith("_update") or n == "sort"}
        assert by_abc | own <= predicate.MUTATORS[cls], cls
    for cls in predicate.LITERAL_TYPES:
        public = {n for n in dir(cls) if not n.startswith("_") and callable(getattr(cls, n))}
        allowed = predicate._METHODS[cls]
        excluded = predicate.MUTATORS.get(cls, frozenset()) | predicate.NOT_CALLABLE_BY_PREDICATES
        assert allowed == public - excluded, cls
        assert not allowed & predicate.MUTATORS.get(cls, frozenset())
    assert {"expandtabs", "removeprefix", "translate", "zfill", "casefold"} <= predicate._METHODS[str]
    assert {"copy", "fromkeys", "get", "items"} <= predicate._METHODS[dict]
    assert "format" not in predicate._METHODS[str]
