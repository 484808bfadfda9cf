"""Loaders, template inheritance, includes/imports and bytecode caching."""

import os

import pytest
from jinja2 import (
    ChoiceLoader,
    DictLoader,
    Environment,
    FileSystemBytecodeCache,
    FileSystemLoader,
    FunctionLoader,
    PrefixLoader,
    TemplateNotFound,
    TemplatesNotFound,
)

TEMPLATES = {
    "base.html": (
        "<title>{% block title %}Site{% endblock %}</title>"
        "{% block body %}<main>{% block content %}{% endblock %}</main>{% endblock %}"
    ),
    "page.html": (
        "{% extends 'base.html' %}{% block title %}Page - {{ super() }}{% endblock %}"
        "{% block content %}{% for i in items %}{% include 'item.html' %}{% endfor %}{% endblock %}"
    ),
    "item.html": "<i>{{ i }}</i>",
    "deep.html": "{% extends 'page.html' %}{% block title %}Deep | {{ super() }}{% endblock %}",
    "macros.html": "{% macro greet(n) %}Hello {{ n }}{{ punct }}{% endmacro %}{% set version = 3 %}",
    "uses.html": (
        "{% import 'macros.html' as m %}{% from 'macros.html' import greet as g with context %}"
        "{{ m.greet('a') }}/{{ g('b') }}/{{ m.version }}"
    ),
    "scoped.html": "{% for x in xs %}{% block row scoped %}[{{ x }}]{% endblock %}{% endfor %}",
}


def env_dict():
    return Environment(loader=DictLoader(TEMPLATES))


def test_inheritance_with_super_and_include():
    env = env_dict()
    assert env.get_template("page.html").render(items=[1, 2]) == "<title>Page - Site</title><main><i>1</i><i>2</i></main>"
    assert env.get_template("deep.html").render(items=["x"]) == "<title>Deep | Page - Site</title><main><i>x</i></main>"


def test_import_with_and_without_context():
    env = env_dict()
    assert env.get_template("uses.html").render(punct="!") == "Hello a/Hello b!/3"


def test_scoped_blocks_and_self_reference():
    env = Environment(loader=DictLoader({
        **TEMPLATES,
        "child.html": "{% extends 'scoped.html' %}{% block row %}<{{ x * 2 }}>{% endblock %}",
        "selfref.html": "{% block h %}H{% endblock %}-{{ self.h() }}-{{ self.h() }}",
    }))
    assert env.get_template("child.html").render(xs=[1, 2, 3]) == "<2><4><6>"
    assert env.get_template("selfref.html").render() == "H-H-H"


def test_missing_templates_and_ignore_missing():
    env = env_dict()
    with pytest.raises(TemplateNotFound) as excinfo:
        env.get_template("nope.html")
    assert excinfo.value.name == "nope.html"
    with pytest.raises(TemplatesNotFound) as excinfo:
        env.select_template(["a.html", "b.html"])
    assert excinfo.value.templates == ["a.html", "b.html"]
    assert env.select_template(["nope.html", "item.html"]).name == "item.html"
    assert env.from_string("[{% include 'nope.html' ignore missing %}]").render() == "[]"
    assert env.from_string("{% include ['no1.html', 'item.html'] %}").render(i=5) == "<i>5</i>"
    with pytest.raises(TemplateNotFound):
        env.from_string("{% include 'gone.html' %}").render()


def test_choice_prefix_and_function_loaders():
    calls = []

    def load(name):
        calls.append(name)
        if name.startswith("fn_"):
            return f"from function {name}"
        return None

    loader = ChoiceLoader([
        PrefixLoader({"app": DictLoader({"x.html": "app x"}), "lib": DictLoader({"x.html": "lib x"})}),
        FunctionLoader(load),
        DictLoader({"fallback.html": "fallback"}),
    ])
    env = Environment(loader=loader)
    assert env.get_template("app/x.html").render() == "app x"
    assert env.get_template("lib/x.html").render() == "lib x"
    assert env.get_template("fn_one").render() == "from function fn_one"
    assert env.get_template("fallback.html").render() == "fallback"
    assert calls == ["fn_one", "fallback.html"]
    with pytest.raises(TemplateNotFound):
        env.get_template("other/x.html")


def test_filesystem_loader_search_path_and_listing(tmp_path):
    first = tmp_path / "first"
    second = tmp_path / "second"
    (first / "sub").mkdir(parents=True)
    second.mkdir()
    (first / "a.txt").write_text("first a {{ v }}")
    (second / "a.txt").write_text("second a")
    (second / "b.txt").write_text("second b")
    (first / "sub" / "c.txt").write_text("{% include 'b.txt' %}+c")
    env = Environment(loader=FileSystemLoader([str(first), str(second)]))
    assert env.get_template("a.txt").render(v=1) == "first a 1"
    assert env.get_template("sub/c.txt").render() == "second b+c"
    assert env.list_templates() == ["a.txt", "b.txt", "sub/c.txt"]
    assert env.list_templates(filter_func=lambda n: "/" not in n) == ["a.txt", "b.txt"]
    assert env.list_templates(extensions=["html"]) == []
    with pytest.raises(TypeError):
        env.list_templates(extensions=["txt"], filter_func=bool)
    with pytest.raises(TemplateNotFound):
        env.get_template("../first/a.txt")


def test_auto_reload_detects_changed_file(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("v1")
    os.utime(path, (1_000_000, 1_000_000))
    env = Environment(loader=FileSystemLoader(str(tmp_path)), auto_reload=True)
    t1 = env.get_template("t.txt")
    assert t1.render() == "v1"
    assert t1.is_up_to_date
    assert env.get_template("t.txt") is t1
    path.write_text("v2")
    os.utime(path, (2_000_000, 2_000_000))
    assert not t1.is_up_to_date
    t2 = env.get_template("t.txt")
    assert t2 is not t1
    assert t2.render() == "v2"


def test_template_cache_eviction():
    env = Environment(loader=DictLoader({f"t{i}": str(i) for i in range(5)}), cache_size=2)
    first = env.get_template("t0")
    env.get_template("t1")
    assert env.get_template("t0") is first
    env.get_template("t2")
    env.get_template("t3")
    assert env.get_template("t0") is not first
    assert len(env.cache) == 2


def test_bytecode_cache_round_trip(tmp_path):
    templates = tmp_path / "tpl"
    templates.mkdir()
    (templates / "x.txt").write_text("{% for i in range(n) %}{{ i }}{% endfor %}")
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    bcc = FileSystemBytecodeCache(str(cache_dir), "%s.cache")
    env = Environment(loader=FileSystemLoader(str(templates)), bytecode_cache=bcc)
    assert env.get_template("x.txt").render(n=4) == "0123"
    assert len(os.listdir(cache_dir)) == 1
    env2 = Environment(loader=FileSystemLoader(str(templates)), bytecode_cache=bcc)
    assert env2.get_template("x.txt").render(n=3) == "012"
    bcc.clear()
    assert os.listdir(cache_dir) == []


def test_render_blocks_and_module_attributes():
    env = env_dict()
    tmpl = env.get_template("macros.html")
    module = tmpl.make_module({"punct": "?"})
    assert module.version == 3
    assert str(module.greet("z")) == "Hello z?"
    page = env.get_template("page.html")
    assert sorted(page.blocks) == ["content", "title"]
    ctx = page.new_context({"items": [9]})
    assert "".join(page.blocks["content"](ctx)) == "<i>9</i>"
