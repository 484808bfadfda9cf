"""sqlparse.format and the filters behind it (formatter.validate_options, filters.*)."""
import pytest
import sqlparse
from sqlparse.exceptions import SQLParseError


def test_keyword_and_identifier_case():
    sql = "select Name, count(*) from Users where Id = 1"
    assert sqlparse.format(sql, keyword_case="upper") == "SELECT Name, count(*) FROM Users WHERE Id = 1"
    assert sqlparse.format("SELECT A FROM B", keyword_case="lower", identifier_case="lower") == "select a from b"
    assert sqlparse.format("select abc from t", keyword_case="capitalize") == "Select abc From t"


def test_strip_comments():
    sql = "select a, -- first\n  b /* second */ from t -- tail\n"
    out = sqlparse.format(sql, strip_comments=True)
    assert "--" not in out and "/*" not in out
    assert out.split() == ["select", "a,", "b", "from", "t"]


def test_strip_whitespace():
    sql = "select   a ,\n\n   b\tfrom     t   where x   =  1"
    out = sqlparse.format(sql, strip_whitespace=True)
    assert out == "select a, b from t where x = 1"


def test_reindent_select():
    sql = "select a, b, c from t where x = 1 and y = 2 order by a"
    out = sqlparse.format(sql, reindent=True)
    assert out.splitlines() == [
        "select a,",
        "       b,",
        "       c",
        "from t",
        "where x = 1",
        "  and y = 2",
        "order by a",
    ]


def test_reindent_indent_width_and_join():
    sql = "select * from a join b on a.id = b.id left join c on c.k = b.k where a.x > 1"
    out = sqlparse.format(sql, reindent=True, indent_width=4)
    lines = out.splitlines()
    assert lines[0] == "select *"
    assert lines[1] == "from a"
    assert sum(1 for l in lines if "join" in l) == 2
    assert lines[-1] == "where a.x > 1"


def test_reindent_comma_first():
    out = sqlparse.format("select a, b, c from t", reindent=True, comma_first=True)
    lines = out.splitlines()
    assert lines[0] == "select a"
    assert [l.strip() for l in lines[1:3]] == [", b", ", c"]


def test_reindent_aligned():
    out = sqlparse.format("select a, b from t where x = 1 and y = 2", reindent_aligned=True)
    lines = out.splitlines()
    assert lines[0] == "select a,"
    assert lines[1].strip() == "b"
    assert lines[2].strip() == "from t"
    assert len(lines) == 5


def test_truncate_strings_and_operators():
    out = sqlparse.format("insert into t values ('abcdefghij', 'xy')", truncate_strings=4)
    assert "'abcd[...]'" in out and "'xy'" in out
    spaced = sqlparse.format("select a+b*c from t where d>=1", use_space_around_operators=True)
    assert spaced == "select a + b * c from t where d >= 1"


def test_invalid_options_raise():
    with pytest.raises(SQLParseError):
        sqlparse.format("select 1", keyword_case="sideways")
    with pytest.raises(SQLParseError):
        sqlparse.format("select 1", indent_width=0)
    with pytest.raises(SQLParseError):
        sqlparse.format("select 1", truncate_strings=-1)
    with pytest.raises(SQLParseError):
        sqlparse.format("select 1", output_format="cobol")


def test_output_format_python_and_php():
    py = sqlparse.format("select *\nfrom t", output_format="python")
    assert py == "sql = ('select * '\n       'from t')"
    php = sqlparse.format("select 1", output_format="php")
    assert php == '$sql = "select 1";'


def test_multiple_statements_formatted():
    out = sqlparse.format("select 1;select 2;", reindent=True, keyword_case="upper")
    assert out == "SELECT 1;\n\nSELECT 2;"
