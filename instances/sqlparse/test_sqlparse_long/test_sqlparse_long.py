"""Long, deep executions of sqlparse, for harder items.

Each test drives one area of the package (the lexer, the statement splitter,
the grouping passes, the token tree's methods, the formatter's filters and its
option checks) through dozens of calls over SQL that the test builds with
explicit loops from the loop index (small-modulus patterns, growing select
lists, nested parentheses, growing CASE expressions). State is carried from
one call to the next: a piece of one call's output goes into the next call's
input, or one parsed statement is walked and regrouped in place. The asserts
check aggregates.

Everything is deterministic: no random numbers, no clock, no files, no
iteration over sets of strings.
"""

import pytest
import sqlparse
from sqlparse import lexer, sql
from sqlparse import tokens as T
from sqlparse.exceptions import SQLParseError
from sqlparse.lexer import Lexer


def find(node, cls):
    """Every token of class *cls* under *node*, depth first, in order."""
    out = []

    def walk(tlist):
        for tok in tlist.tokens:
            if isinstance(tok, cls):
                out.append(tok)
            if tok.is_group:
                walk(tok)

    walk(node)
    return out


def test_lexer_token_kinds_with_carried_names():
    totals = {}
    last_names = []
    errors = 0
    carry = "seed"
    for i in range(48):
        parts = [f"SELECT {carry}_{i % 4}"]
        if i % 2 == 0:
            parts.append(f", {i * 7 % 11}.{i % 3}")
        if i % 3 == 0:
            parts.append(f", 0x{(i * 13) % 256:X}")
        if i % 5 == 1:
            parts.append(f", {i}e-{i % 3}")
        parts.append(f" FROM `tab{i % 3}` AS t")
        if i % 4 == 2:
            parts.append(f" /* block {i} */")
        if i % 6 == 5:
            parts.append(f" /*+ hint{i} */")
        parts.append(f" WHERE t.k{i % 5} = ")
        parts.append(("?", f":p{i}", f"%(n{i})s", f"${i % 9 + 1}")[i % 4])
        if i % 7 == 3:
            parts.append(f" AND body = $f${i};$f$")
        if i % 8 == 6:
            parts.append(" AND s LIKE 'it''s'")
        if i % 9 == 4:
            parts.append(" AND x::int >= 3 -- tail\n")
        if i % 10 == 7:
            parts.append(" ~~ \u00a7")  # a character no rule of the lexer matches
        text = "".join(parts)
        last_name = None
        for ttype, value in lexer.tokenize(text):
            key = str(ttype)
            totals[key] = totals.get(key, 0) + 1
            if ttype is T.Name:
                last_name = value
            elif ttype is T.Error:
                errors += 1
        last_names.append(last_name)
        # the next statement selects a column named after this one's last name
        carry = last_name[:6]

    lex = Lexer.get_default_instance()
    words = ("select", "Loop", "nothing", "BEGIN", "qualify", "zzz")
    kinds = [lex.is_keyword(w)[0] for w in words]

    assert sum(totals.values()) == 1382
    assert totals["Token.Name.Placeholder"] == 48
    assert totals["Token.Comment.Multiline"] == 12
    assert totals["Token.Comment.Multiline.Hint"] == 8
    assert totals["Token.Literal"] == 7
    assert totals["Token.Literal.Number.Float"] == 34
    assert errors == 5
    assert last_names.count("s") == 5
    assert last_names.count("x") == 5
    assert kinds == [T.Keyword.DML, T.Keyword, T.Keyword, T.Keyword, T.Keyword, T.Name]


