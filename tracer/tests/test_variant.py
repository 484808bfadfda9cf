"""Fresh variants (variant.py, search.py): a pool of one-literal edits, searched in one run, harvested alone."""

import pytest

from tracegate_tracer.variants import pool as pools
from tracegate_tracer.variants import search as search_module
from tracegate_tracer.variants.pool import POOL, NoVariant, pool
from tracegate_tracer.variants.variant import render

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
    monkeypatch.setattr(pools, "POOL", 1000)  # every alternative, not the epoch's first 24
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
    # The call sites came from the original's run in the same plan; a search alone scouts its own, the same.
    alone = harness.run([search_spec(directory, id="search", variant_epoch=1, variant_search=True)])["search"]
    assert (search["stats"]["sites_from"], alone["stats"]["sites_from"]) == ("original", "scout")
    assert alone["answer"] == search["answer"]
    # A search's result is a result line like any other: the host reads it through the protocol's schema.
    from test_protocol import RESULT_SCHEMA, schema_errors
    assert schema_errors(dict(search, tracegate_result=1), RESULT_SCHEMA) == []
    assert original["answer"] == {"total_iterations": 6 + 4 + 5 + 6}
    found = search["answer"]
    # A scout run saw count_up called from lines 6 and 8: the pool opens with edits aimed at them.
    candidates = pool({"test_prog.py": SOURCE}, {"test_prog.py": {"test_count"}}, 1,
                      [[("test_prog.py", 6), ("test_prog.py", 8)]])
    assert found["pool"] == len(candidates) and found["targeted"] == sum(c.targeted for c in candidates) > 0
    # Every candidate is accounted for; most change the total.
    assert len(found["candidates"]) + sum(found[k] for k in ("same", "failed", "unreached", "unanswered",
                                                              "unparsed", "unrun")) == len(candidates)
    # The pool runs in chunks and stops at the first with enough candidates: the rest never runs.
    assert len(found["candidates"]) >= 2 and found["unrun"] == max(0, len(candidates) - search_module.FIRST_CHUNK)
    indexes = [c["index"] for c in found["candidates"]]
    assert len(set(indexes)) == len(indexes)
    for c in found["candidates"]:  # each answered with its edit, as the pool has it
        assert (c["file"], tuple(tuple(e) for e in c["edits"]), c["what"]) == (
            candidates[c["index"]].file, candidates[c["index"]].edits, candidates[c["index"]].what)
    assert candidates[indexes[0]].targeted
    # The first candidate, harvested alone in a fresh process from its edit: another answer than the
    # original's, and the prompt's test file is the variant's.
    first = found["candidates"][0]
    alone = harness.run([search_spec(directory, id="variant", variant_epoch=1, variant_candidate=first["index"],
                                     variant_edit={"file": first["file"], "edits": first["edits"]})])["variant"]
    assert alone["status"] == "ok", alone.get("reason")
    assert alone["answer"] != original["answer"]
    # The search's own answer for it is the second harvest the host checks this one against.
    assert first["answer"] == alone["answer"]
    shown = alone["context"]["tests"][0]["source"]
    assert shown == render(SOURCE, candidates[first["index"]].edits)


def test_a_whole_run_call_count_is_answered_per_copy_so_the_search_sees_which_inputs_change_it(harness):
    # M6 call_counts counts over the whole run: in a search run of many copies each copy counts its own tests'
    # starts, else every candidate would read the run's total, the same as the unchanged copy's.
    directory = harness.instance_dir(dict(PROG, **{"test_prog.py": SOURCE}))
    spec = dict(search_spec(directory), kind="M6_InterProceduralCFG",
                query={"mode": "call_counts", "functions": ["prog.count_up", "prog.parity"]})
    results = harness.run([dict(spec, id="original"), dict(spec, id="search", variant_epoch=1, variant_search=True)])
    original, search = results["original"], results["search"]
    assert original["status"] == "ok" and search["status"] == "ok", search.get("reason")
    assert original["answer"] == {"function_call_counts": [{"func": "prog.count_up", "count": 4},
                                                           {"func": "prog.parity", "count": 0}]}
    found = search["answer"]["candidates"]
    assert found, search["answer"]  # a call left out, a shorter list: another count
    chosen = dict(spec, id="variant", variant_epoch=1, variant_candidate=found[0]["index"],
                  variant_edit={"file": found[0]["file"], "edits": found[0]["edits"]})
    variant_result = harness.run([chosen])["variant"]
    assert variant_result["status"] == "ok", variant_result.get("reason")
    assert variant_result["answer"] != original["answer"]


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
            "timeout_seconds": 10}  # the search may take 40 s; each hanging candidate costs 2.5 s
    found = harness.run([dict(spec, id="s", variant_epoch=1, variant_search=True)])["s"]
    assert found["status"] == "ok", found.get("reason")
    answer = found["answer"]
    assert "search_failed" not in answer, answer["search_failed"]
    described = [c["what"] for c in answer["candidates"]]
    # spin(3), spin(5), spin(1), spin(-4) never end: stopped by the per-test alarm, counted as failed, never
    # answered; spin(8), spin(0), spin(2), spin(40), spin(4000) change the loop's count, alone or called first.
    assert answer["failed"] >= 1, answer
    hangs = {"4 → 3", "4 → 5", "4 → 1", "4 → (-4)"}
    assert described and not any(d.rsplit(": ", 1)[1].replace("repeated first with ", "") in hangs
                                 for d in described), described
    assert len(described) + sum(answer[k] for k in ("same", "failed", "unreached", "unanswered", "unparsed",
                                                    "unrun")) == answer["pool"]


