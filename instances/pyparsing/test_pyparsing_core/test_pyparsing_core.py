"""Core pyparsing combinators: Word, Literal, And, Or, MatchFirst, Each, repetition."""
import pytest
import pyparsing as pp


def test_word_and_sequence():
    ident = pp.Word(pp.alphas, pp.alphanums + "_")
    number = pp.Word(pp.nums)
    assign = ident + pp.Suppress("=") + number
    assert assign.parse_string("abc = 42").as_list() == ["abc", "42"]
    assert assign.parse_string("x_1=7").as_list() == ["x_1", "7"]
    with pytest.raises(pp.ParseException) as info:
        assign.parse_string("9x = 1")
    assert info.value.loc == 0


def test_word_min_max_exact():
    two = pp.Word(pp.nums, exact=2)
    assert (two[1, ...]).parse_string("12 34 56").as_list() == ["12", "34", "56"]
    short = pp.Word("ab", min=2, max=3)
    assert short.parse_string("abab")[0] == "aba"
    with pytest.raises(pp.ParseException):
        short.parse_string("a")


def test_match_first_vs_or_longest():
    first = pp.Literal("a") | pp.Literal("ab") | pp.Literal("abc")
    longest = pp.Literal("a") ^ pp.Literal("ab") ^ pp.Literal("abc")
    assert first.parse_string("abc")[0] == "a"
    assert longest.parse_string("abc")[0] == "abc"
    assert longest.parse_string("abx")[0] == "ab"
    with pytest.raises(pp.ParseException):
        longest.parse_string("x")


def test_keyword_vs_literal():
    kw = pp.Keyword("if")
    lit = pp.Literal("if")
    assert lit.parse_string("iffy")[0] == "if"
    with pytest.raises(pp.ParseException):
        kw.parse_string("iffy")
    assert kw.parse_string("if x")[0] == "if"
    ckw = pp.CaselessKeyword("select")
    assert ckw.parse_string("SELECT *")[0] == "select"


def test_repetition_counts():
    item = pp.Word(pp.alphas)
    assert len(pp.OneOrMore(item).parse_string("a b c d e")) == 5
    assert len(pp.ZeroOrMore(item).parse_string("123")) == 0
    assert item[2, 3].parse_string("a b c d").as_list() == ["a", "b", "c"]
    with pytest.raises(pp.ParseException):
        item[3, 4].parse_string("a b")


def test_parse_all_rejects_trailing():
    expr = pp.Word(pp.nums)[1, ...]
    assert expr.parse_string("1 2 3 x").as_list() == ["1", "2", "3"]
    with pytest.raises(pp.ParseException) as info:
        expr.parse_string("1 2 3 x", parse_all=True)
    assert info.value.loc == 6
    assert info.value.column == 7


def test_optional_and_default():
    sign = pp.Opt(pp.one_of("+ -"), default="+")
    num = sign + pp.Word(pp.nums)
    assert num.parse_string("-5").as_list() == ["-", "5"]
    assert num.parse_string("12").as_list() == ["+", "12"]
    assert num.parse_string("+3").as_list() == ["+", "3"]


def test_each_any_order():
    color = pp.Keyword("color") + pp.Word(pp.alphas)("color")
    size = pp.Keyword("size") + pp.Word(pp.nums)("size")
    opts = pp.Each([color, pp.Opt(size)])
    r1 = opts.parse_string("size 3 color red")
    assert (r1.color, r1.size) == ("red", "3")
    r2 = opts.parse_string("color blue")
    assert r2.color == "blue" and r2.size == ""
    with pytest.raises(pp.ParseException):
        opts.parse_string("size 4")


def test_not_any_and_followed_by():
    reserved = pp.Keyword("end")
    ident = ~reserved + pp.Word(pp.alphas)
    body = ident[...] + reserved
    assert body.parse_string("a b c end").as_list() == ["a", "b", "c", "end"]
    lookahead = pp.Word(pp.alphas) + pp.FollowedBy("(")
    assert lookahead.parse_string("f(x)").as_list() == ["f"]
    with pytest.raises(pp.ParseException):
        lookahead.parse_string("f x")


def test_regex_and_char_sets():
    hexnum = pp.Regex(r"0x[0-9a-fA-F]+")
    chars = pp.Char("xyz")[1, ...]
    assert hexnum.parse_string("0x1F")[0] == "0x1F"
    assert chars.parse_string("xzy").as_list() == ["x", "z", "y"]
    named = pp.Regex(r"(?P<key>\w+):(?P<val>\d+)")
    r = named.parse_string("depth:12")
    assert r["key"] == "depth" and r["val"] == "12"
    with pytest.raises(pp.ParseException):
        hexnum.parse_string("0xZ")


def test_error_lines_and_explain():
    grammar = pp.Word(pp.alphas) + pp.Literal(";")
    with pytest.raises(pp.ParseException) as info:
        grammar.parse_string("abc\n  def", parse_all=True)
    err = info.value
    assert err.lineno == 2
    assert err.col == 3
    assert err.line == "  def"
    assert "Expected ';'" in str(err)
