"""Grouping passes in sqlparse.engine.grouping: matching brackets, limits, values, windows, assignments."""
import pytest
import sqlparse
from sqlparse import sql
from sqlparse import tokens as T
from sqlparse.exceptions import SQLParseError


def first(text):
    return sqlparse.parse(text)[0]


def classes(tlist):
    return [type(t).__name__ for t in tlist.tokens if not t.is_whitespace]


def test_unbalanced_close_paren_is_tolerated():
    stmt = first("select a) from (b)")
    assert str(stmt) == "select a) from (b)"
    parens = [t for t in stmt.tokens if isinstance(t, sql.Parenthesis)]
    assert len(parens) == 1
    stmt2 = first("select ((1) from t")
    assert str(stmt2) == "select ((1) from t"


def test_deep_nesting_groups_each_level():
    depth = 6
    stmt = first("select " + "(" * depth + "1" + ")" * depth)
    level, node = 0, stmt
    while True:
        inner = [t for t in node.tokens if isinstance(t, sql.Parenthesis)]
        if not inner:
            break
        node = inner[0]
        level += 1
    assert level == depth


def test_excessive_nesting_raises():
    with pytest.raises(SQLParseError):
        sqlparse.parse("select " + "(" * 120 + "1" + ")" * 120)


def test_insert_values_grouping():
    stmt = first("insert into t (a, b) values (1, 'x'), (2, 'y')")
    values = [t for t in stmt.tokens if isinstance(t, sql.Values)]
    assert len(values) == 1
    rows = [t for t in values[0].tokens if isinstance(t, sql.Parenthesis)]
    assert len(rows) == 2
    assert stmt.get_type() == "INSERT"


def test_update_assignments():
    stmt = first("update t set a = 1, b = b + 2 where id = 3")
    comps = [t for t in stmt.get_sublists()]
    ilist = [t for t in comps if isinstance(t, sql.IdentifierList)]
    assert len(ilist) == 1
    assigns = [t for t in ilist[0].tokens if isinstance(t, sql.Comparison)]
    assert [str(a.left) for a in assigns] == ["a", "b"]
    assert str(assigns[1].right) == "b + 2"


def test_window_function_over_clause():
    stmt = first("select row_number() over (partition by a order by b) as rn from t")
    ident = [t for t in stmt.tokens if isinstance(t, sql.Identifier)][0]
    assert ident.get_alias() == "rn"
    func = ident.tokens[0]
    assert isinstance(func, sql.Function)
    window = func.get_window()
    assert window is not None
    assert "partition by a" in str(window)


def test_operations_and_typed_literals():
    stmt = first("select a * (b + 2) - c, date '2020-01-01', interval '1 day' from t")
    op = stmt.tokens[2]
    assert isinstance(op, sql.Operation)
    assert str(op) == "a * (b + 2) - c"
    assert isinstance(op.tokens[0], sql.Operation)
    assert str(op.tokens[0]) == "a * (b + 2)"
    literals = [str(t) for t in stmt.tokens if isinstance(t, sql.TypedLiteral)]
    assert literals == ["date '2020-01-01'", "interval '1 day'"]


def test_begin_end_and_if_blocks():
    stmt = first("begin if x > 1 then select 1; end if; end")
    begins = [t for t in stmt.tokens if isinstance(t, sql.Begin)]
    assert len(begins) == 1
    ifs = [t for t in begins[0].tokens if isinstance(t, sql.If)]
    assert len(ifs) == 1
    assert str(ifs[0]).startswith("if x > 1 then")


def test_comment_grouping_and_statement_classes():
    stmt = first("-- lead\nselect a -- trailing\nfrom t where b in (select c from u)")
    kinds = classes(stmt)
    assert kinds[0] == "Comment"
    assert kinds[-1] == "Where"
    where = stmt.tokens[-1]
    sub = [t for t in where.tokens if isinstance(t, sql.Parenthesis)]
    assert len(sub) == 1
    assert sub[0].tokens[1].normalized == "SELECT"


def test_array_index_and_brackets():
    stmt = first("select arr[1][2], m['k'] from t")
    idents = [t for t in stmt.get_sublists() if isinstance(t, sql.IdentifierList)][0]
    arr = list(idents.get_identifiers())[0]
    indices = [[str(x) for x in idx] for idx in arr.get_array_indices()]
    assert indices == [["1"], ["2"]]
    assert arr.get_real_name() == "arr"
