"""World-model kinds (W1-W4): outcomes, peak memory, wall time and hot spots known by construction."""

import json
import os
import signal

import pytest
from test_questions import conforms

from tracegate_tracer.queries import RULES, rule_for
from tracegate_tracer.queries.world import BANDS
from tracegate_tracer.world.measure import WORLD_KINDS

MIB = 1024 * 1024

PACKAGE = {
    "heavy/__init__.py": "",
    "heavy/mod.py": '''
        import json
        import time


        def allocate():
            buf = bytearray(50 * 1024 * 1024)
            buf[0] = 1
            size = len(buf)
            del buf
            return size


        def slow():
            time.sleep(0.05)


        def fast():
            time.sleep(0.005)


        def child_alloc():
            return bytearray(4 * 1024 * 1024)


        def child_work(n):
            total = 0
            for i in range(n):
                total += i
            return total


        def parent():
            time.sleep(0.6)  # well above json.dumps below under the profiler, even on a busy machine
            text = json.dumps(["x" * 100] * 120000)
            block = child_alloc()
            return len(text) + len(block) + child_work(300)


        def is_adult(age):
            return age >= 18
        ''',
    "test_heavy.py": '''
        import os
        import signal

        import pytest

        from heavy import mod


        def test_allocate():
            assert mod.allocate() == 50 * 1024 * 1024


        def test_slow():
            mod.slow()


        def test_fast():
            mod.fast()


        def test_parent():
            assert mod.parent() > 0


        def test_adult():
            assert mod.is_adult(18)
            assert not mod.is_adult(17)


        def test_fails():
            value = mod.is_adult(3)
            assert value, "three is not adult"


        @pytest.fixture
        def broken():
            raise RuntimeError("fixture broke")


        def test_errors(broken):
            pass


        def test_segfault():
            os.kill(os.getpid(), signal.SIGSEGV)


        def test_oom_killed():
            os.kill(os.getpid(), signal.SIGKILL)  # what the kernel's OOM killer sends at the memory limit


        def test_forever():
            while True:
                pass


        @pytest.mark.skip(reason="not today")
        def test_skipped():
            pass
        def _forge(**fields):
            import json, sys
            plugin = sys.modules["tracegate_measure_plugin"]  # in the measured process: its file is ours
            phases = {"setup": "passed", "call": "passed", "teardown": "passed"}
            line = json.dumps(dict({"event": "end", "phases": phases, "wall_ns": 1000}, **fields)) + "\\n"
            os.write(plugin._OUT, line.encode())
        def test_forged_pass():
            _forge()  # the plugin's own end follows, after the failure
            assert mod.is_adult(3), "fails, but says it passed"
        def test_forged_peak():
            _forge(traced_peak=1e30, rss_peak=1e30)
            os._exit(0)  # the plugin never writes its own end
        def test_forged_nan():
            _forge(traced_peak=float("nan"), rss_peak=None)
            os._exit(0)
        ''',
}

TARGETS = {"allocate": "allocate", "slow": "slow", "fast": "fast", "parent": "parent", "adult": "is_adult",
           "fails": "is_adult", "errors": "is_adult", "segfault": "is_adult", "oom_killed": "is_adult",
           "forever": "is_adult", "skipped": "is_adult", "forged_pass": "is_adult", "forged_peak": "is_adult",
           "forged_nan": "is_adult"}


def spec(directory, ident, kind, test, function=None, **extra):
    return dict({"id": ident, "dir": str(directory), "tests": [f"test_heavy.py::test_{test}"], "kind": kind,
                 "target": {"file": "heavy/mod.py", "function": function or TARGETS[test]}, "query": {},
                 "timeout_seconds": 30}, **extra)


