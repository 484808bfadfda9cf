"""Lexing, parsing and compiling templates (jinja2.lexer, jinja2.parser, jinja2.compiler)."""

import pytest
from jinja2 import Environment, TemplateSyntaxError, meta, nodes


def tokens(env, source):
    return [(lineno, type_, value) for lineno, type_, value in env.lex(source)]


def test_lexer_token_stream_for_mixed_template():
    env = Environment()
    toks = [(t, v) for _, t, v in tokens(env, "Hi {{ name|upper }}{% if x > 1 %}!{% endif %}{# c #}")]
    assert toks == [
        ("data", "Hi "),
        ("variable_begin", "{{"),
        ("whitespace", " "),
        ("name", "name"),
        ("operator", "|"),
        ("name", "upper"),
        ("whitespace", " "),
        ("variable_end", "}}"),
        ("block_begin", "{%"),
        ("whitespace", " "),
        ("name", "if"),
        ("whitespace", " "),
        ("name", "x"),
        ("whitespace", " "),
        ("operator", ">"),
        ("whitespace", " "),
        ("integer", "1"),
        ("whitespace", " "),
        ("block_end", "%}"),
        ("data", "!"),
        ("block_begin", "{%"),
        ("whitespace", " "),
        ("name", "endif"),
        ("whitespace", " "),
        ("block_end", "%}"),
        ("comment_begin", "{#"),
        ("comment", " c "),
        ("comment_end", "#}"),
    ]


def test_lexer_literals_and_line_numbers():
    env = Environment()
    stream = list(env._tokenize("a\n{{ 1_000 + 2.5e1 + 'q\\'s' }}\n{{ 0x1F }}", None))
    values = [(t.lineno, t.type, t.value) for t in stream if t.type in ("integer", "float", "string")]
    assert values == [(2, "integer", 1000), (2, "float", 25.0), (2, "string", "q's"), (3, "integer", 31)]


def test_custom_delimiters_and_line_statements():
    env = Environment(
        block_start_string="<%",
        block_end_string="%>",
        variable_start_string="${",
        variable_end_string="}",
        line_statement_prefix="#",
        line_comment_prefix="##",
    )
    source = "# for i in items\n${ i }<% if not loop.last %>,<% endif %>\n# endfor\n## comment line\nend"
    assert env.from_string(source).render(items=[1, 2, 3]) == "1,\n2,\n3\n\nend"


def test_whitespace_control_options():
    source = "<ul>\n  {% for i in xs %}\n  <li>{{ i }}</li>\n  {% endfor %}\n</ul>"
    plain = Environment().from_string(source).render(xs=[1, 2])
    assert plain == "<ul>\n  \n  <li>1</li>\n  \n  <li>2</li>\n  \n</ul>"
    trimmed = Environment(trim_blocks=True, lstrip_blocks=True).from_string(source).render(xs=[1, 2])
    assert trimmed == "<ul>\n  <li>1</li>\n  <li>2</li>\n</ul>"
    manual = Environment().from_string("a  {%- if true -%}  b  {%- endif %}  c").render()
    assert manual == "ab  c"


def test_parse_tree_structure():
    env = Environment()
    ast = env.parse("{% for a, b in pairs if a %}{{ a ~ b }}{% else %}none{% endfor %}")
    loop = ast.find(nodes.For)
    assert isinstance(loop.target, nodes.Tuple)
    assert [n.name for n in loop.target.items] == ["a", "b"]
    assert isinstance(loop.test, nodes.Name)
    assert isinstance(loop.body[0].nodes[0], nodes.Concat)
    assert loop.else_[0].nodes[0].data == "none"
    names = sorted({n.name for n in ast.find_all(nodes.Name)})
    assert names == ["a", "b", "pairs"]


def test_operator_precedence_and_expressions():
    env = Environment()
    cases = {
        "{{ 2 + 3 * 4 ** 2 }}": "50",
        "{{ (2 + 3) * 4 }}": "20",
        "{{ 7 // 2 }},{{ 7 % 3 }},{{ -7 / 2 }}": "3,1,-3.5",
        "{{ 1 < 2 < 3 }},{{ 3 > 2 > 2 }}": "True,False",
        "{{ not false and (none is none) or 0 }}": "True",
        "{{ 'a' ~ 1 ~ [2] }}": "a1[2]",
        "{{ [1, 2, 3][1:] }}{{ 'abcdef'[::2] }}": "[2, 3]ace",
        "{{ 'yes' if 3 in [1, 2, 3] else 'no' }}": "yes",
        "{{ {'k': 'v'}['k'] }}{{ (1, 2)|length }}": "v2",
    }
    for source, expected in cases.items():
        assert env.from_string(source).render() == expected, source


def test_syntax_errors_report_line_and_message():
    env = Environment()
    bad = {
        "{% if x %}open": "Unexpected end of template",
        "line1\n{% for %}": "Expected an expression",
        "{{ 1 + }}": "unexpected 'end of print statement'",
        "{% endfor %}": "Encountered unknown tag 'endfor'",
        "{{ 'unterminated }}": "unexpected char",
    }
    for source, fragment in bad.items():
        with pytest.raises(TemplateSyntaxError) as excinfo:
            env.from_string(source)
        assert fragment in str(excinfo.value), (source, str(excinfo.value))
    with pytest.raises(TemplateSyntaxError) as excinfo:
        env.from_string("ok\nok\n{% set %}")
    assert excinfo.value.lineno == 3


def test_meta_find_undeclared_and_referenced_templates():
    env = Environment()
    ast = env.parse(
        "{% extends 'base.html' %}{% import 'macros.html' as m %}"
        "{% set y = 1 %}{% block body %}{{ x }}{{ y }}{{ m.f(z) }}"
        "{% include ['a.html', 'b.html'] %}{% endblock %}"
    )
    # block bodies look names up in the render context, so top-level set/import
    # in a child template do not count as declarations inside the block
    assert sorted(meta.find_undeclared_variables(ast)) == ["m", "x", "y", "z"]
    flat = env.parse("{% set y = 1 %}{% for i in seq %}{{ i }}{{ y }}{{ w }}{% endfor %}")
    assert sorted(meta.find_undeclared_variables(flat)) == ["seq", "w"]
    assert list(meta.find_referenced_templates(ast)) == ["base.html", "macros.html", "a.html", "b.html"]
    dynamic = env.parse("{% include name %}{% include 'fixed.html' %}")
    assert list(meta.find_referenced_templates(dynamic)) == [None, "fixed.html"]


def test_compile_to_source_and_constant_folding():
    env = Environment()
    source = env.compile("{{ 1 + 2 }}{% for i in seq %}{{ i }}{% endfor %}", raw=True)
    assert "def root(context" in source
    assert "'3'" in source or "3" in source
    assert "for l_1_i in" in source
    tmpl = env.from_string("{% raw %}{{ not parsed }}{% endraw %}{{ 10 - 3 }}")
    assert tmpl.render() == "{{ not parsed }}7"


def test_compile_expression():
    env = Environment()
    expr = env.compile_expression("a * b + offset")
    assert expr(a=3, b=4, offset=1) == 13
    assert expr(a=2, b=5, offset=-10) == 0
    cond = env.compile_expression("name is defined and name|length > 2")
    assert cond(name="abc") is True
    assert cond(name="ab") is False
    assert cond() is False
    with pytest.raises(TemplateSyntaxError):
        env.compile_expression("a +")
