"""A value cut at the cap is never an oracle; `max_value_chars` raises the cap."""

PROG = '''
def grow(n):
    text = "x" * n
    items = list(range(n))
    if n > 100:
        raise ValueError("y" * n)
    return text
'''
TEST = '''
import pytest
from prog import grow

def test_it():
    with pytest.raises(ValueError):
        grow(600)
'''


def spec(directory, ident, kind, query):
    return {"id": ident, "dir": str(directory), "tests": ["test_prog.py"], "kind": kind,
            "target": {"file": "prog.py", "function": "grow"}, "query": query, "timeout_seconds": 60}


def test_cut_values_make_the_answer_invalid_and_the_cap_is_per_instance(harness):
    parser = "def answer(trace, query):\n    return {'seen': [e[3] for e in trace['events'] if e[0] == 'line']}\n"
    directory = harness.instance_dir({"prog.py": PROG, "test_prog.py": TEST, "parser.py": parser})
    text = {"line": 3, "hit": 1, "variables": ["text"]}
    results = harness.run([
        spec(directory, "text", "S3_ProgramState", text),
        spec(directory, "items", "M3_ProgramState", {"mode": "unique", "variable": "items"}),
        spec(directory, "message", "S5_Exceptions", {"mode": "escaping", "invocation": 1}),
        spec(directory, "n", "S3_ProgramState", {"line": 3, "hit": 1, "variables": ["n"]}),
        spec(directory, "raised", "S3_ProgramState", dict(text, max_value_chars=2000)),
        spec(directory, "message-raised", "S5_Exceptions", {"mode": "escaping", "invocation": 1,
                                                            "max_value_chars": 700}),
        dict(spec(directory, "parser", "S3_ProgramState", text), parser="parser.py"),
        spec(directory, "zero", "S3_ProgramState", dict(text, max_value_chars=0)),
        spec(directory, "word", "S3_ProgramState", dict(text, max_value_chars="big")),
    ])
    for ident in ("text", "items", "message", "parser"):
        assert results[ident]["status"] == "invalid", results[ident]
        reason = results[ident]["reason"]
        assert reason.startswith("a value was cut at 500 characters (")
        assert "`max_value_chars` in the instance's query raises the cap" in reason
    # `text` is cut in the shared recording, but this answer does not contain it.
    assert results["n"]["status"] == "ok"
    assert results["n"]["answer"] == {"observed_state": [{"variable": "n", "value": "600"}]}
    raised = results["raised"]
    assert raised["status"] == "ok", raised.get("reason")
    assert raised["answer"] == {"observed_state": [{"variable": "text", "value": repr("x" * 600)}]}
    assert "capped at 2000 characters" in raised["question"]
    assert "capped at 500 characters" in results["text"]["question"]
    assert results["message-raised"]["answer"] == {"exception_type": "ValueError", "exception_message": "y" * 600}
    for ident, bad in (("zero", "0"), ("word", "'big'")):
        assert results[ident]["status"] == "invalid"
        assert results[ident]["reason"] == "query key max_value_chars must be an integer from 1 to 20000, got " + bad

