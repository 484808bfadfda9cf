"""Earley parsing in lark: ambiguity handling, dynamic lexer, priorities."""
import pytest
from lark import Lark, Tree, Token
from lark.exceptions import UnexpectedInput, UnexpectedCharacters, UnexpectedEOF

AMBIG = r"""
    start: e
    e: e "+" e -> add
     | NUMBER -> num
    %import common.NUMBER
"""


WORDS = r"""
    start: word+
    word: LETTERS
    LETTERS: /[a-z]+/
"""


def test_dynamic_lexer_takes_longest_match():
    parser = Lark(WORDS, lexer="dynamic")
    for text in ["abc", "ab", "abcdef"]:
        tree = parser.parse(text)
        assert len(tree.children) == 1
        assert tree.children[0].children[0] == text


def test_dynamic_complete_lexer_all_splits():
    parser = Lark(WORDS, lexer="dynamic_complete", ambiguity="explicit")
    tree = parser.parse("abc")
    assert tree.data == "_ambig"
    splits = sorted(tuple(str(w.children[0]) for w in alt.children) for alt in tree.children)
    assert splits == [("a", "b", "c"), ("a", "bc"), ("ab", "c"), ("abc",)]


def test_explicit_ambiguity_counts_derivations():
    parser = Lark(AMBIG, ambiguity="explicit")
    tree = parser.parse("1+2+3")
    ambs = list(tree.find_data("_ambig"))
    assert len(ambs) == 1
    assert len(ambs[0].children) == 2
    tree4 = parser.parse("1+2+3+4")
    amb4 = list(tree4.find_data("_ambig"))
    assert max(len(a.children) for a in amb4) >= 3


def test_resolve_ambiguity_gives_single_tree():
    parser = Lark(AMBIG, ambiguity="resolve")
    tree = parser.parse("1+2+3")
    assert not list(tree.find_data("_ambig"))
    adds = list(tree.find_data("add"))
    assert len(adds) == 2
    nums = [str(t) for t in tree.scan_values(lambda v: isinstance(v, Token))]
    assert nums == ["1", "2", "3"]


def test_rule_priority_selects_alternative():
    grammar = r"""
        start: a | b
        a.2: WORD
        b.1: WORD
        WORD: /\w+/
    """
    parser = Lark(grammar, priority="normal")
    assert parser.parse("hello").children[0].data == "a"
    grammar2 = grammar.replace("a.2", "a.1").replace("b.1", "b.3")
    parser2 = Lark(grammar2, priority="normal")
    assert parser2.parse("hello").children[0].data == "b"


def test_earley_handles_left_and_right_recursion():
    parser = Lark(r"""
        start: left ";" right
        left: left "a" | "a"
        right: "b" right | "b"
    """)
    tree = parser.parse("aaaa;bbb")
    lefts = list(tree.find_data("left"))
    rights = list(tree.find_data("right"))
    assert len(lefts) == 4
    assert len(rights) == 3


def test_earley_optional_and_empty_rules():
    parser = Lark(r"""
        start: x? y* z
        x: "x"
        y: "y"
        z: "z"
    """, maybe_placeholders=False)
    assert [c.data for c in parser.parse("z").children] == ["z"]
    assert [c.data for c in parser.parse("xyyz").children] == ["x", "y", "y", "z"]
    assert [c.data for c in parser.parse("yyyz").children] == ["y", "y", "y", "z"]


def test_earley_error_unexpected_characters():
    parser = Lark(r"""
        start: "a" "b" "c"
    """, lexer="dynamic")
    with pytest.raises(UnexpectedCharacters) as info:
        parser.parse("abx")
    assert info.value.column == 3


def test_earley_error_unexpected_eof():
    parser = Lark(r"""
        start: "(" start ")" | "x"
    """)
    with pytest.raises(UnexpectedEOF):
        parser.parse("((x)")
    assert parser.parse("((x))").data == "start"


def test_dynamic_complete_lexer_ambiguity():
    parser = Lark(r"""
        start: A B
        A: /a+/
        B: /a*b/
    """, lexer="dynamic_complete", ambiguity="explicit")
    tree = parser.parse("aaab")
    if tree.data == "_ambig":
        splits = sorted((len(t.children[0]), len(t.children[1])) for t in tree.children)
    else:
        splits = [(len(tree.children[0]), len(tree.children[1]))]
    assert (1, 3) in splits and (3, 1) in splits
    assert len(splits) == 3


def test_earley_basic_lexer_with_ignore():
    parser = Lark(r"""
        start: NAME ("," NAME)*
        NAME: /[a-z]+/
        %ignore " "
    """, lexer="basic")
    tree = parser.parse("ab, cd , ef")
    assert [str(t) for t in tree.children] == ["ab", "cd", "ef"]