@pytest.fixture(scope="module")
def measured(tmp_path_factory):
    from conftest import Harness

    harness = Harness(tmp_path_factory.mktemp("world"))
    directory = harness.instance_dir(PACKAGE)
    specs = [
        spec(directory, "peak-50mb", "W2_PeakMemory", "allocate"),
        spec(directory, "wall-slow", "W3_WallTime", "slow"),
        spec(directory, "wall-fast", "W3_WallTime", "fast"),
        spec(directory, "profile-parent", "W4_Profile", "parent"),
        spec(directory, "profile-child", "W4_Profile", "parent", function="child_work"),
        spec(directory, "outcome-passes", "W1_Outcome", "adult"),
        spec(directory, "outcome-fails", "W1_Outcome", "fails", expect_failure=True),
        spec(directory, "outcome-fails-unexpected", "W1_Outcome", "fails"),
        spec(directory, "outcome-errors", "W1_Outcome", "errors", expect_failure=True),
        spec(directory, "outcome-segfault", "W1_Outcome", "segfault", expect_failure=True),
        spec(directory, "wall-segfault", "W3_WallTime", "segfault", expect_failure=True),
        spec(directory, "outcome-oom", "W1_Outcome", "oom_killed", expect_failure=True),
        spec(directory, "outcome-forever", "W1_Outcome", "forever", timeout_seconds=3),
        spec(directory, "outcome-skipped", "W1_Outcome", "skipped"),
        spec(directory, "forged-pass", "W1_Outcome", "forged_pass"),
        spec(directory, "forged-peak", "W2_PeakMemory", "forged_peak"),
        spec(directory, "forged-nan", "W2_PeakMemory", "forged_nan"),
        dict(spec(directory, "two-tests", "W1_Outcome", "adult"), tests=["test_heavy.py"]),
        spec(directory, "mutant-flipped", "W1_Outcome", "adult", expect_failure=True,
             mutant={"file": "heavy/mod.py", "line": 40, "original": ">=", "replacement": ">"}),
        spec(directory, "mutant-stale", "W1_Outcome", "adult", expect_failure=True,
             mutant={"file": "heavy/mod.py", "line": 40, "original": "<=", "replacement": ">"}),
    ]
    return harness.run(specs)


def fits(template, value):
    """`conforms`, with unions of leaf types ("str|null")."""
    if isinstance(template, str):
        return any(value is None if t == "null" else conforms(t, value) for t in template.split("|"))
    if isinstance(template, dict):
        return isinstance(value, dict) and set(template) == set(value) and all(
            fits(template[k], value[k]) for k in template)
    return isinstance(value, list) and all(fits(template[0], v) for v in value)


def ok(results, ident):
    result = results[ident]
    assert result["status"] == "ok", result.get("reason")
    template = rule_for(_kind(ident), {}).template
    assert result["template_answer"] == template and fits(template, result["answer"]), result["answer"]
    return result


def _kind(ident):
    return {"peak": "W2_PeakMemory", "wall": "W3_WallTime", "profile": "W4_Profile"}.get(
        ident.split("-")[0], "W1_Outcome")


def test_a_freed_50_mib_buffer_is_the_peak(measured):
    result = ok(measured, "peak-50mb")
    assert 50 * MIB <= result["answer"]["peak_bytes"] < 58 * MIB
    meta = result["measurement"]
    assert meta["peak"]["traced"] >= 50 * MIB and meta["band"] == BANDS["W2_PeakMemory"]
    assert meta["machine"]["cpus"] >= 1 and meta["runtime"]["python"]


def test_a_50_ms_sleep_takes_at_least_50_ms_and_longer_than_a_5_ms_one(measured):
    # Lower bounds only, and the order: a sleep never ends early on any machine, while what the runner adds
    # around it grows with the machine's load (the upper bounds are hang guards, not speeds).
    slow, fast = ok(measured, "wall-slow"), ok(measured, "wall-fast")
    assert 50 <= slow["answer"]["wall_ms"] < 1000
    assert 5 <= fast["answer"]["wall_ms"] < 1000
    assert slow["answer"]["wall_ms"] > fast["answer"]["wall_ms"]
    runs = slow["measurement"]["wall_ms"]["runs"]
    assert len(runs) == 5 and slow["measurement"]["clean_runs"] == 5 and all(r >= 50 for r in runs)
    assert slow["stats"]["runs"] == 5


