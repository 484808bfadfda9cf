"""The prompt's slice (the result's `context.slice`): the functions of the target's package the target may
reach, found by reading source (callees.py), never by running it, and the target module's preamble.

The slice must not show what ran: a test that takes another path through the target, or one that never runs
at all, gets the same bytes."""

import pytest

from conftest import BACKENDS

PACKAGE = {
    "pkg/__init__.py": "",
    "pkg/helpers.py": '''
        import functools


        def shout(text):
            return text.upper()


        @functools.lru_cache(maxsize=None)
        def pad(text, width):
            # decorated: its source starts at the decorator
            return text.ljust(width)


        def unused():
            return 0


        def outside():
            return 1


        def rare(text):
            return text[::-1]
    ''',
    "pkg/core.py": '''
        """The module docstring is not preamble."""
        import textwrap
        from pkg.helpers import pad, shout
        from pkg import helpers

        WIDTH = 8
        NAMES = ("a", "b")
        registry = dict()
        LIMIT = 3


        def render(name):
            def inner(x):
                return x
            text = textwrap.dedent(inner(name))
            if name == "never":
                return helpers.rare(text)
            return pad(shout(text), WIDTH) + shout(text)


        def later():
            return 2
    ''',
    "test_core.py": '''
        from pkg.core import render
        from pkg.helpers import outside


        def test_render():
            outside()
            assert render("hi") == "HI      HI"
            assert render("yo") == "YO      YO"


        def test_other_path():
            assert render("never") == "reven"


        def test_never_calls_it():
            assert outside() == 1


        def test_broken(:
            pass
    ''',
}


def _slice(harness, backend, files=PACKAGE, file="pkg/core.py", function="render", test="test_core.py",
           status="ok"):
    directory = harness.instance_dir(files, name=f"inst-{backend}-{len(list(harness.root.iterdir()))}")
    spec = {"id": "one", "dir": str(directory), "tests": [test], "kind": "S1_IntraProceduralCFG",
            "target": {"file": file, "function": function}, "query": {"invocation": 1}, "backend": backend,
            "timeout_seconds": 60}
    result = harness.run([spec])["one"]
    assert result["status"] == status, result.get("reason")
    return result["context"]["slice"]


def _files(test_body):
    return dict(PACKAGE, **{"test_core.py": test_body})


RUNS = _files(PACKAGE["test_core.py"].split("\n\n\n        def test_other_path")[0] + "\n")


@pytest.mark.parametrize("backend", BACKENDS)
def test_slice_has_every_callee_in_source_order_with_its_exact_source(harness, backend):
    got = _slice(harness, backend, files=RUNS)
    # `rare` is reachable but never runs in this test; `unused`, `outside` (the test's, not the target's) and
    # `later` are not reachable from the target.
    assert [f["func"] for f in got["functions"]] == ["pkg.helpers.shout", "pkg.helpers.pad", "pkg.helpers.rare"]
    shout, pad, _rare = got["functions"]
    assert shout == {"file": "pkg/helpers.py", "func": "pkg.helpers.shout", "first_line": 4,
                     "source": "def shout(text):\n    return text.upper()\n"}
    assert pad["first_line"] == 8
    assert pad["source"] == ("@functools.lru_cache(maxsize=None)\ndef pad(text, width):\n"
                             "    # decorated: its source starts at the decorator\n    return text.ljust(width)\n")
    assert got["truncated"] is False and got["named"] == [] and got["unresolved"] == []
    assert got["preamble"] == {
        "file": "pkg/core.py",
        "blocks": [
            # consecutive kept statements are one block, blank lines between them included
            {"first_line": 2, "source": 'import textwrap\nfrom pkg.helpers import pad, shout\nfrom pkg import '
                                        'helpers\n\nWIDTH = 8\nNAMES = ("a", "b")\n'},
            {"first_line": 9, "source": "LIMIT = 3\n"},
        ],
        "truncated": False,
    }


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_slice_is_the_same_whatever_ran(harness, backend):
    """Another path through the target, a test that never calls it, a test file that does not even collect:
    the same slice, byte for byte (no trace reaches it)."""
    ran = _slice(harness, backend, files=RUNS)
    other = _slice(harness, backend, files=_files(PACKAGE["test_core.py"]), test="test_core.py::test_other_path",
                   status="invalid")
    never = _slice(harness, backend, files=_files(PACKAGE["test_core.py"]),
                   test="test_core.py::test_never_calls_it", status="invalid")
    assert ran == other == never


