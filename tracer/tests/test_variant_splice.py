"""A search's candidate runs only the tests its edit can change (variant.touched); the others' part of its
answer is the unchanged copy's (splice.spliced), and what it answers is what a fresh harvest answers."""

import ast
import subprocess
import sys
import time

from tracegate_tracer.runner import pytest_run
from tracegate_tracer.variants.edits import Candidate
from tracegate_tracer.variants.splice import spliced
from tracegate_tracer.variants.variant import prepare_scout, prepare_search, touched

from conftest import shared_core

TESTS = '''\
import pytest

from prog import count_up

LIMIT = 3


def test_count():
    assert count_up(6) == 6


@pytest.mark.parametrize("n", [1, 2])
def test_param(n):
    assert count_up(n + 1) == n + 1


class TestGroup:
    size = 2

    def test_member(self):
        assert count_up(4) == 4

    def test_other(self):
        assert count_up(LIMIT) == 3


def test_last():
    assert count_up(2) == 2
'''
LINE = {text.strip(): i + 1 for i, text in enumerate(TESTS.splitlines())}
TREE = ast.parse(TESTS)
IDS = ["t.py::test_count", "t.py::test_param[1]", "t.py::test_param[2]", "t.py::TestGroup::test_member",
       "t.py::TestGroup::test_other", "t.py::test_last"]


def edit_at(*lines):
    return Candidate("t.py", tuple((line, 4, line, 8, "x") for line in lines), "edit")


def test_an_edit_in_a_test_body_touches_that_tests_entries_only():
    assert touched(IDS, TREE, edit_at(LINE["assert count_up(6) == 6"])) == {0}
    assert touched(IDS, TREE, edit_at(LINE["assert count_up(n + 1) == n + 1"])) == {1, 2}  # each parameter
    assert touched(IDS, TREE, edit_at(LINE["assert count_up(4) == 4"])) == {3}  # a method: by its class
    # Edits in two tests (one emptied, say): both.
    assert touched(IDS, TREE, edit_at(LINE["assert count_up(6) == 6"], LINE["assert count_up(2) == 2"])) == {0, 5}


def test_an_edit_that_may_reach_other_tests_touches_every_entry():
    for where in ("LIMIT = 3", "size = 2", '@pytest.mark.parametrize("n", [1, 2])', "def test_count():"):
        assert touched(IDS, TREE, edit_at(LINE[where])) is None, where  # module, class body, decorator, header
    # An entry that runs more than the edited test (its whole file, its whole class) cannot be split.
    assert touched(["t.py"], TREE, edit_at(LINE["assert count_up(6) == 6"])) is None
    assert touched(["t.py::TestGroup"], TREE, edit_at(LINE["assert count_up(4) == 4"])) is None
    # A class entry of another class, or entries of other files, do not hold the edit.
    assert touched(["t.py::test_count", "u.py::test_count"], TREE, edit_at(LINE["assert count_up(6) == 6"])) == {0}


def test_a_candidates_copy_runs_only_its_touched_tests(tmp_path):
    instance = tmp_path / "inst"
    instance.mkdir()
    (instance / "t.py").write_text(TESTS)
    (instance / "u.py").write_text("from prog import count_up\n\n\ndef test_u():\n    assert count_up(7) == 7\n")
    tests = [*IDS, "u.py::test_u"]
    run_dir = str(tmp_path / "run")
    sources = prepare_scout(str(instance), tests, run_dir)
    search = prepare_search(sources, tests, 1, run_dir, [])
    assert search.tests == tuple(tests) and len(search.touched) == len(search.pool)
    split = [k for k, t in enumerate(search.touched) if t is not None]
    assert split, [c.what for c in search.pool]
    for k in split:
        ids = search.candidates[k]
        assert ids is not None and len(ids) == len(search.touched[k]) < len(tests)
        assert all(i.startswith(f"{search.pool[k].file[:-3]}__tgv{k}.py::") for i in ids), ids
    # The unchanged copy runs every test.
    assert len(search.unchanged) == len(tests)


def part(invocations, events, counts=None):
    return {"format": 1, "target": {}, "invocations": invocations, "events": events, "executed": [],
            "call_counts": {"prog.f": 0}, "call_counts_by_test": counts or {}, "_index": {"stale": []}}