def test_a_search_process_has_its_memory_capped_so_an_exploding_test_fails_alone(tmp_path):
    """The search's pytest gets TRACEGATE_MEMORY_BYTES: the plugin caps the address space there, so a candidate
    whose input explodes (2 GiB here) gets a MemoryError in its own test instead of the search being killed."""
    import subprocess
    import sys

    from tracegate_tracer.runner import pytest_run
    (tmp_path / "test_mem.py").write_text(
        "def test_big():\n    assert len(bytearray(2 * 1024 ** 3))\n\n\n"
        "def test_small():\n    assert len(bytearray(1024))\n")
    root = str(pytest_run.__file__).rsplit("/tracegate_tracer/", 1)[0]
    env = pytest_run.environment(root, pytest_run.PLUGIN, TRACEGATE_MEMORY_BYTES=str(search_module.MEMORY_BYTES))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider", "test_mem.py"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert "FAILED test_mem.py::test_big - MemoryError" in done.stdout, done.stdout[-2000:]
    assert "1 failed, 1 passed" in done.stdout


def test_a_variant_is_harvested_only_from_a_well_formed_edit_of_a_test_file(harness):
    directory = harness.instance_dir(dict(PROG, **{"test_prog.py": SOURCE}))
    bad = {
        "no edit": None,
        "another file": {"file": "prog.py", "edits": [[2, 4, 2, 5, "x"]]},
        "outside": {"file": "test_prog.py", "edits": [[99, 0, 99, 1, "x"]]},
        "overlap": {"file": "test_prog.py", "edits": [[6, 4, 6, 10, "x"], [6, 8, 6, 12, "y"]]},
        "not a span": {"file": "test_prog.py", "edits": [[6, 4, "x"]]},
        "does not parse": {"file": "test_prog.py", "edits": [[6, 4, 6, 10, "def ("]]},
    }
    specs = [search_spec(directory, id=name, variant_epoch=1, variant_candidate=0,
                         **({"variant_edit": edit} if edit is not None else {})) for name, edit in bad.items()]
    results = harness.run(specs)
    for name in bad:
        assert results[name]["status"] == "invalid" and results[name]["reason"].startswith("no variant"), (
            name, results[name])
    assert "needs variant_edit" in results["no edit"]["reason"]
    assert "outside the test file" in results["outside"]["reason"]
    assert "overlap" in results["overlap"]["reason"]
    assert "does not parse" in results["does not parse"]["reason"]


def test_a_search_that_cannot_run_finds_no_candidate_and_says_why(harness):
    source = "from prog import count_up\n\n\ndef test_count():\n    n = count_up\n    assert n\n"
    directory = harness.instance_dir(dict(PROG, **{"test_prog.py": source}))
    spec = dict(search_spec(directory, id="s", variant_epoch=1, variant_search=True))
    found = harness.run([spec])["s"]
    # An answer, not a failure: the host caches it for the epoch instead of searching on every run.
    assert found["status"] == "ok"
    assert found["answer"]["candidates"] == []
    assert "no literal input or call" in found["answer"]["search_failed"]


AIMED = '''\
import prog


class Config:
    size = prog.count_up(3)


def test_one():
    xs = [1, 2]
    unrelated = "text"
    assert prog.count_up(len(xs), step=1) == 2
    assert prog.count_up(7) == 7


def test_two():
    assert prog.count_up(5) == 5
    assert prog.count_up(6) == 6
'''


