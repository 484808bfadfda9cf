"""A package installed in place by an import hook, as an editable install does it: a finder loaded by a `.pth`
file maps the package to `<repo>/src/editpkg`, and nothing of the repository is on sys.path. The target is found
through the import system, and with the repository named (`repo_root`) the `file` fields of its code are
repository-relative (`src/editpkg/util.py`), as SWE-Flux names them."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from conftest import HARVEST, parse_results, plan_of

FINDER = '''
import importlib.util
import sys

ROOT = {root!r}


class EditableFinder:
    """What an editable install's finder does: the package's name mapped to its directory in the checkout."""

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name != "editpkg":
            return None
        return importlib.util.spec_from_file_location(
            name, ROOT + "/editpkg/__init__.py", submodule_search_locations=[ROOT + "/editpkg"])


sys.meta_path.append(EditableFinder)
'''


@pytest.fixture(scope="module")
def editable(tmp_path_factory):
    """(python, repo, instance dir): an interpreter whose site-packages hold the hook (and a path line to this
    interpreter's own site-packages, for pytest), the checkout, and an instance whose test imports editpkg."""
    root = tmp_path_factory.mktemp("editable")
    repo = root / "repo"
    package = repo / "src" / "editpkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "util.py").write_text("def double(x):\n    return x * 2\n")
    (package / "mod.py").write_text(textwrap.dedent('''
        from .util import double


        def work(n):
            total = 0
            for i in range(n):
                total += double(i)
            return total
        ''').lstrip())
    env = root / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    python = str(env / "bin" / "python")
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    ours = [p for p in sys.path if p.endswith(("site-packages", "dist-packages")) and os.path.isdir(p)]
    with open(os.path.join(site, "base.pth"), "w") as handle:
        handle.write("".join(p + "\n" for p in ours))
    with open(os.path.join(site, "_editpkg_finder.py"), "w") as handle:
        handle.write(FINDER.format(root=str(repo / "src")))
    with open(os.path.join(site, "__editable__editpkg.pth"), "w") as handle:
        handle.write("import _editpkg_finder\n")
    instance = root / "inst"
    instance.mkdir()
    (instance / "test_edit.py").write_text(
        "from editpkg.mod import work\n\n\ndef test_it():\n    assert work(3) == 6\n")
    return python, repo, instance


def run(python, root, specs):
    root.mkdir()
    plan = root / "plan.json"
    plan.write_text(json.dumps(plan_of(root, specs)))
    done = subprocess.run([python, HARVEST, str(plan)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return {r["id"]: r for r in parse_results(done.stdout)}


def spec(ident, instance, file, query, kind="S6_InterProceduralCFG", **extra):
    return dict({"id": ident, "dir": str(instance), "tests": ["test_edit.py"], "kind": kind,
                 "target": {"file": file, "function": "work"}, "query": query, "timeout_seconds": 60}, **extra)


def test_the_hook_puts_nothing_on_sys_path(editable):
    python, repo, _ = editable
    path = subprocess.run([python, "-c", "import sys, editpkg; print(sys.path); print(editpkg.__file__)"],
                          check=True, capture_output=True, text=True).stdout.splitlines()
    assert str(repo) not in path[0]
    assert path[1] == str(repo / "src" / "editpkg" / "__init__.py")


def test_targets_found_through_the_import_system_and_named_from_the_repository(editable, tmp_path):
    python, repo, instance = editable
    order = {"invocation": 1, "include": ["editpkg."]}
    # One plan per environment: the checkout is the environment's, so every spec of a plan names the same one.
    results = run(python, tmp_path / "a", [
        spec("named", instance, "editpkg/mod.py", order, repo_root=str(repo)),
        spec("repo-relative", instance, "src/editpkg/mod.py", {"mode": "covered"}, kind="M1_IntraProceduralCFG",
             repo_root=str(repo)),
    ])
    results.update(run(python, tmp_path / "b", [
        spec("absolute", instance, "editpkg/mod.py", order),
        spec("lines", instance, "editpkg/mod.py", {"mode": "covered"}, kind="M1_IntraProceduralCFG"),
    ]))
    for result in results.values():
        assert result["status"] == "ok", result.get("reason")
    calls = [{"file": "src/editpkg/util.py", "func": "editpkg.util.double"}] * 3
    assert results["named"]["answer"] == {"function_call_order": calls}
    # Without the repository named: the path as the interpreter has it (what tracegate reported before).
    util = str(repo / "src" / "editpkg" / "util.py")
    assert results["absolute"]["answer"] == {"function_call_order": [dict(c, file=util) for c in calls]}
    # The target given relative to the repository is the same function.
    assert results["repo-relative"]["answer"] == results["lines"]["answer"] == {"covered_lines": [5, 6, 7, 8]}
