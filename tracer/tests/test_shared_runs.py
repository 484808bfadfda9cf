"""One test run records every target its specs name (a recorder per target
behind one set of hooks): each recorder must write the trace it would write
alone, byte for byte, and every answer must be the one a run of its own
gives.

The catalog's programs are run twice from the same files, once with
`share_runs` off (one run per target) and once on; beside each program's own
cases, every function of its prog.py gets decoy specs that make a second,
third… recorder in the same run ask for what costs most: lines with locals
(S3/M3), calls (M6) and name tracking (M4), so targets that call each other
are recorded side by side.
"""

import ast
import re

import pytest

from conftest import BACKENDS, catalog_specs, parse_results, run_plan


def _functions(source):
    """(qualname, parameter names) of every def in a module, nested ones included."""
    found = []

    def walk(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                qualname = prefix + child.name
                params = [a.arg for a in child.args.posonlyargs + child.args.args + child.args.kwonlyargs]
                found.append((qualname, [p for p in params if p != "self"]))
                walk(child, qualname + ".<locals>.")
            elif isinstance(child, ast.ClassDef):
                walk(child, prefix + child.name + ".")

    walk(ast.parse(source), "")
    return found


def _decoys(specs):
    """Specs over every function of each program's prog.py, with the costly recording needs."""
    decoys, seen = [], set()
    for spec in specs:
        if spec["dir"] in seen:
            continue
        seen.add(spec["dir"])
        with open(f"{spec['dir']}/prog.py", encoding="utf-8") as handle:
            functions = _functions(handle.read())
        for qualname, params in functions:
            base = {"dir": spec["dir"], "tests": spec["tests"], "target": {"file": "prog.py", "function": qualname},
                    "timeout_seconds": 60}
            ident = f"decoy:{spec['dir']}:{qualname}"
            decoys.append(dict(base, id=ident + ":M1", kind="M1_IntraProceduralCFG", query={}))
            decoys.append(dict(base, id=ident + ":M6", kind="M6_InterProceduralCFG",
                               query={"mode": "covered", "include": ["prog."]}))
            if params:
                decoys.append(dict(base, id=ident + ":M4", kind="M4_DataFlow",
                                   query={"mode": "counts", "variables": params}))
                decoys.append(dict(base, id=ident + ":M3", kind="M3_ProgramState",
                                   query={"mode": "extremes", "variable": params[0]}))
    return decoys


def _trace(root, result):
    """The trace's bytes, with object addresses (`<… at 0x7f…>`, which differ between any two runs) blanked."""
    path = root / "work" / f"g{result['stats']['group']}" / result["stats"]["trace"]
    return re.sub(rb" at 0x[0-9a-f]+", b" at 0x?", path.read_bytes())


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_shared_run_gives_every_recorder_the_trace_and_answers_of_a_run_of_its_own(tmp_path, backend):
    specs = catalog_specs(tmp_path / "programs")
    decoys = _decoys(specs)
    several = {d["dir"] for d in decoys if d["target"]["function"] not in {s["target"]["function"] for s in specs
                                                                            if s["dir"] == d["dir"]}}
    # The programs where a run records more than one target (the others would only repeat test_catalog).
    specs = [dict(spec, backend=backend) for spec in specs + decoys if spec["dir"] in several]
    runs = {}
    for share in (False, True):
        root = tmp_path / f"share-{share}"
        root.mkdir()
        done = run_plan(root, specs, timeout=900, keep_traces=True, share_runs=share)
        assert done.returncode == 0, done.stderr
        runs[share] = (root, {r["id"]: r for r in parse_results(done.stdout)})
    (alone_root, alone), (shared_root, shared) = runs[False], runs[True]
    assert alone.keys() == shared.keys() == {spec["id"] for spec in specs}

    # Sharing happened: far fewer runs, and runs that recorded several targets.
    groups_alone = {r["stats"]["group"] for r in alone.values()}
    groups_shared = {r["stats"]["group"] for r in shared.values()}
    assert len(groups_shared) < len(groups_alone)
    traces_per_group = {}
    for result in shared.values():
        if "trace" in result["stats"]:
            traces_per_group.setdefault(result["stats"]["group"], set()).add(result["stats"]["trace"])
    assert max(len(names) for names in traces_per_group.values()) >= 4

    compared = 0
    for ident in sorted(alone):
        a, b = alone[ident], shared[ident]
        assert (a["status"], a.get("answer"), a.get("reason")) == (b["status"], b.get("answer"), b.get("reason")), ident
        assert a.get("context") == b.get("context"), ident
        if a["status"] == "ok":
            assert _trace(alone_root, a) == _trace(shared_root, b), ident
            compared += 1
    # The decoys are real recordings, not all refused.
    assert compared > len(specs) // 2
    assert sum(1 for ident in alone if ident.startswith("decoy:") and alone[ident]["status"] == "ok") > 30


def test_share_runs_must_be_a_boolean(tmp_path):
    done = run_plan(tmp_path, [], share_runs="yes")
    assert done.returncode == 2
    assert "share_runs must be true or false" in done.stderr


def test_tracing_starts_when_pytest_loads_the_plugin_unless_a_target_module_was_imported_before(tmp_path):
    """The hooks go in at our plugin's import (pytest's start-up untraced); a module imported earlier (here by
    `-p prog` in the ini, loaded before PYTEST_PLUGINS) may have run untraced, so that run is redone from the
    interpreter's start, and the invocation prog's import made is in the answer."""
    prog = "def f(n):\n    return n + 1\n\nf(41)\n"
    test = "from prog import f\n\ndef test_f():\n    assert f(1) == 2\n"
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "prog.py").write_text(prog)
    (plain / "test_prog.py").write_text(test)
    early = tmp_path / "early"
    early.mkdir()
    (early / "prog.py").write_text(prog)
    (early / "test_prog.py").write_text(test)
    (early / "pytest.ini").write_text("[pytest]\naddopts = -p prog\n")
    specs = [{"id": name, "dir": str(d), "tests": ["test_prog.py"], "kind": "S3_ProgramState",
              "target": {"file": "prog.py", "function": "f"}, "query": {"mode": "history", "invocation": 1,
                                                                       "variable": "n"}, "timeout_seconds": 60}
             for name, d in (("plain", plain), ("early", early))]
    done = run_plan(tmp_path, specs, timeout=300)
    assert done.returncode == 0, done.stderr
    results = {r["id"]: r for r in parse_results(done.stdout)}
    assert "traced_from_start" not in results["plain"]["stats"]
    # Invocation 1 is the call prog's own import makes: at collection (traced) in the plain run; in the early one
    # before our plugin loaded, so only the run redone from the interpreter's start sees it (else it would be f(1)).
    assert results["plain"]["answer"] == {"value_history": [{"step": 1, "value": "41"}]}
    assert results["early"]["stats"]["traced_from_start"] is True
    assert results["early"]["answer"] == {"value_history": [{"step": 1, "value": "41"}]}
