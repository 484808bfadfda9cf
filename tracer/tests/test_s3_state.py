PROG = '''
def make_counter(start):
    count = start
    def bump(step):
        nonlocal count
        count += step
        label = "n=%d" % count
        return label
    return bump
'''
# 1 def make_counter, 2 count=, 3 def bump, 4 nonlocal, 5 count+=, 6 label=, 7 return
TEST = '''
from prog import make_counter
def test_it():
    bump = make_counter(10)
    bump(1)
    bump(5)
'''


def test_state_after_kth_hit_across_invocations_with_closure(harness):
    files = {"prog.py": PROG, "test_prog.py": TEST}
    query = {"line": 5, "hit": 2, "variables": ["step", "label", "count"]}
    answer = harness.answer(files, "S3_ProgramState", "make_counter.<locals>.bump", query)
    assert answer == {"observed_state": [
        {"variable": "count", "value": "16"},
        {"variable": "label", "value": "<unbound>"},
        {"variable": "step", "value": "5"},
    ]}


def test_state_after_last_line_is_observed_at_return(harness):
    files = {"prog.py": PROG, "test_prog.py": TEST}
    query = {"line": 7, "hit": 2, "variables": ["label", "count"]}
    answer = harness.answer(files, "S3_ProgramState", "make_counter.<locals>.bump", query)
    assert answer == {"observed_state": [{"variable": "count", "value": "16"}, {"variable": "label", "value": "'n=16'"}]}


def test_repr_is_bounded_and_has_no_addresses(harness):
    prog = '''
    def hold():
        thing = object()
        big = "x" * 2000
        return thing
    '''
    files = {"prog.py": prog, "test_prog.py": "from prog import hold\ndef test_it():\n    hold()\n"}
    answer = harness.answer(files, "S3_ProgramState", "hold", {"line": 3, "hit": 1, "variables": ["big", "thing"]})
    big, thing = (entry["value"] for entry in answer["observed_state"])
    assert len(big) == 500 and big.endswith("…")
    assert thing == "<object object at 0x…>"
