import subprocess
import sys

import pytest

from conftest import BACKENDS, HARVEST

PROG = "def work(x):\n    return x + 1\n\ndef unused():\n    return 0\n"
GOOD = "from prog import work\ndef test_good():\n    assert work(1) == 2\n"
HANG = "import time\nfrom prog import work\ndef test_hang():\n    work(1)\n    time.sleep(60)\n"
BROKEN = "def test_broken(:\n    pass\n"


def spec(directory, ident, test, function="work", file="prog.py", **extra):
    return dict({"id": ident, "dir": str(directory), "tests": [test], "kind": "S1_IntraProceduralCFG",
                 "target": {"file": file, "function": function}, "query": {"invocation": 1},
                 "timeout_seconds": 30}, **extra)


def test_each_failure_is_classified_and_good_instance_survives(harness):
    directory = harness.instance_dir(
        {"prog.py": PROG, "test_good.py": GOOD, "test_hang.py": HANG, "test_broken.py": BROKEN})
    results = harness.run([
        spec(directory, "hang", "test_hang.py", timeout_seconds=3),
        spec(directory, "unused", "test_good.py", function="unused"),
        spec(directory, "broken", "test_broken.py"),
        spec(directory, "missing-func", "test_good.py", function="nope"),
        spec(directory, "missing-file", "test_good.py", file="pkg/nope.py"),
        spec(directory, "good", "test_good.py"),
    ])
    assert results["hang"]["status"] == "timeout" and results["hang"]["reason"] == "timeout after 3s"
    assert results["unused"]["status"] == "invalid" and results["unused"]["reason"] == "target not executed"
    assert results["broken"]["status"] == "invalid"
    assert results["broken"]["reason"].startswith("pytest collection error")
    assert "SyntaxError" in results["broken"]["reason"]
    assert results["missing-func"]["reason"] == "target not found: prog.py::nope"
    assert results["missing-file"]["reason"] == "target not found: pkg/nope.py::work"
    good = results["good"]
    assert good["status"] == "ok"
    assert good["answer"] == {"executed_path": [{"file": "prog.py", "func": "prog.work", "line": 2}]}
    assert good["context"]["source"] == "def work(x):\n    return x + 1\n"
    assert good["tracer_version"] == "0.2.0" and good["stats"]["invocations"] == 1
    assert not list(directory.rglob("__pycache__")), "the instance dir must stay untouched"


def test_overflow_is_invalid_never_truncated(harness):
    prog = "def spin(n):\n    for i in range(n):\n        pass\n"
    test = "from prog import spin\ndef test_it():\n    spin(100)\n"
    directory = harness.instance_dir({"prog.py": prog, "test_prog.py": test})
    result = harness.run([spec(directory, "big", "test_prog.py", function="spin", max_events=50)])["big"]
    assert result["status"] == "invalid" and result["reason"].startswith("trace overflow")
    assert "answer" not in result


@pytest.mark.parametrize("backend", BACKENDS)
def test_replaced_tracer_invalidates_settrace_only(harness, backend):
    # A coverage-like tool calling sys.settrace replaces the settrace backend
    # (the trace is invalid, never silently partial) but cannot touch a
    # sys.monitoring tool (the trace stays complete).
    test = "import sys\nfrom prog import work\ndef test_it():\n    sys.settrace(lambda *a: None)\n    work(1)\n"
    directory = harness.instance_dir({"prog.py": PROG, "test_prog.py": test})
    result = harness.run([spec(directory, "cov", "test_prog.py", backend=backend)])["cov"]
    if backend == "settrace":
        assert result["status"] == "invalid" and result["reason"].startswith("another tracer replaced tracegate's")
    else:
        assert result["status"] == "ok" and result["answer"]["executed_path"][0]["line"] == 2


def test_subprocesses_are_not_traced(harness):
    test = ("import os, subprocess, sys\nfrom prog import work\ndef test_it():\n"
            "    subprocess.run([sys.executable, '-c', 'from prog import work; work(5)'],\n"
            "                   check=True, cwd=os.getcwd())\n"
            "    work(2)\n")
    directory = harness.instance_dir({"prog.py": PROG, "test_prog.py": test})
    result = harness.run([spec(directory, "sub", "test_prog.py", kind="S3_ProgramState",
                               query={"line": 2, "hit": 1, "variables": ["x"]})])["sub"]
    assert result["status"] == "ok", result.get("reason")
    assert result["stats"]["invocations"] == 1
    assert result["answer"] == {"observed_state": [{"variable": "x", "value": "2"}]}


def test_unreadable_plan_exits_non_zero(tmp_path):
    plan = tmp_path / "plan.json"
    plan.write_text("{not json")
    done = subprocess.run([sys.executable, HARVEST, str(plan)], capture_output=True, text=True)
    assert done.returncode == 2 and "unreadable plan" in done.stderr


def test_crash_in_one_instance_still_writes_result(harness):
    directory = harness.instance_dir({"prog.py": PROG, "test_good.py": GOOD})
    results = harness.run([spec(directory, "bad-kind", "test_good.py", kind="S9_Nope"),
                           spec(directory, "crash", "test_good.py", target=None)])
    assert results["bad-kind"]["status"] == "invalid" and "not implemented" in results["bad-kind"]["reason"]
    assert results["crash"]["status"] == "error" and results["crash"]["reason"].startswith("tracer crash: TypeError")


RELOADED = "def work(x):\n    if x > 1:\n        return x * 2\n    return x + 1\n"
RELOAD_TEST = """
import importlib, subprocess, sys, threading
import prog

def test_reload():
    assert prog.work(1) == 2
    importlib.reload(prog)  # the module runs again: its code objects are new (and equal to the old ones)
    assert prog.work(2) == 4
    child = subprocess.run([sys.executable, "-c", "import prog; print(prog.work(5))"], capture_output=True,
                           text=True, timeout=60)
    assert child.stdout.strip() == "10"  # a subprocess runs, untraced
    thread = threading.Thread(target=prog.work, args=(3,))
    thread.start()
    thread.join()
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_module_reloaded_mid_run_is_recorded_again(harness, backend):
    """After importlib.reload the target's code is a new object: it is recorded as the old one was (under
    sys.monitoring each code object has its own local events, and equal ones are not the same object)."""
    directory = harness.instance_dir({"prog.py": RELOADED, "test_prog.py": RELOAD_TEST})
    specs = [spec(directory, f"inv{k}", "test_prog.py", backend=backend, query={"invocation": k}) for k in (1, 2, 3)]
    results = harness.run(specs)
    path = lambda *lines: {"executed_path": [{"file": "prog.py", "func": "prog.work", "line": n} for n in lines]}  # noqa: E731
    assert results["inv1"]["answer"] == path(2, 4), results["inv1"].get("reason")
    assert results["inv2"]["answer"] == path(2, 3), results["inv2"].get("reason")  # the reloaded code
    assert results["inv3"]["answer"] == path(2, 3), results["inv3"].get("reason")  # in a thread
