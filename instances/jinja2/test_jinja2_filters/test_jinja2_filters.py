"""Built-in filters in jinja2.filters, exercised through templates and directly."""

import pytest
from jinja2 import Environment, StrictUndefined, UndefinedError
from jinja2.exceptions import FilterArgumentError, TemplateRuntimeError


def render(source, **ctx):
    env = Environment(autoescape=False)
    return env.from_string(source).render(**ctx)


def test_filesizeformat_decimal_and_binary():
    tpl = "{{ n|filesizeformat }}|{{ n|filesizeformat(true) }}"
    assert render(tpl, n=1) == "1 Byte|1 Byte"
    assert render(tpl, n=1000) == "1.0 kB|1000 Bytes"
    assert render(tpl, n=1536) == "1.5 kB|1.5 KiB"
    assert render(tpl, n=3 * 1024**3) == "3.2 GB|3.0 GiB"
    assert render(tpl, n=10**13) == "10.0 TB|9.1 TiB"


def test_truncate_wordwrap_and_center():
    text = "The quick brown fox jumps over the lazy dog"
    assert render("{{ t|truncate(18) }}", t=text) == "The quick..."
    assert render("{{ t|truncate(18, true) }}", t=text) == "The quick brown..."
    assert render("{{ t|truncate(20, true, '!') }}", t=text) == "The quick brown fox!"
    assert render("{{ t|truncate(45) }}", t=text) == text
    assert render("{{ t|wordwrap(12) }}", t=text) == "The quick\nbrown fox\njumps over\nthe lazy dog"
    assert render("[{{ 'ab'|center(6) }}]") == "[  ab  ]"


def test_sort_dictsort_unique_and_groupby():
    people = [
        {"name": "bob", "age": 30, "city": "Rome"},
        {"name": "Alice", "age": 25, "city": "Oslo"},
        {"name": "carol", "age": 35, "city": "Rome"},
        {"name": "dave", "age": 25, "city": "Oslo"},
    ]
    assert render("{{ p|sort(attribute='age,name')|map(attribute='name')|join(',') }}", p=people) == (
        "Alice,dave,bob,carol"
    )
    assert render("{{ p|sort(attribute='name', reverse=true)|map(attribute='name')|join(',') }}", p=people) == (
        "dave,carol,bob,Alice"
    )
    assert render("{{ d|dictsort(by='value')|list }}", d={"b": 2, "a": 3, "c": 1}) == (
        "[('c', 1), ('b', 2), ('a', 3)]"
    )
    assert render("{{ ['A','b','a','B','c']|unique|join }}") == "Abc"
    out = render(
        "{% for g in p|groupby('city') %}{{ g.grouper }}:{{ g.list|map(attribute='name')|join('+') }};{% endfor %}",
        p=people,
    )
    assert out == "Oslo:Alice+dave;Rome:bob+carol;"


def test_batch_slice_and_sum():
    assert render("{{ range(7)|batch(3)|list }}") == "[[0, 1, 2], [3, 4, 5], [6]]"
    assert render("{{ range(7)|batch(3, 'x')|list }}") == "[[0, 1, 2], [3, 4, 5], [6, 'x', 'x']]"
    assert render("{{ range(7)|slice(3)|list }}") == "[[0, 1, 2], [3, 4], [5, 6]]"
    assert render("{{ items|sum(attribute='v', start=10) }}", items=[{"v": 1}, {"v": 2}, {"v": 3}]) == "16"
    assert render("{{ [3, 1, 2]|min }}-{{ ['b', 'A', 'c']|max }}") == "1-c"


def test_int_float_and_round_fallbacks():
    assert render("{{ '42'|int }} {{ 'x'|int }} {{ 'x'|int(7) }} {{ '0x1A'|int(0, 16) }}") == "42 0 7 26"
    assert render("{{ '3.9'|int }} {{ '0b101'|int(base=2) }}") == "3 5"
    assert render("{{ '2.5'|float }} {{ 'nope'|float(1.5) }}") == "2.5 1.5"
    assert render("{{ 2.456|round(2) }} {{ 2.5|round(0, 'floor') }} {{ 2.1|round(0, 'ceil') }}") == "2.46 2.0 3.0"
    with pytest.raises(FilterArgumentError):
        render("{{ 1.5|round(0, 'sideways') }}")


def test_default_and_strict_undefined():
    assert render("{{ missing|default('fallback') }}") == "fallback"
    assert render("{{ ''|default('empty', true) }}") == "empty"
    assert render("{{ none|default('x') }}", none=None) == "None"
    env = Environment(undefined=StrictUndefined)
    assert env.from_string("{{ missing|default('ok') }}").render() == "ok"
    with pytest.raises(UndefinedError):
        env.from_string("{{ missing|upper }}").render()


def test_escape_striptags_xmlattr_and_urlize():
    env = Environment(autoescape=True)
    assert env.from_string("{{ s }}").render(s="<b>&</b>") == "&lt;b&gt;&amp;&lt;/b&gt;"
    assert env.from_string("{{ s|safe }}").render(s="<b>ok</b>") == "<b>ok</b>"
    assert render("{{ s|striptags }}", s="<p>Hello   <b>big</b>\n world</p>") == "Hello big world"
    assert env.from_string("<a{{ attrs|xmlattr }}>").render(
        attrs={"href": "/x?a=1&b=2", "class": "btn", "skip": None}
    ) == '<a href="/x?a=1&amp;b=2" class="btn">'
    assert render("{{ 'see http://example.com now'|urlize }}") == (
        'see <a href="http://example.com" rel="noopener">http://example.com</a> now'
    )


def test_indent_replace_and_format():
    assert render("{{ 'a\nb\n\nc'|indent(2) }}") == "a\n  b\n\n  c"
    assert render("{{ 'a\nb'|indent('> ', first=true) }}") == "> a\n> b"
    assert render("{{ 'aaaa'|replace('a', 'b', 2) }}") == "bbaa"
    assert render("{{ '%s=%d'|format('x', 3) }}") == "x=3"
    assert render("{{ 'hello world'|title }} {{ 'hELLO'|capitalize }} {{ 'a b  c'|wordcount }}") == (
        "Hello World Hello 3"
    )


def test_map_select_reject_and_attr():
    users = [{"name": "a", "active": True}, {"name": "b", "active": False}, {"name": "c", "active": True}]
    assert render("{{ u|selectattr('active')|map(attribute='name')|join }}", u=users) == "ac"
    assert render("{{ u|rejectattr('active')|map(attribute='name')|join }}", u=users) == "b"
    assert render("{{ range(10)|select('odd')|list }}") == "[1, 3, 5, 7, 9]"
    assert render("{{ range(10)|reject('divisibleby', 3)|list }}") == "[1, 2, 4, 5, 7, 8]"
    assert render("{{ ['1', '2']|map('int')|sum }}") == "3"
    assert render("{{ u|map(attribute='missing', default='?')|join }}", u=users) == "???"


def test_unknown_filter_and_test_errors():
    env = Environment()
    from jinja2 import TemplateAssertionError

    with pytest.raises(TemplateAssertionError) as excinfo:
        env.from_string("{{ x|no_such_filter }}")
    assert "No filter named 'no_such_filter'" in str(excinfo.value)
    with pytest.raises(TemplateRuntimeError):
        env.from_string("{{ range(3)|select('no_such_test')|list }}").render()
    with pytest.raises(FilterArgumentError):
        render("{{ {'a': 1}|dictsort(by='size') }}")
