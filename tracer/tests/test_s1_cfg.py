from conftest import lines_of

PROG = '''
def classify(n):
    if n < 0:
        return "negative"
    total = 0
    while n > 0:
        total += n
        n -= 2
    else:
        total = -total
    result = dict(
        total=total,
        sign="positive",
    )
    return result
'''
#  line numbers:  1 def, 2 if, 3 return, 4 total=0, 5 while, 6 total+=, 7 n-=,
#  8 else, 9 total=-total, 10 result = dict( .. 13 ), 14 return
TEST = '''
from prog import classify

def test_classify():
    assert classify(-1) == "negative"
    assert classify(3) == {"total": -4, "sign": "positive"}
'''


def test_early_return_path(harness):
    answer = harness.answer({"prog.py": PROG, "test_prog.py": TEST}, "S1_IntraProceduralCFG", "classify", {"invocation": 1})
    assert lines_of(answer) == [2, 3]
    assert answer["executed_path"][0] == {"file": "prog.py", "func": "prog.classify", "line": 2}


def test_while_else_and_multiline_statement(harness):
    answer = harness.answer({"prog.py": PROG, "test_prog.py": TEST}, "S1_IntraProceduralCFG", "classify", {"invocation": 2})
    # while header repeats each test; the 4-line dict(...) call is one step at line 10.
    assert lines_of(answer) == [2, 4, 5, 6, 7, 5, 6, 7, 5, 9, 10, 14]


RECURSIVE = '''
def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)
'''


def test_recursion_numbers_invocations_by_call_order(harness):
    files = {"prog.py": RECURSIVE, "test_prog.py": "from prog import fact\ndef test_it():\n    assert fact(3) == 6\n"}
    assert lines_of(harness.answer(files, "S1_IntraProceduralCFG", "fact", {"invocation": 1})) == [2, 4]
    assert lines_of(harness.answer(files, "S1_IntraProceduralCFG", "fact", {"invocation": 3})) == [2, 3]


def test_invocation_not_reached_is_invalid(harness):
    files = {"prog.py": RECURSIVE, "test_prog.py": "from prog import fact\ndef test_it():\n    assert fact(2) == 2\n"}
    spec = {"id": "x", "dir": str(harness.instance_dir(files)), "tests": ["test_prog.py"], "kind": "S1_IntraProceduralCFG",
            "target": {"file": "prog.py", "function": "fact"}, "query": {"invocation": 5}}
    result = harness.run([spec])["x"]
    assert result["status"] == "invalid"
    assert "invocation 5 not reached" in result["reason"]


def test_method_of_generator_target_and_context(harness):
    prog = '''
    import functools

    class Box:
        @functools.lru_cache(maxsize=None)
        def items(self, n):
            for i in range(n):
                yield i * 2
            return "done"
    '''
    test = "from prog import Box\ndef test_it():\n    assert list(Box().items(2)) == [0, 2]\n"
    files = {"prog.py": prog, "test_prog.py": test}
    spec = {"id": "g", "dir": str(harness.instance_dir(files)), "tests": ["test_prog.py"], "kind": "S1_IntraProceduralCFG",
            "target": {"file": "prog.py", "function": "Box.items"}, "query": {"invocation": 1}}
    result = harness.run([spec])["g"]
    assert result["status"] == "ok", result.get("reason")
    # One invocation although the generator was resumed twice.
    assert result["stats"]["invocations"] == 1
    assert lines_of(result["answer"]) == [6, 7, 6, 7, 6, 8]
    assert result["context"]["func"] == "prog.Box.items"
    assert result["context"]["first_line"] == 4
    assert result["context"]["source"].startswith("    @functools.lru_cache")
