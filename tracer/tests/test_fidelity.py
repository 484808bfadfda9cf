"""The target is the definition that runs (issue 49): `@overload` stubs before it, and earlier
definitions a later one shadows, are skipped — for the trace's questions and the prompt's source
alike."""

import pytest

from conftest import BACKENDS

FILES = {
    "pkg/__init__.py": "",
    "pkg/conv.py": '''
        import typing as t
        from typing import overload


        @t.overload
        def convert(value: int) -> int: ...


        @overload
        def convert(value: str) -> str: ...


        def convert(value):
            if isinstance(value, int):
                return value + 1
            return value.upper()


        def twice(x):
            return "old"


        def twice(x):
            return x * 2
    ''',
    "test_conv.py": '''
        from pkg.conv import convert, twice


        def test_convert():
            assert convert(1) == 2
            assert convert("a") == "A"
            assert twice(3) == 6
    ''',
}


def _run(harness, backend, function, kind="S1_IntraProceduralCFG", query=None):
    directory = harness.instance_dir(FILES, name=f"fid-{backend}-{function}-{kind}")
    spec = {"id": "one", "dir": str(directory), "tests": ["test_conv.py"], "kind": kind,
            "target": {"file": "pkg/conv.py", "function": function},
            "query": query if query is not None else {"invocation": 1}, "backend": backend,
            "timeout_seconds": 60}
    result = harness.run([spec])["one"]
    assert result["status"] == "ok", result.get("reason")
    return result


@pytest.mark.parametrize("backend", BACKENDS)
def test_overload_stubs_are_skipped_for_the_answer_and_the_source(harness, backend):
    result = _run(harness, backend, "convert")
    source = result["context"]["source"]
    assert "@overload" not in source and "..." not in source
    assert source.lstrip().startswith("def convert(value):")
    # The first invocation's path runs through the real body's lines (the stubs are 6-11).
    lines = [step["line"] for step in result["answer"]["executed_path"]]
    assert lines and min(lines) >= 14


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_shadowed_definition_is_skipped(harness, backend):
    result = _run(harness, backend, "twice")
    assert "x * 2" in result["context"]["source"]
    assert '"old"' not in result["context"]["source"]


def _src_layout(harness, backend, written):
    """A checkout with a `src/` layout (repo_root) and a test that imports from it."""
    name = f"srclayout-{backend}-{written.replace('/', '_')}"
    repo = harness.instance_dir({
        "src/pkg/__init__.py": "",
        "src/pkg/util.py": '''
            def helper(x):
                return x + 1
        ''',
        "src/pkg/mod.py": '''
            from pkg.util import helper


            def outer(n):
                return helper(n) * 2
        ''',
    }, name=f"{name}-repo")
    tests = harness.instance_dir({"test_mod.py": f'''
        import sys
        sys.path.insert(0, {str(repo / "src")!r})
        from pkg.mod import outer


        def test_outer():
            assert outer(1) == 4
            assert outer(2) == 6
    '''}, name=name)
    spec = {"id": "one", "dir": str(tests), "tests": ["test_mod.py"], "kind": "S6_InterProceduralCFG",
            "target": {"file": written, "function": "outer"}, "repo_root": str(repo),
            "query": {"invocation": "all", "include": ["pkg."]}, "backend": backend, "timeout_seconds": 60}
    result = harness.run([spec])["one"]
    assert result["status"] == "ok", result.get("reason")
    return result


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("written", ["pkg/mod.py", "src/pkg/mod.py"])
def test_one_naming_rule_per_answer_in_a_src_layout(harness, backend, written):
    result = _src_layout(harness, backend, written)
    # Every file relative to the checkout, every function by its import name: the target's rows
    # and its callees' alike, however target.file was written.
    assert result["answer"] == {"function_call_order": [
        {"file": "src/pkg/mod.py", "func": "pkg.mod.outer"},
        {"file": "src/pkg/util.py", "func": "pkg.util.helper"},
        {"file": "src/pkg/mod.py", "func": "pkg.mod.outer"},
        {"file": "src/pkg/util.py", "func": "pkg.util.helper"},
    ]}
    assert result["context"]["file"] == "src/pkg/mod.py"
    assert result["context"]["func"] == "pkg.mod.outer"


CHECKOUT = {
    "src/click/__init__.py": "",
    "src/click/parser.py": '''
        def _unpack_args(args, nargs):
            return args[:nargs]


        class _OptionParser:
            def parse_args(self, args):
                return _unpack_args(args, 1)


        class LazyFile:
            def readinto(self, buffer):
                return 0
    ''',
}


@pytest.mark.parametrize(("trace_func", "func", "starts"), [
    ("readinto", "click.parser.LazyFile.readinto", "def readinto(self, buffer):"),
    ("click.parser._OptionParser", "click.parser._OptionParser", "class _OptionParser:"),
    ("click.parser._unpack_args", "click.parser._unpack_args", "def _unpack_args(args, nargs):"),
    ("src.click.parser._unpack_args", "click.parser._unpack_args", "def _unpack_args(args, nargs):"),
    ("_OptionParser.parse_args", "click.parser._OptionParser.parse_args", "def parse_args(self, args):"),
])
def test_each_trace_func_form_shows_its_source_named_as_the_module_imports_it(harness, trace_func, func, starts):
    from tracegate_tracer.prompt.locate import named_definition

    checkout = harness.instance_dir(CHECKOUT, name=f"checkout-{trace_func}")
    context = named_definition("src/click/parser.py", trace_func, [str(checkout)])
    assert context["file"] == "src/click/parser.py"
    assert context["func"] == func
    assert context["source"].lstrip().startswith(starts)


def test_a_trace_func_that_matches_nothing_is_refused_by_name(harness):
    from tracegate_tracer.prompt.locate import TargetNotFound, named_definition

    checkout = harness.instance_dir(CHECKOUT, name="checkout-missing")
    with pytest.raises(TargetNotFound, match=r"src/click/parser.py::nowhere names no function or class there"):
        named_definition("src/click/parser.py", "nowhere", [str(checkout)])