def test_split_scripts_carry_longest_piece():
    carry = ""
    counts = []
    total_chars = 0
    resplit_same = 0
    for i in range(20):
        kind = (i * 5 + 1) % 7
        if kind == 0:
            stmt = f"SELECT c{i % 5} FROM t{i % 3} WHERE x > {i * 7 % 11};"
        elif kind == 1:
            stmt = f"INSERT INTO t{i % 3} VALUES ('a;{i}', {i});"
        elif kind == 2:
            stmt = f"CREATE PROCEDURE p{i}() BEGIN IF x > {i % 4} THEN SELECT 1; END IF; END;"
        elif kind == 3:
            stmt = f"SELECT CASE WHEN a > {i} THEN 1 END FROM t; -- note {i};\n"
        elif kind == 4:
            stmt = f"BEGIN; UPDATE t SET a = {i}; COMMIT;"
        elif kind == 5:
            stmt = (f"CREATE PROCEDURE q{i}() DECLARE v INT; BEGIN "
                    f"FOR r IN 1..{i % 4 + 1} LOOP SELECT r; END LOOP; "
                    f"WHILE v < {i} DO SET v = v + 1; END WHILE; END;")
        else:
            stmt = f"BEGIN TRANSACTION; DELETE FROM t WHERE id = {(i * 7 + 3) % 11}; END;"
        script = carry + " " + stmt + f" SELECT {i} /* x; y */ FROM d"
        strip = i % 4 == 3
        parts = sqlparse.split(script, strip_semicolon=strip)
        counts.append(len(parts))
        total_chars += sum(len(p) for p in parts)
        # every third script's pieces, joined one a line, are split again
        if i % 3 == 0 and sqlparse.split("\n".join(parts)) == parts:
            resplit_same += 1
        # the next script opens with the longest piece of this one, unless
        # that piece is long: then with the shortest
        longest = max(parts, key=len)
        carry = longest if len(longest) <= 90 else min(parts, key=len)

    assert len(counts) == 20
    assert sum(counts) == 49
    assert counts.count(1) == 6
    assert max(counts) == 5
    assert total_chars == 4358
    assert resplit_same == 5
    assert carry == "SELECT 19 /* x; y */ FROM d"


def test_nested_calls_and_parentheses_depth_limit():
    depths = []
    function_names = []
    failures = []
    for i in range(20):
        # one statement nests 101 deep, past the grouping depth limit
        depth = 101 if i == 13 else (i * 3) % 4 + 1
        # level k opens a bare parenthesis or a call of f<k>, by parity
        opens = "".join(("(", f"f{k}(")[(i + k) % 2] for k in range(depth))
        text = f"select {opens}x{i}{')' * depth}"
        try:
            stmt = sqlparse.parse(text)[0]
        except SQLParseError as err:
            failures.append((depth, str(err)))
            continue
        level, node = 0, stmt
        while True:
            inner = [t for t in node.tokens if isinstance(t, (sql.Parenthesis, sql.Function))]
            if not inner:
                break
            node = inner[0]
            if isinstance(node, sql.Function):
                function_names.append(node.get_name())
            else:
                level += 1
        depths.append(level)

    assert len(depths) == 19
    assert sum(depths) == 46
    assert depths[:10] == [1, 4, 3, 2, 1, 4, 3, 2, 1, 4]
    assert function_names.count("f0") == 9
    assert len(function_names) == 18
    assert failures == [(101, "Maximum grouping depth exceeded (100).")]


def test_identifier_names_aliases_and_casts():
    real, aliases, parents, casts, orders = [], [], [], [], []
    for i in range(16):
        schema = f"s{i % 3}"
        name = f'"Col {i}"' if i % 4 == 1 else f"col{i % 7}"
        if i % 3 == 0:
            col = f"{schema}.tb{i % 2}.{name}"
        elif i % 3 == 1:
            col = f"tb{i % 2}.{name}"
        else:
            col = name
        if i % 5 == 0:
            col += "::text"
        alias = ("", f" AS a{i}", f" a{i}")[i % 3 if i % 5 else 0]
        text = f"SELECT {col}{alias} FROM {schema}.tbl{i % 4} t{i % 2}"
        if i % 4 == 2:
            text += f" ORDER BY {i % 3 + 1} {('ASC', 'DESC')[i % 8 // 4]}"
        stmt = sqlparse.parse(text)[0]
        for ident in find(stmt, sql.Identifier):
            real.append(ident.get_real_name())
            aliases.append(ident.get_alias())
            parents.append(ident.get_parent_name())
            if "::" in str(ident):
                casts.append(ident.get_typecast())
            if ident.get_ordering():
                orders.append(ident.get_ordering())

    assert len(real) == 60
    assert sum(a is not None for a in aliases) == 24
    assert sorted(dict.fromkeys(p for p in parents if p)) == ["s0", "s1", "s2", "tb0", "tb1"]
    assert casts == ["text", "text", "text", "text"]
    assert orders == ["ASC", "DESC", "ASC", "DESC"]
    assert real[:10] == ["col0", "tbl0", "t0", "Col 1", "a1", "tbl1", "t1", "col2", "a2", "tbl2"]


