PROG = '''
def sign(x):
    if x > 0:
        return 1
    elif x < 0:
        return -1
    return 0
'''
# 1 def, 2 if, 3 return 1, 4 elif, 5 return -1, 6 return 0


def test_union_over_all_tests(harness):
    test = "from prog import sign\ndef test_pos():\n    assert sign(5) == 1\ndef test_neg():\n    assert sign(-5) == -1\n"
    files = {"prog.py": PROG, "test_prog.py": test}
    assert harness.answer(files, "M1_IntraProceduralCFG", "sign", {}) == {"covered_lines": [2, 3, 4, 5]}


def test_only_selected_tests_count(harness):
    test = "from prog import sign\ndef test_pos():\n    assert sign(5) == 1\ndef test_zero():\n    assert sign(0) == 0\n"
    files = {"prog.py": PROG, "test_prog.py": test}
    answer = harness.answer(files, "M1_IntraProceduralCFG", "sign", {}, test="test_prog.py::test_zero")
    assert answer == {"covered_lines": [2, 4, 6]}