def test_exclusive_attribution_credits_stdlib_to_the_caller_and_children_to_themselves(measured):
    answer = ok(measured, "profile-parent")["answer"]
    # parent's own sleep (C) and json.dumps (stdlib Python) are parent's; child_work's loop is its own.
    assert answer["hot_methods_time"][0] == "heavy.mod.parent"
    assert "heavy.mod.child_work" in answer["hot_methods_time"]
    assert answer["hot_lines_time"][0] == "heavy/mod.py:33"  # the sleep
    # json.dumps' ~12 MB string is parent's; the 4 MiB block is child_alloc's.
    assert answer["hot_methods_alloc"][:2] == ["heavy.mod.parent", "heavy.mod.child_alloc"]
    assert answer["hot_lines_alloc"][0] == "heavy/mod.py:34"
    assert not any(name.startswith(("json", "test_heavy")) for name in answer["hot_methods_time"])


def test_a_profile_asks_only_about_the_code_its_prompt_shows(measured):
    """The same run, asked about `child_work` (which calls nothing of the package): `parent`, the test's hot
    spot, is not shown in its prompt and not in its answer; the lines are child_work's own."""
    parent, child = ok(measured, "profile-parent"), ok(measured, "profile-child")
    shown = {parent["context"]["func"], *(f["func"] for f in parent["context"]["slice"]["functions"])}
    assert shown == {"heavy.mod.parent", "heavy.mod.child_alloc", "heavy.mod.child_work"}
    assert set(parent["answer"]["hot_methods_time"]) <= shown
    assert [f["func"] for f in child["context"]["slice"]["functions"]] == []
    assert child["answer"]["hot_methods_time"] == ["heavy.mod.child_work"]
    first = child["context"]["first_line"]
    assert all(first <= int(line.split(":")[1]) < first + 5 for line in child["answer"]["hot_lines_time"])
    # What ran is still recorded, whole, beside the answer.
    assert "heavy.mod.parent" in child["measurement"]["executed"]["time_func"]


def test_outcomes(measured):
    assert ok(measured, "outcome-passes")["answer"] == {"outcome": "passed", "exception_type": None,
                                                       "failure_line": None}
    assert ok(measured, "outcome-fails")["answer"] == {"outcome": "failed", "exception_type": "AssertionError",
                                                      "failure_line": 32}
    errors = ok(measured, "outcome-errors")["answer"]
    assert errors == {"outcome": "error", "exception_type": "RuntimeError", "failure_line": 37}


def test_a_failing_test_is_no_oracle_unless_expected(measured):
    result = measured["outcome-fails-unexpected"]
    assert result["status"] == "invalid" and "answer" not in result
    assert result["reason"].startswith("the test failed (AssertionError): a failing test is not an oracle")


def test_a_killed_test_errors_with_its_signal_and_has_no_time(measured):
    result = ok(measured, "outcome-segfault")
    assert result["answer"] == {"outcome": "error", "exception_type": None, "failure_line": None}
    assert result["measurement"]["signal"] == signal.Signals.SIGSEGV.name
    wall = measured["wall-segfault"]
    assert wall["status"] == "invalid" and "killed by SIGSEGV" in wall["reason"]
    oom = ok(measured, "outcome-oom")
    assert oom["answer"]["outcome"] == "error" and oom["measurement"]["signal"] == "SIGKILL"


def test_bad_runs_are_classified(measured):
    assert measured["outcome-forever"]["status"] == "timeout"
    assert measured["outcome-skipped"]["status"] == "invalid" and "skipped" in measured["outcome-skipped"]["reason"]
    two = measured["two-tests"]
    assert two["status"] == "invalid" and "exactly one pytest node id" in two["reason"]


def test_what_the_test_writes_into_its_own_measurement_is_checked_against_the_parents_view(measured):
    # A failing test that appends a passing `end`: two ends, and pytest exited 1. A peak of 1e30 bytes
    # (then os._exit(0)): beyond the kernel's peak of the process. Neither becomes gold.
    for ident, why in (("forged-pass", "holds 2 ends"), ("forged-peak", "passes the kernel's"),
                       ("forged-nan", "not a number (nan)")):
        result = measured[ident]
        assert result["status"] == "invalid" and why in result["reason"], (ident, result)
        assert "the test wrote to its own measurement" in result["reason"]


