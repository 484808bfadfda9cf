PROG = '''
class ParseError(Exception):
    pass

def parse(text):
    if not text:
        raise ParseError("empty input")
    return int(text)

def load(text):
    try:
        value = parse(text)
    except ValueError:
        value = -1
    try:
        {}["missing"]
    except KeyError:
        pass
    finally:
        value += 1
    try:
        if value == 0:
            parse("")
    finally:
        value = 99
    return value
'''
TEST = '''
import pytest
from prog import load, ParseError
def test_it():
    assert load("7") == 99
    with pytest.raises(ParseError):
        load("x")
'''


def test_caught_kinds_cross_frames_and_skip_finally_reraise(harness):
    files = {"prog.py": PROG, "test_prog.py": TEST}
    answer = harness.answer(files, "S5_Exceptions", "load", {"mode": "caught_kinds"})
    # ValueError comes from int() inside parse(); ParseError only passes through
    # load's try/finally, so it is not caught there.
    assert answer == {"caught_exception_kinds": ["KeyError", "ValueError"]}


def test_escaping_exception_of_an_invocation(harness):
    files = {"prog.py": PROG, "test_prog.py": TEST}
    answer = harness.answer(files, "S5_Exceptions", "load", {"mode": "escaping", "invocation": 2})
    assert answer == {"exception_type": "prog.ParseError", "exception_message": "empty input"}


def test_reraise_is_not_caught_but_replacement_is(harness):
    prog = '''
    def convert(raw):
        try:
            return int(raw)
        except ValueError:
            if raw == "again":
                raise
            raise LookupError("bad %s" % raw) from None
    '''
    test = '''
    import pytest
    from prog import convert
    def test_it():
        with pytest.raises(ValueError):
            convert("again")
        with pytest.raises(LookupError):
            convert("zz")
    '''
    files = {"prog.py": prog, "test_prog.py": test}
    assert harness.answer(files, "S5_Exceptions", "convert", {"mode": "caught_kinds"}) == {"caught_exception_kinds": ["ValueError"]}
    assert harness.answer(files, "S5_Exceptions", "convert", {"mode": "escaping", "invocation": 1}) == {
        "exception_type": "ValueError", "exception_message": "invalid literal for int() with base 10: 'again'"}
    assert harness.answer(files, "S5_Exceptions", "convert", {"mode": "escaping", "invocation": 2}) == {
        "exception_type": "LookupError", "exception_message": "bad zz"}


def test_no_escaping_exception_is_invalid(harness):
    files = {"prog.py": PROG, "test_prog.py": TEST}
    spec = {"id": "x", "dir": str(harness.instance_dir(files)), "tests": ["test_prog.py"], "kind": "S5_Exceptions",
            "target": {"file": "prog.py", "function": "load"}, "query": {"mode": "escaping", "invocation": 1}}
    result = harness.run([spec])["x"]
    assert result["status"] == "invalid" and "no escaping exception" in result["reason"]
