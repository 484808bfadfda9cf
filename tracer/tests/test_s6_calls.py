PROG = '''
def numbers(n):
    for i in range(n):
        yield i

def double(x):
    return helper(x) * 2

def helper(x):
    return x

def walk(n):
    total = 0
    for value in numbers(n):
        total += double(value)
    squares = [v * v for v in range(3)]
    return total + len(squares)
'''
TEST = "from prog import walk\ndef test_it():\n    assert walk(2) == 5\n"


def test_generator_resumptions_are_not_calls(harness):
    files = {"prog.py": PROG, "test_prog.py": TEST}
    answer = harness.answer(files, "S6_InterProceduralCFG", "walk", {"invocation": 1, "include": ["prog."], "scope": "direct"})
    # numbers() is called once (its first next()); resumptions and the list
    # comprehension's frame do not count; helper is not a direct callee.
    assert [c["func"] for c in answer["function_call_order"]] == ["prog.numbers", "prog.double", "prog.double"]
    assert answer["function_call_order"][0]["file"] == "prog.py"


def test_transitive_scope_includes_nested_callees(harness):
    files = {"prog.py": PROG, "test_prog.py": TEST}
    answer = harness.answer(files, "S6_InterProceduralCFG", "walk", {"invocation": 1, "include": ["prog.d", "prog.h"], "scope": "transitive"})
    assert [c["func"] for c in answer["function_call_order"]] == ["prog.double", "prog.helper", "prog.double", "prog.helper"]


def test_recursive_calls_belong_to_every_enclosing_invocation(harness):
    prog = '''
    def depth(node):
        if not node:
            return 0
        return 1 + max(depth(child) for child in node)
    '''
    files = {"prog.py": prog, "test_prog.py": "from prog import depth\ndef test_it():\n    assert depth([[], [[]]]) == 3\n"}
    answer = harness.answer(files, "S6_InterProceduralCFG", "depth", {"invocation": 1, "include": ["prog."], "scope": "transitive"})
    funcs = [c["func"] for c in answer["function_call_order"]]
    assert funcs.count("prog.depth") == 3
    assert funcs[0] == "prog.depth.<locals>.<genexpr>"
    direct = harness.answer(files, "S6_InterProceduralCFG", "depth", {"invocation": 1, "include": ["prog."], "scope": "direct"})
    assert [c["func"] for c in direct["function_call_order"]] == ["prog.depth.<locals>.<genexpr>"]
