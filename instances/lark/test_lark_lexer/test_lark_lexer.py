"""Lexing in lark: basic lexer, token priorities, line counting, Indenter postlexer."""
import pytest
from lark import Lark, Token
from lark.indenter import Indenter
from lark.exceptions import UnexpectedCharacters, UnexpectedInput
from lark.indenter import DedentError

TOKENS = r"""
    start: (KEYWORD | NAME | NUMBER | OP | STRING)*
    KEYWORD.2: "if" | "else" | "while"
    NAME: /[a-z_][a-z0-9_]*/
    NUMBER: /\d+(\.\d+)?/
    OP: "==" | "=" | "<" | "+"
    STRING: /"[^"]*"/
    COMMENT: /#[^\n]*/
    %import common.WS
    %ignore WS
    %ignore COMMENT
"""


def test_lex_token_types():
    parser = Lark(TOKENS, parser="lalr", lexer="basic")
    toks = list(parser.lex("if x == 10 else y = 2.5"))
    assert [t.type for t in toks] == ["KEYWORD", "NAME", "OP", "NUMBER", "KEYWORD", "NAME", "OP", "NUMBER"]
    assert [t.start_pos for t in toks[:4]] == [0, 3, 5, 8]


def test_priority_keyword_vs_name():
    parser = Lark(TOKENS, parser="lalr", lexer="basic")
    toks = list(parser.lex("while whilex iff if"))
    assert [(t.type, str(t)) for t in toks] == [
        ("KEYWORD", "while"), ("KEYWORD", "while"), ("NAME", "x"),
        ("KEYWORD", "if"), ("NAME", "f"), ("KEYWORD", "if")]
    plain = Lark(TOKENS.replace("KEYWORD.2", "KEYWORD"), parser="lalr", lexer="basic")
    assert [t.type for t in plain.lex("while whilex iff if")] == ["NAME"] * 4


def test_line_and_column_tracking():
    parser = Lark(TOKENS, parser="lalr", lexer="basic")
    text = 'a = 1\n# note\nb = "two\nlines"\nc'
    toks = list(parser.lex(text))
    assert [(t.line, t.column) for t in toks] == [
        (1, 1), (1, 3), (1, 5), (3, 1), (3, 3), (3, 5), (5, 1)]
    string_tok = toks[5]
    assert string_tok.end_line == 4
    assert string_tok.end_column == 7


def test_lex_error_reports_position():
    parser = Lark(TOKENS, parser="lalr", lexer="basic")
    with pytest.raises(UnexpectedCharacters) as info:
        list(parser.lex("x = 1\ny = $"))
    assert info.value.line == 2
    assert info.value.column == 5
    assert info.value.pos_in_stream == 10


def test_lex_dont_ignore():
    parser = Lark(TOKENS, parser="lalr", lexer="basic")
    toks = list(parser.lex("a # c\nb", dont_ignore=True))
    assert [t.type for t in toks] == ["NAME", "WS", "COMMENT", "WS", "NAME"]


def test_lexer_callbacks():
    seen = []

    def on_comment(tok):
        seen.append(str(tok))
        return tok

    parser = Lark(TOKENS, parser="lalr", lexer="basic", lexer_callbacks={"COMMENT": on_comment})
    tree = parser.parse("x # one\ny # two\n# three")
    assert seen == ["# one", "# two", "# three"]
    assert [str(t) for t in tree.children] == ["x", "y"]


class BlockIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR"]
    CLOSE_PAREN_types = ["RPAR"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


BLOCKS = r"""
    start: _NL* stmt+
    ?stmt: simple | block
    simple: NAME _NL
          | NAME LPAR NAME* RPAR _NL
    block: NAME ":" _NL _INDENT stmt+ _DEDENT
    NAME: /[a-z]+/
    LPAR: "("
    RPAR: ")"
    _NL: /(\r?\n[\t ]*)+/
    %ignore " "
    %declare _INDENT _DEDENT
"""


def make_block_parser():
    return Lark(BLOCKS, parser="lalr", postlex=BlockIndenter())


def test_indenter_nested_blocks():
    parser = make_block_parser()
    text = "a:\n    b\n    c:\n        d\n        e\n    f\ng\n"
    tree = parser.parse(text)
    blocks = list(tree.find_data("block"))
    assert len(blocks) == 2
    top = tree.children[0]
    assert top.data == "block" and str(top.children[0]) == "a"
    assert len(top.children) == 4
    assert str(tree.children[1].children[0]) == "g"


def test_indenter_ignores_newlines_in_parens():
    parser = make_block_parser()
    text = "f(x\n   y\n z)\nblk:\n  q(\n)\n"
    tree = parser.parse(text)
    simples = list(tree.find_data("simple"))
    args = sorted(len(s.children) for s in simples)
    assert args == [3, 6]


def test_indenter_dedent_error():
    parser = make_block_parser()
    with pytest.raises((DedentError, UnexpectedInput)):
        parser.parse("a:\n    b\n  c\n")


def test_indenter_process_counts_indent_tokens():
    parser = make_block_parser()
    text = "a:\n b:\n  c:\n   d\n"
    types = [t.type for t in parser.lex(text)]
    assert types.count("_INDENT") == 3
    assert types.count("_DEDENT") == 3
    tree = parser.parse(text)
    assert len(list(tree.find_data("block"))) == 3