def test_a_mutant_runs_in_a_private_copy_and_the_prompt_shows_it(measured):
    result = ok(measured, "mutant-flipped")
    assert result["answer"] == {"outcome": "failed", "exception_type": "AssertionError", "failure_line": 26}
    assert "return age > 18" in result["context"]["source"]
    assert "on line 40 of `heavy/mod.py`, `>=` is replaced by `>`" in result["question"]
    assert result["measurement"]["mutant"]["replacement"] == ">"
    stale = measured["mutant-stale"]
    assert stale["status"] == "invalid" and "does not contain '<='" in stale["reason"]


def test_every_world_kind_is_answered_here_and_its_question_defines_its_terms(measured):
    answered = {_kind(ident) for ident, r in measured.items() if r["status"] == "ok"}
    assert answered == set(WORLD_KINDS) == {k for k in RULES if k.startswith("W")}
    for ident, result in measured.items():
        assert ("`test_heavy.py`" if ident == "two-tests" else "`test_heavy.py::test_") in result["question"]
    assert "median over five clean runs" in measured["wall-slow"]["question"]
    assert json.dumps(measured["profile-parent"]["template_answer"])


MUTABLE = '''def grade(score, limit=50, strict=True, label="x"):
    if score >= limit and strict:
        return label + "pass"
    items = [1, 2, -3]
    if (score) in items:
        return items[0]
    return "fail" if score != 0 else None
'''


def test_mutants_are_one_unambiguous_change_each_of_three_kinds_in_a_seeded_order():
    from tracegate_tracer.generate import mutants

    found = mutants.propose(MUTABLE, "grade", "seed", limit=20)
    lines = MUTABLE.splitlines()
    assert {m["description"] for m in found} == set(mutants.KINDS)
    assert {(m["line"], m["original"], m["replacement"]) for m in found} == {
        (2, "score >= limit", "score > limit"), (7, "score != 0", "score == 0"),
        (4, "1", "2"), (4, "2", "3"), (6, "0", "1"), (7, "0", "1"),  # -3's sign stays with it
        (1, "50", "51"), (1, "True", "False"), (1, '"x"', '""'),
    }  # `(score) in items`: parentheses between operand and operator, not a plain flip
    for m in found:
        assert lines[m["line"] - 1].count(m["original"]) == 1
    assert found[:3] == mutants.propose(MUTABLE, "grade", "seed", limit=3)  # kinds interleaved, deterministic
    assert [m["description"] for m in found[:3]] == list(mutants.KINDS)
    assert mutants.propose(MUTABLE, "grade", "other seed", limit=20) != found
    assert mutants.propose(MUTABLE, "missing", "seed") == []


def test_the_machine_records_the_containers_memory_limit_not_the_hosts(monkeypatch):
    import io

    from tracegate_tracer.world import provenance
    files = {"/proc/meminfo": "MemTotal:       25165824 kB\n", "/sys/fs/cgroup/memory.max": "2147483648\n",
             "/sys/fs/cgroup/cpu.max": "max 100000\n", "/proc/cpuinfo": "model name\t: a cpu\n"}

    def fake_open(path, *args, **kwargs):
        if path not in files:
            raise OSError(path)
        return io.StringIO(files[path])
    monkeypatch.setattr(provenance, "open", fake_open, raising=False)
    machine = provenance.machine()
    assert machine["memory_bytes"] == 2147483648 and machine["host_memory_bytes"] == 25165824 * 1024
    files["/sys/fs/cgroup/memory.max"] = "max\n"  # no limit: the host's memory is what there is
    assert provenance.machine()["memory_bytes"] == 25165824 * 1024 and "host_memory_bytes" not in provenance.machine()