def test_a_scout_run_aims_the_pool_at_what_the_targets_calls_depend_on():
    sites = [[("t.py", 11), ("t.py", 12), ("t.py", 16), ("t.py", 5)]]
    candidates = pool({"t.py": AIMED}, {"t.py": None}, 3, sites)
    aimed = [c for c in candidates if c.targeted]
    assert candidates[: len(aimed)] == aimed  # the aimed edits lead the pool
    whats = [c.what for c in aimed]
    # The literals the calls depend on, through `xs` too, but not the unrelated string.
    assert any("line 9: [1, 2] →" in w for w in whats) and any("line 12: 7 →" in w for w in whats)
    assert any("line 5: 3 →" in w for w in whats)  # a call from a class body (module level)
    assert not any("'text'" in w or '"text"' in w for w in whats)
    # A call repeated first with another input; a keyword left out; calls left out; the other test emptied.
    assert any(w.startswith("t.py line 12: repeated first with 7 →") for w in whats), whats
    assert any("step= left out" in w for w in whats)
    assert {"t.py line 11: call left out", "t.py line 12: call left out"} <= set(whats)
    assert "t.py: only line 11 of the calls kept" in whats and "t.py: test_two emptied" in whats
    for c in aimed:
        compile(render(AIMED, c.edits), "v", "exec")
    repeated = next(c for c in aimed if "repeated first with 7 → " in c.what)
    value = repeated.what.rsplit("→ ", 1)[1]
    assert (f"    with __import__('contextlib').suppress(Exception):\n        _ = prog.count_up({value}) == 7\n"
            "    _ = (prog.count_up(7) == 7)") in render(AIMED, repeated.edits)
    # and with a value of another type (a float, a string, None): the path to a type check or a raise.
    retyped = {c.what.rsplit("→ ", 1)[1] for c in aimed if "repeated first with 7 → " in c.what}
    assert retyped & {"7.5", "'7'", "None"}, retyped
    emptied = next(c for c in aimed if c.what == "t.py: test_two emptied")
    assert render(AIMED, emptied.edits).endswith("def test_two():\n    pass\n")  # both its calls
    # Without sites, the pool is the blind one; with them, the same epoch gives the same pool.
    assert not any(c.targeted for c in pool({"t.py": AIMED}, {"t.py": None}, 3))
    assert candidates == pool({"t.py": AIMED}, {"t.py": None}, 3, sites)


def test_a_call_from_a_decorator_of_a_test_is_never_edited():
    source = "import pytest\n\n\n@pytest.mark.parametrize('n', [1, 2])\ndef test_a(n):\n    assert n + 1\n"
    candidates = pool({"t.py": source}, {"t.py": None}, 1, [[("t.py", 4)]])
    assert not any(c.targeted for c in candidates)  # parametrize's values name the tests


def test_a_candidate_whose_answer_says_nothing_is_ranked_last():
    from tracegate_tracer.variants.search import empty
    assert empty({"caught": [], "escaping": None}) and empty({"total_iterations": 0}) and empty([{"a": ""}])
    assert not empty({"total_iterations": 3}) and not empty({"holds": False}) and not empty({"x": [0, 1]})


def test_a_candidate_whose_test_file_no_longer_imports_costs_only_itself(harness):
    prog = {"prog.py": PROG["prog.py"] + """
        def checked(n):
            if n > 5:
                raise ValueError("too big")
            return count_up(n)
    """}
    source = "import prog\n\nBASE = prog.checked(3)\n\n\ndef test_count():\n    assert prog.count_up(4) == 4\n"
    directory = harness.instance_dir(dict(prog, **{"test_prog.py": source}))
    spec = {"dir": str(directory), "tests": ["test_prog.py::test_count"], "kind": "M2_Loops",
            "target": {"file": "prog.py", "function": "count_up"}, "query": {"mode": "total", "loop_line": 3},
            "timeout_seconds": 30}
    found = harness.run([dict(spec, id="s", variant_epoch=1, variant_search=True)])["s"]
    assert found["status"] == "ok" and "search_failed" not in found["answer"], found
    # BASE = prog.checked(6), (30) or (3000) raise while the copy imports: those candidates fail, the others run.
    assert found["answer"]["failed"] >= 1 and found["answer"]["candidates"], found["answer"]


TRANSPLANT = '''\
import pytest

import prog


def test_asked():
    """Asked."""
    assert prog.parity(4) == "even"


def test_odd():
    with pytest.raises(TypeError):
        prog.parity("x")
    assert prog.parity(3) == "odd", """an odd
number"""


def test_counts():
    assert prog.count_up(2) == 2


def test_with_fixture(tmp_path):
    assert prog.parity(5) == "odd"


@pytest.mark.slow
def test_marked():
    assert prog.parity(7) == "odd"
'''


