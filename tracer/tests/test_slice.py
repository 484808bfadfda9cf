"""The prompt's slice (the result's `context.slice`): the functions of the
target's package that ran under an invocation, and the target module's preamble."""

import sys

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
    ''',
    "pkg/core.py": '''
        """The module docstring is not preamble."""
        import textwrap
        from pkg.helpers import pad, shout

        WIDTH = 8
        NAMES = ("a", "b")
        registry = dict()
        LIMIT = 3


        def render(name):
            def inner(x):
                return x
            text = textwrap.dedent(inner(name))
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
    ''',
}


def _slice(harness, backend, files=PACKAGE, file="pkg/core.py", function="render", test="test_core.py"):
    directory = harness.instance_dir(files, name=f"inst-{backend}-{len(list(harness.root.iterdir()))}")
    spec = {"id": "one", "dir": str(directory), "tests": [test], "kind": "S1_IntraProceduralCFG",
            "target": {"file": file, "function": function}, "query": {"invocation": 1}, "backend": backend,
            "timeout_seconds": 60}
    result = harness.run([spec])["one"]
    assert result["status"] == "ok", result.get("reason")
    return result["context"]["slice"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_slice_has_the_package_helpers_in_order_with_their_exact_sources(harness, backend):
    got = _slice(harness, backend)
    assert [f["func"] for f in got["functions"]] == ["pkg.helpers.shout", "pkg.helpers.pad"]
    shout, pad = got["functions"]
    assert shout == {"file": "pkg/helpers.py", "func": "pkg.helpers.shout", "first_line": 4,
                     "source": "def shout(text):\n    return text.upper()\n"}
    assert pad["first_line"] == 8
    assert pad["source"] == ("@functools.lru_cache(maxsize=None)\ndef pad(text, width):\n"
                             "    # decorated: its source starts at the decorator\n    return text.ljust(width)\n")
    assert got["truncated"] is False
    assert got["preamble"] == {
        "file": "pkg/core.py",
        "blocks": [
            # consecutive kept statements are one block, blank lines between them included
            {"first_line": 2,
             "source": 'import textwrap\nfrom pkg.helpers import pad, shout\n\nWIDTH = 8\nNAMES = ("a", "b")\n'},
            {"first_line": 8, "source": "LIMIT = 3\n"},
        ],
        "truncated": False,
    }


def _many(count, lines_each):
    body = "".join(f"    x = {i}\n" for i in range(lines_each - 2))
    helpers = "".join(f"def h{i}():\n{body}    return 1\n\n\n" for i in range(count))
    calls = "".join(f"    h{i}()\n" for i in range(count))
    return {
        "prog.py": helpers + "def target():\n" + calls + "    return 0\n",
        "test_prog.py": "from prog import target\n\n\ndef test_target():\n    assert target() == 0\n",
    }


@pytest.mark.parametrize("backend", BACKENDS)
def test_slice_caps_functions_and_lines_deterministically(harness, backend):
    got = _slice(harness, backend, files=_many(15, 3), file="prog.py", function="target", test="test_prog.py")
    assert [f["func"] for f in got["functions"]] == [f"prog.h{i}" for i in range(12)]
    assert got["truncated"] is True
    got = _slice(harness, backend, files=_many(5, 150), file="prog.py", function="target", test="test_prog.py")
    assert [f["func"] for f in got["functions"]] == ["prog.h0", "prog.h1"]  # 3 x 150 > 400 lines
    assert got["truncated"] is True
    got = _slice(harness, backend, files=_many(2, 3), file="prog.py", function="target", test="test_prog.py")
    assert [f["func"] for f in got["functions"]] == ["prog.h0", "prog.h1"]
    assert got["truncated"] is False


@pytest.mark.skipif(sys.version_info < (3, 12), reason="sys.monitoring needs Python 3.12+")
def test_backends_write_the_same_slice(harness):
    assert _slice(harness, "settrace") == _slice(harness, "monitoring")
