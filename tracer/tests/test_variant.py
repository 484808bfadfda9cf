"""Fresh variants (variant.py): perturbed literal inputs, the same structure, another oracle."""

import pytest

from tracegate_tracer.variant import NoVariant, perturb

SOURCE = '''\
from prog import count_up


def test_count():
    """Counts."""
    assert count_up(6) == 6
    values = [4, 5, 6]
    assert [count_up(v) for v in values] == [4, 5, 6], "each"


def test_other():
    assert count_up(9) == 9
'''

PROG = {
    "prog.py": """
        def count_up(n):
            total = 0
            while total < n:
                total += 1
            return total
    """,
}


def test_perturbs_literals_of_the_tests_run_and_keeps_asserts_as_expressions():
    variant = perturb(SOURCE, "1\0key\0test_prog.py", {"test_count"})
    assert variant == perturb(SOURCE, "1\0key\0test_prog.py", {"test_count"})  # deterministic
    assert variant != perturb(SOURCE, "2\0key\0test_prog.py", {"test_count"})  # per epoch
    before, after = SOURCE.splitlines(), variant.splitlines()
    assert len(after) == len(before)
    changed = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    # Only the lines of test_count's statements changed (test_other's assert becomes an expression
    # too, but keeps its literal: it is not run).
    assert all(before[i].lstrip().startswith(("assert", "values")) for i in changed)
    assert "    _ = (count_up(9) == 9)" in after
    assert '    """Counts."""' in after  # the docstring is not an input
    compile(variant, "v", "exec")


def test_a_file_with_nothing_to_perturb_has_no_variant():
    with pytest.raises(NoVariant, match="no literal input to perturb"):
        perturb("def test_a():\n    assert True\n", "1")


def test_a_variant_is_harvested_from_its_own_copy_with_another_answer(harness):
    directory = harness.instance_dir(dict(PROG, **{"test_prog.py": SOURCE}))
    spec = {"dir": str(directory), "tests": ["test_prog.py::test_count"], "kind": "M2_Loops",
            "target": {"file": "prog.py", "function": "count_up"}, "query": {"mode": "total", "loop_line": 3},
            "timeout_seconds": 60}
    results = harness.run([dict(spec, id="original"), dict(spec, id="variant", variant_epoch=1, variant_key="k")])
    original, variant = results["original"], results["variant"]
    assert original["status"] == "ok" and variant["status"] == "ok", variant.get("reason")
    assert original["answer"] == {"total_iterations": 6 + 4 + 5 + 6}
    assert variant["answer"] != original["answer"]
    # The prompt's test file is the variant's, read from the sandbox copy.
    shown = variant["context"]["tests"][0]["source"]
    assert shown != SOURCE and "_ = (" in shown
    assert original["context"]["tests"][0]["source"] == SOURCE


def test_each_attempt_perturbs_by_its_own_strategy():
    source = '''\
import pytest

from prog import count_up


def test_mixed():
    assert count_up(7) == 7
    assert [count_up(v) for v in (3, 4, 5)] == [3, 4, 5]
    assert len("select twelve rows") == 18
    with pytest.raises(ValueError):
        count_up("x")
'''
    numbers = perturb(source, "s", None, "numbers")
    collections = perturb(source, "s", None, "collections")
    text = perturb(source, "s", None, "text")
    assert "(3, 4)" in collections and "count_up(7)" in collections  # only a collection shortened
    assert numbers != source and '"select twelve rows"' in numbers  # numbers only
    assert '"select twelve rows"' not in text and "count_up(7)" in text  # one letter of a word
    # A raises block without `as` tolerates an input that no longer raises.
    for variant in (numbers, collections, text):
        assert '__import__("contextlib").suppress(ValueError)' in variant
        compile(variant, "v", "exec")