def test_case_expressions_grow_and_chain():
    shape = []
    shape_ws = []
    else_count = 0
    prev_value = "0"
    for i in range(14):
        n = i % 3 + 1
        if i % 2 == 0:
            # a searched CASE: WHEN <comparison>
            whens = " ".join(f"WHEN v = {(i + k) * 3 % 7} THEN {prev_value}" for k in range(n))
            head = "CASE"
        else:
            # a simple CASE: CASE <subject> WHEN <value>
            whens = " ".join(f"WHEN {(i + k) * 3 % 7} THEN {prev_value}" for k in range(n))
            head = f"CASE c{i % 3}"
        tail = f" ELSE 'e{i}'" if i % 3 else ""
        case = find(sqlparse.parse(f"SELECT {head} {whens}{tail} END")[0], sql.Case)[0]
        cases = case.get_cases(skip_ws=True)
        shape.append(len(cases))
        shape_ws.append(len(case.get_cases()))
        else_count += sum(1 for cond, _ in cases if cond is None)
        # the last value of this CASE becomes the THEN value of the next one
        prev_value = str(cases[-1][1][-1])

    assert shape == [1, 4, 4, 2, 3, 5, 1, 4, 4, 2, 3, 5, 1, 4]
    assert shape_ws == [2, 4, 5, 2, 4, 5, 2, 4, 5, 2, 4, 5, 2, 4]
    assert else_count == 9
    assert prev_value == "'e13'"


def test_token_tree_walk_and_regroup_where():
    forward = backward = where_keywords = offset_keywords = ancestors = 0
    shrink = []
    for i in range(12):
        joiner = (" and ", " or ")[i % 2]
        conds = joiner.join(
            f"c{k} {('=', '<>', '>=', '<')[(i + k) % 4]} {(i * 7 + k) % 11}"
            for k in range(i % 3 + 1))
        tail = ("", f" group by c{i % 3}", f" limit {i}")[i % 3]
        text = f"select c{i % 5} as d from t where {conds}{tail}"
        stmt = sqlparse.parse(text)[0]
        idx, tok = stmt.token_next(-1)
        while tok is not None:
            forward += 1
            idx, tok = stmt.token_next(idx)
        pidx, ptok = stmt.token_prev(len(stmt.tokens))
        while ptok is not None:
            backward += 1
            pidx, ptok = stmt.token_prev(pidx)
        for off in range(i % 7, len(text), 9):
            if stmt.get_token_at_offset(off).is_keyword:
                offset_keywords += 1
        where = find(stmt, sql.Where)[0]
        kidx, kw = where.token_next_by(t=T.Keyword)
        while kw is not None:
            where_keywords += 1
            kidx, kw = where.token_next_by(t=T.Keyword, idx=kidx)
        # regroup: fold the first through the last comparison into one group
        comps = [t for t in where.tokens if isinstance(t, sql.Comparison)]
        before = len(where.tokens)
        if len(comps) >= 2:
            grp = where.group_tokens(
                sql.TokenList, where.token_index(comps[0]), where.token_index(comps[-1]))
            ancestors += sum(c.has_ancestor(grp) for c in comps)
        shrink.append(before - len(where.tokens))
        assert str(stmt) == text

    assert forward == 76
    assert backward == forward
    assert where_keywords == 24
    assert offset_keywords == 32
    assert shrink[:6] == [0, 4, 8, 0, 4, 8]
    assert ancestors == 20


