"""scripts/generate-comet.py's choices: the reference is the killing input whose buggy run is the most complex, the
bugs of each outcome class go most complex first, and callee bugs stay in the target's module, in what the
prompt's slice shows."""

import importlib.util
import os
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="module")
def gen():
    spec = importlib.util.spec_from_file_location("generate_comet", os.path.join(ROOT, "scripts", "generate-comet.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bug(key, outcome, semantic, line=1):
    return {"key": key, "outcome": outcome, "semantic": semantic,
            "mutant": {"file": "p/m.py", "line": line, "original": "a", "replacement": "b"}}


def test_each_class_goes_most_complex_first_timeouts_before_all(gen):
    found = [bug("f", "ok", 0.5), bug("g", "ok", 2.0), bug("h", "crash", 1.0), bug("i", "crash", 3.0),
             bug("j", "timeout", 0.1), bug("k", "ok", 1.0)]
    chosen = gen.choose(found, 5, seed=1)
    assert [b["key"] for b in chosen] == ["j", "i", "g", "h", "k"]


def test_the_reference_is_the_killing_input_with_the_most_complex_buggy_run(gen, tmp_path):
    site = tmp_path / "site"
    (site / "pk").mkdir(parents=True)
    (site / "pk" / "__init__.py").write_text("")
    (site / "pk" / "m.py").write_text(textwrap.dedent('''
        def total(items):
            acc = 0
            for item in items:
                acc += _w(item)
            return acc


        def _w(x):
            return x * 2 if x % 2 else x
        '''))
    pick, score = gen.hardest(str(site), "pk.m", "total", ["[1]", "[1, 2, 3, 4, 5, 6, 7, 8]", "[]", "[9] * 8"],
                              str(tmp_path))
    assert pick == 1 and score > 0  # eight items, both branches of _w; `[9] * 8` is no literal: it never calls
    assert gen.hardest(str(site), "pk.m", "total", ["[2]", "[2]"], str(tmp_path))[0] == 0  # ties: the first


def test_callee_bugs_are_proposed_in_the_functions_the_slice_shows_of_the_targets_module(gen, tmp_path):
    site = tmp_path / "site"
    (site / "pk").mkdir(parents=True)
    (site / "pk" / "__init__.py").write_text("")
    (site / "pk" / "other.py").write_text("def far(x):\n    return x + 1 if x > 0 else x - 1\n")
    (site / "pk" / "m.py").write_text(textwrap.dedent('''
        from pk.other import far


        def total(items):
            acc = 0
            for item in items:
                acc += _w(item) + far(item)
            return acc


        def _w(x):
            return x * 2 if x > 1 else x
        '''))
    found = gen.callee_mutants(str(site), {"file": "pk/m.py", "qualname": "total"}, "1", gen.mutants.KINDS)
    assert found and {m["file"] for m in found} == {"pk/m.py"}
    assert all("in _w, called by total" in m["description"] for m in found)
    lines = (site / "pk" / "m.py").read_text().splitlines()
    assert all(m["original"] in lines[m["line"] - 1] and "def _w" not in lines[m["line"] - 1] for m in found)
