"""Scanning APIs in pyparsing: scan_string, search_string, transform_string, SkipTo, parse actions."""
import pytest
import pyparsing as pp

NUMBER = pp.Word(pp.nums)
IDENT = pp.Word(pp.alphas + "_", pp.alphanums + "_")


def test_scan_string_positions():
    hits = [(t[0], s, e) for t, s, e in NUMBER.scan_string("a1 bb22 ccc333")]
    assert hits == [("1", 1, 2), ("22", 5, 7), ("333", 11, 14)]


def test_scan_string_max_matches():
    hits = list(NUMBER.scan_string("1 2 3 4 5 6", max_matches=3))
    assert [t[0] for t, _, _ in hits] == ["1", "2", "3"]
    assert hits[-1][2] == 5


def test_search_string_collects_groups():
    call = IDENT("fn") + pp.Suppress("(") + pp.Opt(pp.DelimitedList(IDENT))("args") + pp.Suppress(")")
    found = call.search_string("x = foo(a, b) + bar() * baz(c)")
    assert [r.fn for r in found] == ["foo", "bar", "baz"]
    assert [len(r.args) for r in found] == [2, 0, 1]


def test_transform_string_replaces_matches():
    upper = IDENT.copy().set_parse_action(lambda t: t[0].upper())
    assert upper.transform_string("ab 12 cd_3 !") == "AB 12 CD_3 !"
    doubled = NUMBER.copy().add_parse_action(lambda t: str(int(t[0]) * 2))
    assert doubled.transform_string("x1 y20 z300") == "x2 y40 z600"


def test_suppress_in_transform():
    comment = pp.Suppress(pp.python_style_comment)
    text = "a = 1  # one\nb = 2 # two\nc = 3"
    assert comment.transform_string(text) == "a = 1  \nb = 2 \nc = 3"


def test_skip_to_with_include_and_fail_on():
    body = pp.SkipTo(";", include=True)
    r = body.parse_string("select * from t; rest")
    assert r.as_list() == ["select * from t", ";"]
    guarded = pp.SkipTo(";", fail_on="#")
    assert guarded.parse_string("abc;")[0] == "abc"
    # fail_on stops the skip early, so the following ';' cannot match
    assert guarded.parse_string("ab # cd;")[0] == "ab"
    with pytest.raises(pp.ParseException) as info:
        (guarded + ";").parse_string("ab # cd;")
    assert info.value.loc == 3


def test_skip_to_ignore_quoted():
    stmt = pp.SkipTo(";", ignore=pp.quoted_string) + pp.Suppress(";")
    r = stmt[1, ...].parse_string("print 'a;b'; x = \"c;d\";")
    assert r.as_list() == ["print 'a;b'", 'x = "c;d"']


def test_conditions_filter_matches():
    small = NUMBER.copy().add_condition(lambda t: int(t[0]) < 50)
    hits = [t[0] for t, _, _ in small.scan_string("10 75 42 99 3")]
    # scanning resumes one character later after a failed condition
    assert hits == ["10", "5", "42", "9", "3"]
    whole = pp.Word(pp.nums, as_keyword=True).add_condition(lambda t: int(t[0]) < 50)
    assert [t[0] for t, _, _ in whole.scan_string("10 75 42 99 3")] == ["10", "42", "3"]
    with pytest.raises(pp.ParseException):
        small.parse_string("60")


def test_parse_action_receives_location():
    seen = []

    def record(s, loc, toks):
        seen.append((loc, pp.lineno(loc, s), pp.col(loc, s), toks[0]))

    word = pp.Word(pp.alphas).add_parse_action(record)
    word[1, ...].parse_string("ab cd\n  ef")
    assert seen == [(0, 1, 1, "ab"), (3, 1, 4, "cd"), (8, 2, 3, "ef")]


def test_parse_action_raising_parse_exception_backtracks():
    def reject_reserved(s, loc, toks):
        if toks[0] in ("if", "then"):
            raise pp.ParseException(s, loc, "reserved word")

    name = pp.Word(pp.alphas).add_parse_action(reject_reserved)
    stmt = (pp.Keyword("if") + name + pp.Keyword("then") + name) | name[1, ...]
    assert stmt.parse_string("if a then b").as_list() == ["if", "a", "then", "b"]
    assert stmt.parse_string("x y z").as_list() == ["x", "y", "z"]
    with pytest.raises(pp.ParseException):
        stmt.parse_string("then", parse_all=True)


def test_line_helpers():
    text = "first\nsecond line\nthird"
    loc = text.index("line")
    assert pp.lineno(loc, text) == 2
    assert pp.col(loc, text) == 8
    assert pp.line(loc, text) == "second line"
