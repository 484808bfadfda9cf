"""lark.tree.Tree and lark.lexer.Token utilities on parsed and hand-built trees."""
import pytest
from lark import Lark, Tree, Token

PARSER = Lark(r"""
    start: section+
    section: "[" NAME "]" entry*
    entry: NAME "=" value
    ?value: NUMBER -> num
          | NAME -> ref
          | "{" [value ("," value)*] "}" -> group
    NAME: /[a-z]+/
    NUMBER: /\d+/
    %import common.WS
    %ignore WS
""", parser="lalr")

TEXT = """
[alpha]
x = 1
y = {2, 3, {4}}
[beta]
z = x
[gamma]
"""


def test_find_data_and_pred():
    tree = PARSER.parse(TEXT)
    sections = list(tree.find_data("section"))
    assert sorted(str(s.children[0]) for s in sections) == ["alpha", "beta", "gamma"]
    groups = list(tree.find_pred(lambda t: t.data == "group" and len(t.children) > 1))
    assert len(groups) == 1
    assert len(groups[0].children) == 3


def test_iter_subtrees_orders():
    tree = PARSER.parse(TEXT)
    bottom_up = [t.data for t in tree.iter_subtrees()]
    top_down = [t.data for t in tree.iter_subtrees_topdown()]
    assert bottom_up[-1] == "start"
    assert top_down[0] == "start"
    assert sorted(bottom_up) == sorted(top_down)
    assert len(top_down) == 14
    assert top_down[:3] == ["start", "section", "entry"]


def test_scan_values_collects_numbers():
    tree = PARSER.parse(TEXT)
    nums = [int(v) for v in tree.scan_values(lambda v: isinstance(v, Token) and v.type == "NUMBER")]
    assert sorted(nums) == [1, 2, 3, 4]


def test_pretty_output():
    tree = PARSER.parse("[a] k = {1, q}")
    lines = tree.pretty().splitlines()
    assert lines[0] == "start"
    assert lines[1].strip() == "section"
    assert lines[2].strip() == "a"
    assert sum(1 for l in lines if l.strip() == "group") == 1
    assert lines[-1].strip() == "ref\tq"


def test_tree_equality_copy_and_hash():
    t1 = Tree("a", [Tree("b", [Token("X", "1")]), Token("Y", "2")])
    t2 = Tree("a", [Tree("b", [Token("X", "1")]), Token("Y", "2")])
    assert t1 == t2
    assert hash(t1) == hash(t2)
    c = t1.copy()
    assert c == t1 and c is not t1
    c.set("z", [])
    assert c.data == "z" and c.children == []
    assert t1 != c


def test_hand_built_tree_expand_and_children():
    inner = Tree("_group", [Token("N", "1"), Token("N", "2")])
    tree = Tree("root", [Token("N", "0"), inner, Tree("leaf", []), Token("N", "3")])
    tree.expand_kids_by_data("_group")
    assert [c if isinstance(c, str) else c.data for c in tree.children] == ["0", "1", "2", "leaf", "3"]
    assert len(list(tree.iter_subtrees())) == 2


def test_token_update_and_positions():
    tok = Token("NAME", "abc", start_pos=4, line=2, column=3, end_line=2, end_column=6, end_pos=7)
    new = tok.update(value="abcd")
    assert new == "abcd" and new.type == "NAME" and new.line == 2
    renamed = tok.update(type="ID")
    assert renamed.type == "ID" and renamed == "abc"
    copy = Token.new_borrow_pos("NUM", "9", tok)
    assert (copy.start_pos, copy.line, copy.column, copy.end_pos) == (4, 2, 3, 7)
    assert tok == "abc"


def test_tree_meta_positions():
    parser = Lark(PARSER.source_grammar, parser="lalr", propagate_positions=True)
    tree = parser.parse(TEXT)
    sections = list(tree.find_data("section"))
    lines = sorted((s.meta.line, s.meta.end_line) for s in sections)
    assert lines == [(2, 4), (5, 6), (7, 7)]


def test_tree_repr_and_str_forms():
    tree = PARSER.parse("[a] b = 5")
    r = repr(tree)
    assert r.startswith("Tree(Token('RULE', 'start')") or r.startswith("Tree('start'")
    assert "Token('NUMBER', '5')" in r
    assert str(tree.children[0].children[0]) == "a"
