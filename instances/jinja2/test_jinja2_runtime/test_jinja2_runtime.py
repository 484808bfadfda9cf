"""Runtime behaviour: loops, macros, scoping and undefined handling (jinja2.runtime)."""

import logging

import pytest
from jinja2 import (
    ChainableUndefined,
    DebugUndefined,
    Environment,
    StrictUndefined,
    Undefined,
    UndefinedError,
    make_logging_undefined,
    pass_context,
)


def render(source, env=None, **ctx):
    return (env or Environment()).from_string(source).render(**ctx)


def test_loop_variables():
    src = (
        "{% for x in xs %}{{ loop.index }}/{{ loop.revindex0 }}/{{ loop.length }}"
        "{{ '^' if loop.first }}{{ '$' if loop.last }}"
        "[{{ loop.previtem|default('-') }}>{{ loop.nextitem|default('-') }}]"
        "{{ loop.cycle('a', 'b') }};{% endfor %}"
    )
    assert render(src, xs=["p", "q", "r"]) == "1/2/3^[->q]a;2/1/3[p>r]b;3/0/3$[q>-]a;"


def test_loop_changed_filter_and_else():
    src = "{% for x in xs if x % 2 == 0 %}{% if loop.changed(x // 10) %}|{% endif %}{{ x }}{% else %}empty{% endfor %}"
    assert render(src, xs=[2, 3, 4, 12, 14, 15, 22]) == "|24|1214|22"
    assert render(src, xs=[1, 3, 5]) == "empty"
    assert render("{% for k, v in d|dictsort %}{{ k }}={{ v }} {% endfor %}", d={"b": 2, "a": 1}) == "a=1 b=2 "


def test_recursive_loop_depth():
    tree = [
        {"name": "root", "children": [
            {"name": "a", "children": [{"name": "a1", "children": []}, {"name": "a2", "children": []}]},
            {"name": "b", "children": []},
        ]},
    ]
    src = (
        "{% for n in tree recursive %}{{ '  ' * loop.depth0 }}{{ n.name }}@{{ loop.depth }}\n"
        "{% if n.children %}{{ loop(n.children) }}{% endif %}{% endfor %}"
    )
    assert render(src, tree=tree) == "root@1\n  a@2\n    a1@3\n    a2@3\n  b@2\n"


def test_macros_with_defaults_varargs_kwargs_and_caller():
    src = (
        "{% macro field(name, value='', type='text') -%}"
        "<input type={{ type }} name={{ name }} value={{ value }} {{ varargs|join(',') }} {{ kwargs|dictsort }}>"
        "{%- endmacro %}"
        "{{ field('u') }}\n{{ field('p', 'x', 'password', 'extra1', 'extra2', size=3, id='i') }}\n"
        "{% macro wrap(tag) %}<{{ tag }}>{{ caller(tag|upper) }}</{{ tag }}>{% endmacro %}"
        "{% call(t) wrap('b') %}in {{ t }}{% endcall %}"
    )
    assert render(src) == (
        "<input type=text name=u value=  []>\n"
        "<input type=password name=p value=x extra1,extra2 [('id', 'i'), ('size', 3)]>\n"
        "<b>in B</b>"
    )
    with pytest.raises(TypeError):
        render("{% macro m(a) %}{% endmacro %}{{ m(1, 2) }}")


def test_scoping_set_in_loop_and_namespace():
    src = "{% set total = 0 %}{% for i in range(4) %}{% set total = total + i %}{% endfor %}{{ total }}"
    assert render(src) == "0"
    src_ns = "{% set ns = namespace(total=0, seen=[]) %}{% for i in range(5) %}{% set ns.total = ns.total + i %}{% endfor %}{{ ns.total }}"
    assert render(src_ns) == "10"
    assert render("{% with a = 1, b = 2 %}{{ a + b }}{% endwith %}|{{ a|default('out') }}") == "3|out"
    assert render("{% set body %}x{{ 1 + 1 }}y{% endset %}{{ body|upper }}") == "X2Y"


def test_undefined_variants():
    assert render("[{{ missing }}][{{ missing|default('d') }}][{{ d.nokey|default('k') }}]", d={}) == "[][d][k]"
    with pytest.raises(UndefinedError):
        render("{{ missing.attr }}")
    chain = Environment(undefined=ChainableUndefined)
    assert render("[{{ a.b.c.d }}]", env=chain) == "[]"
    debug = Environment(undefined=DebugUndefined)
    assert render("{{ foo }} {{ bar.baz }}", env=debug, bar={}) == "{{ foo }} {{ no such element: dict object['baz'] }}"
    strict = Environment(undefined=StrictUndefined)
    with pytest.raises(UndefinedError) as excinfo:
        render("{{ user.name }}", env=strict, user={})
    assert "'dict object' has no attribute 'name'" in str(excinfo.value)
    assert render("{{ 'x' if y is defined else 'none' }}", env=strict) == "none"


def test_logging_undefined_records_access():
    records = []

    class Collect(logging.Handler):
        def emit(self, record):
            records.append(record.getMessage())

    logger = logging.getLogger("jinja2_benchmark_undefined")
    logger.propagate = False
    logger.setLevel(logging.DEBUG)
    handler = Collect()
    logger.addHandler(handler)
    try:
        LoggingUndefined = make_logging_undefined(logger=logger, base=Undefined)
        env = Environment(undefined=LoggingUndefined)
        assert render("[{{ a }}][{{ b }}][{{ c|default('z') }}]", env=env) == "[][][z]"
    finally:
        logger.removeHandler(handler)
    assert records == ["Template variable warning: 'a' is undefined", "Template variable warning: 'b' is undefined"]


def test_attribute_and_item_lookup_fallbacks():
    class Obj:
        color = "red"

        def __getitem__(self, key):
            if key == "size":
                return 10
            raise KeyError(key)

    assert render("{{ o.color }} {{ o['size'] }} {{ o.size }} {{ o['color'] }}", o=Obj()) == "red 10 10 red"
    assert render("{{ d.items }}", d={"items": 5}).startswith("<built-in method items")
    assert render("{{ d['items'] }}", d={"items": 5}) == "5"
    assert render("{{ xs.0 }}{{ xs[-1] }}", xs=[7, 8, 9]) == "79"


def test_context_functions_globals_and_tests():
    @pass_context
    def lookup(ctx, name):
        return ctx.resolve(name)

    env = Environment()
    env.globals["lookup"] = lookup
    env.globals["site"] = "S"
    env.tests["long"] = lambda v, n=3: len(v) > n
    src = "{{ lookup('who') }}@{{ site }} {{ 'abcd' is long }} {{ 'ab' is long(1) }} {{ 9 is divisibleby 3 }} {{ none is none }}"
    assert env.from_string(src).render(who="me") == "me@S True True True True"
    assert env.from_string("{{ x is number }},{{ x is string }},{{ [] is iterable }},{{ x is odd }}").render(x=3) == (
        "True,False,True,True"
    )


def test_filter_block_and_autoescape_block():
    assert render("{% filter upper|replace('A', '4') %}banana{% endfilter %}") == "B4N4N4"
    src = "{% autoescape true %}{{ s }}{% endautoescape %}|{{ s }}"
    assert render(src, s="<i>") == "&lt;i&gt;|<i>"
    env = Environment(autoescape=True)
    assert render("{{ s }}{{ s|e }}{% autoescape false %}{{ s }}{% endautoescape %}", env=env, s="&") == "&amp;&amp;&"