def test_a_spliced_trace_is_the_unchanged_copys_with_the_touched_tests_replaced_in_order():
    tests = ("t.py::a", "t.py::b", "t.py::c")
    unchanged = part(
        [{"inv": 1, "test": "t.py::a"}, {"inv": 2, "test": "t.py::b"}, {"inv": 3, "test": "t.py::b"},
         {"inv": 4, "test": "t.py::c"}],
        [["call", [[1, 1]], "f", "x", "a", 1], ["line", 1, 5, None], ["call", [[2, 1]], "f", "x", "b", 1],
         ["call", [[3, 1], [2, 2]], "f", "x", "b", 2], ["line", 3, 6, None], ["line", 2, 7, None],
         ["call", [[4, 1]], "f", "x", "c", 1], ["return", 4, 8, 1, None]],
        {"t.py::a": {"prog.f": 1}, "t.py::b": {"prog.f": 2}, "t.py::c": {"prog.f": 1}})
    own = part([{"inv": 1, "test": "t.py::b"}],
               [["call", [[1, 1]], "f", "x", "b", 9], ["line", 1, 99, None]], {"t.py::b": {"prog.f": 1}})
    trace = spliced(unchanged, own, tests, frozenset({1}))
    assert [(i["inv"], i["test"]) for i in trace["invocations"]] == [(1, "t.py::a"), (2, "t.py::b"), (3, "t.py::c")]
    assert trace["events"] == [["call", [[1, 1]], "f", "x", "a", 1], ["line", 1, 5, None],
                               ["call", [[2, 1]], "f", "x", "b", 9], ["line", 2, 99, None],
                               ["call", [[3, 1]], "f", "x", "c", 1], ["return", 3, 8, 1, None]]
    assert trace["call_counts"] == {"prog.f": 3} and "_index" not in trace and "call_counts_by_test" not in trace
    # A candidate whose touched test no longer reaches the target: the others' invocations only.
    assert [i["test"] for i in spliced(unchanged, None, tests, frozenset({1}))["invocations"]] == [
        "t.py::a", "t.py::c"]
    # Parametrised ids belong to the entry naming their function.
    assert [i["test"] for i in spliced(
        part([{"inv": 1, "test": "t.py::a"}], []), part([{"inv": 1, "test": "t.py::b[2]"}], []),
        ("t.py::a", "t.py::b"), frozenset({1}))["invocations"]] == ["t.py::a", "t.py::b[2]"]


COUNT_UP = """
    def count_up(n):
        total = 0
        while total < n:
            total += 1
        return total
"""


def count_up_spec(harness, source, prog=COUNT_UP):
    """An M2 total over count_up's loop, run by test_first and test_second of `source`."""
    directory = harness.instance_dir({"prog.py": prog, "test_prog.py": source})
    return {"dir": str(directory), "tests": ["test_prog.py::test_first", "test_prog.py::test_second"],
            "kind": "M2_Loops", "target": {"file": "prog.py", "function": "count_up"},
            "query": {"mode": "total", "loop_line": 3}, "timeout_seconds": 60}


def assert_fresh_harvests_agree(harness, spec, candidates):
    """Each candidate harvested alone, in a fresh process, answers what the search answered for it."""
    fresh = harness.run([dict(spec, id=f"v{c['index']}", variant_epoch=1, variant_candidate=c["index"],
                              variant_edit={"file": c["file"], "edits": c["edits"]}) for c in candidates])
    for c in candidates:
        assert fresh[f"v{c['index']}"]["answer"] == c["answer"], c["what"]


def test_two_tests_search_answers_agree_with_each_candidates_fresh_harvest(harness):
    source = ("from prog import count_up\n\n\ndef test_first():\n    assert count_up(3) == 3\n\n\n"
              "def test_second():\n    assert count_up(5) == 5\n    assert count_up(2) == 2\n")
    spec = count_up_spec(harness, source)
    found = harness.run([dict(spec, id="s", variant_epoch=1, variant_search=True)])["s"]
    assert found["status"] == "ok" and found["answer"]["candidates"], found
    candidates = found["answer"]["candidates"]
    # The spliced answer is what the whole edited file answers when run alone.
    assert_fresh_harvests_agree(harness, spec, candidates)
    # Edits of either test are among them (the other test's share of the total comes from the unchanged copy).
    assert {c["edits"][0][0] for c in candidates} & {5} and {c["edits"][0][0] for c in candidates} & {9, 10}


def _limited_run(tmp_path, candidate: str, pin=None, allowance=20) -> tuple[subprocess.CompletedProcess, float]:
    """A search-like pytest run: a fast reference test, then `candidate`'s test body as test_b.py::test_it, each
    test allowed `allowance` seconds on the clock."""
    (tmp_path / "test_a__ref.py").write_text("def test_fast():\n    assert True\n")
    (tmp_path / "test_b.py").write_text(f"import time\n\n\ndef test_it():\n    {candidate}\n")
    root = str(pytest_run.__file__).rsplit("/tracegate_tracer/", 1)[0]
    env = pytest_run.environment(root, pytest_run.PLUGIN, TRACEGATE_TEST_SECONDS=str(allowance),
                                 TRACEGATE_TEST_REFERENCE="__ref", TRACEGATE_TEST_SLOWEST="0")
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider",
                           "test_a__ref.py", "test_b.py"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60, preexec_fn=pin)
    return done, time.monotonic() - started


