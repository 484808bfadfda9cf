"""pyparsing.results.ParseResults: names, groups, dicts, conversion and dumping."""
import pytest
import pyparsing as pp

KEY = pp.Word(pp.alphas)
VAL = pp.Word(pp.alphanums)
PAIR = pp.Group(KEY("key") + pp.Suppress("=") + VAL("value"))


def test_named_results_access():
    date = pp.Word(pp.nums, exact=4)("year") + "-" + pp.Word(pp.nums, exact=2)("month") + "-" + pp.Word(pp.nums, exact=2)("day")
    r = date.parse_string("2021-03-09")
    assert r.year == "2021" and r["month"] == "03" and r.get("day") == "09"
    assert r.get("hour", "none") == "none"
    assert sorted(r.keys()) == ["day", "month", "year"]
    assert len(r) == 5


def test_group_nesting_as_list():
    pairs = pp.DelimitedList(PAIR)
    r = pairs.parse_string("a=1, b=2, c=x3")
    assert r.as_list() == [["a", "1"], ["b", "2"], ["c", "x3"]]
    assert [g.key for g in r] == ["a", "b", "c"]
    assert r[2].value == "x3"


def test_dict_of_groups():
    table = pp.Dict(pp.OneOrMore(pp.Group(KEY + pp.Suppress(":") + VAL)))
    r = table.parse_string("host: local port: 80 mode: fast")
    d = r.as_dict()
    assert d == {"host": "local", "port": "80", "mode": "fast"}
    assert r["port"] == "80"
    assert list(r.keys()) == ["host", "port", "mode"]


def test_list_all_matches():
    item = pp.Word(pp.nums)("n*")
    other = pp.Word(pp.nums)("last")
    expr = pp.OneOrMore(item)
    r = expr.parse_string("1 2 3 4")
    assert r.n.as_list() == ["1", "2", "3", "4"]
    expr2 = pp.OneOrMore(other)
    assert expr2.parse_string("5 6 7").last == "7"
    expr3 = pp.OneOrMore(pp.Word(pp.nums).set_results_name("all", list_all_matches=True))
    assert expr3.parse_string("8 9").all.as_list() == ["8", "9"]


def test_as_dict_nested():
    inner = pp.Group(KEY("k") + VAL("v"))
    outer = KEY("name") + pp.Suppress("{") + pp.Group(inner[1, ...])("items") + pp.Suppress("}")
    r = outer.parse_string("cfg { a 1 b 2 }")
    d = r.as_dict()
    assert d["name"] == "cfg"
    assert [list(x.items()) for x in r["items"]] == [[("k", "a"), ("v", "1")], [("k", "b"), ("v", "2")]]
    assert len(r["items"]) == 2


def test_results_mutation():
    r = pp.Word(pp.alphas)[1, ...].parse_string("a b c")
    r.append("d")
    r.insert(0, "z")
    r["tag"] = "T"
    assert r.as_list() == ["z", "a", "b", "c", "d"]
    assert r.pop() == "d"
    assert r.pop(0) == "z"
    assert r.tag == "T"
    del r[0]
    assert r.as_list() == ["b", "c"]
    r.extend(["e", "f"])
    assert len(r) == 4


def test_dump_lists_names():
    expr = KEY("first") + pp.Group(VAL("inner") + VAL("second"))("grp")
    r = expr.parse_string("abc d1 e2")
    text = r.dump()
    lines = text.splitlines()
    assert lines[0] == "['abc', ['d1', 'e2']]"
    assert any(l.strip().startswith("- first: 'abc'") for l in lines)
    assert any("- second: 'e2'" in l for l in lines)


def test_parse_action_modifies_tokens():
    num = pp.Word(pp.nums).set_parse_action(lambda t: int(t[0]))
    total = pp.OneOrMore(num).add_parse_action(lambda t: sum(t))
    assert total.parse_string("1 2 3 4")[0] == 10
    assert total.parse_string("10 20")[0] == 30


def test_from_dict_and_copy():
    r = pp.ParseResults.from_dict({"a": 1, "b": {"c": 2}})
    assert r["a"] == 1
    assert r["b"]["c"] == 2
    c = r.copy()
    c["a"] = 5
    assert r["a"] == 1 and c["a"] == 5


def test_haskeys_and_contains():
    expr = KEY("k") + pp.Opt(VAL("v"))
    with_v = expr.parse_string("x 1")
    without = expr.parse_string("x")
    assert "v" in with_v and "v" not in without
    assert with_v.haskeys() and without.haskeys()
    plain = pp.Word(pp.alphas).parse_string("q")
    assert not plain.haskeys()
    with pytest.raises(KeyError):
        without["v"]
