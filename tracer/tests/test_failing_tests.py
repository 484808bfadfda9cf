"""A failing test is not an oracle, unless the instance expects the failure."""

PROG = "def work(x):\n    return x + 1\n"
TESTS = '''
from prog import work

def test_passes():
    assert work(1) == 2

def test_fails():
    work(2)
    assert False, "on purpose"

def test_errors(missing_fixture):
    pass
'''


def spec(directory, ident, tests, **extra):
    return dict({"id": ident, "dir": str(directory), "tests": tests, "kind": "M1_IntraProceduralCFG",
                 "target": {"file": "prog.py", "function": "work"}, "query": {}, "timeout_seconds": 60}, **extra)


def test_failing_tests_are_named_unless_expected(harness):
    directory = harness.instance_dir({"prog.py": PROG, "test_prog.py": TESTS})
    results = harness.run([
        spec(directory, "failing", ["test_prog.py"]),
        spec(directory, "expected", ["test_prog.py"], expect_failure=True),
        spec(directory, "passing", ["test_prog.py::test_passes"]),
    ])
    failing = results["failing"]
    assert failing["status"] == "invalid" and "answer" not in failing
    assert failing["reason"].startswith(
        "tests failed: test_prog.py::test_fails, test_prog.py::test_errors (a failing test is not an oracle")
    assert failing["stats"]["pytest_exit_code"] == 1
    expected = results["expected"]
    assert expected["status"] == "ok", expected.get("reason")
    assert expected["answer"] == {"covered_lines": [2]} and expected["stats"]["pytest_exit_code"] == 1
    assert results["passing"]["status"] == "ok" and results["passing"]["stats"]["pytest_exit_code"] == 0