STOPPED = "FAILED test_b.py::test_it - tracegate_pytest_plugin.TestTimeLimit"
SPIN = "end = time.process_time() + {cpu}\n    while time.process_time() < end: pass"


def test_a_candidate_test_is_stopped_at_a_multiple_of_the_slowest_reference_test_in_cpu_time(tmp_path):
    # The floor (2 s of CPU), not the 20 s allowance: the limit the test was stopped at says so.
    done, seconds = _limited_run(tmp_path, SPIN.format(cpu=30))
    assert STOPPED in done.stdout and "ran past 2s of CPU" in done.stdout, done.stdout[-2000:]
    assert seconds < 20, seconds


def test_a_candidate_that_waits_is_stopped_on_the_clock_at_the_allowance(tmp_path):
    done, seconds = _limited_run(tmp_path, "time.sleep(30)", allowance=6)
    assert STOPPED in done.stdout and "ran past 6s" in done.stdout, done.stdout[-2000:]
    assert seconds < 20, seconds


def test_load_alone_does_not_stop_a_candidate(tmp_path):
    # 1.2 s of CPU on a core shared with two spinning processes: ~3.6 s on the clock (more when the suite's other
    # lanes share that core too), past the 2 s floor that the limit once was on the clock (then the candidate
    # was stopped here and kept on an idle machine). The clock limit is the allowance, 20 s.
    with shared_core(2) as pin:
        done, seconds = _limited_run(tmp_path, SPIN.format(cpu=1.2), pin)
    assert done.returncode == 0, done.stdout[-2000:]
    assert seconds > 2.5, seconds  # the load did stretch it past the old limit


def test_what_a_test_module_does_when_imported_belongs_to_its_copy(harness):
    # The target runs while the test module is imported (at collection, before any test): the original's
    # run counts those calls; each copy of the search must count its own import's, so the unchanged copy
    # answers what the original does (its answer is the original's second run) and a candidate what its
    # fresh harvest does.
    # WARM: while the package is imported, once, by whichever copy imports it first.
    prog = COUNT_UP + "\n    WARM = count_up(1)\n"
    source = ("from prog import count_up\n\nBASE = count_up(2)\n\n\n"
              "def test_first():\n    assert count_up(3) == 3\n\n\n"
              "def test_second():\n    assert count_up(5) == 5\n")
    spec = count_up_spec(harness, source, prog)
    results = harness.run([dict(spec, id="o"), dict(spec, id="s", variant_epoch=1, variant_search=True)])
    original, found = results["o"], results["s"]
    assert original["answer"] == {"total_iterations": 1 + 2 + 3 + 5}
    assert found["status"] == "ok" and found["answer"]["unchanged"] == original["answer"], found["answer"]
    candidates = found["answer"]["candidates"]
    assert any(c["edits"][0][0] == 3 for c in candidates)  # the import's own input moves the total too
    assert all(c["answer"]["total_iterations"] != 1 + 2 + 3 + 5 for c in candidates)
    assert_fresh_harvests_agree(harness, spec, candidates)


def test_the_search_puts_candidates_at_least_as_complex_as_the_original_first(harness):
    # One call of count_up(5): an edit to a smaller number makes the loop turn fewer times (fewer steps, an
    # answer no larger: an easier item); a larger one, or the call repeated, a harder one. The harder come
    # first, whatever the pool's order, and a fresh harvest agrees with the search on both ends.
    source = ("from prog import count_up\n\n\ndef test_first():\n    assert count_up(5) >= 0\n\n\n"
              "def test_second():\n    pass\n")
    spec = count_up_spec(harness, source)
    found = harness.run([dict(spec, id="s", variant_epoch=1, variant_search=True)])["s"]
    assert found["status"] == "ok", found.get("reason")
    candidates = found["answer"]["candidates"]
    easier = [c["answer"]["total_iterations"] < 5 and "repeated" not in c["what"] for c in candidates]
    assert any(easier) and not all(easier), [c["what"] for c in candidates]
    assert easier == sorted(easier), [c["what"] for c in candidates]  # every easier one after the others

    def fresh(c):
        return harness.run([dict(spec, id="v", variant_epoch=1, variant_candidate=c["index"],
                                 variant_edit={"file": c["file"], "edits": c["edits"]})])["v"]["complexity"]

    original = harness.run([dict(spec, id="o")])["o"]["complexity"]
    first, last = fresh(candidates[0]), fresh(candidates[-1])
    assert first["semantic"] >= original["semantic"] and first["answer"] >= original["answer"], (first, original)
    assert last["semantic"] < original["semantic"], (last, original)
    # Among the harder, the one whose least-risen component rose most comes first.
    gains = [min(c[k] - original[k] for k in ("semantic", "answer"))
             for c in [first] + [fresh(c) for c, e in zip(candidates[1:], easier[1:], strict=True) if not e]]
    assert len(gains) > 1 and gains[0] == max(gains), gains


