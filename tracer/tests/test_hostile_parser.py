"""One instance, one blast radius, for instance parsers too: hostile parsers, run through harvest.py without isolation.

Each hostile parser shares its recording group with a normal parser and is
followed by another group with a standard query: both must still get their
`ok` answers, and the hostile one fails alone, with a reason that says how.
(test_isolation.py does the same as root, where the parser runs as the group's uid.)
"""

import json

import pytest

from hostile_parsers import FORGED, GOOD, GOOD_PARSER, HOSTILE, PARSER_TIMEOUT, PROG


def spec(directory, ident, parser=None, timeout=PARSER_TIMEOUT):
    return {"id": ident, "dir": str(directory), "tests": ["test_good.py"], "kind": "S1_IntraProceduralCFG",
            "target": {"file": "prog.py", "function": "work"}, "query": {"invocation": 1},
            "timeout_seconds": timeout, "parser": parser}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_parser_costs_only_its_own_instance(harness, name):
    source, status, reason = HOSTILE[name]
    directory = harness.instance_dir({"prog.py": PROG, "test_good.py": GOOD, "good.py": GOOD_PARSER,
                                      "hostile.py": source})
    # `hostile` and `after` share one recording (group 0); `next` is group 1 (another timeout).
    results = harness.run([spec(directory, "hostile", "hostile.py"), spec(directory, "after", "good.py"),
                           spec(directory, "next", timeout=30)])
    assert [r["id"] for r in harness.results] == ["hostile", "after", "next"]  # one line per spec, nothing else
    after, following = results["after"], results["next"]
    assert after["status"] == "ok" and after["answer"] == {"lines": [2]}, after.get("reason")
    assert following["status"] == "ok", following.get("reason")
    assert following["answer"] == {"executed_path": [{"file": "prog.py", "func": "prog.work", "line": 2}]}
    hostile = results["hostile"]
    assert (hostile["status"], hostile["stats"]["group"], after["stats"]["group"]) == (status, 0, 0), hostile
    if name == "syntax":
        assert hostile["reason"].startswith(reason), hostile["reason"]
    else:
        assert hostile.get("reason") == reason
    if name == "forge":
        assert hostile["answer"] == {"honest": True}
        forged = json.dumps(FORGED)
        assert forged not in harness.done.stdout and harness.done.stderr.count(forged) == 3
        assert f"  | {forged}" in harness.done.stderr  # logged as the parser's output, marked as such


def test_the_parser_gets_the_query_and_a_private_copy_of_the_trace(harness):
    # The first parser scribbles over everything it can reach; the second still reads the recorded trace,
    # in a fresh temp dir.
    scribble = """
import os

def answer(trace, query):
    try:
        os.lseek(0, 0, os.SEEK_SET)
        os.write(0, b" " * 64)  # its own copy of the job
    except OSError:
        pass
    group_dir = os.path.dirname(os.getcwd())
    for name in os.listdir(group_dir):
        if os.path.isfile(os.path.join(group_dir, name)):
            os.unlink(os.path.join(group_dir, name))
    with open(os.path.join(os.environ["TMPDIR"], "left-behind"), "w") as handle:
        handle.write("for the next parser")
    trace["events"].clear()
    return {"query": query}
"""
    report = """
import os, resource, trace as stdlib_trace

def answer(trace, query):
    return {"query": query, "events": len(trace["events"]), "cwd": os.getcwd(), "tmp": os.environ["TMPDIR"],
            "memory": resource.getrlimit(resource.RLIMIT_AS)[0], "trace_module": stdlib_trace.__file__,
            "left": os.listdir(os.environ["TMPDIR"])}
"""
    directory = harness.instance_dir({"prog.py": PROG, "test_good.py": GOOD, "scribble.py": scribble,
                                      "report.py": report})
    query = {"invocation": 1, "extra": ["x" * 200_000]}
    results = harness.run([dict(spec(directory, "scribble", "scribble.py"), query=query),
                           spec(directory, "report", "report.py")])
    assert results["scribble"]["status"] == "ok", results["scribble"].get("reason")
    assert results["scribble"]["answer"] == {"query": query}
    report = results["report"]
    assert report["status"] == "ok", report.get("reason")
    answer = report["answer"]
    assert answer["query"] == {"invocation": 1} and answer["events"] == report["stats"]["events"] > 0
    assert answer["cwd"] == answer["tmp"] and answer["tmp"].endswith("/g0/tmp")
    assert answer["left"] == []  # a fresh temp dir
    assert 4 << 30 <= answer["memory"] < 5 << 30  # parser_child.memory_limit: 4 GiB + 16 bytes per job byte
    assert "tracegate_tracer" not in answer["trace_module"]  # -P: the parser's `import trace` is the stdlib's
