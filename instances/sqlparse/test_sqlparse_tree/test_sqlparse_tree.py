"""Grouped token tree in sqlparse.sql: Identifier, IdentifierList, Function, Where, Comparison, Case."""
import sqlparse
from sqlparse import sql
from sqlparse import tokens as T


def first(text):
    return sqlparse.parse(text)[0]


def find(stmt, cls):
    out = []

    def walk(tl):
        for tok in tl.tokens:
            if isinstance(tok, cls):
                out.append(tok)
            if tok.is_group:
                walk(tok)

    walk(stmt)
    return out


def test_identifier_alias_and_names():
    stmt = first("select s.name as n, t.id tid, count(*) c from schema1.tbl as t")
    idents = find(stmt, sql.Identifier)
    by_alias = {i.get_alias(): i for i in idents if i.get_alias()}
    assert sorted(by_alias) == ["c", "n", "t", "tid"]
    assert by_alias["n"].get_real_name() == "name"
    assert by_alias["n"].get_parent_name() == "s"
    assert by_alias["t"].get_real_name() == "tbl"
    assert by_alias["t"].get_parent_name() == "schema1"


def test_identifier_list_members():
    stmt = first("select a, b.c, 3, d as e from t")
    ilist = find(stmt, sql.IdentifierList)[0]
    members = [str(x) for x in ilist.get_identifiers()]
    assert members == ["a", "b.c", "3", "d as e"]


def test_function_parameters():
    stmt = first("select coalesce(a, b, 'x'), upper(name), now() from t")
    funcs = find(stmt, sql.Function)
    names = [f.get_name() for f in funcs]
    assert names == ["coalesce", "upper", "now"]
    params = [[str(p) for p in f.get_parameters()] for f in funcs]
    assert params == [["a", "b", "'x'"], ["name"], []]


def test_where_and_comparisons():
    stmt = first("select * from t where a = 1 and b <> 'x' or c >= d")
    where = find(stmt, sql.Where)
    assert len(where) == 1
    comps = find(where[0], sql.Comparison)
    assert [(str(c.left), str(c.right)) for c in comps] == [("a", "1"), ("b", "'x'"), ("c", "d")]
    ops = [c.token_next_by(t=T.Operator.Comparison)[1].value for c in comps]
    assert ops == ["=", "<>", ">="]


def test_case_expression_cases():
    stmt = first("select case when x = 1 then 'one' when x = 2 then 'two' else 'many' end from t")
    case = find(stmt, sql.Case)[0]
    cases = case.get_cases(skip_ws=True)
    assert len(cases) == 3
    conditions = [" ".join(str(t) for t in cond) if cond else None for cond, _ in cases]
    values = [" ".join(str(t) for t in val) for _, val in cases]
    assert conditions == ["when x = 1", "when x = 2", None]
    assert values == ["then 'one'", "then 'two'", "else 'many'"]
    plain = case.get_cases()
    # without skip_ws the whitespace after CASE yields an extra leading entry
    assert [len(val) for _, val in plain] == [0, 4, 4, 4]


def test_parenthesis_and_subquery():
    stmt = first("select * from (select id from u where id in (1, 2, 3)) sub")
    parens = find(stmt, sql.Parenthesis)
    assert len(parens) == 2
    inner = find(parens[0], sql.Where)
    assert len(inner) == 1
    ident = find(stmt, sql.Identifier)
    assert any(i.get_alias() == "sub" for i in ident)


def test_token_navigation():
    stmt = first("select  a  from   t")
    idx, tok = stmt.token_next(0)
    assert tok.value == "a"
    idx2, tok2 = stmt.token_next(idx)
    assert tok2.normalized == "FROM"
    pidx, ptok = stmt.token_prev(idx2)
    assert ptok.value == "a" and pidx == idx
    assert stmt.token_first().normalized == "SELECT"
    assert stmt.token_index(tok2) == idx2


def test_flatten_and_offsets():
    stmt = first("select x, 'y' from z -- c")
    leaves = list(stmt.flatten())
    assert "".join(t.value for t in leaves) == str(stmt)
    kinds = [t.ttype for t in leaves if not t.is_whitespace]
    assert kinds[0] is T.Keyword.DML
    assert T.Comment.Single in kinds
    tok = stmt.get_token_at_offset(7)
    assert tok.value == "x"


def test_ordering_and_typecasts():
    stmt = first("select a::int, b from t order by a desc, b asc")
    idents = find(stmt, sql.Identifier)
    casts = [i.get_typecast() for i in idents if i.get_typecast()]
    assert casts == ["int"]
    orders = sorted((i.get_name(), i.get_ordering()) for i in idents if i.get_ordering())
    assert orders == [("a", "DESC"), ("b", "ASC")]


def test_within_and_ancestors():
    stmt = first("select f(a) from t where b = (select max(c) from u)")
    fn = find(stmt, sql.Function)
    inner_max = [f for f in fn if f.get_name() == "max"][0]
    assert inner_max.within(sql.Where)
    assert inner_max.within(sql.Parenthesis)
    outer_f = [f for f in fn if f.get_name() == "f"][0]
    assert not outer_f.within(sql.Where)
    assert inner_max.has_ancestor(stmt)
