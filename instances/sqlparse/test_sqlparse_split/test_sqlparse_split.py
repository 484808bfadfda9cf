"""Statement splitting and statement typing in sqlparse (engine.statement_splitter, Statement.get_type)."""
import io
import sqlparse


def test_split_simple_statements():
    parts = sqlparse.split("select 1; select 2;select 3")
    assert parts == ["select 1;", "select 2;", "select 3"]
    assert sqlparse.split("select 1; select 2;", strip_semicolon=True) == ["select 1", "select 2"]


def test_split_ignores_semicolons_in_strings_and_comments():
    sql = "insert into t values ('a;b'); -- c;d\nselect \"x;y\" from t; /* e; */ select 3;"
    parts = sqlparse.split(sql)
    assert len(parts) == 3
    # a trailing comment on the same line stays with the statement before it
    assert parts[0] == "insert into t values ('a;b'); -- c;d"
    assert parts[1] == 'select "x;y" from t;'
    assert parts[2] == "/* e; */ select 3;"


def test_split_begin_end_block():
    sql = ("create procedure p() begin select 1; select 2; end; "
           "select 4;")
    parts = sqlparse.split(sql)
    assert len(parts) == 2
    assert parts[0].endswith("end;")
    assert parts[1] == "select 4;"


def test_split_create_function_with_dollar_quotes():
    sql = ("create function f() returns int as $$ begin return 1; end; $$ language plpgsql; "
           "select f();")
    parts = sqlparse.split(sql)
    assert len(parts) == 2
    assert "$$ begin return 1; end; $$" in parts[0]


def test_split_case_inside_select_not_a_block():
    sql = "select case when a then 1 else 2 end from t; select 5;"
    assert len(sqlparse.split(sql)) == 2


def test_get_type_for_various_statements():
    stmts = sqlparse.parse(
        "SELECT 1; insert into t values (1); Update t set a=1; delete from t; "
        "create table x (a int); drop table x; with c as (select 1) select * from c; "
        "-- only a comment\n; foo bar;")
    types = [s.get_type() for s in stmts]
    assert types == ["SELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "SELECT", "UNKNOWN", "UNKNOWN"]


def test_get_type_with_leading_comment_and_parens():
    stmt = sqlparse.parse("/* hi */ -- x\n select 1")[0]
    assert stmt.get_type() == "SELECT"
    assert sqlparse.parse("(select 1)")[0].get_type() == "UNKNOWN"
    assert sqlparse.parse("   ") == ()
    assert sqlparse.parse(" ; ")[0].get_type() == "UNKNOWN"


def test_parsestream_from_file_object():
    stream = io.StringIO("select a from b;\nselect c from d;\n")
    stmts = list(sqlparse.parsestream(stream))
    assert len(stmts) == 2
    assert str(stmts[1]).strip() == "select c from d;"


def test_parse_bytes_with_and_without_encoding():
    stmt = sqlparse.parse(b"select '\xc3\xa9'")[0]
    assert str(stmt) == "select '\u00e9'"
    latin = sqlparse.parse(b"select '\xe9'", encoding="latin-1")[0]
    assert str(latin) == "select '\u00e9'"
    fallback = sqlparse.parse(b"select '\xe9'")[0]
    assert str(fallback) == "select '\u00e9'"


def test_roundtrip_preserves_text():
    sql = "SELECT a,b -- c\nFROM t WHERE x IN (1,2) ;\n\n  update t set y = 'q';"
    stmts = sqlparse.parse(sql)
    assert "".join(str(s) for s in stmts) == sql
    assert len(stmts) == 2