def _many(count, lines_each):
    body = "".join(f"    x = {i}\n" for i in range(lines_each - 2))
    helpers = "".join(f"def h{i}():\n{body}    return 1\n\n\n" for i in range(count))
    calls = "".join(f"    h{i}()\n" for i in range(count))
    return {
        "prog.py": helpers + "def target():\n" + calls + "    return 0\n",
        "test_prog.py": "from prog import target\n\n\ndef test_target():\n    assert target() == 0\n",
    }


def test_slice_caps_functions_and_lines_closest_first_and_names_the_rest(harness):
    got = _slice(harness, "settrace", files=_many(15, 3), file="prog.py", function="target", test="test_prog.py")
    assert [f["func"] for f in got["functions"]] == [f"prog.h{i}" for i in range(12)]
    assert got["truncated"] is True and got["named"] == ["prog.h12", "prog.h13", "prog.h14"]
    got = _slice(harness, "settrace", files=_many(5, 150), file="prog.py", function="target", test="test_prog.py")
    assert [f["func"] for f in got["functions"]] == ["prog.h0", "prog.h1"]  # 3 x 150 > 400 lines
    assert got["truncated"] is True and got["named"] == ["prog.h2", "prog.h3", "prog.h4"]
    got = _slice(harness, "settrace", files=_many(2, 3), file="prog.py", function="target", test="test_prog.py")
    assert [f["func"] for f in got["functions"]] == ["prog.h0", "prog.h1"]
    assert got["truncated"] is False and got["named"] == []


CLASSES = {
    "shapes/__init__.py": "",
    "shapes/base.py": '''
        class Shape:
            def __init__(self, name):
                self.name = name

            def describe(self):
                return self.name + ": " + str(self.area())

            def area(self):
                return 0

            @property
            def label(self):
                return self.name.title()
    ''',
    "shapes/square.py": '''
        from .base import Shape


        def helper(value):
            return value * value


        def deeper(value):
            return helper(value)


        class Square(Shape):
            def __init__(self, side):
                super().__init__("square")
                self.side = side

            def area(self):
                return deeper(self.side)

            def summary(self, how):
                handler = getattr(self, "summary_" + how)
                text = self.describe() + self.label
                return handler(text) + how.strip() + self.render(text)

            def render(self, text):
                return getattr(text, "upper")()
    ''',
    "test_shapes.py": '''
        from shapes.square import Square


        def test_summary():
            Square(2).summary(" x")
    ''',
}


def test_methods_resolve_through_self_super_properties_and_bases(harness):
    got = _slice(harness, "settrace", files=CLASSES, file="shapes/square.py", function="Square.summary",
                 test="test_shapes.py", status="invalid")
    # Depth 1: describe (a base's), label (a property), render; depth 2: describe's area (the subclass's own);
    # deeper (depth 3) is not reached. A `getattr` call and a method the function was handed are named.
    assert [f["func"] for f in got["functions"]] == [
        "shapes.base.Shape.describe", "shapes.base.Shape.label", "shapes.square.Square.area",
        "shapes.square.Square.render"]
    assert got["unresolved"] == ["handler(…)"]


def test_a_constructor_call_reaches_init_through_the_bases(harness):
    files = dict(CLASSES, **{"shapes/make.py": "from .square import Square\n\n\ndef make(side):\n"
                                               "    return Square(side)\n"})
    got = _slice(harness, "settrace", files=files, file="shapes/make.py", function="make", test="test_shapes.py",
                 status="invalid")
    assert [f["func"] for f in got["functions"]] == ["shapes.base.Shape.__init__", "shapes.square.Square.__init__"]
