"""Tokenizing in sqlparse.lexer and helpers in sqlparse.keywords / sqlparse.utils."""
import pytest
import sqlparse
from sqlparse import lexer, utils
from sqlparse import tokens as T
from sqlparse.lexer import Lexer


def toks(text):
    return [(ttype, value) for ttype, value in lexer.tokenize(text) if ttype not in T.Whitespace]


def test_basic_token_types():
    out = toks("SELECT a, 12, 3.5 FROM t WHERE b = 'x'")
    assert out == [
        (T.Keyword.DML, "SELECT"), (T.Name, "a"), (T.Punctuation, ","),
        (T.Number.Integer, "12"), (T.Punctuation, ","), (T.Number.Float, "3.5"),
        (T.Keyword, "FROM"), (T.Name, "t"), (T.Keyword, "WHERE"), (T.Name, "b"),
        (T.Operator.Comparison, "="), (T.String.Single, "'x'"),
    ]


def test_comments_and_multiline():
    out = list(lexer.tokenize("a -- one\n/* two\nlines */ b"))
    kinds = [t for t, _ in out]
    assert T.Comment.Single in kinds
    assert T.Comment.Multiline in kinds
    assert [v for t, v in out if t is T.Comment.Multiline] == ["/* two\nlines */"]


def test_quoted_identifiers_and_escapes():
    out = toks('select "my col", `b`, [c], \'it\'\'s\' from t')
    assert (T.String.Symbol, '"my col"') in out
    assert [v for t, v in out if t is T.Name] == ["`b`", "[c]", "t"]
    assert (T.String.Single, "'it''s'") in out


def test_placeholders_and_operators():
    out = toks("select * from t where a = ? and b = :name and c = %(p)s and d = $1")
    placeholders = [v for t, v in out if t is T.Name.Placeholder]
    assert placeholders == ["?", ":name", "%(p)s", "$1"]
    ops = toks("a || b <= c != d")
    assert [v for t, v in ops if t in T.Operator] == ["||", "<=", "!="]


def test_keyword_recognition_is_case_insensitive():
    for word in ["select", "SeLeCt", "SELECT"]:
        assert toks(word) == [(T.Keyword.DML, word)]
    assert toks("create table")[0][0] is T.Keyword.DDL
    assert toks("notakeyword")[0][0] is T.Name


def test_multiword_keywords():
    out = toks("select * from a left outer join b on x group by y order by z")
    values = [v for t, v in out if t in T.Keyword]
    assert "left outer join" in values
    assert "group by" in values
    assert "order by" in values


def test_tokenize_rejects_non_text():
    with pytest.raises(TypeError):
        list(lexer.tokenize(12345))


def test_custom_lexer_keywords_and_reset():
    lex = Lexer.get_default_instance()
    try:
        lex.add_keywords({"FROBNICATE": T.Keyword.DML})
        parsed = sqlparse.parse("frobnicate x")[0]
        assert parsed.tokens[0].ttype is T.Keyword.DML
        assert parsed.get_type() == "FROBNICATE"
    finally:
        lex.default_initialization()
    restored = sqlparse.parse("frobnicate x")[0]
    assert isinstance(restored.tokens[0], sqlparse.sql.Identifier)
    assert restored.get_type() == "UNKNOWN"


def test_split_unquoted_newlines():
    stmt = sqlparse.parse("select 'a\nb'\nfrom t\r\nwhere x")[0]
    lines = utils.split_unquoted_newlines(stmt)
    assert lines == ["select 'a\nb'", "from t", "where x"]


def test_remove_quotes_and_imt():
    assert utils.remove_quotes('"abc"') == "abc"
    assert utils.remove_quotes("`x`") == "x"
    assert utils.remove_quotes("plain") == "plain"
    stmt = sqlparse.parse("select a from t")[0]
    kw = stmt.tokens[0]
    assert utils.imt(kw, t=T.Keyword.DML)
    assert utils.imt(kw, m=(T.Keyword.DML, "SELECT"))
    assert not utils.imt(kw, i=sqlparse.sql.Identifier)