def test_another_test_of_the_file_runs_first_inside_the_asked_one_those_calling_what_it_calls_first(harness):
    candidates = pool({"t.py": TRANSPLANT}, {"t.py": {"test_asked"}}, 1, [[("t.py", 8)]])
    moved = [c for c in candidates if c.what.endswith("run first") and len(c.edits) == 1]
    # test_odd first (it calls what the site calls), then test_counts; never those with a fixture or a mark.
    assert [c.what for c in moved] == ["t.py: test_odd run first", "t.py: test_counts run first"]
    assert candidates[:2] == moved
    rendered = render(TRANSPLANT, moved[0].edits)
    assert rendered.split("\n\n\ndef test_odd():")[0].endswith(
        '    """Asked."""\n'
        "    def test_odd():\n"
        "        with __import__('contextlib').suppress(TypeError):\n"
        "            prog.parity('x')\n"
        "        _ = (prog.parity(3) == 'odd', 'an odd\\nnumber')\n"
        "    test_odd()\n"
        '    _ = (prog.parity(4) == "even")')
    # Harvested alone, invocation 1 is now test_odd's first call: another path through parity.
    directory = harness.instance_dir(dict(PROG, **{"test_prog.py": TRANSPLANT.replace("t.py", "test_prog.py")}))
    spec = {"dir": str(directory), "tests": ["test_prog.py::test_asked"], "kind": "S1_IntraProceduralCFG",
            "target": {"file": "prog.py", "function": "parity"}, "query": {"mode": "path", "invocation": 1},
            "timeout_seconds": 30}
    results = harness.run([dict(spec, id="original"),
                           dict(spec, id="variant", variant_epoch=1, variant_candidate=0,
                                variant_edit={"file": "test_prog.py", "edits": [list(e) for e in moved[0].edits]})])
    original, changed = results["original"], results["variant"]
    assert original["status"] == "ok" and changed["status"] == "ok", changed.get("reason")
    assert changed["answer"] != original["answer"]


def test_a_call_repeated_first_with_another_type_may_raise_without_failing_the_test(harness):
    source = 'import prog\n\n\ndef test_asked():\n    assert prog.parity(4) == "even"\n'
    candidates = pool({"test_prog.py": source}, {"test_prog.py": {"test_asked"}}, 1, [[("test_prog.py", 5)]])
    raising = next(c for c in candidates if c.what.endswith("repeated first with 4 → '4'"))
    directory = harness.instance_dir(dict(PROG, **{"test_prog.py": source}))
    spec = {"dir": str(directory), "tests": ["test_prog.py::test_asked"], "kind": "S1_IntraProceduralCFG",
            "target": {"file": "prog.py", "function": "parity"}, "query": {"mode": "path", "invocation": 1},
            "timeout_seconds": 30}
    results = harness.run([dict(spec, id="original"),
                           dict(spec, id="variant", variant_epoch=1, variant_candidate=0,
                                variant_edit={"file": "test_prog.py", "edits": [list(e) for e in raising.edits]})])
    original, changed = results["original"], results["variant"]
    assert changed["status"] == "ok", changed.get("reason")  # '4' % 2 raises TypeError: suppressed, test passes
    lines = [step["line"] for step in changed["answer"]["executed_path"]]
    assert lines == [8], changed["answer"]  # `if n % 2:` raised: the path ends there
    assert [step["line"] for step in original["answer"]["executed_path"]] == [8, 10]


def test_a_texts_parts_split_on_bars_and_aimed_edits_past_the_pool_follow_it():
    from tracegate_tracer.variants.edits import segments
    assert segments("{{ a }}|{{ b }}|{{ c }}") == ["{{ b }}|{{ c }}", "{{ a }}|{{ b }}", "{{ b }}|{{ a }}|{{ c }}"]
    source = ('from jinja2 import Environment\n\n\ndef test_lookup():\n'
              '    template = Environment().from_string("{{ u.name }}|{{ u.age }}|{{ c.real }}|{{ c.size }}")\n'
              '    assert template.render(u={"name": "Ann"}, c=7) == "Ann||7|"\n')
    sites = [[("t.py", 6)]]
    candidates = pool({"t.py": source}, {"t.py": None}, 1, sites)
    size = pools.pool_size(sites)
    # Every edit is aimed; the pool runs its first `size` and, only when they found nothing, the rest.
    assert size < len(candidates) <= size + pools.MORE_AIMED and all(c.targeted for c in candidates)
    last_part_left_out = "'{{ u.name }}|{{ u.age }}|{{ c.real }}'"
    assert any(e[4] == last_part_left_out for c in candidates for e in c.edits)
    assert candidates == pool({"t.py": source}, {"t.py": None}, 1, sites)  # deterministic