def test_a_profile_lists_near_ties_by_name_so_its_top_holds_between_harvests():
    from tracegate_tracer.world import measure

    # b and a are 5% apart: one group, listed by name, whichever is hotter in this harvest.
    assert [n for n, _v in measure.ranked({"a": 95.0, "b": 100.0, "c": 50.0, "d": 49.0, "e": 10.0})] == \
        ["a", "b", "c", "d", "e"]
    assert [n for n, _v in measure.ranked({"a": 100.0, "b": 95.0, "c": 50.0})] == ["a", "b", "c"]
    # Apart by more than TIE: hottest first, as measured.
    assert [n for n, _v in measure.ranked({"a": 80.0, "b": 100.0})] == ["b", "a"]
    # A group is measured from its hottest entry: 100, 91 tie; 83 is 17% below the leader, so a group of its own.
    assert [n for n, _v in measure.ranked({"z": 100.0, "y": 91.0, "x": 83.0})] == ["y", "z", "x"]
    merged = measure._median_profile([
        {"time_func": [["f", 100], ["g", 97]], "time_line": [], "alloc_func": [], "alloc_line": []},
        {"time_func": [["g", 100], ["f", 96]], "time_line": [], "alloc_func": [], "alloc_line": []},
        {"time_func": [["f", 99], ["g", 98]], "time_line": [], "alloc_func": [], "alloc_line": []},
    ])
    assert [n for n, _v in merged["time_func"]] == ["f", "g"]


def test_a_profile_names_what_is_near_each_lists_top_for_the_harvests_to_compare():
    from tracegate_tracer.queries.world import NEAR, near_top

    profile = {"time_func": [["a", 95.0], ["b", 100.0], ["c", 76.0], ["d", 74.0], ["z", 0]],
               "time_line": [["m.py:3", 10]], "alloc_func": [], "alloc_line": [["m.py:4", 0]]}
    assert NEAR == 0.25
    # Within a quarter of the hottest value (100): a, b and c (76), not d (74); a zero never leads.
    assert near_top(profile) == {"hot_methods_time": ["a", "b", "c"], "hot_lines_time": ["m.py:3"]}


def test_only_a_clean_run_that_times_nothing_starts_warm(tmp_path, monkeypatch):
    """A group asked no wall time (W3) starts its one clean run warm (it gives the outcome only); a timed
    clean run, the memory run and the profile runs are fresh processes."""
    from tracegate_tracer.runner import pytest_run
    from tracegate_tracer.runner.sandbox import Sandbox
    from tracegate_tracer.world import measure

    from conftest import TRACER_ROOT, Harness

    directory = Harness(tmp_path).instance_dir(PACKAGE)
    started = []
    real = pytest_run.run_command

    def spy(command, cwd, env, timeout, sandbox, fresh=None, populate=False):
        with open(env["TRACEGATE_MEASURE"], encoding="utf-8") as handle:
            started.append((json.load(handle)["mode"], fresh is not None, populate))
        return real(command, cwd, env, timeout, sandbox, fresh, populate)

    monkeypatch.setattr(pytest_run, "run_command", spy)
    monkeypatch.delenv("TRACEGATE_WARM_MEASURE", raising=False)

    def run(specs):
        sandbox = Sandbox(str(tmp_path / f"work-{specs[0]['id']}"), 0, None)
        os.makedirs(sandbox.work_dir)
        sandbox.prepare()
        results = measure.run(specs, [{"id": s["id"], "stats": {}} for s in specs], sandbox, TRACER_ROOT)
        assert [r["status"] for r in results] == ["ok"] * len(specs), results
        return list(started)

    untimed = run([spec(directory, f"u-{k}", k, "adult") for k in ("W1_Outcome", "W2_PeakMemory", "W4_Profile")])
    assert untimed == [("clean", True, False), ("memory", False, False)] + [("profile", False, True)] * 3
    started.clear()
    timed = run([spec(directory, "t-wall", "W3_WallTime", "fast"), spec(directory, "t-out", "W1_Outcome", "fast")])
    assert timed == [("clean", False, True)] * 5
