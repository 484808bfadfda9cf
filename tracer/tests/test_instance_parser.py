"""Instances with their own parser.py: answer(trace, query) -> answer."""

PROG = """
def walk(n):
    if n <= 0:
        return 0
    return 1 + walk(n - 1)
"""
TEST = "from prog import walk\ndef test_it():\n    assert walk(3) == 3\n"
DEEPEST = """
def answer(trace, query):
    assert trace["format"] == "tracegate-trace/1"
    fields = trace["event_fields"]["call"]
    depths = [max(d for _inv, d in e[1 + fields.index("owners")]) for e in trace["events"] if e[0] == "call"]
    lines = [e[2] for e in trace["events"] if e[0] == "line" and e[1] == query["invocation"]]
    return {"deepest": max(depths), "lines": lines, "tests": sorted({i["test"] for i in trace["invocations"]})}
"""


def spec(directory, ident, parser, **extra):
    return dict({"id": ident, "dir": str(directory), "tests": ["test_prog.py"], "kind": "S6_InterProceduralCFG",
                 "target": {"file": "prog.py", "function": "walk"}, "query": {"invocation": 2},
                 "parser": parser, "timeout_seconds": 60}, **extra)


def test_parser_answers_from_the_trace_and_failures_stay_with_their_instance(harness):
    directory = harness.instance_dir({
        "prog.py": PROG, "test_prog.py": TEST, "parser.py": DEEPEST,
        "raises.py": "def answer(trace, query):\n    raise KeyError('nope')\n",
        "opaque.py": "def answer(trace, query):\n    return {'when': object()}\n",
        "nan.py": "def answer(trace, query):\n    return float('nan')\n",
    })
    results = harness.run([
        spec(directory, "deepest", "parser.py"),
        spec(directory, "raises", "raises.py"),
        spec(directory, "opaque", "opaque.py"),
        spec(directory, "nan", "nan.py"),
        spec(directory, "outside", "../elsewhere.py"),
        spec(directory, "standard", None, query={"mode": "max_depth", "invocation": 1}),
    ])
    deepest = results["deepest"]
    assert deepest["status"] == "ok", deepest.get("reason")
    # walk(3) -> walk(2) -> walk(1) -> walk(0): three calls below invocation 1.
    assert deepest["answer"] == {"deepest": 3, "lines": [2, 4], "tests": ["test_prog.py::test_it"]}
    assert deepest["question"] is None and deepest["template_answer"] is None
    assert results["raises"]["status"] == "error"
    assert results["raises"]["reason"] == "instance parser raised KeyError: 'nope'"
    for ident in ("opaque", "nan"):
        assert results[ident]["status"] == "error"
        assert results[ident]["reason"] == "instance parser returned a non-JSON value"
    assert results["outside"]["reason"] == "instance parser not found: ../elsewhere.py"
    standard = results["standard"]
    assert standard["answer"] == {"maximum_call_stack_depth": 3} and "`prog.walk`" in standard["question"]


def test_parser_instance_whose_target_never_ran_is_invalid(harness):
    directory = harness.instance_dir({"prog.py": PROG, "test_prog.py": "def test_it():\n    pass\n",
                                      "parser.py": DEEPEST})
    result = harness.run([spec(directory, "idle", "parser.py")])["idle"]
    assert result["status"] == "invalid" and result["reason"] == "target not executed"
