"""LALR parsing in lark: errors, contextual lexer, interactive parser, on_error recovery."""
import pytest
from lark import Lark, Token
from lark.exceptions import UnexpectedToken, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput

CALC = r"""
    ?start: expr
    ?expr: term (ADDOP term)*
    ?term: factor (MULOP factor)*
    ?factor: NUMBER -> number
        | "-" factor -> neg
        | "(" expr ")"
    ADDOP: "+" | "-"
    MULOP: "*" | "/"
    %import common.NUMBER
    %import common.WS_INLINE
    %ignore WS_INLINE
"""

LIST = r"""
    start: "[" [item ("," item)*] "]"
    item: NAME | start
    NAME: /[a-z]+/
    %ignore " "
"""


def make(grammar, **kw):
    return Lark(grammar, parser="lalr", **kw)


def test_calc_structure():
    parser = make(CALC)
    tree = parser.parse("1 + 2 * 3 - 4")
    assert tree.data == "expr"
    assert [c.type for c in tree.children if isinstance(c, Token)] == ["ADDOP", "ADDOP"]
    assert tree.children[2].data == "term"
    nested = parser.parse("-(2 + 3) * 4")
    assert nested.data == "term"
    assert nested.children[0].data == "neg"


def test_nested_lists_depth():
    parser = make(LIST)
    tree = parser.parse("[a, [b, [c, d]], e]")
    depth = 0
    node = tree
    while True:
        sub = [c for c in node.children if c is not None and c.children and hasattr(c.children[0], "data")]
        if not sub:
            break
        node = sub[0].children[0]
        depth += 1
    assert depth == 2
    assert sorted(str(t) for t in tree.scan_values(lambda v: isinstance(v, Token))) == ["a", "b", "c", "d", "e"]


def test_unexpected_token_details():
    parser = make(CALC)
    with pytest.raises(UnexpectedToken) as info:
        parser.parse("1 + * 2")
    err = info.value
    assert err.token == "*"
    assert err.column == 5
    assert "NUMBER" in err.expected
    assert err.get_context("1 + * 2").splitlines()[1].strip() == "^"


def test_unexpected_characters():
    parser = make(CALC)
    with pytest.raises(UnexpectedCharacters) as info:
        parser.parse("1 + 2 $ 3")
    assert info.value.char == "$"
    assert info.value.line == 1
    assert info.value.column == 7


def test_unexpected_eof():
    parser = make(LIST)
    with pytest.raises(UnexpectedInput) as info:
        parser.parse("[a, b")
    assert isinstance(info.value, (UnexpectedEOF, UnexpectedToken))
    assert info.value.token.type == "$END"


def test_match_examples_labels_errors():
    parser = make(CALC)
    examples = {
        "missing operand": ["1 +", "2 -"],
        "double operator": ["3 * / 4", "8 / * 2"],
        "unclosed paren": ["(1 + 2", "((3)"],
    }
    labels = []
    for text in ["5 -", "7 / * 1", "(4"]:
        try:
            parser.parse(text)
        except UnexpectedInput as e:
            labels.append(e.match_examples(parser.parse, examples, use_accepts=True))
    assert labels == ["missing operand", "double operator", "unclosed paren"]


def test_interactive_parser_feed_tokens():
    parser = make(LIST)
    ip = parser.parse_interactive("[a, b]")
    seen = []
    for tok in ip.iter_parse():
        seen.append(tok.type)
    assert seen[0] == "LSQB"
    assert seen.count("NAME") == 2
    tree = ip.resume_parse()
    assert len(tree.children) == 2


def test_interactive_parser_accepts_and_choices():
    parser = make(LIST)
    ip = parser.parse_interactive("")
    ip.feed_token(Token("LSQB", "["))
    acc = ip.accepts()
    assert "NAME" in acc and "RSQB" in acc and "LSQB" in acc
    ip.feed_token(Token("NAME", "x"))
    acc2 = ip.accepts()
    assert "COMMA" in acc2 and "NAME" not in acc2
    copy = ip.copy()
    copy.feed_token(Token("RSQB", "]"))
    tree = copy.feed_eof()
    assert tree.children[0].children[0] == "x"


def test_on_error_recovery_skips_bad_tokens():
    parser = make(r"""
        start: stmt+
        stmt: NAME "=" NUMBER ";"
        NAME: /[a-z]+/
        NUMBER: /\d+/
        %ignore " "
    """)
    errors = []

    def on_error(e):
        errors.append((e.token.type, e.column))
        return True

    tree = parser.parse("a = 1; b = = 2; c = 3;", on_error=on_error)
    assert errors == [("EQUAL", 12)]
    stmts = sorted((str(s.children[0]), int(s.children[1])) for s in tree.find_data("stmt"))
    assert stmts == [("a", 1), ("b", 2), ("c", 3)]


def test_contextual_lexer_resolves_keywords_by_state():
    grammar = r"""
        start: "let" NAME "=" VALUE
        NAME: /[a-z]+/
        VALUE: /[a-z0-9]+/
        %ignore " "
    """
    parser = make(grammar, lexer="contextual")
    tree = parser.parse("let abc = abc9")
    assert [t.type for t in tree.children] == ["NAME", "VALUE"]
    basic = make(grammar, lexer="basic")
    with pytest.raises(UnexpectedInput):
        basic.parse("let abc = xyz1")


def test_positions_propagated():
    parser = make(LIST, propagate_positions=True)
    tree = parser.parse("[ab, cd,  [ef]]")
    items = list(tree.find_data("item"))
    cols = sorted(i.meta.column for i in items)
    assert cols == [2, 6, 11, 12]
    assert tree.meta.end_column == 16
    assert sorted(i.meta.end_pos for i in items)[1] == 7
