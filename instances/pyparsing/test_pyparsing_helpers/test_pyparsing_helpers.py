"""pyparsing helpers: infix_notation, nested_expr, DelimitedList, counted_array, one_of, common."""
import pytest
import pyparsing as pp
from pyparsing import pyparsing_common as ppc

OPERAND = ppc.integer | pp.Word(pp.alphas)
ARITH = pp.infix_notation(OPERAND, [
    (pp.one_of("- +"), 1, pp.OpAssoc.RIGHT),
    ("^", 2, pp.OpAssoc.RIGHT),
    (pp.one_of("* /"), 2, pp.OpAssoc.LEFT),
    (pp.one_of("+ -"), 2, pp.OpAssoc.LEFT),
])


def evaluate(node):
    if isinstance(node, int):
        return node
    if len(node) == 2:
        return -evaluate(node[1]) if node[0] == "-" else evaluate(node[1])
    if node[1] == "^":
        result = evaluate(node[-1])
        for i in range(len(node) - 3, -1, -2):
            result = evaluate(node[i]) ** result
        return result
    acc = evaluate(node[0])
    for i in range(1, len(node), 2):
        rhs = evaluate(node[i + 1])
        acc = {"+": acc + rhs, "-": acc - rhs, "*": acc * rhs, "/": acc // rhs}[node[i]]
    return acc


def test_infix_precedence():
    assert ARITH.parse_string("1 + 2 * 3", parse_all=True).as_list() == [[1, "+", [2, "*", 3]]]
    assert evaluate(ARITH.parse_string("(1 + 2) * 3 - 4", parse_all=True)[0]) == 5
    assert evaluate(ARITH.parse_string("2 ^ 3 ^ 2", parse_all=True)[0]) == 512
    assert evaluate(ARITH.parse_string("-3 * 4 + 20 / 5", parse_all=True)[0]) == -8


def test_infix_errors():
    with pytest.raises(pp.ParseException):
        ARITH.parse_string("1 + * 2", parse_all=True)
    with pytest.raises(pp.ParseException):
        ARITH.parse_string("(1 + 2", parse_all=True)


def test_nested_expr_depth():
    nested = pp.nested_expr("(", ")")
    r = nested.parse_string("(a (b (c d)) e)")
    assert r.as_list() == [["a", ["b", ["c", "d"]], "e"]]
    depth, node = 0, r.as_list()
    while isinstance(node, list) and node:
        lists = [x for x in node if isinstance(x, list)]
        if not lists:
            break
        node = lists[0]
        depth += 1
    assert depth == 3
    braces = pp.nested_expr("{", "}")
    assert braces.parse_string("{x {y} {z {w}}}").as_list() == [["x", ["y"], ["z", ["w"]]]]


def test_delimited_list_variants():
    nums = pp.DelimitedList(ppc.integer)
    assert nums.parse_string("1, 2,3 , 4").as_list() == [1, 2, 3, 4]
    keep = pp.DelimitedList(pp.Word(pp.alphas), delim=";", combine=True)
    assert keep.parse_string("a;b;c").as_list() == ["a;b;c"]
    bounded = pp.DelimitedList(ppc.integer, min=2, max=3)
    assert bounded.parse_string("7,8,9,10").as_list() == [7, 8, 9]
    with pytest.raises(pp.ParseException):
        bounded.parse_string("5")


def test_counted_array():
    arr = pp.counted_array(pp.Word(pp.alphas))
    assert arr.parse_string("3 a b c d").as_list() == ["a", "b", "c"]
    assert arr.parse_string("1 z y").as_list() == ["z"]
    with pytest.raises(pp.ParseException):
        arr.parse_string("4 a b")


def test_one_of_longest_first():
    ops = pp.one_of("< <= > >= = != <>")
    assert [ops.parse_string(s)[0] for s in ["<=", "<>", "<", ">=", "!="]] == ["<=", "<>", "<", ">=", "!="]
    caseless = pp.one_of("AND OR NOT", caseless=True)
    assert caseless.parse_string("or")[0] == "OR"


def test_common_numbers_and_ids():
    assert ppc.number.parse_string("3.25")[0] == pytest.approx(3.25)
    assert ppc.number.parse_string("-17")[0] == -17
    assert ppc.fnumber.parse_string("1e3")[0] == pytest.approx(1000.0)
    assert ppc.identifier.parse_string("_abc9 rest")[0] == "_abc9"
    assert ppc.ipv4_address.parse_string("192.168.0.1")[0] == "192.168.0.1"
    with pytest.raises(pp.ParseException):
        ppc.ipv4_address.parse_string("999.1.1.1", parse_all=True)


def test_common_iso_date_and_uuid():
    r = ppc.iso8601_date.parse_string("2020-02-29")
    assert (r.year, r.month, r.day) == ("2020", "02", "29")
    u = ppc.uuid.parse_string("12345678-1234-5678-1234-567812345678")
    assert u[0].count("-") == 4
    hexnum = ppc.hex_integer.parse_string("ff")
    assert hexnum[0] == 255


def test_quoted_strings_and_comments():
    q = pp.QuotedString('"', esc_char="\\")
    assert q.parse_string(r'"he said \"hi\""')[0] == 'he said "hi"'
    sq = pp.sgl_quoted_string
    assert sq.parse_string("'abc'")[0] == "'abc'"
    code = pp.Word(pp.alphas)[1, ...].ignore(pp.c_style_comment)
    assert code.parse_string("a /* skip */ b /* x */ c").as_list() == ["a", "b", "c"]


def test_original_text_for_and_combine():
    expr = pp.original_text_for(pp.Word(pp.alphas) + "(" + pp.Word(pp.nums) + ")")
    assert expr.parse_string("f ( 10 )")[0] == "f ( 10 )"
    real = pp.Combine(pp.Word(pp.nums) + "." + pp.Word(pp.nums))
    assert real.parse_string("3.14")[0] == "3.14"
    with pytest.raises(pp.ParseException):
        real.parse_string("3 . 14")