def _with_plugin(code: str) -> subprocess.CompletedProcess:
    """`code` run in a fresh interpreter with tracegate's pytest plugin imported as `plugin` (and `signal`, `sys`),
    the running test's limits set to 30 s on the clock and 0.3 s of CPU."""
    root = str(pytest_run.__file__).rsplit("/tracegate_tracer/", 1)[0]
    script = (f"import signal, sys\nsys.path.insert(0, {root + '/boot'!r})\n"
              "import tracegate_pytest_plugin as plugin\nplugin._current[:] = [30.0, 0.3]\n" + code)
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)


def test_one_limit_stops_both_timers():
    # A loaded machine can bring the clock limit and the CPU limit close: once one ends the test, the other
    # must not fire while pytest reports the failure (it ended a search run as "pytest internal error").
    done = _with_plugin("plugin._arm(True)\n"
                        "try:\n    while True:\n        pass\n"
                        "except plugin.TestTimeLimit as stopped:\n"
                        "    print(stopped, signal.getitimer(signal.ITIMER_REAL),"
                        " signal.getitimer(signal.ITIMER_PROF))\n")
    assert done.stdout.strip() == "the test ran past 0.3s of CPU (0.0, 0.0) (0.0, 0.0)", done.stdout + done.stderr


def test_a_limit_that_fires_in_pytests_own_code_waits_for_the_tests_code():
    # Raised while pytest itself runs (between a test's phases, reporting), the limit would end the whole run
    # as an internal error: the timer is set again to fire as soon as other code runs.
    done = _with_plugin("signal.signal(signal.SIGPROF, signal.SIG_IGN)  # the deferred timer may fire: harmless\n"
                        "scope = {'sys': sys}\n"
                        "exec(compile('def here():\\n    return sys._getframe()\\n', '/x/_pytest/runner.py', 'exec'),"
                        " scope)\n"
                        "plugin._alarm(signal.SIGPROF, scope['here']())\n"
                        "print('deferred', signal.getitimer(signal.ITIMER_PROF)[0] > 0)\n"
                        "signal.setitimer(signal.ITIMER_PROF, 0)\n"
                        "try:\n    plugin._alarm(signal.SIGPROF, sys._getframe())\n"
                        "except plugin.TestTimeLimit as stopped:\n    print(stopped)\n")
    assert done.stdout.splitlines() == ["deferred True", "the test ran past 0.3s of CPU"], done.stdout + done.stderr


def test_a_bytes_literal_whose_case_leaves_latin_1_gets_no_such_edit():
    # b"\xff".swapcase() as text is "\u0178": the search crashed on it (natsort's decoding tests).
    from tracegate_tracer.variants.edits import text_alternatives

    moved = text_alternatives(b"\xffab1 x")
    assert moved and all(isinstance(m, bytes) for m in moved)
    assert b"\xffab2 x" in moved
    # A digit int() cannot read ("①".isdigit() is true) is not edited as a number.
    assert "a①3" in text_alternatives("a①2")


def test_the_pool_past_the_first_chunk_is_chunked_by_the_events_a_copy_records():
    """A long test's copies record many events each: later chunks hold fewer of them, so one chunk's traces fit the
    container's memory (a 48-copy chunk of dateutil's long test killed the driver and every search with it)."""
    from tracegate_tracer.variants import search

    rest = list(range(12, 112))  # the pool past the first chunk; below 60 the aimed edits, which run first
    short = search.rechunk(rest, 60, [{"o": {"events": [0] * 100}}])
    assert [len(c) for c in short] == [48, 48, 4]
    heavy = search.rechunk(rest, 60, [{"o": {"events": [0] * 40_000}}, {"o": {"events": [0] * 35_000}}])
    # 75,000 events a copy count as 2^17: 11 copies a chunk, the same for 70,000 or 80,000.
    assert search.room(70_000, 48) == search.room(80_000, 48) == 11
    assert [len(c) for c in heavy] == [11, 11, 11, 11, 4, 11, 11, 11, 11, 8]
    huge = search.rechunk(rest, 60, [{"o": {"events": [0] * 2_000_000}}])
    assert {len(c) for c in huge} == {search.MIN_CHUNK}
    for chunks in (short, heavy, huge):
        assert [k for c in chunks for k in c] == rest and all(max(c) < 60 or min(c) >= 60 for c in chunks)
