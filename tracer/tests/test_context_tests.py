"""context.tests: the spec's test files, read confined to the directory pytest runs in; spec `cwd`."""

import os

PROG = "def work(x):\n    return x + 1\n"
TEST_A = ("from prog import work\n\ndef test_one():\n    assert work(1) == 2\n\n"
          "def test_two():\n    assert work(2) == 3\n")
TEST_B = "from prog import work\n\ndef test_b():\n    assert work(0) == 1\n"


def spec(directory, ident, tests, **extra):
    return dict({"id": ident, "dir": str(directory), "tests": tests, "kind": "M1_IntraProceduralCFG",
                 "target": {"file": "prog.py", "function": "work"}, "query": {}, "timeout_seconds": 60}, **extra)


def test_distinct_test_files_come_back_with_their_sources(harness):
    directory = harness.instance_dir({"prog.py": PROG, "test_a.py": TEST_A, "sub/test_b.py": TEST_B})
    result = harness.run([spec(directory, "two", ["test_a.py::test_one", "test_a.py::test_two",
                                                  "sub/test_b.py::test_b"])])["two"]
    assert result["status"] == "ok", result.get("reason")
    assert result["context"]["tests"] == [{"name": "test_a.py", "source": TEST_A},
                                          {"name": "sub/test_b.py", "source": TEST_B}]


def test_test_files_are_read_confined(harness, tmp_path):
    outside = tmp_path / "secret.py"
    outside.write_text("SECRET = 1\n")
    directory = harness.instance_dir({"prog.py": PROG, "test_a.py": TEST_A, "big/test_big.py": "#" * (300 * 1024),
                                      "tests_dir/test_x.py": TEST_B})
    os.symlink(outside, directory / "test_link.py")
    os.mkfifo(directory / "test_fifo.py")
    results = harness.run([
        spec(directory, "link", ["test_link.py"]),
        spec(directory, "fifo", ["test_fifo.py::test_it"]),
        spec(directory, "big", ["big/test_big.py"]),
        spec(directory, "dir", ["tests_dir"]),
        spec(directory, "up", ["../secret.py"]),
        spec(directory, "missing", ["test_nope.py"]),
        spec(directory, "good", ["test_a.py"]),
    ])
    rule = "(test files must be regular files of at most 256 KiB inside the directory pytest runs in)"
    expected = {
        "link": "test file test_link.py is outside the test directory",
        "fifo": "test file test_fifo.py is not a regular file",
        "big": "test file big/test_big.py is larger than 256 KiB",
        "dir": "test file tests_dir is not a regular file",
        "up": "test file ../secret.py is outside the test directory",
        "missing": "test file test_nope.py cannot be read: No such file or directory",
    }
    for ident, start in expected.items():
        assert results[ident]["status"] == "invalid", results[ident]
        assert results[ident]["reason"].startswith(start) and results[ident]["reason"].endswith(rule)
    assert results["good"]["status"] == "ok"


def test_cwd_is_where_pytest_runs_and_where_the_target_is_found(harness):
    instance = harness.instance_dir({"parser.py": "def answer(trace, query):\n    return len(trace['events'])\n"})
    checkout = harness.instance_dir({"prog.py": PROG, "tests/test_a.py": TEST_A}, name="testbed")
    results = harness.run([
        spec(instance, "in-checkout", ["tests/test_a.py::test_one"], cwd=str(checkout)),
        spec(instance, "relative", ["tests/test_a.py"], cwd="testbed"),
    ])
    result = results["in-checkout"]
    assert result["status"] == "ok", result.get("reason")
    assert result["answer"] == {"covered_lines": [2]}
    assert result["context"]["file"] == "prog.py" and result["context"]["tests"][0]["name"] == "tests/test_a.py"
    assert results["relative"]["status"] == "invalid"
    assert results["relative"]["reason"] == "cwd must be an absolute directory, got 'testbed'"
