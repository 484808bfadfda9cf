PROG = '''
def grid(rows, cols):
    cells = []
    for r in range(rows):
        c = 0
        while c < cols:
            c += 1
            if c == 2:
                continue
            cells.append((r, c))
    return cells
'''
# 1 def, 2 cells, 3 for, 4 c=0, 5 while, 6 c+=1, 7 if, 8 continue, 9 append, 10 return
TEST = "from prog import grid\ndef test_it():\n    assert len(grid(3, 4)) == 9\n"


def test_outer_loop_counts_body_entries(harness):
    files = {"prog.py": PROG, "test_prog.py": TEST}
    answer = harness.answer(files, "S2_Loops", "grid", {"invocation": 1, "loop_line": 3})
    assert answer == {"loop_iteration_count": 3}


def test_nested_while_with_continue(harness):
    files = {"prog.py": PROG, "test_prog.py": TEST}
    answer = harness.answer(files, "S2_Loops", "grid", {"invocation": 1, "loop_line": 5})
    assert answer == {"loop_iteration_count": 12}


def test_loop_over_empty_iterable_and_not_a_loop(harness):
    files = {"prog.py": PROG, "test_prog.py": "from prog import grid\ndef test_it():\n    assert grid(0, 4) == []\n"}
    assert harness.answer(files, "S2_Loops", "grid", {"invocation": 1, "loop_line": 3}) == {"loop_iteration_count": 0}
    spec = {"id": "x", "dir": str(harness.instance_dir(files, "other")), "tests": ["test_prog.py"], "kind": "S2_Loops",
            "target": {"file": "prog.py", "function": "grid"}, "query": {"invocation": 1, "loop_line": 2}}
    result = harness.run([spec])["x"]
    assert result["status"] == "invalid" and "not a for/while loop header" in result["reason"]
