"""Fresh variants (variant.py, search.py): a pool of one-literal edits, searched in one run, harvested alone."""

import pytest

from tracegate_tracer import variant
from tracegate_tracer.variant import POOL, NoVariant, pool, render

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

        def parity(n):
            if n % 2:
                return "odd"
            return "even"
    """,
}


def edited_lines(candidate, source=SOURCE):
    before, after = source.splitlines(), render(source, candidate.edits).splitlines()
    return [i + 1 for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]


def test_the_pool_is_one_literal_input_per_candidate_of_the_tests_run_in_an_epoch_order():
    candidates = pool({"test_prog.py": SOURCE}, {"test_prog.py": {"test_count"}}, 1)
    assert candidates == pool({"test_prog.py": SOURCE}, {"test_prog.py": {"test_count"}}, 1)  # deterministic
    assert candidates != pool({"test_prog.py": SOURCE}, {"test_prog.py": {"test_count"}}, 2)  # per epoch
    assert 0 < len(candidates) <= POOL
    # Inputs only: count_up(6) and the list (and its elements), never the expected side of an assert, the
    # assert's message, the docstring, or test_other (not run).
    lines = {e[0] for c in candidates for e in c.edits if "call" not in c.what}
    assert lines == {6, 7}, [c.what for c in candidates]
    # and its calls: a call statement left out (the asserts on lines 6 and 8 call), adjacent ones swapped.
    calls = {c.what.split(": ", 1)[0].split(" ", 1)[1] for c in candidates if "call" in c.what and ";" not in c.what}
    assert calls == {"line 6", "line 8"}, calls
    assert all(e[1] < 25 for c in candidates for e in c.edits if e[0] == 6)  # `count_up(6)`, not `== 6`
    # Round-robin: every literal's first alternative comes before any literal's second.
    singles = [c for c in candidates if len(c.edits) == 1]
    literals = {c.edits[0][:4] for c in singles}
    assert len({c.edits[0][:4] for c in singles[: len(literals)]}) == len(literals)
    assert any(len(c.edits) == 2 for c in candidates)  # and edits of two literals at once
    for c in candidates:  # one edit of one line, the rest as written (asserts as expressions)
        rendered = render(SOURCE, c.edits)
        assert len(rendered.splitlines()) == len(SOURCE.splitlines())
        assert "    _ = (count_up(9) == 9)" in rendered
        assert '    """Counts."""' in rendered
        compile(rendered, "v", "exec")


def test_alternatives_cross_boundaries_and_change_sizes(monkeypatch):
    monkeypatch.setattr(variant, "POOL", 1000)  # every alternative, not the epoch's first 24
    source = 'def test_a():\n    f(3, "ab", [1, 2], -2.5, b"x")\n'
    texts = {e[4] for c in pool({"t.py": source}, {"t.py": None}, 1) for e in c.edits}
    assert {"4", "2", "6", "0", "(-3)", "30"} <= texts
    assert {"'a'", "'abb'", "''", "'abab'", "'Ab'"} <= texts
    assert {"[1]", "[2]", "[1, 2, 2]", "[2, 1]", "[]"} <= texts
    assert {"(-5.0)", "(-1.25)", "2.5"} <= texts
    assert {"b''", "b'xx'", "b'X'"} <= texts


def test_a_file_with_no_input_has_no_variant():
    with pytest.raises(NoVariant, match="no literal input or call"):
        pool({"t.py": "def test_a():\n    x = f()\n    assert x == 3\n"}, {"t.py": None}, 1)


def test_raises_blocks_tolerate_an_input_that_no_longer_raises():
    source = "import pytest\n\ndef test_a():\n    with pytest.raises(ValueError):\n        f(3)\n"
    assert '__import__("contextlib").suppress(ValueError)' in render(source)


def search_spec(directory, **extra):
    spec = {"dir": str(directory), "tests": ["test_prog.py::test_count"], "kind": "M2_Loops",
            "target": {"file": "prog.py", "function": "count_up"}, "query": {"mode": "total", "loop_line": 3},
            "timeout_seconds": 60}
    return dict(spec, **extra)


def test_the_search_answers_which_candidates_change_the_answer_and_the_chosen_one_is_harvested_alone(harness):
    directory = harness.instance_dir(dict(PROG, **{"test_prog.py": SOURCE}))
    results = harness.run([search_spec(directory, id="original"),
                           search_spec(directory, id="search", variant_epoch=1, variant_search=True)])
    original, search = results["original"], results["search"]
    assert original["status"] == "ok" and search["status"] == "ok", search.get("reason")
    assert original["answer"] == {"total_iterations": 6 + 4 + 5 + 6}
    found = search["answer"]
    candidates = pool({"test_prog.py": SOURCE}, {"test_prog.py": {"test_count"}}, 1)
    assert found["pool"] == len(candidates)
    # Every candidate is accounted for; here every edit reaches the loop, and all but the ones that leave the
    # total as it was (e.g. [4, 5, 6] reversed) change it.
    assert len(found["candidates"]) + sum(found[k] for k in ("same", "failed", "unreached", "unanswered",
                                                              "unparsed")) == len(candidates)
    assert len(found["candidates"]) >= len(candidates) // 2
    assert found["candidates"] == sorted(found["candidates"])
    same = [k for k in range(len(candidates)) if k not in found["candidates"]]
    assert all("[6, 5, 4]" in candidates[k].what or "→ 0" in candidates[k].what or "→ (-" in candidates[k].what
               or found["failed"] for k in same), [candidates[k].what for k in same]
    # The first candidate, harvested alone in a fresh process: another answer than the original's, and the
    # prompt's test file is the variant's.
    k = found["candidates"][0]
    alone = harness.run([search_spec(directory, id="variant", variant_epoch=1, variant_candidate=k)])["variant"]
    assert alone["status"] == "ok", alone.get("reason")
    assert alone["answer"] != original["answer"]
    shown = alone["context"]["tests"][0]["source"]
    assert shown == render(SOURCE, candidates[k].edits)


def test_a_candidate_that_fails_or_hangs_costs_only_itself(harness):
    prog = {"prog.py": """
        def spin(n):
            steps = 0
            while n != 0:
                n -= 2
                steps += 1
            return steps
    """}
    source = "from prog import spin\n\n\ndef test_spin():\n    assert spin(4) == 2\n    assert 10 // len('ab')\n"
    directory = harness.instance_dir(dict(prog, **{"test_prog.py": source}))
    spec = {"dir": str(directory), "tests": ["test_prog.py::test_spin"], "kind": "S2_Loops",
            "target": {"file": "prog.py", "function": "spin"}, "query": {"mode": "count", "invocation": 1,
                                                                      "loop_line": 3},
            "timeout_seconds": 4}
    found = harness.run([dict(spec, id="s", variant_epoch=1, variant_search=True)])["s"]
    assert found["status"] == "ok", found.get("reason")
    candidates = pool({"test_prog.py": source}, {"test_prog.py": {"test_spin"}}, 1)
    described = {k: candidates[k].what for k in found["answer"]["candidates"]}
    # spin(3), spin(5), spin(-4) never end: stopped by the per-test alarm, counted as failed; len('') makes
    # 10 // 0 fail; spin(8), spin(0), spin(40), spin(4000) change the loop's count.
    assert found["answer"]["failed"] >= 4, found
    singles = sorted(d.split(": ")[1] for d in described.values() if "line 5" in d and ";" not in d)
    assert singles == ["4 → 0", "4 → 40", "4 → 4000", "4 → 8"]


def test_a_candidate_outside_the_pool_is_no_variant(harness):
    directory = harness.instance_dir(dict(PROG, **{"test_prog.py": SOURCE}))
    result = harness.run([search_spec(directory, id="v", variant_epoch=1, variant_candidate=999)])["v"]
    assert result["status"] == "invalid" and "outside the epoch's pool" in result["reason"]


def test_a_search_that_cannot_run_finds_no_candidate_and_says_why(harness):
    source = "from prog import count_up\n\n\ndef test_count():\n    n = count_up\n    assert n\n"
    directory = harness.instance_dir(dict(PROG, **{"test_prog.py": source}))
    spec = dict(search_spec(directory, id="s", variant_epoch=1, variant_search=True))
    found = harness.run([spec])["s"]
    # An answer, not a failure: the host caches it for the epoch instead of searching on every run.
    assert found["status"] == "ok"
    assert found["answer"]["candidates"] == []
    assert "no literal input or call" in found["answer"]["search_failed"]