def test_functions_windows_values_and_types():
    params = []
    windowless = 0
    windows = []
    types = []
    rows = []
    for i in range(12):
        args = ", ".join(f"a{k}" if k % 2 else f"{k * i}" for k in range(i % 4))
        fn = f"fn{i % 3}({args})"
        if i % 5 == 0:
            fn += f" over (partition by p{i % 2})"
        if i % 3 == 0:
            text = f"with w as (select {fn}) select v from w"
        elif i % 3 == 1:
            text = "insert into t values " + ", ".join(f"({k}, {fn})" for k in range(i % 4 + 1))
        else:
            text = f"select {fn}"
        stmt = sqlparse.parse(text)[0]
        types.append(stmt.get_type())
        for f in find(stmt, sql.Function):
            params.append(len(list(f.get_parameters())))
            try:
                windows.append(str(f.get_window()))
            except AttributeError:
                windowless += 1
        for v in find(stmt, sql.Values):
            rows.append(len([t for t in v.tokens if isinstance(t, sql.Parenthesis)]))

    assert len(params) == 18
    assert sum(params) == 32
    assert windowless == 13
    assert windows == ["(partition by p0)", "(partition by p1)"] + ["(partition by p0)"] * 3
    assert types.count("SELECT") == 8
    assert types.count("INSERT") == 4
    assert rows == [2, 1, 4, 3]


def test_invalid_format_options_cycle():
    bad = [
        {"keyword_case": "sideways"},
        {"identifier_case": 1},
        {"output_format": "cobol"},
        {"strip_comments": "yes"},
        {"use_space_around_operators": 2},
        {"strip_whitespace": None},
        {"truncate_strings": "abc"},
        {"truncate_strings": 1},
        {"indent_columns": "no"},
        {"reindent": 0.5},
        {"reindent_aligned": "x"},
        {"indent_after_first": []},
        {"indent_tabs": "t"},
        {"indent_width": "w"},
        {"indent_width": 0},
        {"wrap_after": "w"},
        {"wrap_after": -3},
        {"comma_first": "c"},
        {"compact": 9},
        {"right_margin": "r"},
        {"right_margin": 5},
    ]
    first_words = []
    ok_lengths = []
    for i in range(45):
        if i % 5 == 2:
            opts = {
                "keyword_case": ("upper", "lower")[i % 2],
                "truncate_strings": i % 6 + 2,
                "indent_tabs": i % 3 == 0,
            }
        else:
            opts = dict(bad[(i * 4) % len(bad)])
        try:
            out = sqlparse.format(f"select 'abcdefghijk{i}', b{i} from t where x = {i}", **opts)
        except SQLParseError as err:
            first_words.append(str(err).split(" ")[0])
        else:
            ok_lengths.append(len(out))

    assert len(first_words) == 36
    assert first_words.count("Invalid") == 19
    assert sorted(dict.fromkeys(first_words)) == [
        "Invalid", "Unknown", "comma_first", "compact",
        "indent_width", "right_margin", "wrap_after",
    ]
    assert ok_lengths == [41, 40, 41, 46, 45, 44, 43, 42, 41]
    # a valid right_margin passes the checks, but its filter is not implemented
    with pytest.raises(NotImplementedError):
        sqlparse.format("select a from t", right_margin=20)


def test_reindent_options_cycle_feeds_subqueries():
    cases = ("upper", "lower", "capitalize", None)
    line_counts = []
    stable = 0
    widest = 0
    carry = "select a0 from t0"
    for i in range(12):
        cols = ", ".join(f"c{(i + j) % 7}" for j in range(i % 4 + 1))
        text = f"select {cols} from t{i % 3}"
        if i % 4 == 0:
            text += f" join u on t{i % 3}.id = u.id"
        if i % 3 != 1:
            text += f" where x > {i * 7 % 11} or z = 'v{i}'"
        if i % 4 == 1:
            text += f" group by c{i % 7} order by c{(i + 1) % 7} desc"
        if i % 5 == 2:
            text += f" limit {i}"
        if i % 6 == 3:
            text = "insert into t values " + ", ".join(f"({k}, 'r{k}')" for k in range(i % 4 + 1))
        if i % 7 == 5:
            text = f"select case when a = {i} then 'x' else 'z' end from ({carry}) s"
        opts = {
            "reindent": True,
            "indent_width": i % 4 + 1,
            "keyword_case": cases[i % 4],
            "comma_first": i % 3 == 0,
            "wrap_after": (0, 20, 40)[i % 3],
            "indent_after_first": i % 5 == 0,
            "indent_columns": i % 7 == 0,
            "compact": i % 2 == 1,
        }
        out = sqlparse.format(text, **opts)
        # every fourth output is formatted again with the same options
        if i % 4 == 2 and sqlparse.format(out, **opts) == out:
            stable += 1
        lines = out.splitlines()
        line_counts.append(len(lines))
        widest = max(widest, max(len(line) for line in lines))
        # the next CASE statement selects from this output, on one line
        carry = " ".join(out.split())

    assert line_counts == [5, 4, 5, 5, 3, 5, 6, 3, 5, 3, 2, 4]
    assert stable == 3
    assert widest == 44
    assert carry == "select c4, c5, c6, c0 from t2 where x > 0 or z = 'v11'"


