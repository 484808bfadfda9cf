"""An item's intrinsic complexity (queries/complexity.py): what it measures, and that it is the item's own."""

from tracegate_tracer.queries import complexity

PROG = {
    "prog.py": '''
        def walk(n, m):
            total = 0
            for i in range(n):
                if i % 3 == 0:
                    total += helper(i)
                else:
                    total -= 1
            try:
                check(total, m)
            except ValueError:
                total = -total
            return total


        def helper(i):
            return i * 2


        def check(total, m):
            if total > m:
                raise ValueError(total)
        ''',
    "test_prog.py": '''
        from prog import walk


        def test_short():
            assert walk(2, 100) == -1 + 0 * 0 or True


        def test_long():
            assert walk(30, 5) is not None
        ''',
}


def _spec(directory, ident, kind, query):
    return {"id": ident, "dir": str(directory), "tests": ["test_prog.py"], "kind": kind,
            "target": {"file": "prog.py", "function": "walk"}, "query": query, "timeout_seconds": 60}


def test_a_longer_run_of_the_same_question_scores_higher_on_what_it_does(harness):
    directory = harness.instance_dir(PROG)
    results = harness.run([_spec(directory, "short", "S1_IntraProceduralCFG", {"invocation": 1}),
                           _spec(directory, "long", "S1_IntraProceduralCFG", {"invocation": 2})])
    short, long = results["short"]["complexity"], results["long"]["complexity"]
    assert short["version"] == complexity.VERSION
    # Each reads its own invocation: the second walks 30 turns of the loop and raises on the way out.
    assert short["features"]["semantic"]["invocations"] == 1 == long["features"]["semantic"]["invocations"]
    assert long["features"]["semantic"]["turns"] == 31 and short["features"]["semantic"]["turns"] == 3
    assert long["features"]["semantic"]["exceptions"] >= 1 and short["features"]["semantic"]["exceptions"] == 0
    # Both take both ways at the loop's `if` (and leave the `for` two ways); the second also runs the handler.
    assert long["features"]["semantic"]["branches"] == 2 == short["features"]["semantic"]["branches"]
    assert long["features"]["semantic"]["lines"] == short["features"]["semantic"]["lines"] + 2
    assert long["semantic"] > short["semantic"] and long["answer"] > short["answer"]
    assert long["score"] > short["score"]
    # The prompt's code is the same for both: so is the navigation it asks for.
    assert long["navigation"] == short["navigation"] and long["features"]["navigation"]["tests"] == 1
    assert short["features"]["navigation"]["indirect"] == 0  # the test calls walk by name


def test_an_items_complexity_does_not_depend_on_the_questions_it_shares_a_run_with(harness):
    # Alone, an S1 question records lines only; beside a call-order question and a state question the run
    # also records calls and locals, and every invocation's events. The S1 item's score is the same.
    directory = harness.instance_dir(PROG)
    alone = harness.run([_spec(directory, "s1", "S1_IntraProceduralCFG", {"invocation": 1})])["s1"]
    shared = harness.run([
        _spec(directory, "s1", "S1_IntraProceduralCFG", {"invocation": 1}),
        _spec(directory, "calls", "S6_InterProceduralCFG", {"invocation": "all", "include": ["prog."]}),
        _spec(directory, "state", "S3_ProgramState", {"line": 3, "hit": 2, "variables": ["total", "i"]}),
    ])
    assert shared["s1"]["complexity"] == alone["complexity"]
    # Those that record more count it: calls under the target, distinct values of the asked variables.
    assert shared["calls"]["complexity"]["features"]["semantic"]["callees"] == 2
    assert shared["state"]["complexity"]["features"]["semantic"]["values"] > 0
    assert "calls" not in alone["complexity"]["features"]["semantic"]


def test_answer_features_count_what_must_be_written():
    answer = {"executed_path": [{"line": 2}, {"line": 3}], "note": "abc"}
    compact = '{"executed_path":[{"line":2},{"line":3}],"note":"abc"}'
    assert complexity.answer_features(answer) == {"scalars": 3, "elements": 2, "depth": 3, "chars": len(compact)}
    assert complexity.answer_features(7) == {"scalars": 1, "elements": 0, "depth": 0, "chars": 1}


def test_navigation_reads_the_prompts_code_only():
    context = {"file": "pkg/a.py", "func": "pkg.a.target",
               "slice": {"functions": [{"file": "pkg/b.py"}, {"file": "pkg/a.py"}], "named": ["pkg.c.more"]},
               "tests": [{"name": "test_x.py", "source": "from pkg import run\n\ndef test_x():\n    run()\n"}]}
    assert complexity.navigation_features(context) == {"functions": 3, "files": 2, "tests": 1, "test_lines": 4,
                                                       "indirect": 1}
    context["tests"][0]["source"] += "    target()\n"
    assert complexity.navigation_features(context)["indirect"] == 0


def test_scores_rise_with_every_feature_and_stay_within_ten():
    low = complexity._score("answer", {"scalars": 1, "elements": 0, "depth": 1, "chars": 10})
    high = complexity._score("answer", {"scalars": 10**9, "elements": 10**9, "depth": 10**9, "chars": 10**9})
    assert 0 < low < high <= 10
    assert complexity._score("semantic", {}) == 0.0


def test_a_variant_is_as_complex_as_its_original_to_the_resolution():
    # An enum label's spelling moves the answer score by 0.05 ("none" for "strictly_increasing"): equal; a
    # component lower by more than RESOLUTION is not.
    label = {c: complexity._score("answer", complexity.answer_features({"monotonicity": v}))
             for c, v in (("long", "strictly_increasing"), ("short", "none"))}
    assert 0 < label["long"] - label["short"] < complexity.RESOLUTION
    assert complexity.at_least({"semantic": 4.0, "answer": label["short"]}, {"semantic": 4.0, "answer": label["long"]})
    assert not complexity.at_least({"semantic": 3.89, "answer": 1.0}, {"semantic": 4.0, "answer": 1.0})
    assert complexity.at_least({"semantic": 3.9, "answer": 1.0}, {"semantic": 4.0, "answer": 1.0})
