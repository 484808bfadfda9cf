"""A question that reads one named invocation lets the recorder go quiet after it (`events_through`):
the later invocations are listed, nothing else of them is recorded. The answers must not move."""

import json

import pytest

from tracegate_tracer import queries

from catalog import PROGRAMS, Invalid
from conftest import BACKENDS, catalog_specs, parse_results, run_plan


def _named_only(spec):
    return queries.recording_needs(spec["kind"], spec["query"])["events_through"] is not None


@pytest.mark.parametrize("backend", BACKENDS)
def test_each_named_question_recorded_alone_keeps_its_answer(tmp_path, backend):
    """Every catalog question about one invocation, each in a recording of its own (so that recording goes
    quiet after the invocation asked about), answers as the catalog says; the traces show it went quiet."""
    expected = {"{}-{}".format(prog["name"], case[0]): case[4] for prog in PROGRAMS for case in prog["cases"]}
    specs = [dict(spec, backend=backend) for spec in catalog_specs(tmp_path / "programs") if _named_only(spec)]
    assert len(specs) >= 25
    # A recording per spec (recording_key tells them apart by max_events); the program's run is still shared.
    alone = [dict(spec, max_events=1_000_000 + index) for index, spec in enumerate(specs)]
    done = run_plan(tmp_path, alone, timeout=600, keep_traces=True)
    assert done.returncode == 0, done.stderr
    results = {result["id"]: result for result in parse_results(done.stdout)}
    quiet = 0
    for spec in specs:
        result, want = results[spec["id"]], expected[spec["id"]]
        if isinstance(want, Invalid):
            assert result["status"] == "invalid" and want.reason in result["reason"], (spec["id"], result)
            continue
        assert result["status"] == "ok", (spec["id"], result.get("reason"))
        assert result["answer"] == want, spec["id"]
        trace = json.loads((tmp_path / "work" / f"g{result['stats']['group']}" / result["stats"]["trace"]).read_text())
        k = spec["query"]["invocation"]
        assert trace["events_through"] == k
        # Invocations that started while 1..k ran (recursion) are recorded; every later one is listed only.
        outcomes = [record["outcome"] for record in trace["invocations"]]
        listed = outcomes.index(None) + 1 if None in outcomes else len(outcomes) + 1
        if listed <= len(outcomes):
            quiet += 1
            assert listed > k and set(outcomes[listed - 1:]) == {None}, (spec["id"], outcomes)
            recorded = {event[1] for event in trace["events"] if isinstance(event[1], int)}
            recorded |= {inv for event in trace["events"] if event[0] == "call" for inv, _depth in event[1]}
            assert max(recorded) < listed, spec["id"]
    assert quiet >= 8  # the catalog asks about an early invocation of a target that runs again


def _plan(harness, prog, test, kind, function, query, **extra):
    directory = harness.instance_dir({"prog.py": prog, "test_prog.py": test}, name=f"inst-{function}")
    return dict({"id": function, "dir": str(directory), "tests": ["test_prog.py"], "kind": kind,
                 "target": {"file": "prog.py", "function": function}, "query": query, "timeout_seconds": 60},
                **extra)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_suspended_generator_keeps_the_recording_open(harness, backend):
    """Invocation 1 is a generator left suspended while invocations 2 and 3 run: its later steps are still
    recorded, and the recording goes quiet only once it has finished."""
    prog = """
        def gen(n):
            for i in range(n):
                yield i
            return n

        def drain(n):
            return list(gen(n))
        """
    test = """
        from prog import gen, drain
        def test_it():
            first = gen(3)
            assert next(first) == 0
            assert drain(2) == [0, 1]
            assert drain(1) == [0]
            assert list(first) == [1, 2]
            assert drain(4) == [0, 1, 2, 3]
        """
    spec = _plan(harness, prog, test, "S1_IntraProceduralCFG", "gen", {"invocation": 1}, backend=backend)
    result = harness.run([spec], keep_traces=True)["gen"]
    assert result["status"] == "ok", result.get("reason")
    lines = [step["line"] for step in result["answer"]["executed_path"]]
    assert lines == [2, 3, 2, 3, 2, 3, 2, 4]
    trace = json.loads((harness.root / "work" / f"g{result['stats']['group']}" / result["stats"]["trace"]).read_text())
    outcomes = [record["outcome"] for record in trace["invocations"]]
    # 2 and 3 ran while 1 was suspended (recorded); 4 started after 1 finished (listed only).
    assert outcomes == ["return", "return", "return", None]
    assert {event[1] for event in trace["events"]} == {1, 2, 3}


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_target_run_very_often_stops_at_the_event_cap(harness, backend):
    """Listed invocations count against `max_events`: a target run 50,000 times under a cap of 1,000 ends
    the recording (invalid, with the reason), whatever the question reads."""
    prog = "def tick(x):\n    return x + 1\n"
    test = "from prog import tick\ndef test_it():\n    for i in range(50_000):\n        tick(i)\n"
    spec = _plan(harness, prog, test, "S1_IntraProceduralCFG", "tick", {"invocation": 1}, backend=backend,
                 max_events=1_000)
    result = harness.run([spec], keep_traces=True)["tick"]
    assert result["status"] == "invalid"
    assert "trace overflow: more than 1000 events" in result["reason"]
    trace = json.loads((harness.root / "work" / f"g{result['stats']['group']}" / result["stats"]["trace"]).read_text())
    assert len(trace["invocations"]) <= 1_000
