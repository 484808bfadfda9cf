"""Extensions (jinja2.ext) and native rendering (jinja2.nativetypes)."""

import pytest
from jinja2 import Environment, TemplateSyntaxError, nodes
from jinja2.ext import Extension
from jinja2.nativetypes import NativeEnvironment


CATALOG = {
    "Hello %(name)s!": "Hallo %(name)s!",
    "Welcome": "Willkommen",
}


def gettext(message):
    return CATALOG.get(message, message)


def ngettext(singular, plural, n):
    if singular == "%(num)s apple":
        return "%(num)s Apfel" if n == 1 else "%(num)s Äpfel"
    return singular if n == 1 else plural


def i18n_env(**kwargs):
    env = Environment(extensions=["jinja2.ext.i18n"], **kwargs)
    env.install_gettext_callables(gettext, ngettext, newstyle=False)
    return env


def test_i18n_trans_blocks_and_pluralization():
    env = i18n_env()
    assert env.from_string("{% trans %}Welcome{% endtrans %}").render() == "Willkommen"
    assert env.from_string("{% trans name=user %}Hello {{ name }}!{% endtrans %}").render(user="Ann") == "Hallo Ann!"
    tpl = env.from_string(
        "{% trans num=count %}{{ num }} apple{% pluralize %}{{ num }} apples{% endtrans %}"
    )
    assert [tpl.render(count=n) for n in (1, 2, 5)] == ["1 Apfel", "2 Äpfel", "5 Äpfel"]
    assert env.from_string("{{ _('Welcome') }}|{{ gettext('Other') }}").render() == "Willkommen|Other"


def test_i18n_trimmed_and_syntax_errors():
    env = i18n_env()
    tpl = env.from_string("{% trans trimmed %}\n   Hello\n    world  {% endtrans %}")
    assert tpl.render() == "Hello world"
    with pytest.raises(TemplateSyntaxError):
        env.from_string("{% trans %}{% if x %}{% endif %}{% endtrans %}")
    with pytest.raises(TemplateSyntaxError):
        env.from_string("{% trans %}{{ a.b }}{% endtrans %}")


def test_extract_translatable_strings():
    env = Environment(extensions=["jinja2.ext.i18n"])
    source = (
        "{{ _('one') }}\n{% trans %}two {{ x }}{% endtrans %}\n"
        "{{ ngettext('apple', 'apples', n) }}\n{{ gettext(dynamic) }}"
    )
    found = list(env.extract_translations(source))
    assert found == [
        (1, "_", "one"),
        (2, "gettext", "two %(x)s"),
        (3, "ngettext", ("apple", "apples", None)),
        (4, "gettext", None),
    ]


def test_loop_controls_break_and_continue():
    env = Environment(extensions=["jinja2.ext.loopcontrols"])
    src = (
        "{% for i in range(20) %}{% if i is odd %}{% continue %}{% endif %}"
        "{% if i > 8 %}{% break %}{% endif %}{{ i }},{% endfor %}"
    )
    assert env.from_string(src).render() == "0,2,4,6,8,"
    nested = (
        "{% for row in rows %}{% for c in row %}{% if c == 0 %}{% break %}{% endif %}{{ c }}"
        "{% endfor %};{% endfor %}"
    )
    assert env.from_string(nested).render(rows=[[1, 2, 0, 3], [0, 9], [4, 5]]) == "12;;45;"
    with pytest.raises(TemplateSyntaxError):
        Environment().from_string("{% for i in x %}{% break %}{% endfor %}")


def test_do_extension_and_debug_tag():
    env = Environment(extensions=["jinja2.ext.do", "jinja2.ext.debug"])
    src = "{% set xs = [] %}{% for i in range(4) %}{% do xs.append(i * i) %}{% endfor %}{{ xs }}"
    assert env.from_string(src).render() == "[0, 1, 4, 9]"
    debug_out = env.from_string("{% debug %}").render(alpha=1)
    assert "'alpha': 1" in debug_out
    assert "'filters':" in debug_out and "'tests':" in debug_out


class RepeatExtension(Extension):
    """{% repeat N %}body{% endrepeat %} renders body N times, joined by a separator."""

    tags = {"repeat"}

    def __init__(self, environment):
        super().__init__(environment)
        environment.extend(repeat_separator="-")

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        count = parser.parse_expression()
        body = parser.parse_statements(("name:endrepeat",), drop_needle=True)
        call = self.call_method("_render", [count])
        return nodes.CallBlock(call, [], [], body).set_lineno(lineno)

    def _render(self, count, caller):
        parts = []
        i = 0
        while i < count:
            parts.append(caller())
            i += 1
        return self.environment.repeat_separator.join(parts)


def test_custom_extension_tag():
    env = Environment(extensions=[RepeatExtension])
    assert env.from_string("{% repeat 3 %}ab{% endrepeat %}").render() == "ab-ab-ab"
    assert env.from_string("{% repeat n %}{{ x }}{% endrepeat %}").render(n=2, x="q") == "q-q"
    env.repeat_separator = "+"
    assert env.from_string("{% repeat 4 %}z{% endrepeat %}").render() == "z+z+z+z"
    with pytest.raises(TemplateSyntaxError):
        env.from_string("{% repeat 2 %}never closed")


def test_native_environment_returns_python_types():
    env = NativeEnvironment()
    assert env.from_string("{{ x + y }}").render(x=2, y=3) == 5
    assert env.from_string("[{% for i in range(3) %}{{ i }},{% endfor %}]").render() == [0, 1, 2]
    assert env.from_string("{{ d }}").render(d={"a": [1, 2]}) == {"a": [1, 2]}
    assert env.from_string("{{ a }}{{ b }}").render(a=1, b=2) == 12
    assert env.from_string("{{ 'x' }} + {{ 'y' }}").render() == "x + y"
    assert env.from_string("").render() is None
    assert env.from_string("{{ s }}").render(s="(1, 2)") == (1, 2)


def test_native_environment_fallback_for_unparseable_output():
    env = NativeEnvironment()
    assert env.from_string("{{ a }} {{ b }}").render(a="not", b="python") == "not python"
    assert env.from_string("{{ 1 }}+").render() == "1+"
    assert env.from_string("   {{ 4 }}").render() == "   4"
    assert env.from_string("{% if flag %}{{ 10 }}{% else %}{{ 'no' }}{% endif %}").render(flag=True) == 10
