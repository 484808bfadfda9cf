"""Recursive grammars with pyparsing.Forward, error stop markers and fatal exceptions."""
import pytest
import pyparsing as pp

LPAR, RPAR, LBRACK, RBRACK, COMMA, COLON = map(pp.Suppress, "()[],:")


def make_json():
    value = pp.Forward()
    string = pp.QuotedString('"')
    number = pp.pyparsing_common.number
    true = pp.Keyword("true").set_parse_action(pp.replace_with(True))
    false = pp.Keyword("false").set_parse_action(pp.replace_with(False))
    null = pp.Keyword("null").set_parse_action(pp.replace_with(None))
    array = pp.Group(LBRACK + pp.Opt(pp.DelimitedList(value)) + RBRACK)
    member = pp.Group(string + COLON + value)
    obj = pp.Dict(pp.Suppress("{") + pp.Opt(pp.DelimitedList(member)) + pp.Suppress("}"))
    value <<= string | number | true | false | null | array | pp.Group(obj)
    return value


JSON = make_json()


def test_json_scalars_and_arrays():
    assert JSON.parse_string("[1, 2.5, \"x\", true, null]", parse_all=True).as_list() == [[1, 2.5, "x", True, None]]
    assert JSON.parse_string("[[1, [2]], []]", parse_all=True).as_list() == [[[1, [2]], []]]


def test_json_objects_as_dict():
    r = JSON.parse_string('{"a": 1, "b": {"c": [false, 3]}, "d": "e"}', parse_all=True)
    d = r[0].as_dict()
    assert d["a"] == 1
    assert d["d"] == "e"
    assert d["b"]["c"] == [False, 3]


def test_json_invalid_raises():
    with pytest.raises(pp.ParseException):
        JSON.parse_string("[1, 2", parse_all=True)
    with pytest.raises(pp.ParseException):
        JSON.parse_string('{"a" 1}', parse_all=True)


def sexpr():
    expr = pp.Forward()
    atom = pp.Word(pp.alphanums + "+-*/")
    expr <<= atom | pp.Group(LPAR + expr[...] + RPAR)
    return expr


def test_sexpr_depth_and_count():
    expr = sexpr()
    r = expr.parse_string("(define (sq x) (* x x))", parse_all=True).as_list()
    assert r == [["define", ["sq", "x"], ["*", "x", "x"]]]

    def count_atoms(node):
        if isinstance(node, str):
            return 1
        return sum(count_atoms(n) for n in node)

    assert count_atoms(r) == 6
    assert expr.parse_string("((()))", parse_all=True).as_list() == [[[[]]]]


def test_error_stop_gives_syntax_exception():
    stmt = pp.Keyword("let") - pp.Word(pp.alphas) + pp.Suppress("=") + pp.Word(pp.nums)
    prog = stmt[1, ...]
    assert prog.parse_string("let a = 1 let b = 2").as_list() == ["let", "a", "1", "let", "b", "2"]
    with pytest.raises(pp.ParseSyntaxException) as info:
        prog.parse_string("let a = 1 let 9 = 2")
    assert info.value.loc == 14


def test_fatal_exception_from_parse_action():
    def no_zero(s, loc, toks):
        if toks[0] == "0":
            raise pp.ParseFatalException(s, loc, "zero not allowed")

    num = pp.Word(pp.nums).add_parse_action(no_zero)
    alt = num | pp.Word(pp.alphanums)
    assert alt.parse_string("5")[0] == "5"
    with pytest.raises(pp.ParseFatalException) as info:
        alt.parse_string("0")
    assert "zero not allowed" in str(info.value)


def test_forward_right_recursive_chain():
    term = pp.Forward()
    num = pp.Word(pp.nums).set_parse_action(lambda t: int(t[0]))
    term <<= pp.Group(num + pp.Opt(pp.Suppress("*") + term))

    def product(node):
        result = 1
        while True:
            result *= node[0]
            if len(node) < 2:
                return result
            node = node[1]

    assert product(term.parse_string("2 * 3 * 4")[0]) == 24
    assert product(term.parse_string("7")[0]) == 7
    assert term.parse_string("1 * 2 * 3").as_list() == [[1, [2, [3]]]]


def test_validate_and_streamline_repr():
    expr = sexpr()
    expr.streamline()
    assert "Forward" in type(expr).__name__
    named = pp.Word(pp.nums).set_name("integer")
    with pytest.raises(pp.ParseException) as info:
        named.parse_string("abc")
    assert "integer" in str(info.value)


def test_located_and_indented_block():
    loc = pp.Located(pp.Word(pp.alphas))
    r = loc.parse_string("   hello")
    assert r.as_list() == [3, ["hello"], 8]
    assert (r.locn_start, r.locn_end) == (3, 8)
    body = pp.IndentedBlock(pp.Word(pp.alphas))
    block = pp.Word(pp.alphas) + pp.Suppress(":") + body
    text = "head:\n  a\n  b\n  c\n"
    out = block.parse_string(text)
    assert out[0] == "head"
    assert out[1].as_list() == ["a", "b", "c"]


def test_exception_explain_and_markers():
    grammar = pp.Word(pp.alphas)("name") + pp.Literal("=") + pp.Word(pp.nums)("value")
    with pytest.raises(pp.ParseException) as info:
        grammar.parse_string("abc = x")
    err = info.value
    assert err.column == 7
    assert err.mark_input_line(marker_string="^").endswith("^x")
    explained = err.explain(depth=0)
    assert "Expected W:(0-9)" in explained
