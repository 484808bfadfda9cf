"""Grammar loading and compilation in lark (load_grammar, templates, imports)."""
import pytest
from lark import Lark, Tree, Token
from lark.exceptions import GrammarError, UnexpectedInput


def test_simple_rules_and_literals():
    parser = Lark(r"""
        start: pair ("," pair)*
        pair: NAME "=" NUMBER
        NAME: /[a-z]+/
        NUMBER: /[0-9]+/
        %ignore " "
    """, parser="lalr")
    tree = parser.parse("a = 1, bb = 22, ccc = 333")
    pairs = list(tree.find_data("pair"))
    assert len(pairs) == 3
    assert [str(p.children[0]) for p in pairs] == ["a", "bb", "ccc"]
    assert [int(p.children[1]) for p in pairs] == [1, 22, 333]


def test_common_imports_and_ignore():
    parser = Lark(r"""
        start: item+
        item: WORD | SIGNED_NUMBER
        %import common.WORD
        %import common.SIGNED_NUMBER
        %import common.WS
        %ignore WS
    """)
    tree = parser.parse("alpha -3 beta 4.5 gamma")
    values = [str(t) for t in tree.scan_values(lambda v: isinstance(v, Token))]
    assert values == ["alpha", "-3", "beta", "4.5", "gamma"]


def test_inline_rules_and_optional_brackets():
    parser = Lark(r"""
        start: _item*
        _item: call | NAME
        call: NAME "(" [args] ")"
        ?args: NAME ("," NAME)*
        NAME: /\w+/
        %ignore " "
    """, parser="lalr", maybe_placeholders=True)
    tree = parser.parse("f() g(x) h(a, b, c) z")
    calls = list(tree.find_data("call"))
    assert len(calls) == 3
    assert calls[0].children[1] is None
    assert calls[1].children[1] == Token("NAME", "x")
    assert calls[2].children[1].data == "args"
    assert len(calls[2].children[1].children) == 3
    assert tree.children[-1] == "z"


def test_templates_expand():
    parser = Lark(r"""
        start: _seplist{NUMBER, ","} ";" _seplist{NAME, "|"}
        _seplist{x, sep}: x (sep x)*
        NUMBER: /\d+/
        NAME: /[a-z]+/
    """, parser="lalr")
    tree = parser.parse("1,2,3;a|b")
    assert [t.type for t in tree.children] == ["NUMBER"] * 3 + ["NAME"] * 2
    assert "".join(tree.children) == "123ab"


def test_rule_aliases_and_priorities():
    parser = Lark(r"""
        ?start: sum
        ?sum: product
            | sum "+" product -> add
            | sum "-" product -> sub
        ?product: atom
            | product "*" atom -> mul
        ?atom: NUMBER -> num
            | "(" sum ")"
        %import common.NUMBER
        %ignore " "
    """, parser="lalr")
    tree = parser.parse("1 + 2 * (3 - 4) * 5")
    assert tree.data == "add"
    assert tree.children[1].data == "mul"
    names = sorted(st.data for st in tree.iter_subtrees())
    assert names == ["add", "mul", "mul", "num", "num", "num", "num", "num", "sub"]


def test_terminal_ranges_and_repeats():
    parser = Lark(r"""
        start: CODE+
        CODE: "A".."F" DIGIT~2..3
        DIGIT: "0".."9"
        %ignore " "
    """, parser="lalr")
    tree = parser.parse("A12 B345 F00")
    assert [str(c) for c in tree.children] == ["A12", "B345", "F00"]
    with pytest.raises(UnexpectedInput):
        parser.parse("G12")


def test_undefined_rule_is_grammar_error():
    with pytest.raises(GrammarError) as info:
        Lark("start: a b\na: \"x\"\n")
    assert "b" in str(info.value)


def test_undefined_terminal_is_grammar_error():
    with pytest.raises(GrammarError):
        Lark("start: FOO\n")


def test_duplicate_rule_definition_error():
    with pytest.raises(GrammarError):
        Lark('start: "a"\nstart: "b"\n')


def test_override_and_extend():
    parser = Lark(r"""
        %import common.INT
        start: value+
        value: INT | WORD
        WORD: /[a-z]+/
        %extend value: "@" WORD
        %override WORD: /[a-z]{2,}/
        %ignore " "
    """, parser="lalr")
    tree = parser.parse("10 ab @cd 7")
    values = list(tree.find_data("value"))
    assert len(values) == 4
    assert [str(v.children[0]) for v in values] == ["10", "ab", "cd", "7"]


def test_terminals_listing_and_rules():
    parser = Lark(r"""
        start: A B+ C?
        A: "a"
        B: "b"
        C: "c"
    """, parser="lalr")
    names = sorted(t.name for t in parser.terminals)
    assert names == ["A", "B", "C"]
    assert parser.get_terminal("B").pattern.value == "b"
    origins = sorted({r.origin.name for r in parser.rules}, key=str)
    assert "start" in origins
    assert parser.parse("abbbc").children[-1] == "c"