def test_strip_comments_carry_last_statement():
    carry = ""
    removed = 0
    hints_kept = 0
    total_lines = 0
    for i in range(12):
        pieces = [f"select a{i % 4}"]
        if i % 2 == 0:
            pieces.append(f" -- c{i}\n")
        pieces.append(f", b /* m{i} */ from t")
        if i % 3 == 0:
            pieces.append(f" /*+ index(t{i % 3}) */")
        if i % 5 == 1:
            pieces.append(f" where (/* inner {i} */ x > {i})")
        if i % 4 == 3:
            pieces.append(f"\n-- trailing {i}\n")
        text = carry + "".join(pieces) + ";"
        out = sqlparse.format(text, strip_comments=True, strip_whitespace=i % 2 == 1)
        removed += (text.count("--") + text.count("/*")) - (out.count("--") + out.count("/*"))
        hints_kept += out.count("/*+")
        total_lines += len(out.splitlines())
        # the last statement of the stripped output opens the next script
        carry = out.split(";")[-2].strip() + "; "

    assert removed == 24
    assert hints_kept == 8
    assert total_lines == 18
    assert carry == "select a3, b  from t where (x > 11); "


def test_output_formats_over_sliding_scripts():
    py_lines = 0
    php_lines = 0
    last_vars = []
    escapes = 0
    script = ""
    for i in range(16):
        script += f"select '{i}''s', \"q{i}\" from t{i % 4} where k = {i * 7 % 11};"
        # at most the last two statements (and the empty piece after the final ';')
        stmts = ";".join(script.split(";")[-3:])
        fmt = ("python", "php")[i % 2]
        out = sqlparse.format(stmts, output_format=fmt, reindent=i % 5 == 0)
        lines = out.splitlines()
        if fmt == "python":
            py_lines += len(lines)
        else:
            php_lines += len(lines)
        assigned = [line.split()[0] for line in lines if line.startswith(("sql", "$sql"))]
        last_vars.append(assigned[-1])
        escapes += out.count("\\")

    assert py_lines == 20
    assert php_lines == 24
    assert last_vars == ["sql", "$sql2"] + ["sql2", "$sql2"] * 7
    assert escapes == 92


def test_aligned_indent_operators_truncation_identifier_case():
    total_lines = 0
    spaced_ops = 0
    truncated = 0
    upper_ids = 0
    joins = ("left join", "inner join", "cross join", "join")
    for i in range(10):
        text = f"select a{i % 3}+b*{i % 5} from t{i % 4}"
        if i % 2 == 0:
            text += f" {joins[i // 2 % 4]} u on u.k=t{i % 4}.k"
        text += f" where d>={i} and e<'{'s' * (i % 9)}'"
        if i % 3 == 0:
            text += f" group by a{i % 3}"
        out = sqlparse.format(
            text,
            reindent_aligned=i % 4 != 3,
            use_space_around_operators=i % 3 != 2,
            truncate_strings=(None, 3, 5)[i % 3],
            identifier_case=(None, "upper", "capitalize")[(i // 3) % 3],
        )
        total_lines += len(out.splitlines())
        spaced_ops += out.count(" + ") + out.count(" >= ")
        truncated += out.count("[...]")
        upper_ids += out.count("A0")

    assert total_lines == 47
    assert spaced_ops == 14
    assert truncated == 3
    assert upper_ids == 4
